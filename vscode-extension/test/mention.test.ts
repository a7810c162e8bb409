/** `@`-mentions in the prompt: where one is, what the list offers, the text once one is chosen. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyMention, mentionAt, mentionItems, needsFiles, splitPath } from "../src/core/mention";
import type { FoundFile } from "../src/wire";

const hello: FoundFile = { uri: "file:///w/src/hello.py", path: "src/hello.py", open: true };

test("a mention starts with @ at the start or after a blank, and runs to the caret", () => {
  assert.deepEqual(mentionAt("@", 1), { start: 0, end: 1, query: "" });
  assert.deepEqual(mentionAt("look at @hel", 12), { start: 8, end: 12, query: "hel" });
  assert.deepEqual(mentionAt("look at @hel", 10), { start: 8, end: 12, query: "h" }, "the caret inside the word");
  assert.deepEqual(mentionAt("a\n@src/x", 8), { start: 2, end: 8, query: "src/x" });
  assert.equal(mentionAt("mail me@example.com", 19), null, "an @ inside a word is no mention");
  assert.equal(mentionAt("@hello world", 12), null, "a blank typed after it ended it");
  assert.equal(mentionAt("no at all", 9), null);
});

test("the list: a web address as itself, else the files found", () => {
  assert.deepEqual(mentionItems("https://example.com/x", [hello]), [{ kind: "url", url: "https://example.com/x" }]);
  assert.deepEqual(mentionItems("hel", [hello]), [{ kind: "file", file: hello }]);
  assert.deepEqual(mentionItems("zzz", []), []);
  assert.equal(needsFiles("https://example.com"), false);
  assert.equal(needsFiles("http"), true);
});

test("a chosen file becomes @path and a blank, the caret after it; the rest of the text kept", () => {
  const text = "compare @hel with b";
  const m = mentionAt(text, 12);
  assert.ok(m !== null);
  assert.deepEqual(applyMention(text, m, { kind: "file", file: hello }), {
    text: "compare @src/hello.py with b",
    caret: 22,
  });
  const end = mentionAt("see @he", 7);
  assert.ok(end !== null);
  assert.deepEqual(applyMention("see @he", end, { kind: "file", file: hello }), {
    text: "see @src/hello.py ",
    caret: 18,
  });
  const word = mentionAt("@helxx", 3); // the caret in the middle: the whole word is replaced
  assert.ok(word !== null);
  assert.deepEqual(applyMention("@helxx", word, { kind: "url", url: "https://e.com/" }), {
    text: "@https://e.com/ ",
    caret: 16,
  });
});

test("a path splits into the name shown first and its folder", () => {
  assert.deepEqual(splitPath("src/core/a.ts"), { name: "a.ts", dir: "src/core/" });
  assert.deepEqual(splitPath("a.ts"), { name: "a.ts", dir: "" });
});
