/** Sessions in a worktree of their own (issue 28): the strip's mark and bar, the bring-back
 *  notification, the discard question (with what is lost), a discarded session's marks and its
 *  refused prompts, acp/sessionChanged's worktree; review of unsure origin ("either") and of conflicting
 *  sessions; acp/sessionChanged's agent; what an undo says of files another session changed. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { undoneMessage } from "../src/core/format";
import { decorationSpecs, lensSpecs } from "../src/core/lenses";
import { emptySnapshot } from "../src/core/reducer";
import { reviewAuthors, sessionPickItem, sessionTabs } from "../src/core/sessions";
import { Store } from "../src/core/store";
import {
  DISCARD_WORKTREE,
  DiscardedSessionError,
  KEEP_WORKTREE,
  LOST_NAMED_MAX,
  NAMED_MAX,
  NEW_SESSION_BUTTON,
  WORKTREE_MARK,
  bringBackMessage,
  discardQuestion,
  discardedMessage,
  discardedRefusalMessage,
  isDiscardedRefusal,
  shownPath,
  worktreeOf,
} from "../src/core/worktree";
import { renderSessions, renderWorktree } from "../src/webview/render";
import type { ReviewHunk, SessionSnapshot } from "../src/wire";

const WT = "/state/worktrees/s2/repo";

function session(sessionId: string, agent: string, prompt: string, worktree?: string): SessionSnapshot {
  const s: SessionSnapshot = { ...emptySnapshot(sessionId, 1), agent };
  if (worktree !== undefined) s.worktree = worktree;
  s.entries.push({ kind: "message", role: "user", messageId: null, content: [{ type: "text", text: prompt }] });
  return s;
}

/** A Claude session in the workspace and a Codex session in its own worktree, in front. */
function store(): Store {
  const st = new Store();
  st.loadSnapshot({
    agent: { agent: "codex", state: "ready", command: ["codex"] },
    agents: [],
    sessions: [session("s1", "claude", "fix the parser"), session("s2", "codex", "try the rewrite", WT)],
    currentSessionId: "s2",
    follow: true,
    terminals: [],
    review: [],
    reviewGroups: [],
  });
  return st;
}

const hunk = (id: string, sessionId: string, over: Partial<ReviewHunk> = {}): ReviewHunk => ({
  hunkId: id,
  sessionId,
  toolCallId: null,
  uri: "file:///w/a.py",
  path: "/w/a.py",
  state: "pending",
  applied: true,
  oldLines: ["a"],
  newLines: ["b"],
  range: { start: { line: 2, character: 0 }, end: { line: 3, character: 0 } },
  ...over,
});

test("a worktree session is marked in the strip and the quick pick; its bar offers Bring Back and Discard", () => {
  const st = store();
  const tabs = sessionTabs(st);
  assert.deepEqual(
    tabs.map((t) => [t.sessionId, t.worktree]),
    [
      ["s1", null],
      ["s2", WT],
    ],
  );
  const strip = renderSessions(tabs);
  assert.equal(strip.split(WORKTREE_MARK).length - 1, 1, strip);
  assert.match(strip, /class="session st-idle current worktree"/);
  assert.match(strip, /in its own worktree \(\/state\/worktrees\/s2\/repo\)/);
  const item = sessionPickItem(tabs[1]!);
  assert.match(item.label, /^\$\(git-branch\) try the rewrite$/);
  assert.match(item.description, /^codex · own worktree · idle · in front$/);
  assert.match(item.detail, /in \/state\/worktrees\/s2\/repo$/);

  const bar = renderWorktree(tabs);
  assert.match(bar, /data-act="bringBack" data-session="s2"[^>]*>Bring Back Changes</);
  assert.match(bar, /data-act="discardWorktree" data-session="s2"[^>]*>Discard Worktree…</);
  // The session in the workspace has no bar.
  st.select("s1");
  assert.equal(renderWorktree(sessionTabs(st)), "");
});

