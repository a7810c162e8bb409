/** Several live sessions (issue 28): each with its agent and status, switching from the mirror,
 *  the waiting count, what each session keeps while another is in front, who made a change. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { decorationSpecs, lensSpecs } from "../src/core/lenses";
import { emptySnapshot } from "../src/core/reducer";
import { SessionMemory } from "../src/core/sessionMemory";
import {
  NEW_SESSION,
  backgroundQuestion,
  inBackground,
  reviewAuthors,
  sessionPickItem,
  sessionStatus,
  sessionTabs,
  sessionTitle,
  waitingSessions,
} from "../src/core/sessions";
import { statusItem } from "../src/core/statusItem";
import { Store, type StoreEvent } from "../src/core/store";
import { buildExtras } from "../src/core/viewModel";
import { renderSessions } from "../src/webview/render";
import type { AgentStatus, RequestPermissionParams, ReviewHunk, SessionSnapshot } from "../src/wire";

const status = (agent: string, title: string, state: AgentStatus["state"] = "ready"): AgentStatus => ({
  agent,
  state,
  command: [agent],
  agentInfo: { name: agent, title },
});

function session(sessionId: string, agent: string, prompt?: string): SessionSnapshot {
  const s = { ...emptySnapshot(sessionId, 1), agent };
  if (prompt !== undefined) {
    s.entries.push({ kind: "message", role: "user", messageId: null, content: [{ type: "text", text: prompt }] });
  }
  return s;
}

/** A Claude session in front and a Codex session behind it. */
function twoAgents(): { store: Store; events: StoreEvent[] } {
  const store = new Store();
  store.loadSnapshot({
    agent: status("claude", "Claude Code"),
    agents: [
      { id: "claude", command: ["claude"], default: true, status: status("claude", "Claude Code") },
      { id: "codex", command: ["codex"], default: false, status: status("codex", "Codex") },
    ],
    sessions: [session("s1", "claude", "Fix the failing test\nin parser.py"), session("s2", "codex")],
    currentSessionId: "s1",
    follow: true,
    terminals: [],
    review: [],
    reviewGroups: [],
  });
  const events: StoreEvent[] = [];
  store.subscribe((e) => events.push(e));
  return { store, events };
}

const permission = (sessionId: string): RequestPermissionParams => ({
  requestId: "r1",
  sessionId,
  toolCall: { toolCallId: "c1", title: "Edit a.py", kind: "edit" },
  options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }],
  diffs: [],
});

test("every session is listed with its title, its agent and its status; the one in front is marked", () => {
  const { store } = twoAgents();
  assert.deepEqual(sessionTabs(store), [
    {
      sessionId: "s1",
      title: "Fix the failing test",
      agent: "claude",
      agentName: "Claude Code",
      status: "idle",
      waiting: 0,
      current: true,
      worktree: null,
      discarded: false,
      children: [],
    },
    {
      sessionId: "s2",
      title: NEW_SESSION,
      agent: "codex",
      agentName: "Codex",
      status: "idle",
      waiting: 0,
      current: false,
      worktree: null,
      discarded: false,
      children: [],
    },
  ]);
});

test("a session's title: the agent's own, else its first prompt's first line, shortened", () => {
  assert.equal(sessionTitle(null), NEW_SESSION);
  assert.equal(sessionTitle(session("s", "a", "\n  hello there  \nmore")), "hello there");
  const long = sessionTitle(session("s", "a", "x".repeat(100)));
  assert.equal(long.length, 40);
  assert.ok(long.endsWith("…"));
  assert.equal(sessionTitle({ ...session("s", "a", "first"), info: { title: "Agent's title" } }), "Agent's title");
  // What was typed, not what was attached; with nothing typed, a file's name, never its URI.
  const attached = session("s", "a", "explain");
  const link = { type: "resource_link", uri: "file:///w/src/hello%20x.py", name: "hello x.py" };
  const problems = { type: "text", text: "Problems the editor reports in hello x.py:" };
  (attached.entries[0] as { content: unknown[] }).content.push(link, problems);
  assert.equal(sessionTitle(attached), "explain");
  const bare = session("s", "a", "");
  (bare.entries[0] as { content: unknown[] }).content.push(problems, link);
  assert.equal(sessionTitle(bare), "hello x.py");
});

test("status per session: a question of its own makes it wait, a turn makes it run, the rest is idle", () => {
  const { store } = twoAgents();
  store.setBusy("s1", true);
  store.addPermission({ id: "permission-1", params: permission("s2") });
  assert.equal(sessionStatus(store, "s1"), "running");
  assert.equal(sessionStatus(store, "s2"), "waiting");
  assert.equal(store.waiting("s1"), 0);
  assert.equal(store.waiting("s2"), 1);
  assert.equal(waitingSessions(store), 1);
  // A form asked in the front session: both wait now.
  store.setQuestion("elicit-e1", true, "s1");
  assert.equal(sessionStatus(store, "s1"), "waiting");
  assert.equal(waitingSessions(store), 2);
  store.setQuestion("elicit-e1", false);
  store.removePermission("permission-1");
  store.setBusy("s1", false, "end_turn");
  assert.deepEqual(
    sessionTabs(store).map((t) => t.status),
    ["idle", "idle"],
  );
});

