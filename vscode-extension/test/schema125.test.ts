/** What ACP schema 1.25 added, as the extension shows it (issue 34): notices, compactions,
 *  messages between sessions, subagents under the tool call that started them (their state,
 *  Cancel, their questions and marks named), plans by id, boolean options as toggles, the turn's
 *  end with its tokens and error, a tool call's name for an empty title, and signing in. */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { followLabel } from "../src/core/follow";
import { toolTitle } from "../src/core/format";
import { configChoices } from "../src/core/modes";
import { applyChanges, emptySnapshot } from "../src/core/reducer";
import { chatOf, inBackground, sessionPickItem, sessionTabs, childPickItem } from "../src/core/sessions";
import {
  authMethodItem,
  authWords,
  commandLineIn,
  exitCodeOf,
  isSignInFailure,
  signInFailureMessage,
  signInTerminalName,
} from "../src/core/signIn";
import { statusItem } from "../src/core/statusItem";
import { Store } from "../src/core/store";
import {
  canCancelSubagent,
  descendantsOf,
  rootOf,
  subagentName,
  subagentStatus,
  subagentsUnder,
  turnEnd,
  turnTokens,
  unplacedSubagents,
} from "../src/core/subagents";
import { buildExtras } from "../src/core/viewModel";
import {
  renderEntry,
  renderNotice,
  renderOnePlan,
  renderPickers,
  renderPlans,
  renderSessions,
  renderStatus,
  renderSubagent,
  renderTurnEnd,
  type RenderContext,
} from "../src/webview/render";
import type { Entry, RequestPermissionParams, SessionSnapshot, Subagent } from "../src/wire";
import { REPO, viewExtras as extras } from "./helpers";

const text = (t: string): { type: string; text: string } => ({ type: "text", text: t });

/** A parent "p" whose tool call "task" started the child "c" (described on the parent), and the
 *  child's own session: a message from the parent, a read, an edit. */
function family(state: Subagent["state"] = { state: "running" }): { parent: SessionSnapshot; child: SessionSnapshot } {
  const parent: SessionSnapshot = { ...emptySnapshot("p", 1), agent: "claude" };
  applyChanges(parent, [
    { type: "entry", index: 0, entry: { kind: "message", role: "user", messageId: null, content: [text("explore")] } },
    { type: "tool_call", toolCallId: "task", set: { title: "", name: "Task", kind: "think" }, unset: [] },
    { type: "entry", index: 1, entry: { kind: "toolCall", toolCallId: "task" } },
    {
      type: "subagents",
      subagents: {
        c: {
          sessionId: "c",
          toolCallId: "task",
          title: "Explore hello.py",
          description: "Reads it",
          state,
          capabilities: { cancel: {} },
        },
      },
    },
  ]);
  const child: SessionSnapshot = { ...emptySnapshot("c", 1), agent: "claude", parentSessionId: "p" };
  applyChanges(child, [
    {
      type: "entry",
      index: 0,
      entry: {
        kind: "message",
        role: "session",
        messageId: "m1",
        content: [text("Explore hello.py")],
        senderSessionId: "p",
        recipientSessionId: "c",
      },
    },
    {
      type: "tool_call",
      toolCallId: "read",
      set: { title: "Read hello.py", kind: "read", status: "completed" },
      unset: [],
    },
    { type: "entry", index: 1, entry: { kind: "toolCall", toolCallId: "read" } },
    {
      type: "tool_call",
      toolCallId: "edit",
      set: { title: "Edit hello.py", kind: "edit", status: "pending" },
      unset: [],
    },
    { type: "entry", index: 2, entry: { kind: "toolCall", toolCallId: "edit" } },
  ]);
  return { parent, child };
}

function storeOf(...sessions: SessionSnapshot[]): Store {
  const store = new Store();
  store.loadSnapshot({
    agent: { agent: "claude", state: "ready", command: ["claude"], agentInfo: { title: "Claude Code" } },
    agents: [],
    sessions,
    currentSessionId: sessions[0]?.sessionId ?? null,
    follow: true,
    terminals: [],
    review: [],
    reviewGroups: [],
  });
  return store;
}

