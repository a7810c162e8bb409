/** The prompt's content blocks and slash-command completion. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { acceptsEmbeddedContext, buildPrompt, commandItems, matchCommands, type Attachment } from "../src/core/prompt";

const file: Attachment = { kind: "file", uri: "file:///w/a.py", name: "a.py" };
const sel: Attachment = {
  kind: "selection",
  uri: "file:///w/b.py",
  name: "b.py",
  startLine: 2,
  endLine: 4,
  text: "x = '```'\n",
  languageId: "python",
};

test("plain text is one text block", () => {
  assert.deepEqual(buildPrompt("hi", [], false), [{ type: "text", text: "hi" }]);
});

test("files become resource links; selections embedded resources when the agent takes them", () => {
  assert.deepEqual(buildPrompt("look", [file, sel], true), [
    { type: "text", text: "look" },
    { type: "resource_link", uri: "file:///w/a.py", name: "a.py" },
    { type: "resource", resource: { uri: "file:///w/b.py#L3-5", text: "x = '```'\n", mimeType: "text/x-python" } },
  ]);
});

test("without embeddedContext a selection goes into the text, fenced so it cannot close early", () => {
  const [text, ...rest] = buildPrompt("look", [sel], false);
  assert.deepEqual(rest, []);
  assert.equal(text?.["text"], "look\n\nb.py:3-5:\n````python\nx = '```'\n\n````");
});

test("the embeddedContext capability is read from promptCapabilities", () => {
  assert.equal(acceptsEmbeddedContext({ promptCapabilities: { embeddedContext: true } }), true);
  assert.equal(acceptsEmbeddedContext({ promptCapabilities: {} }), false);
  assert.equal(acceptsEmbeddedContext({}), false);
});

test("commands: malformed entries dropped, hints kept", () => {
  const items = commandItems([
    { name: "read", description: "Read" },
    { name: "" },
    3,
    { name: "web", input: { hint: "query" } },
  ]);
  assert.deepEqual(items, [
    { name: "read", description: "Read", hint: "" },
    { name: "web", description: "", hint: "query" },
  ]);
  assert.deepEqual(commandItems(null), []);
});

test("completion only while typing /word: prefixes first, then substrings", () => {
  const items = commandItems([{ name: "plan" }, { name: "shell" }, { name: "early-permission" }, { name: "all" }]);
  assert.deepEqual(
    matchCommands("/", items).map((c) => c.name),
    ["plan", "shell", "early-permission", "all"],
  );
  assert.deepEqual(
    matchCommands("/s", items).map((c) => c.name),
    ["shell", "early-permission"],
  );
  assert.deepEqual(
    matchCommands("/A", items).map((c) => c.name),
    ["all", "plan", "early-permission"],
  );
  assert.deepEqual(
    matchCommands("/pe", items).map((c) => c.name),
    ["early-permission"],
  );
  assert.deepEqual(matchCommands("/plan now", items), []);
  assert.deepEqual(matchCommands("plan", items), []);
});