test("status per session from the sidecar's runState (v1 too): running, requires_action; a dead agent stops its sessions", () => {
  const { store } = twoAgents();
  store.sessionChanged({
    agent: "",
    sessionId: "s2",
    changes: [{ type: "run_state", runState: { state: "running" } }],
  });
  assert.equal(sessionStatus(store, "s2"), "running");
  store.sessionChanged({
    agent: "",
    sessionId: "s2",
    changes: [{ type: "run_state", runState: { state: "requires_action" } }],
  });
  assert.equal(sessionStatus(store, "s2"), "waiting");
  store.setAgent(status("codex", "Codex", "failed"));
  assert.equal(sessionStatus(store, "s2"), "stopped");
  assert.equal(sessionStatus(store, "s1"), "idle");
});

test("agent statuses are kept per agent; the front session's agent is the one `agent` shows", () => {
  const { store } = twoAgents();
  store.setAgent(status("codex", "Codex", "starting"));
  assert.equal(store.agent?.agent, "claude", "a background agent's status took the front");
  assert.equal(store.agents.get("codex")?.state, "starting");
  assert.equal(store.agentNameOf("s2"), "Codex");
  assert.ok(store.select("s2"));
  assert.equal(store.agent?.agent, "codex");
  assert.equal(store.agent?.state, "starting");
  store.setAgent(status("codex", "Codex"));
  assert.equal(store.agent?.state, "ready");
});

test("switching redraws from the mirror at once: one reset, the other session in front, nothing lost", () => {
  const { store, events } = twoAgents();
  store.sessionChanged({
    agent: "",
    sessionId: "s2",
    changes: [
      {
        type: "entry",
        index: 0,
        entry: { kind: "message", role: "agent", messageId: null, content: [{ type: "text", text: "behind" }] },
      },
    ],
  });
  events.length = 0;
  assert.ok(store.select("s2"));
  assert.deepEqual(events, [{ kind: "reset" }]);
  assert.equal(store.current()?.sessionId, "s2");
  assert.equal(store.current()?.entries.length, 1, "a change that came while it was behind is drawn");
  assert.equal(store.sessions.get("s1")?.entries.length, 1, "the session that left is kept whole");
  assert.ok(store.select("s2"), "the one in front again: no redraw");
  assert.equal(events.length, 1);
  assert.equal(store.select("nope"), false);
  assert.equal(store.currentSessionId, "s2");
});

test("the chat's extras: the strip's sessions, and the front session's questions and stop reason only", () => {
  const { store } = twoAgents();
  store.addPermission({ id: "permission-1", params: permission("s2") });
  store.setBusy("s2", true);
  store.setBusy("s2", false, "cancelled");
  const front = buildExtras(store, []);
  assert.deepEqual(front.permissions, []);
  assert.equal(front.stopReason, null);
  assert.deepEqual(
    front.sessions.map((t) => [t.sessionId, t.status, t.current]),
    [
      ["s1", "idle", true],
      ["s2", "waiting", false],
    ],
  );
  store.select("s2");
  const behind = buildExtras(store, []);
  assert.equal(behind.permissions.length, 1);
  assert.equal(behind.stopReason, "cancelled");
});

test("a question is in the background when another live session is in front", () => {
  const { store } = twoAgents();
  assert.equal(inBackground(store, "s2"), true);
  assert.equal(inBackground(store, "s1"), false);
  assert.equal(inBackground(store, "gone"), false);
  assert.equal(inBackground(store, undefined), false);
  assert.match(
    backgroundQuestion("codex wants to edit: Edit a.py", "New session"),
    /^codex wants to edit: Edit a\.py — in session "New session", not in front: answer it in that session's chat\.$/,
  );
});