const childAsks = (): RequestPermissionParams => ({
  requestId: "r1",
  sessionId: "c",
  toolCall: { toolCallId: "edit", title: "Edit hello.py", kind: "edit" },
  options: [
    { optionId: "ok", name: "Allow", kind: "allow_once" },
    { optionId: "no", name: "Reject", kind: "reject_once" },
  ],
  diffs: [],
  subagent: { parentSessionId: "p", title: "Explore hello.py" },
});

// -- subagents ---------------------------------------------------------------------------------

test("a subagent's state: running, waiting for you, idle with its stop reason and tokens, failed with the error's message, cancelled", () => {
  const sub = (state: Subagent["state"]): Subagent => ({ sessionId: "c", state });
  assert.deepEqual(subagentStatus(sub({ state: "running" }), null, false), { status: "running", words: "running" });
  assert.deepEqual(subagentStatus(sub({ state: "running" }), null, true), {
    status: "waiting",
    words: "waiting for you",
  });
  assert.equal(subagentStatus(sub({ state: "requires_action" }), null, false).status, "waiting");
  assert.deepEqual(
    subagentStatus(
      sub({ state: "idle", stopReason: "end_turn", usage: { totalTokens: 912, inputTokens: 900, outputTokens: 12 } }),
      null,
      false,
    ),
    { status: "idle", words: "idle (end turn) · 912 tokens (900 in · 12 out)" },
  );
  assert.deepEqual(
    subagentStatus(
      sub({ state: "idle", stopReason: "error", error: { code: -32603, message: "The model stopped" } }),
      null,
      false,
    ),
    { status: "failed", words: "failed: The model stopped" },
  );
  assert.equal(subagentStatus(sub({ state: "idle", stopReason: "cancelled" }), null, false).words, "cancelled");
  // No state from the parent's agent yet: the child's own run state says it.
  assert.equal(subagentStatus({ sessionId: "c" }, { state: "running" }, false).status, "running");
  assert.equal(subagentStatus({ sessionId: "c" }, null, false).words, "unknown");
});

test("Cancel only for a subagent that advertises it and still works", () => {
  const can = { sessionId: "c", capabilities: { cancel: {} } };
  assert.equal(canCancelSubagent(can, "running"), true);
  assert.equal(canCancelSubagent(can, "waiting"), true);
  assert.equal(canCancelSubagent(can, "idle"), false);
  assert.equal(canCancelSubagent({ sessionId: "c" }, "running"), false);
  assert.equal(canCancelSubagent({ sessionId: "c", capabilities: { cancel: null } }, "running"), false);
});

test("children under the tool call that started them, the others unplaced; lines of sessions", () => {
  const { parent, child } = family();
  assert.deepEqual(
    subagentsUnder(parent, "task").map((s) => s.title),
    ["Explore hello.py"],
  );
  assert.deepEqual(unplacedSubagents(parent), []);
  const loose = { ...parent, subagents: { x: { sessionId: "x" } } };
  assert.deepEqual(
    unplacedSubagents(loose).map((s) => s.sessionId),
    ["x"],
  );
  const grandchild = { ...emptySnapshot("g", 1), parentSessionId: "c" };
  const all = new Map([parent, child, grandchild].map((s) => [s.sessionId, s]));
  assert.equal(
    rootOf((id) => all.get(id), "g"),
    "p",
  );
  assert.equal(
    rootOf((id) => all.get(id), "p"),
    "p",
  );
  assert.deepEqual(descendantsOf(all.values(), "p"), ["c", "g"]);
  // A loop (never sent, but never hung on either).
  const loop = new Map([
    ["a", { ...emptySnapshot("a", 1), parentSessionId: "b" }],
    ["b", { ...emptySnapshot("b", 1), parentSessionId: "a" }],
  ]);
  assert.ok(["a", "b"].includes(rootOf((id) => loop.get(id), "a")));
  assert.equal(subagentName("Explore"), "Subagent “Explore”");
  assert.equal(subagentName(""), "A subagent");
});

