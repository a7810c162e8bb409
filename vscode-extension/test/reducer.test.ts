/** The mirror: replays change streams recorded from the Python SessionState (fixtures made by
 *  the repository's scripts/reducer_fixtures.py, replayed by the Lua mirror too) and checks the
 *  rules one by one. */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { MirrorError, appendBlock, applyChange, applyChanges, emptySnapshot, isPlainText } from "../src/core/reducer";
import type { SessionSnapshot } from "../src/wire";
import { REPO } from "./helpers";

const FIXTURES = path.join(REPO, "tests", "fixtures", "reducer");
/** One recording of scripts/reducer_fixtures.py. */
interface Fixture {
  sessionId: string;
  protocolVersion: number;
  changes: unknown[];
  snapshot: SessionSnapshot;
}
const fixtures = fs.readdirSync(FIXTURES).filter((f) => f.endsWith(".json"));

test("there are recorded fixtures to replay", () => {
  assert.ok(fixtures.length >= 6, fixtures.join(","));
});

for (const name of fixtures) {
  test(`replaying ${name} from an empty snapshot gives the server's snapshot`, () => {
    const f = JSON.parse(fs.readFileSync(path.join(FIXTURES, name), "utf8")) as Fixture;
    const mirror = emptySnapshot(f.sessionId, f.protocolVersion);
    applyChanges(mirror, f.changes);
    assert.deepEqual(mirror, f.snapshot);
  });
}

const text = (t: string): { type: string; text: string } => ({ type: "text", text: t });
const withMessage = (): SessionSnapshot => {
  const s = emptySnapshot("s", 1);
  applyChange(s, { type: "entry", index: 0, entry: { kind: "message", role: "agent", messageId: null, content: [] } });
  return s;
};

test("only bare text blocks are plain", () => {
  assert.equal(isPlainText(text("a")), true);
  assert.equal(isPlainText({ type: "text", text: "a", annotations: {} }), false);
  assert.equal(isPlainText({ type: "text", text: 1 }), false);
  assert.equal(isPlainText({ type: "image", text: "a" }), false);
  assert.equal(isPlainText(["text", "a"]), false);
  assert.equal(isPlainText(null), false);
});

test("plain text merges into plain text before it, nothing else merges", () => {
  const content: unknown[] = [];
  appendBlock(content, text("a"));
  appendBlock(content, text("b"));
  assert.deepEqual(content, [text("ab")]);
  appendBlock(content, { type: "text", text: "c", _meta: { x: 1 } });
  appendBlock(content, text("d"));
  appendBlock(content, { type: "image", data: "" });
  appendBlock(content, text("e"));
  assert.deepEqual(content, [
    text("ab"),
    { type: "text", text: "c", _meta: { x: 1 } },
    text("d"),
    { type: "image", data: "" },
    text("e"),
  ]);
});

test("message_chunk appends to its entry", () => {
  const s = withMessage();
  applyChange(s, { type: "message_chunk", index: 0, content: text("Hel") });
  applyChange(s, { type: "message_chunk", index: 0, content: text("lo") });
  assert.deepEqual(s.entries[0], { kind: "message", role: "agent", messageId: null, content: [text("Hello")] });
});

test("an entry at the wrong index, or a chunk for a missing or non-message entry, is a MirrorError", () => {
  const s = withMessage();
  assert.throws(
    () => applyChange(s, { type: "entry", index: 0, entry: { kind: "toolCall", toolCallId: "c" } }),
    MirrorError,
  );
  assert.throws(
    () => applyChange(s, { type: "entry", index: 2, entry: { kind: "toolCall", toolCallId: "c" } }),
    MirrorError,
  );
  assert.throws(() => applyChange(s, { type: "message_chunk", index: 5, content: text("x") }), MirrorError);
  applyChange(s, { type: "entry", index: 1, entry: { kind: "toolCall", toolCallId: "c" } });
  assert.throws(() => applyChange(s, { type: "message_chunk", index: 1, content: text("x") }), MirrorError);
});

test("unknown change types and replacements without their member are MirrorErrors", () => {
  const s = emptySnapshot("s", 1);
  assert.throws(() => applyChange(s, { type: "_future" }), MirrorError);
  assert.throws(() => applyChange(s, { type: "plan" }), MirrorError);
  assert.throws(() => applyChange(s, "nope"), MirrorError);
  assert.throws(() => applyChange(s, { type: "entry", entry: {} }), MirrorError);
});

test("tool_call creates the record, sets and unsets fields; unknown fields are kept", () => {
  const s = emptySnapshot("s", 2);
  applyChange(s, { type: "tool_call", toolCallId: "c", set: { title: "T", kind: "_custom", x: [1] }, unset: [] });
  assert.deepEqual(s.toolCalls["c"], { toolCallId: "c", title: "T", kind: "_custom", x: [1] });
  applyChange(s, { type: "tool_call", toolCallId: "c", set: { status: "_odd" }, unset: ["title", "never-there"] });
  assert.deepEqual(s.toolCalls["c"], { toolCallId: "c", kind: "_custom", x: [1], status: "_odd" });
});

test("tool_call_content appends, starting a list when there is none or it is malformed", () => {
  const s = emptySnapshot("s", 2);
  applyChange(s, { type: "tool_call_content", toolCallId: "n", content: { type: "a" } });
  applyChange(s, { type: "tool_call_content", toolCallId: "n", content: { type: "b" } });
  assert.deepEqual(s.toolCalls["n"]?.content, [{ type: "a" }, { type: "b" }]);
  applyChange(s, { type: "tool_call", toolCallId: "m", set: { content: "oops" }, unset: [] });
  applyChange(s, { type: "tool_call_content", toolCallId: "m", content: 1 });
  assert.deepEqual(s.toolCalls["m"]?.content, [1]);
});

test("replacements replace the field whole", () => {
  const s = emptySnapshot("s", 1);
  applyChanges(s, [
    { type: "plan", plan: { entries: [1] } },
    { type: "plan", plan: { entries: [2] } },
    { type: "commands", availableCommands: [{ name: "x" }] },
    { type: "modes", modes: { currentModeId: "a", availableModes: [] } },
    { type: "config_options", configOptions: [] },
    { type: "usage", usage: { used: 1 } },
    { type: "info", info: { title: "t" } },
  ]);
  assert.deepEqual(s.plan, { entries: [2] });
  assert.deepEqual(s.availableCommands, [{ name: "x" }]);
  assert.deepEqual(s.modes, { currentModeId: "a", availableModes: [] });
  assert.deepEqual(s.configOptions, []);
  assert.deepEqual(s.usage, { used: 1 });
  assert.deepEqual(s.info, { title: "t" });
});

test("values are copied in: mutating a change afterwards does not reach the snapshot", () => {
  const s = emptySnapshot("s", 1);
  const change = { type: "tool_call", toolCallId: "c", set: { rawInput: { a: [1] } }, unset: [] as string[] };
  applyChange(s, change);
  change.set.rawInput.a.push(2);
  assert.deepEqual(s.toolCalls["c"]?.rawInput, { a: [1] });
});

test("a __proto__ field from the wire stays a plain field", () => {
  const s = emptySnapshot("s", 1);
  applyChange(s, JSON.parse('{"type":"tool_call","toolCallId":"c","set":{"__proto__":{"polluted":true}},"unset":[]}'));
  const record = s.toolCalls["c"] as Record<string, unknown>;
  assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
  assert.equal(record["polluted"], undefined);
  assert.deepEqual(Object.getOwnPropertyDescriptor(record, "__proto__")?.value, { polluted: true });
});
