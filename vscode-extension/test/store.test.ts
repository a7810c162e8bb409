/** The store (fed by the acp/... messages) and the chat view's extras built from it. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { emptySnapshot } from "../src/core/reducer";
import { Store, TERMINAL_KEEP, type StoreEvent } from "../src/core/store";
import { buildExtras } from "../src/core/viewModel";
import type { ReviewHunk, SnapshotResult } from "../src/wire";

function started(): { store: Store; events: StoreEvent[] } {
  const store = new Store();
  const events: StoreEvent[] = [];
  store.subscribe((e) => events.push(e));
  const snapshot: SnapshotResult = {
    agent: {
      agent: "demo",
      state: "ready",
      command: ["demo"],
      agentInfo: { name: "demo" },
      agentCapabilities: { loadSession: true, sessionCapabilities: { list: {} } },
    },
    agents: [],
    sessions: [emptySnapshot("s1", 1)],
    currentSessionId: "s1",
    follow: true,
    terminals: [],
    review: [],
    reviewGroups: [],
  };
  store.loadSnapshot(snapshot);
  return { store, events };
}

const hunk = (id: string, state: ReviewHunk["state"], toolCallId = "c1"): ReviewHunk => ({
  hunkId: id,
  sessionId: "s1",
  toolCallId,
  uri: "file:///w/a.py",
  path: "/w/a.py",
  state,
  applied: true,
  oldLines: ["a"],
  newLines: ["b"],
  range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } },
});

test("a snapshot resets everything; capabilities tell list/load support", () => {
  const { store, events } = started();
  assert.deepEqual(events, [{ kind: "reset" }]);
  assert.equal(store.current()?.sessionId, "s1");
  assert.equal(store.canListSessions(), true);
  assert.equal(store.canLoadSessions(), true);
});

test("session changes apply in order; a change that does not fit asks for a resync", () => {
  const { store, events } = started();
  const entry = {
    type: "entry",
    index: 0,
    entry: { kind: "message", role: "agent", messageId: null, content: [{ type: "text", text: "a" }] },
  };
  assert.equal(store.sessionChanged({ agent: "", sessionId: "s1", changes: [entry as never] }), true);
  assert.equal(events.at(-1)?.kind, "changes");
  assert.equal(store.sessionChanged({ agent: "", sessionId: "s1", changes: [entry as never] }), false);
  assert.equal(store.sessionChanged({ agent: "", sessionId: "unknown", changes: [] }), false);
});

test("an undo names the current session only when its transcript shows a checkpointed turn", () => {
  const { store } = started(); // after a restart: a session with no turn of its own yet
  assert.equal(store.undoSession(), null);
  const said = { kind: "message", role: "user", messageId: null, content: [{ type: "text", text: "hi" }] };
  store.sessionChanged({ agent: "", sessionId: "s1", changes: [{ type: "entry", index: 0, entry: said } as never] });
  assert.equal(store.undoSession(), null); // not checkpointed
  store.sessionChanged({
    agent: "",
    sessionId: "s1",
    changes: [{ type: "entry", index: 1, entry: { ...said, turn: 1 } } as never],
  });
  assert.equal(store.undoSession(), "s1");
  store.removeSession("s1");
  assert.equal(store.undoSession(), null);
});

test("terminal output accumulates up to 64 KiB, then keeps the tail", () => {
  const { store } = started();
  store.terminalOutput({ sessionId: "s1", terminalId: "t", data: "x".repeat(TERMINAL_KEEP) });
  store.terminalOutput({ sessionId: "s1", terminalId: "t", data: "END" });
  const t = store.terminals.get("t");
  assert.equal(t?.output.length, TERMINAL_KEEP);
  assert.ok(t?.output.endsWith("END"));
  store.terminalExit("s1", "t", { exitCode: 0, signal: null });
  assert.deepEqual(store.terminals.get("t")?.exitStatus, { exitCode: 0, signal: null });
});

test("review: the latest view of a hunk wins; queries filter pending ones", () => {
  const { store } = started();
  store.reviewChanged([hunk("h1", "pending"), hunk("h2", "pending"), hunk("h3", "pending", "c2")]);
  store.reviewChanged([hunk("h1", "rejected")]);
  assert.deepEqual(
    store.pendingHunks({ toolCallId: "c1" }).map((h) => h.hunkId),
    ["h2"],
  );
  assert.deepEqual(
    store.pendingHunks({ uri: "file:///w/a.py" }).map((h) => h.hunkId),
    ["h2", "h3"],
  );
  assert.deepEqual(store.reviewSummary("c1"), { pending: 1, accepted: 0, rejected: 1 });
});

test("review: the pending hunk at a line (the accept/reject keys' hunk at the cursor)", () => {
  const { store } = started();
  const at = (id: string, start: number, end: number): ReviewHunk => ({
    ...hunk(id, "pending"),
    range: { start: { line: start, character: 0 }, end: { line: end, character: 0 } },
  });
  store.reviewChanged([at("h1", 2, 4), at("h2", 7, 7), { ...at("h3", 9, 10), state: "accepted" }]);
  const uri = "file:///w/a.py";
  assert.equal(store.pendingHunkAt(uri, 1), undefined);
  assert.equal(store.pendingHunkAt(uri, 3)?.hunkId, "h1");
  assert.equal(store.pendingHunkAt(uri, 7)?.hunkId, "h2"); // a deletion: an empty range on its line
  assert.equal(store.pendingHunkAt(uri, 9), undefined); // decided already
  assert.equal(store.pendingHunkAt("file:///w/b.py", 3), undefined);
});

test("questions waiting: permissions and the agent's own questions, each change one event", () => {
  const { store, events } = started();
  assert.equal(store.waiting(), 0);
  store.setQuestion("elicit-1", true);
  store.setQuestion("elicit-1", true);
  store.addPermission({
    id: "p1",
    params: { requestId: "r1", sessionId: "s1", toolCall: { toolCallId: "c1" }, options: [], diffs: [] },
  });
  assert.equal(store.waiting(), 2);
  store.setQuestion("elicit-1", false);
  store.setQuestion("elicit-1", false);
  assert.equal(store.waiting(), 1);
  assert.equal(events.filter((e) => e.kind === "questions").length, 2);
});

test("busy state and the stop reason follow the turn", () => {
  const { store } = started();
  store.setBusy("s1", true);
  assert.equal(buildExtras(store, []).busy, true);
  store.setBusy("s1", false, "end_turn");
  assert.equal(buildExtras(store, []).busy, false);
  assert.equal(store.lastStopReason, "end_turn");
});

test("a prompt sent while a turn runs keeps the session busy until the last one is answered", () => {
  const { store } = started();
  store.setBusy("s1", true);
  store.setBusy("s1", true); // waits its turn
  store.setBusy("s1", false, "end_turn");
  assert.equal(buildExtras(store, []).busy, true, "the waiting prompt's turn runs now");
  store.setBusy("s1", false, "cancelled");
  assert.equal(buildExtras(store, []).busy, false);
  assert.equal(store.lastStopReason, "cancelled");
  store.setBusy("s1", false); // an answer nobody counted does not go below idle
  store.setBusy("s1", true);
  assert.equal(buildExtras(store, []).busy, true);
});

test("extras: permissions worded, terminals and review of the current session only", () => {
  const { store } = started();
  store.sessionChanged({
    agent: "",
    sessionId: "s1",
    changes: [{ type: "tool_call", toolCallId: "c1", set: { kind: "edit" }, unset: [] }],
  });
  store.reviewChanged([hunk("h1", "pending")]);
  store.diff({
    sessionId: "s1",
    toolCallId: "c1",
    uri: "file:///w/a.py",
    path: "/w/a.py",
    oldText: "a\n",
    newText: "b\n",
    hunks: [],
    added: 1,
    removed: 1,
  });
  store.terminalOutput({ sessionId: "s1", terminalId: "t1", data: "ok\n" });
  store.terminalOutput({ sessionId: "other", terminalId: "t2", data: "no\n" });
  store.addPermission({
    id: "p1",
    params: {
      requestId: "r1",
      sessionId: "s1",
      toolCall: { toolCallId: "c1", title: "Edit a.py", kind: "edit" },
      options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }],
      diffs: [],
    },
  });
  const chip = { kind: "file" as const, label: "a.py", title: "file:///w/a.py" };
  const x = buildExtras(store, [chip]);
  assert.deepEqual(Object.keys(x.terminals), ["t1"]);
  assert.deepEqual(x.review, { c1: { pending: 1, accepted: 0, rejected: 0 } });
  assert.deepEqual(x.diffs["c1"], [{ uri: "file:///w/a.py", path: "/w/a.py", added: 1, removed: 1 }]);
  assert.deepEqual(x.permissions, [
    {
      id: "p1",
      sessionId: "s1",
      toolCallId: "c1",
      title: "Edit a.py",
      message: "demo wants to edit: Edit a.py",
      options: [{ optionId: "ok", label: "Allow once", kind: "allow_once" }],
      diffs: [],
    },
  ]);
  assert.deepEqual(x.attachments, [chip]);
  assert.equal(x.canAttachImages, false);
  store.removePermission("p1");
  assert.deepEqual(buildExtras(store, []).permissions, []);
});