test("the store: a child learns its parent from a notification, shares its place in front, and its questions are its parent's", () => {
  const { parent, child } = family();
  const other = { ...emptySnapshot("o", 1), agent: "codex" };
  const bare = { ...child };
  delete bare.parentSessionId;
  const store = storeOf(parent, other, bare);
  assert.equal(store.parentOf("c"), null);
  assert.ok(store.sessionChanged({ agent: "", sessionId: "c", parentSessionId: "p", changes: [] }));
  assert.equal(store.parentOf("c"), "p");
  assert.equal(store.rootOf("c"), "p");
  assert.deepEqual([...store.family("p")], ["p", "c"]);
  // Not a session of its own in the strip: under its parent while it works.
  const tabs = sessionTabs(store);
  assert.deepEqual(
    tabs.map((t) => t.sessionId),
    ["p", "o"],
  );
  assert.deepEqual(tabs[0]?.children, [
    { sessionId: "c", title: "Explore hello.py", status: "running", words: "running" },
  ]);
  assert.match(
    renderSessions(tabs),
    /class="subsession st-running" data-act="selectSession" data-session="p" data-reveal="c"/,
  );
  assert.deepEqual(childPickItem(tabs[0].children[0]!, tabs[0]), {
    label: "    $(loading~spin) Explore hello.py",
    description: 'subagent of "explore" · running',
    detail: "c",
  });
  assert.match(sessionPickItem(tabs[0]).label, /explore/);
  // Its question waits in its parent's chat.
  store.addPermission({ id: "q1", params: childAsks() });
  assert.equal(store.waiting("p"), 0);
  assert.equal(store.waiting("p", true), 1);
  assert.equal(sessionTabs(store)[0]?.status, "waiting");
  assert.equal(sessionTabs(store)[0]?.children[0]?.words, "waiting for you");
  assert.equal(inBackground(store, "c"), false, "its parent is in front");
  // Selecting it brings the parent to the front.
  assert.ok(store.select("o"));
  assert.equal(inBackground(store, "c"), true);
  assert.equal(chatOf(store, "c"), "p");
  assert.ok(store.select("c"));
  assert.equal(store.currentSessionId, "p");
  // A child the store does not hold yet is placed by the parent its question names.
  store.select("o");
  assert.equal(inBackground(store, "new-child", "p"), true);
  assert.equal(chatOf(store, "new-child", "p"), "p");
  // Done, it leaves the strip (its parent's transcript keeps it).
  store.sessionChanged({
    agent: "",
    sessionId: "p",
    changes: [
      {
        type: "subagents",
        subagents: { c: { sessionId: "c", toolCallId: "task", state: { state: "idle", stopReason: "end_turn" } } },
      },
    ],
  });
  store.removePermission("q1");
  assert.deepEqual(sessionTabs(store)[0]?.children, []);
});

test("the chat's extras: a child's question named by its subagent, its terminals and review with its parent's", () => {
  const { parent, child } = family();
  const store = storeOf(parent, child);
  store.addPermission({ id: "q1", params: childAsks() });
  store.terminalOutput({ sessionId: "c", terminalId: "t1", data: "ok" });
  store.reviewChanged([
    {
      hunkId: "h1",
      sessionId: "p",
      toolCallId: "edit",
      uri: "file:///w/a.py",
      path: "/w/a.py",
      state: "pending",
      applied: true,
      oldLines: [],
      newLines: ["x"],
      range: null,
    },
  ]);
  const x = buildExtras(store, []);
  assert.equal(x.permissions.length, 1);
  assert.equal(x.permissions[0]?.sessionId, "c");
  assert.equal(x.permissions[0]?.subagent, "Subagent “Explore hello.py”");
  assert.equal(x.permissions[0]?.message, "Subagent “Explore hello.py” wants to edit: Edit hello.py");
  assert.deepEqual(Object.keys(x.terminals), ["t1"]);
  assert.deepEqual(x.review["edit"], { pending: 1, accepted: 0, rejected: 0 });
});

