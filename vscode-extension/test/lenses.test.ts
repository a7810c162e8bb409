/** Where CodeLenses and line decorations go for review hunks and proposed diffs. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { decorationSpecs, lensSpecs } from "../src/core/lenses";
import type { DiffParams, ReviewHunk } from "../src/wire";

const URI = "file:///w/a.py";
const range = (start: number, end: number) => ({
  start: { line: start, character: 0 },
  end: { line: end, character: 0 },
});
const hunk = (id: string, line: number, over: Partial<ReviewHunk> = {}): ReviewHunk => ({
  hunkId: id,
  sessionId: "s",
  toolCallId: "c1",
  uri: URI,
  path: "/w/a.py",
  state: "pending",
  applied: true,
  oldLines: ["old"],
  newLines: ["new1", "new2"],
  range: range(line, line + 2),
  ...over,
});
const diff = (over: Partial<DiffParams> = {}): DiffParams => ({
  sessionId: "s",
  toolCallId: "c9",
  uri: URI,
  path: "/w/a.py",
  oldText: "a\nb\n",
  newText: "a\nB\n",
  hunks: [{ oldStart: 1, oldLines: ["b"], newStart: 1, newLines: ["B"], range: range(1, 2) }],
  added: 1,
  removed: 1,
  ...over,
});

test("each pending hunk gets accept/reject; the first of a tool call also the edit-wide actions and Show diff", () => {
  const specs = lensSpecs(URI, [hunk("h2", 10), hunk("h1", 3), hunk("h3", 20, { state: "accepted" })], [], "");
  assert.deepEqual(
    specs.map((s) => [s.line, s.action, s.arg]),
    [
      [3, "acceptToolCall", "c1"],
      [3, "rejectToolCall", "c1"],
      [3, "acceptHunk", "h1"],
      [3, "rejectHunk", "h1"],
      [3, "showDiff", "c1"],
      [10, "acceptHunk", "h2"],
      [10, "rejectHunk", "h2"],
    ],
  );
  assert.equal(specs[2]?.title, "✓ Accept hunk +2 −1");
});

test("hunks without a range (their lines changed) or of other files get no lens", () => {
  assert.deepEqual(
    lensSpecs(URI, [hunk("h", 1, { range: null }), hunk("x", 1, { uri: "file:///w/b.py" })], [], ""),
    [],
  );
});

test("a proposal not under review yet gets Show proposed diff at its first hunk while the file holds the old text", () => {
  assert.deepEqual(lensSpecs(URI, [], [diff()], "a\nb\n"), [
    { line: 1, title: "Show proposed diff +1 −1", action: "showDiff", arg: "c9", uri: URI },
  ]);
  assert.equal(lensSpecs(URI, [], [diff()], "changed")[0]?.line, 0);
  assert.deepEqual(
    lensSpecs(URI, [hunk("h", 0, { toolCallId: "c9" })], [diff()], "a\nb\n").filter((s) =>
      s.title.startsWith("Show proposed"),
    ),
    [],
  );
});

test("decorations: applied hunks as added lines, held hunks and proposals as lines to be replaced", () => {
  const d = decorationSpecs(
    URI,
    [hunk("h1", 3), hunk("h2", 8, { applied: false }), hunk("h3", 12, { newLines: [], range: range(12, 12) })],
    [diff()],
    "a\nb\n",
  );
  assert.deepEqual(
    d.added.map((s) => [s.startLine, s.endLine, s.note]),
    [
      [3, 4, "agent edit: pending review"],
      [12, 12, "−1 removed"],
    ],
  );
  assert.deepEqual(
    d.replaced.map((s) => [s.startLine, s.endLine, s.note]),
    [
      [8, 9, "held until you accept"],
      [1, 1, "proposed +1 −1"],
    ],
  );
  assert.match(d.added[0]?.hover ?? "", /The agent replaced:\n\n```\nold\n```/);
  assert.deepEqual(decorationSpecs(URI, [], [diff()], "other text").replaced, []);
  assert.deepEqual(d.inserts, []);
});

test("a pure insertion changes no line: it gets a note at the insertion point, no background", () => {
  const insert = diff({ hunks: [{ oldStart: 2, oldLines: [], newStart: 2, newLines: ["new"], range: range(2, 2) }] });
  const d = decorationSpecs(
    URI,
    [hunk("h", 4, { applied: false, oldLines: [], range: range(4, 4) })],
    [insert],
    "a\nb\n",
  );
  assert.deepEqual(d.replaced, []);
  assert.deepEqual(
    d.inserts.map((s) => [s.startLine, s.endLine, s.note]),
    [
      [4, 4, "held until you accept"],
      [2, 2, "proposed +1 −0"],
    ],
  );
});
