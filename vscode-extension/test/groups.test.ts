/** Bulk changes (review groups): the store keeps the latest view of each, the chat and the
 *  lenses show the pending ones, each is announced once, and the wording the user reads. */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  GroupAnnouncer,
  NOTICES_AT_ONCE,
  decisionProblem,
  groupFileItems,
  groupNotice,
  groupsNotice,
  inGroupFolder,
} from "../src/core/groups";
import { lensSpecs } from "../src/core/lenses";
import { emptySnapshot } from "../src/core/reducer";
import { Store } from "../src/core/store";
import { buildExtras } from "../src/core/viewModel";
import { viewExtras as extras } from "./helpers";
import { renderGroup, renderToolCard } from "../src/webview/render";
import type { ReviewGroup, ReviewHunk, SnapshotResult } from "../src/wire";

const group = (id: string, over: Partial<ReviewGroup> = {}): ReviewGroup => ({
  groupId: id,
  sessionId: "s1",
  toolCallId: "c1",
  uri: "file:///w/generated",
  path: "/w/generated",
  title: "40 new files in generated/",
  created: 40,
  deleted: 0,
  changed: 0,
  state: "pending",
  ...over,
});
const hunk = (id: string, toolCallId = "c1"): ReviewHunk => ({
  hunkId: id,
  sessionId: "s1",
  toolCallId,
  uri: "file:///w/a.py",
  path: "/w/a.py",
  state: "pending",
  applied: true,
  oldLines: ["a"],
  newLines: ["b"],
  range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } },
});

function started(reviewGroups: ReviewGroup[] = []): Store {
  const store = new Store();
  const snapshot: SnapshotResult = {
    agent: { agent: "demo", state: "ready", command: ["demo"] },
    agents: [],
    sessions: [emptySnapshot("s1", 1)],
    currentSessionId: "s1",
    follow: true,
    terminals: [],
    review: [],
    reviewGroups,
  };
  store.loadSnapshot(snapshot);
  return store;
}

test("acp/reviewChanged: the latest view of each group wins; pending ones are queried by tool call", () => {
  const store = started();
  store.reviewChanged([], [group("g1"), group("g2", { toolCallId: "c2" })]);
  store.reviewChanged([], [group("g1", { title: "45 new files in generated/", created: 45 })]);
  assert.equal(store.groups.get("g1")?.title, "45 new files in generated/");
  assert.deepEqual(
    store.pendingGroups().map((g) => g.groupId),
    ["g1", "g2"],
  );
  assert.deepEqual(
    store.pendingGroups({ toolCallId: "c2" }).map((g) => g.groupId),
    ["g2"],
  );
  store.reviewChanged([], [group("g1", { state: "rejected" })]);
  assert.deepEqual(
    store.pendingGroups().map((g) => g.groupId),
    ["g2"],
  );
  // A hunk-only notification (a server before groups sends no `groups`) keeps the groups.
  store.reviewChanged([hunk("h1")]);
  assert.equal(store.groups.size, 2);
});

test("a snapshot brings the groups back (and a sidecar that sends none clears them)", () => {
  const store = started([group("g1"), group("g0", { state: "accepted" })]);
  assert.deepEqual([...store.groups.keys()], ["g1", "g0"]);
  const old = {
    agent: { state: "ready", command: [] },
    sessions: [],
    currentSessionId: null,
    follow: true,
    terminals: [],
    review: [],
  };
  store.loadSnapshot(old as unknown as SnapshotResult);
  assert.equal(store.groups.size, 0);
});

test("extras: the current session's groups, pending and decided, for the chat", () => {
  const store = started();
  store.reviewChanged(
    [],
    [
      group("g1"),
      group("g2", { state: "rejected", message: "2 files changed since; left alone" }),
      group("gx", { sessionId: "other" }),
    ],
  );
  assert.deepEqual(buildExtras(store, []).groups, [
    { groupId: "g1", toolCallId: "c1", title: "40 new files in generated/", state: "pending" },
    {
      groupId: "g2",
      toolCallId: "c1",
      title: "40 new files in generated/",
      state: "rejected",
      message: "2 files changed since; left alone",
    },
  ]);
});