test("the status bar counts the sessions waiting for you while several are open", () => {
  const base = { agent: status("claude", "Claude"), problem: null, busy: false, session: null, agentName: "Claude" };
  const one = statusItem({ ...base, waiting: 1, sessions: 1, waitingSessions: ["claude · a"] });
  assert.equal(one.text, "$(bell-dot) ACP: waiting for you", "one session: nothing to count");
  const two = statusItem({ ...base, waiting: 0, sessions: 3, waitingSessions: ["codex · b", "claude · c"] });
  assert.equal(two.text, "$(comment-discussion) ACP: idle · $(bell-dot) 2 waiting");
  assert.equal(two.background, "statusBarItem.warningBackground");
  assert.match(two.tooltip, /2 sessions waiting for you: codex · b; claude · c/);
  const front = statusItem({ ...base, waiting: 1, sessions: 3, waitingSessions: ["claude · c"] });
  assert.equal(front.text, "$(bell-dot) ACP: waiting for you", "only the front one waits: said already");
  const both = statusItem({ ...base, waiting: 1, sessions: 3, waitingSessions: ["claude · c", "codex · b"] });
  assert.equal(both.text, "$(bell-dot) ACP: waiting for you · $(bell-dot) 2 waiting");
  const none = statusItem({ ...base, waiting: 0, sessions: 3, waitingSessions: [] });
  assert.equal(none.text, "$(comment-discussion) ACP: idle");
});

test("the quick pick and the strip say each session's title, agent and status", () => {
  const { store } = twoAgents();
  store.addPermission({ id: "permission-1", params: permission("s2") });
  const [first, second] = sessionTabs(store);
  assert.deepEqual(sessionPickItem(second!), {
    label: "$(bell-dot) New session",
    description: "codex · waiting for you",
    detail: "s2",
  });
  assert.match(sessionPickItem(first!).description, /^claude · idle · in front$/);
  const html = renderSessions(sessionTabs(store));
  assert.match(html, /class="session st-idle current" data-act="selectSession" data-session="s1"/);
  assert.match(html, /Fix the failing test<\/span><span class="session-meta">claude · idle/);
  assert.match(html, /data-session="s2"[^>]*aria-pressed="false">.*codex · waiting for you/);
  assert.equal(renderSessions(sessionTabs(store).slice(0, 1)), "", "one session: no strip");
  const evil = renderSessions([{ ...first!, title: "<img src=x>" }, second!]);
  assert.doesNotMatch(evil, /<img/);
});

test("switching keeps each session's prompt draft and scroll position, and gives them back", () => {
  const memory = new SessionMemory<{ draft: string; scrollTop: number }>();
  let screen = { draft: "", scrollTop: 0 };
  const show = (id: string | null): void => {
    const { switched, restored } = memory.switchTo(id, () => screen);
    if (switched) screen = restored ?? { draft: "", scrollTop: 0 };
  };
  show("s1");
  screen = { draft: "half a question for claude", scrollTop: 120 };
  show("s1"); // a redraw of the same session: nothing moves
  assert.deepEqual(screen, { draft: "half a question for claude", scrollTop: 120 });
  show("s2");
  assert.deepEqual(screen, { draft: "", scrollTop: 0 }, "a session never shown starts empty");
  screen = { draft: "for codex", scrollTop: 7 };
  show("s1");
  assert.deepEqual(screen, { draft: "half a question for claude", scrollTop: 120 });
  show("s2");
  assert.deepEqual(screen, { draft: "for codex", scrollTop: 7 });
  memory.keepOnly(["s2"]);
  assert.equal(memory.peek("s1"), undefined, "a closed session's draft is forgotten");
});

test("a prompt written before any session goes with the session it created", () => {
  const memory = new SessionMemory<string>();
  assert.deepEqual(
    memory.switchTo(null, () => "typed"),
    { switched: false },
  );
  assert.deepEqual(
    memory.switchTo("s1", () => "typed"),
    { switched: false },
  );
  assert.deepEqual(
    memory.switchTo(null, () => "left in s1"),
    { switched: true },
  );
  assert.equal(memory.peek("s1"), "left in s1");
});

test("review names who made a change while several sessions are open: lens and hover", () => {
  const { store } = twoAgents();
  const h: ReviewHunk = {
    hunkId: "h1",
    sessionId: "s2",
    toolCallId: "c1",
    uri: "file:///w/a.py",
    path: "/w/a.py",
    state: "pending",
    applied: true,
    oldLines: ["a"],
    newLines: ["b"],
    range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } },
  };
  const author = (id: string, sessions?: readonly string[]) => reviewAuthors(store, id, sessions);
  const titles = lensSpecs(h.uri, [h], [], "b\n", [], author).map((s) => s.title);
  assert.deepEqual(titles, ["codex: ✓ Accept hunk +1 −1", "✗ Reject hunk", "Show diff"]);
  const hover = decorationSpecs(h.uri, [h], [], "b\n", author).added[0]?.hover ?? "";
  assert.match(hover, /^By codex in session "New session"\./);
  // One session open: nobody to mistake it for, the lenses stay as they were.
  store.removeSession("s1");
  assert.deepEqual(
    lensSpecs(h.uri, [h], [], "b\n", [], author).map((s) => s.title),
    ["✓ Accept hunk +1 −1", "✗ Reject hunk", "Show diff"],
  );
});