test("a discarded worktree: no worktree mark; the strip and the switcher say it is discarded; its bar offers a new session", () => {
  const st = store();
  assert.equal(worktreeOf(st.current()), WT);
  st.worktreeDiscarded("s2");
  assert.equal(worktreeOf(st.current()), null);
  const tabs = sessionTabs(st);
  assert.deepEqual(
    tabs.map((t) => [t.sessionId, t.discarded]),
    [
      ["s1", false],
      ["s2", true],
    ],
  );
  const strip = renderSessions(tabs);
  assert.ok(!strip.includes(`>${WORKTREE_MARK}<`), strip);
  assert.match(strip, /class="session st-idle current discarded"/);
  assert.match(strip, /<span class="session-meta">codex · worktree discarded<\/span>/);
  assert.match(strip, /its worktree discarded: it takes no more prompts/);
  const item = sessionPickItem(tabs[1]!);
  assert.equal(item.label, "$(circle-slash) try the rewrite");
  assert.equal(item.description, "codex · worktree discarded · idle · in front");
  const bar = renderWorktree(tabs);
  assert.match(bar, /Worktree discarded: this session takes no more prompts/);
  assert.match(bar, /data-act="newSession"[^>]*>New Session</);
  // A later notification naming no worktree (the sidecar's, once it is gone) leaves it so; one
  // that still names it (sent before the discard) does not bring the worktree back.
  assert.ok(st.sessionChanged({ sessionId: "s2", agent: "codex", worktree: WT, changes: [] }));
  assert.equal(worktreeOf(st.current()), null);
  // A resync keeps the mark while the session lives; a removed session forgets it.
  st.loadSnapshot({
    agent: { agent: "codex", state: "ready", command: ["codex"] },
    agents: [],
    sessions: [session("s1", "claude", "fix the parser"), session("s2", "codex", "try the rewrite")],
    currentSessionId: "s2",
    follow: true,
    terminals: [],
    review: [],
    reviewGroups: [],
  });
  assert.equal(sessionTabs(st)[1]?.discarded, true);
  st.removeSession("s2");
  assert.equal(st.discarded.size, 0);
  // The other session: no bar.
  st.select("s1");
  assert.equal(renderWorktree(sessionTabs(st)), "");
});

test("acp/sessionChanged's worktree tells a mirror where the session works, from the first notification", () => {
  const st = new Store();
  st.setSession(session("s3", "codex", "try"));
  assert.equal(worktreeOf(st.current()), null);
  assert.ok(st.sessionChanged({ sessionId: "s3", agent: "codex", worktree: "/state/wt/s3/repo", changes: [] }));
  assert.equal(worktreeOf(st.current()), "/state/wt/s3/repo");
  assert.equal(sessionTabs(st)[0]?.worktree, "/state/wt/s3/repo");
  // One without it (a hand-made one, an older sidecar) changes nothing.
  assert.ok(st.sessionChanged({ sessionId: "s3", agent: "codex", changes: [] }));
  assert.equal(worktreeOf(st.current()), "/state/wt/s3/repo");
});

test("a prompt refused because the worktree was discarded is recognised and worded plainly", () => {
  const refusal = { code: -32602, message: "the worktree of session s2 was discarded: start a new session" };
  assert.ok(isDiscardedRefusal(refusal));
  assert.ok(!isDiscardedRefusal({ code: -32602, message: "params.sessionId must be a string" }));
  assert.ok(!isDiscardedRefusal({ code: -32603, message: refusal.message }));
  assert.ok(!isDiscardedRefusal(new Error(refusal.message)));
  assert.ok(!isDiscardedRefusal(null));
  assert.equal(
    discardedRefusalMessage("try it"),
    'Session "try it" takes no more prompts: its worktree was discarded. Start a new session to go on; this one stays to read.',
  );
  assert.equal(NEW_SESSION_BUTTON, "New Session");
  const error = new DiscardedSessionError("s2", discardedRefusalMessage("try it"));
  assert.ok(error instanceof Error);
  assert.equal(error.sessionId, "s2");
});

test("bring back: how many files are in review, which were left and why; nothing to bring back", () => {
  const all = bringBackMessage({ sessionId: "s2", brought: ["/w/a.py", "/w/b.py"], left: [] }, "try it");
  assert.deepEqual(all, { severity: "info", message: '2 files from session "try it" in review.' });
  const some = bringBackMessage(
    { sessionId: "s2", brought: ["/w/a.py"], left: [{ path: "/w/c.py", reason: "you changed the same lines" }] },
    "try it",
  );
  assert.equal(some.severity, "warning");
  assert.equal(
    some.message,
    '1 file from session "try it" in review. 1 file left as you have it: c.py (you changed the same lines).',
  );
  const many = bringBackMessage(
    {
      sessionId: "s2",
      brought: [],
      left: Array.from({ length: NAMED_MAX + 2 }, (_, i) => ({ path: `/w/f${i}.bin`, reason: "not text" })),
    },
    "t",
  );
  assert.match(many.message, /^No file of session "t" could be brought back\. 5 files left as you have them: /);
  assert.match(many.message, /f2\.bin \(not text\), and 2 more \(see the log\)\.$/);
  const none = bringBackMessage({ sessionId: "s2", brought: [], left: [] }, "t");
  assert.equal(none.severity, "info");
  assert.match(none.message, /^Nothing to bring back/);
});