test("each pending group is announced once, however often it is sent again", () => {
  const announcer = new GroupAnnouncer();
  assert.deepEqual(
    announcer.take([group("g1"), group("g2", { state: "accepted" })]).map((g) => g.groupId),
    ["g1"],
  );
  assert.deepEqual(
    announcer.take([group("g1", { created: 45 }), group("g3")]).map((g) => g.groupId),
    ["g3"],
  );
  assert.deepEqual(announcer.take([group("g1"), group("g3")]), []);
  assert.equal(groupNotice(group("g1")), "40 new files in generated/ wait for review");
  const burst = Array.from({ length: NOTICES_AT_ONCE + 2 }, (_, i) =>
    group(`n${i}`, { title: `30 new files in node_modules/p${i}/` }),
  );
  assert.equal(
    groupsNotice(burst),
    "5 bulk changes wait for review: 30 new files in node_modules/p0/; 30 new files in node_modules/p1/; 30 new files in node_modules/p2/; 2 more",
  );
});

test("a group's files are listed by path, numbers in order, with what happened to each", () => {
  const files = ["file10.js", "file2.js", "file1.js"].map((name) => ({
    uri: `file:///w/generated/${name}`,
    path: `/w/generated/${name}`,
    change: "created" as const,
  }));
  files.push({ uri: "file:///w/generated/old.js", path: "/w/generated/old.js", change: "deleted" as never });
  const items = groupFileItems(files, (p) => p.replace("/w/", ""));
  assert.deepEqual(
    items.map((i) => [i.label, i.description]),
    [
      ["generated/file1.js", "new"],
      ["generated/file2.js", "new"],
      ["generated/file10.js", "new"],
      ["generated/old.js", "deleted"],
    ],
  );
});

test("decisions not carried out are worded by what they were: hunks, bulk changes or both", () => {
  assert.equal(
    decisionProblem(
      [
        { hunkId: "h1", state: "rejected" },
        { groupId: "g1", state: "rejected" },
      ],
      "reject",
    ),
    null,
  );
  assert.equal(
    decisionProblem([{ groupId: "g1", state: "pending", error: "3 files changed since; left alone" }], "reject"),
    "ACP: 1 bulk change could not be rejected: 3 files changed since; left alone",
  );
  assert.equal(
    decisionProblem(
      [
        { hunkId: "h1", state: "pending", error: "lines changed" },
        { hunkId: "h2", state: "pending", error: "x" },
        { groupId: "g", state: "pending", error: "y" },
      ],
      "accept",
    ),
    "ACP: 2 hunks and 1 bulk change could not be accepted: lines changed",
  );
});

test("lenses: a file in a pending group's folder gets its title with Accept, Reject and Show files", () => {
  const groups = [group("g1"), group("g2", { uri: "file:///w/dist", state: "accepted" })];
  const specs = lensSpecs("file:///w/generated/file7.js", [], [], "", groups);
  assert.deepEqual(
    specs.map((s) => [s.line, s.action, s.arg, s.title]),
    [
      [0, "acceptGroup", "g1", "▦ 40 new files in generated/: Accept"],
      [0, "rejectGroup", "g1", "Reject"],
      [0, "showGroupFiles", "g1", "Show files"],
    ],
  );
  assert.deepEqual(lensSpecs("file:///w/generated-other/a.js", [], [], "", groups), []); // not inside the folder
  assert.deepEqual(lensSpecs("file:///w/dist/a.js", [], [], "", groups), []); // decided
  assert.ok(inGroupFolder("file:///w/generated/sub/x.js", group("g", { uri: "file:///w/generated/" })));
});

test("chat: a command's card shows its pending group with its own buttons, a decided one its state", () => {
  const pending = { groupId: "g1", toolCallId: "c1", title: "40 new files in <gen>/", state: "pending" as const };
  const html = renderToolCard({ toolCallId: "c1", title: "Run `gen`", kind: "execute" }, extras({ groups: [pending] }));
  assert.match(html, /▦ 40 new files in &lt;gen&gt;\/ /);
  for (const action of ["accept", "reject", "files"])
    assert.match(html, new RegExp(`data-act="group" data-action="${action}" data-group="g1"`));
  assert.equal(
    renderGroup({ ...pending, state: "rejected" }),
    '<div class="review group">▦ 40 new files in &lt;gen&gt;/: rejected</div>',
  );
  // The card's own Accept/Reject decide by tool call, which takes the group too: the card says so.
  const both = renderToolCard(
    { toolCallId: "c1" },
    extras({ groups: [pending], review: { c1: { pending: 2, accepted: 0, rejected: 0 } } }),
  );
  assert.match(both, /2 changes to review, with the bulk change below/);
  const other = renderToolCard({ toolCallId: "c2" }, extras({ groups: [pending] }));
  assert.doesNotMatch(other, /data-act="group"/);
});