test("a child's follow mark names it: in front as the front session's, behind with its agent and its parent's title", () => {
  const { parent, child } = family();
  const other = { ...emptySnapshot("o", 1), agent: "codex" };
  const store = storeOf(parent, child, other);
  const params = {
    sessionId: "c",
    agent: "claude",
    uri: "file:///w/hello.py",
    reason: "read" as const,
    subagent: { parentSessionId: "p", title: "Explore hello.py" },
  };
  const front = followLabel(store, params);
  assert.equal(front.background, false);
  assert.equal(front.text, "  ◆ subagent “Explore hello.py” reading");
  store.select("o");
  const behind = followLabel(store, params);
  assert.equal(behind.background, true);
  assert.equal(behind.text, '  ◆ claude\'s subagent “Explore hello.py” reading · "explore"');
});

// -- the chat's drawing ------------------------------------------------------------------------

test("a notice at its severity: its title and description, nothing from the agent as markup", () => {
  const warning = renderNotice({
    kind: "notice",
    severity: "warning",
    title: "Rate <b>limit</b>",
    description: "90% used",
  });
  assert.match(warning, /^<div class="notice sev-warning" role="note">/);
  assert.match(warning, /⚠<\/span> Rate &lt;b&gt;limit&lt;\/b&gt;/);
  assert.match(warning, /<div class="notice-desc"><p>90% used<\/p><\/div>/);
  assert.match(renderNotice({ kind: "notice", severity: "error", title: "Down" }), /sev-error" role="alert">.*✖/);
  assert.match(renderNotice({ kind: "notice", severity: "info", title: "Hi" }), /sev-info.*ℹ/);
  assert.match(
    renderNotice({ kind: "notice", severity: "debug", title: "?" }),
    /sev-info/,
    "an unknown severity as info",
  );
});

test("a compaction: its status, its summary folded, its error when it failed", () => {
  const s = emptySnapshot("s", 1);
  const compaction = (over: Partial<Extract<Entry, { kind: "message" }>>): string =>
    renderEntry({ kind: "message", role: "compaction", messageId: "c1", content: [], ...over }, s, extras(), 4);
  assert.match(compaction({ status: "in_progress" }), /⇲ Compacting the conversation…/);
  const done = compaction({ status: "completed", content: [text("The user asked")] });
  assert.match(done, /⇲ Conversation compacted/);
  assert.match(
    done,
    /<details class="compaction-summary" data-key="s:4"><summary>Summary<\/summary><p>The user asked<\/p><\/details>/,
  );
  const failed = compaction({ status: "failed", error: "too big" });
  assert.match(failed, /class="compaction st-failed" role="alert"/);
  assert.match(failed, /Compaction failed: too big/);
  assert.doesNotMatch(failed, /Summary/);
});

test("messages between sessions: which way, and the subagent named", () => {
  const { parent, child } = family();
  const out = renderEntry(
    {
      kind: "message",
      role: "session",
      messageId: "m",
      content: [text("go")],
      senderSessionId: "p",
      recipientSessionId: "c",
    },
    parent,
    extras(),
  );
  assert.match(out, /→ To subagent “Explore hello.py”/);
  const back = renderEntry(
    {
      kind: "message",
      role: "session",
      messageId: "m",
      content: [text("done")],
      senderSessionId: "c",
      recipientSessionId: "p",
    },
    parent,
    extras(),
  );
  assert.match(back, /← From subagent “Explore hello.py”/);
  assert.match(renderEntry(child.entries[0]!, child, extras()), /← From the session that started it/);
  assert.match(
    renderEntry({ kind: "message", role: "session", messageId: "m", content: [] }, parent, extras()),
    /A message between sessions/,
  );
});

test("a subagent under its tool call: title, state, Cancel, its own tool calls, its question naming it", () => {
  const { parent, child } = family();
  const ctx: RenderContext = { child: (id) => (id === "c" ? child : undefined), depth: 0 };
  const question = {
    id: "q1",
    sessionId: "c",
    subagent: "Subagent “Explore hello.py”",
    toolCallId: "edit",
    title: "Edit hello.py",
    message: "Subagent “Explore hello.py” wants to edit: Edit hello.py",
    options: [{ optionId: "ok", label: "Allow once", kind: "allow_once" }],
    diffs: [],
  };
  const card = renderEntry(parent.entries[1]!, parent, extras({ permissions: [question] }), 1, ctx);
  // The card of the call with an empty title shows its name, and the child under it.
  assert.match(card, /<span class="title">Task<\/span>/);
  assert.match(card, /<div class="subagent st-waiting" data-subagent="c">/);
  assert.match(
    card,
    /<span class="sub-title">Explore hello.py<\/span> <span class="sub-state">waiting for you<\/span>/,
  );
  assert.match(card, /data-act="cancelSubagent" data-session="c">Cancel<\/button>/);
  assert.match(card, /Read hello.py/);
  assert.match(card, /Its work \(2 tool calls\)/);
  // The question is on the child's own card, once.
  assert.equal(card.split("wants to edit").length - 1, 1);
  assert.match(card, /⚠ Subagent “Explore hello.py” wants to edit: Edit hello.py/);
  // Without its mirror (not arrived yet), its question still shows, in its block.
  const bare: RenderContext = { child: () => undefined, depth: 0 };
  const early = renderSubagent(parent.subagents!["c"]!, extras({ permissions: [question] }), bare);
  assert.match(early, /wants to edit/);
  // Failed: the error's message, no Cancel.
  const failed = family({ state: "idle", stopReason: "error", error: { code: -1, message: "model down" } }).parent;
  const failedCard = renderEntry(failed.entries[1]!, failed, extras(), 1, ctx);
  assert.match(failedCard, /class="subagent st-failed"/);
  assert.match(failedCard, /failed: model down/);
  assert.doesNotMatch(failedCard, /cancelSubagent/);
});

test("plans by id: steps, Markdown as Markdown, a file as a link; a removed one is gone; the old whole plan still draws", () => {
  const s = emptySnapshot("s", 1);
  s.plans = {
    p1: { type: "items", planId: "p1", entries: [{ content: "Read <x>", status: "completed" }] },
    p2: { type: "markdown", planId: "p2", content: "## Follow-up\n\n- tidy" },
    p3: { type: "file", planId: "p3", uri: "file:///w/PLAN.md" },
  };
  const html = renderPlans(s);
  assert.match(html, /<summary>Plans \(3\)<\/summary>/);
  assert.match(
    html,
    /<div class="plan-items" data-plan="p1"><ul><li class="plan-completed"><span class="mark">●<\/span> Read &lt;x&gt;<\/li><\/ul><\/div>/,
  );
  assert.match(html, /<div class="plan-markdown" data-plan="p2"><h2>Follow-up<\/h2>/);
  assert.match(html, /data-act="open" data-target="file:\/\/\/w\/PLAN.md" title="file:\/\/\/w\/PLAN.md">PLAN.md<\/a>/);
  // plan_removed: gone from plans; `plan` (the one updated last) is not drawn beside them.
  s.plan = { type: "markdown", planId: "p2", content: "## Follow-up" };
  s.plans = { p1: s.plans["p1"]! };
  const after = renderPlans(s);
  assert.match(after, /<summary>Plan<\/summary>/);
  assert.doesNotMatch(after, /Follow-up/);
  s.plans = {};
  assert.equal(renderPlans(s), "");
  // v2's plans carry no type: told apart by their fields.
  assert.match(renderOnePlan({ planId: "x", content: "*hi*" }), /plan-markdown.*<em>hi<\/em>/);
  const old = { ...emptySnapshot("s", 1), plan: { entries: [{ content: "a", status: "pending" }] } };
  assert.match(renderPlans(old), /<summary>Plan<\/summary><ul><li class="plan-pending">/);
});

test("the turn's end: its stop reason, the tokens of a v1 turn, the error of an error stop; nothing while a turn runs", () => {
  const usage = { totalTokens: 1209, inputTokens: 1205, outputTokens: 4 };
  assert.equal(turnTokens(usage), "1.2k tokens (1,205 in · 4 out)");
  assert.equal(turnTokens(null), null);
  assert.deepEqual(turnEnd({ state: "idle", stopReason: "end_turn", usage }), {
    text: "✓ Turn ended · 1.2k tokens (1,205 in · 4 out)",
    kind: "ok",
  });
  assert.deepEqual(turnEnd({ state: "idle", stopReason: "error", error: { code: -32603, message: "overloaded" } }), {
    text: "✖ Turn failed: overloaded (-32603)",
    kind: "error",
  });
  assert.equal(turnEnd({ state: "idle", stopReason: "cancelled" })?.text, "■ Turn cancelled");
  assert.equal(turnEnd({ state: "idle", stopReason: "max_tokens" })?.kind, "stopped");
  assert.equal(turnEnd({ state: "running" }), null);
  assert.equal(turnEnd(null), null);
  assert.match(
    renderTurnEnd({ state: "idle", stopReason: "end_turn", usage }, false),
    /class="turn-end ok".*1\.2k tokens/,
  );
  assert.equal(renderTurnEnd({ state: "idle", stopReason: "end_turn", usage }, true), "");
});

test("a tool call with an empty title shows its name", () => {
  assert.equal(toolTitle({ toolCallId: "t", title: "", name: "Glob", kind: "search" }), "Glob");
  assert.equal(toolTitle({ toolCallId: "t", title: "  ", kind: "search" }), "Search");
  assert.equal(toolTitle({ toolCallId: "t", title: "Find *.py", name: "Glob" }), "Find *.py");
});

test("a boolean config option is a toggle in the chat and in the option list; picking it sets the other value", () => {
  const s = emptySnapshot("s", 1);
  s.configOptions = [
    { id: "model", name: "Model", type: "select", currentValue: "fast", options: [{ value: "fast", name: "Fast" }] },
    { id: "think", name: "Think aloud", description: "Start with a thought", type: "boolean", currentValue: false },
  ];
  const html = renderPickers(s);
  assert.match(
    html,
    /<label class="toggle" title="Start with a thought"><input type="checkbox" role="switch" aria-checked="false" data-act="setConfig" data-config="think"><span class="switch"/,
  );
  const [model, think] = configChoices(s);
  assert.deepEqual(model?.label, "$(settings-gear) Model: Fast");
  assert.deepEqual(think?.label, "$(circle-large-outline) Think aloud: off");
  assert.equal(think?.type, "boolean");
  assert.equal(think?.current, false);
  assert.match(think?.description ?? "", /pick to turn on/);
});

// -- signing in --------------------------------------------------------------------------------

test("sign-in methods say what choosing them does; the terminal is named; its exit status answers", () => {
  assert.deepEqual(authMethodItem({ id: "claude-ai-login", name: "Claude Subscription", type: "terminal" }), {
    label: "$(terminal) Claude Subscription",
    description: "opens a terminal: you sign in there",
    detail: "",
  });
  assert.equal(
    authMethodItem({ id: "login", name: "Log in", description: "Always" }).description,
    "the agent signs you in",
  );
  assert.equal(authMethodItem({ id: "x", name: "X", type: "browser" }).description, "a browser sign-in");
  assert.equal(
    signInTerminalName({
      agent: "claude",
      agentName: "Claude Agent",
      methodId: "m",
      name: "Claude Subscription",
      command: ["claude"],
      env: {},
      commandLine: "claude",
    }),
    "Sign in: Claude Agent (Claude Subscription)",
  );
  assert.equal(exitCodeOf({ code: 0 }), 0);
  assert.equal(exitCodeOf({ code: 1 }), 1);
  assert.equal(exitCodeOf({ code: undefined }), null, "closed by the user before it ended");
  assert.equal(exitCodeOf(undefined), null);
});

test("the agent's sign-in beside its name and in the status bar: Not logged in with Sign In…", () => {
  assert.deepEqual(authWords({ state: "unauthenticated" }), { text: "Not logged in", needsSignIn: true });
  assert.deepEqual(authWords({ state: "authenticated", label: "Claude Max" }), {
    text: "Signed in: Claude Max",
    needsSignIn: false,
  });
  assert.deepEqual(
    authWords({ state: "authenticated", accounts: [{ label: "Bo", active: true }] })?.text,
    "Signed in: Bo",
  );
  assert.equal(authWords({ state: "not_required" }), null);
  assert.equal(authWords(undefined), null);
  const agent = { agent: "demo", state: "ready" as const, command: ["demo"], auth: { state: "unauthenticated" } };
  const header = renderStatus(extras({ agent }));
  assert.match(header, /<span class="auth signed-out">Not logged in<\/span> <button class="allow" data-act="signIn"/);
  const item = statusItem({ agent, problem: null, busy: false, waiting: 0, session: null, agentName: "Demo" });
  assert.equal(item.signIn, true);
  assert.match(item.text, /\$\(account\) Not logged in$/);
  assert.equal(item.background, "statusBarItem.warningBackground");
  assert.match(item.tooltip, /Not logged in: click to sign in\./);
  const signedIn = statusItem({
    agent: { ...agent, auth: { state: "authenticated" } },
    problem: null,
    busy: false,
    waiting: 0,
    session: null,
    agentName: "Demo",
  });
  assert.equal(signedIn.signIn, false);
  assert.doesNotMatch(signedIn.text, /logged/);
});

test("a failed sign-in is told as such, with the command line the sidecar names", () => {
  const said =
    "signing in to Demo with Log in from a terminal ended with exit status 1; to sign in yourself, run in a terminal: demo --login --login-file /tmp/l.json";
  assert.equal(isSignInFailure(said), true);
  assert.equal(isSignInFailure("demo needs you to sign in (Log in)"), true);
  assert.equal(isSignInFailure("unknown session"), false);
  assert.equal(commandLineIn(said), "demo --login --login-file /tmp/l.json");
  assert.match(
    signInFailureMessage(said),
    /^ACP: not signed in\. Signing in to Demo .* run in a terminal: demo --login/,
  );
});

// -- the recorded fixture, drawn ---------------------------------------------------------------

test("the schema 1.25 fixture (recorded from the sidecar's state) draws every entry as what it is", () => {
  const fixture = JSON.parse(
    fs.readFileSync(path.join(REPO, "tests", "fixtures", "reducer", "schema_1_25.json"), "utf8"),
  ) as { sessionId: string; protocolVersion: number; changes: unknown[] };
  const s = emptySnapshot(fixture.sessionId, fixture.protocolVersion);
  applyChanges(s, fixture.changes);
  const drawn = s.entries.map((e, i) => renderEntry(e, s, extras(), i));
  assert.ok(drawn.some((h) => h.includes('class="notice sev-warning"')));
  assert.ok(drawn.some((h) => h.includes("Conversation compacted")));
  assert.ok(drawn.some((h) => h.includes("Compaction failed: too big")));
  // The recorded session is neither end (its parent is "p"): both named.
  assert.ok(drawn.some((h) => h.includes("⇄ From session p to a subagent")));
  assert.ok(drawn.some((h) => h.includes('<span class="title">Task</span>') && h.includes('data-subagent="child-1"')));
  assert.ok(!drawn.some((h) => h.includes('class="unknown"')), "nothing drawn as unknown");
  assert.match(renderPlans(s), /plan-items/);
});

test("a proposed edit of a tool call that ended without writing, or of a session gone, is no longer proposed", () => {
  const { parent, child } = family();
  const store = storeOf(parent, child);
  const diff = (sessionId: string, toolCallId: string) => ({
    sessionId,
    toolCallId,
    uri: "file:///w/hello.py",
    path: "/w/hello.py",
    oldText: "a\n",
    newText: "a\nb\n",
    hunks: [],
    added: 1,
    removed: 0,
  });
  store.diff(diff("c", "edit"));
  store.diff(diff("gone", "x"));
  assert.deepEqual(
    store.proposedDiffs().map((d) => d.toolCallId),
    ["edit"],
  );
  store.sessionChanged({
    agent: "",
    sessionId: "c",
    changes: [{ type: "tool_call", toolCallId: "edit", set: { status: "cancelled" }, unset: [] }],
  });
  assert.deepEqual(store.proposedDiffs(), []);
});