test("the discard question says what is lost (named when 5 or fewer); keeping comes first", () => {
  const ask = `Discard the worktree of session "try it" (${WT})?`;
  const yours = "Your own files are not touched.";
  // The sidecar could not say (the dry run failed): the old words.
  assert.equal(
    discardQuestion("try it", WT),
    `${ask} What the agent changed there and you did not bring back is lost. ${yours}`,
  );
  assert.equal(
    discardQuestion("try it", WT, []),
    `${ask} Nothing is lost: the agent changed nothing there that you did not bring back. ${yours}`,
  );
  assert.equal(
    discardQuestion("try it", WT, ["/w/src/a.py"], "/w"),
    `${ask} 1 file the agent changed there and you did not bring back is lost: src/a.py. ${yours}`,
  );
  const five = ["/w/a.py", "/w/b.py", "/w/c.py", "/w/d/e.py", "/elsewhere/f.py"];
  assert.equal(
    discardQuestion("try it", WT, five, "/w/"),
    `${ask} 5 files the agent changed there and you did not bring back are lost: a.py, b.py, c.py, d/e.py, /elsewhere/f.py. ${yours}`,
  );
  assert.equal(LOST_NAMED_MAX, 5);
  assert.equal(
    discardQuestion("try it", null, [...five, "/w/g.py"], "/w"),
    `Discard the worktree of session "try it"? 6 files the agent changed there and you did not bring back are lost (the log lists them). ${yours}`,
  );
  assert.equal(shownPath("/w2/a.py", "/w"), "/w2/a.py");
  assert.equal(shownPath("C:\\w\\a.py", "C:\\w"), "a.py");
  assert.deepEqual([KEEP_WORKTREE, DISCARD_WORKTREE], ["Keep the Worktree", "Discard"]);
  assert.equal(
    discardedMessage("try it", []),
    'The worktree of session "try it" is discarded. The session stays to read; to go on, start a new session.',
  );
  assert.match(discardedMessage("try it", ["/w/a.py", "/w/b.py"]), /is discarded \(2 files lost\)\./);
});

test("a change of unsure origin names every session it may be of, in its lens and hover", () => {
  const st = store();
  const author = (id: string, sessions?: readonly string[]) => reviewAuthors(st, id, sessions);
  const h = hunk("h1", "s2", { sessions: ["s1", "s2"] });
  const lenses = lensSpecs(h.uri, [h], [], "", [], author);
  assert.equal(lenses[0]?.title, "either claude or codex: ✓ Accept hunk +1 −1");
  const hover = decorationSpecs(h.uri, [h], [], "", author).added[0]?.hover ?? "";
  assert.match(hover, /^By either claude in session "fix the parser" or codex in session "try the rewrite": /);
  // Even with one session open (the other one may have ended), an unsure origin is named.
  st.removeSession("s1");
  assert.match(lensSpecs(h.uri, [h], [], "", [], author)[0]?.title ?? "", /^either /);
  // Sure of its session again: named while several sessions are open, as before.
  assert.equal(lensSpecs(h.uri, [hunk("h2", "s2")], [], "", [], author)[0]?.title, "✓ Accept hunk +1 −1");
});

test("conflicting changes of two sessions say so on both, each lens showing the other change", () => {
  const st = store();
  const author = (id: string, sessions?: readonly string[]) => reviewAuthors(st, id, sessions);
  const earlier = hunk("h1", "s1");
  const later = hunk("h2", "s2", { conflictsWith: ["h1"], oldLines: ["b"], newLines: ["c"] });
  const specs = lensSpecs(earlier.uri, [earlier, later], [], "", [], author);
  const reveal = specs.filter((s) => s.action === "revealHunk").map((s) => [s.title, s.arg]);
  assert.deepEqual(reveal, [
    ["⚠ changed again by codex", "h2"],
    ["⚠ over claude's pending change", "h1"],
  ]);
  const hovers = decorationSpecs(earlier.uri, [earlier, later], [], "", author).added.map((a) => a.hover);
  assert.match(hovers[0] ?? "", /codex changed these lines again, still pending: rejecting this one first is refused/);
  assert.match(hovers[1] ?? "", /pending as claude's change, which this one changed again: decide this one first/);
  // Once the earlier one is decided, nothing is said.
  const decided = lensSpecs(earlier.uri, [{ ...earlier, state: "accepted" }, later], [], "", [], author);
  assert.deepEqual(
    decided.filter((s) => s.action === "revealHunk"),
    [],
  );
});

test("acp/sessionChanged's agent names the session's agent in a mirror that did not know it", () => {
  const st = new Store();
  st.setSession(emptySnapshot("s9", 1));
  assert.equal(st.sessions.get("s9")?.agent, undefined);
  assert.ok(st.sessionChanged({ sessionId: "s9", agent: "codex", changes: [] }));
  assert.equal(st.sessions.get("s9")?.agent, "codex");
});

test("an undo says which restored files another session changed too", () => {
  assert.equal(
    undoneMessage({ sessionId: "s", turn: 3, restored: ["/w/a.py"], shared: [], done: true }),
    "ACP: turn 3 undone, 1 file(s) restored.",
  );
  assert.equal(
    undoneMessage({ sessionId: "s", turn: 3, restored: ["/w/a.py", "/w/b.py"], shared: ["/w/b.py"], done: true }),
    "ACP: turn 3 undone, 2 file(s) restored. Another session changed it too: b.py.",
  );
});
