/** The prompt's content blocks, its attachments' chips and slash-command completion. */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  acceptsEmbeddedContext,
  attachmentView,
  buildPrompt,
  commandItems,
  droppedFile,
  droppedUris,
  matchCommands,
  problemsText,
  promptCaps,
  sameAttachment,
  shortUrl,
  sizeLabel,
  webAddress,
  type Attachment,
  type PromptCaps,
} from "../src/core/prompt";

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
const plain: PromptCaps = { embeddedContext: false, image: false };
const rich: PromptCaps = { embeddedContext: true, image: true };

test("plain text is one text block", () => {
  assert.deepEqual(buildPrompt("hi", [], plain), [{ type: "text", text: "hi" }]);
});

test("files become resource links; selections embedded resources when the agent takes them", () => {
  assert.deepEqual(buildPrompt("look", [file, sel], rich), [
    { type: "text", text: "look" },
    { type: "resource_link", uri: "file:///w/a.py", name: "a.py" },
    { type: "resource", resource: { uri: "file:///w/b.py#L3-5", text: "x = '```'\n", mimeType: "text/x-python" } },
  ]);
});

test("a file's text read at sending goes embedded beside its link, only to agents with embeddedContext", () => {
  const withText: Attachment = { ...file, text: "print(1)\n", languageId: "python" };
  assert.deepEqual(buildPrompt("look", [withText], rich).slice(1), [
    { type: "resource_link", uri: "file:///w/a.py", name: "a.py" },
    { type: "resource", resource: { uri: "file:///w/a.py", text: "print(1)\n", mimeType: "text/x-python" } },
  ]);
  assert.deepEqual(buildPrompt("look", [withText], plain).slice(1), [
    { type: "resource_link", uri: "file:///w/a.py", name: "a.py" },
  ]);
  const unknownLanguage: Attachment = { ...file, text: "x" };
  assert.deepEqual(buildPrompt("", [unknownLanguage], rich)[2], {
    type: "resource",
    resource: { uri: "file:///w/a.py", text: "x", mimeType: "text/plain" },
  });
});

test("without embeddedContext a selection is a text block of its own, fenced so it cannot close early", () => {
  assert.deepEqual(buildPrompt("look", [sel], plain), [
    { type: "text", text: "look" },
    { type: "text", text: "b.py:3-5:\n````python\nx = '```'\n\n````" },
  ]);
});

test("problems go as a text block, a web page as a link, an image only to agents that take images", () => {
  const problems: Attachment = { kind: "problems", uri: "file:///w/a.py", name: "a.py", count: 1, text: "P" };
  const url: Attachment = { kind: "url", url: "https://example.com/doc" };
  const image: Attachment = { kind: "image", name: "shot.png", mimeType: "image/png", data: "iVBORw0K" };
  assert.deepEqual(buildPrompt("see", [problems, url, image], rich), [
    { type: "text", text: "see" },
    { type: "text", text: "P" },
    { type: "resource_link", uri: "https://example.com/doc", name: "https://example.com/doc" },
    { type: "image", mimeType: "image/png", data: "iVBORw0K" },
  ]);
  assert.deepEqual(
    buildPrompt("see", [image], { embeddedContext: true, image: false }),
    [{ type: "text", text: "see" }],
    "an agent that did not announce images is sent none",
  );
});

test("the capabilities are read from promptCapabilities, defensively", () => {
  assert.equal(acceptsEmbeddedContext({ promptCapabilities: { embeddedContext: true } }), true);
  assert.equal(acceptsEmbeddedContext({ promptCapabilities: {} }), false);
  assert.equal(acceptsEmbeddedContext({}), false);
  assert.deepEqual(promptCaps({ promptCapabilities: { image: true, audio: true } }), {
    embeddedContext: false,
    image: true,
  });
  assert.deepEqual(promptCaps({ promptCapabilities: "yes" }), plain);
  assert.deepEqual(promptCaps({ promptCapabilities: { image: "true" } }), plain);
});

test("chips say what is attached: a file, lines, problems, a short address, an image's size", () => {
  assert.deepEqual(attachmentView(file), { kind: "file", label: "a.py", title: "file:///w/a.py" });
  assert.equal(attachmentView(sel).label, "b.py:3-5");
  const problems: Attachment = { kind: "problems", uri: "file:///w/a.py", name: "a.py", count: 2, text: "" };
  assert.equal(attachmentView(problems).label, "Problems: a.py (2)");
  const url: Attachment = { kind: "url", url: "https://example.com/a/very/long/path/to/some/page.html" };
  assert.deepEqual(attachmentView(url), {
    kind: "url",
    label: "example.com/a/very/long/path…e/page.html",
    title: "https://example.com/a/very/long/path/to/some/page.html",
  });
  assert.equal(shortUrl("https://example.com/"), "example.com");
  const image: Attachment = { kind: "image", name: "shot.png", mimeType: "image/png", data: "A".repeat(4096) };
  assert.equal(attachmentView(image).label, "shot.png (3 KB)");
  assert.equal(sizeLabel("AAAAAAAA"), "6 B");
  assert.equal(sizeLabel("AAAAAA=="), "4 B");
  assert.equal(sizeLabel("A".repeat(4 * 1024 * 1024)), "3.0 MB");
});

test("the same thing attached twice is one attachment", () => {
  assert.equal(sameAttachment(file, { kind: "file", uri: "file:///w/a.py", name: "other" }), true);
  assert.equal(sameAttachment(file, { kind: "file", uri: "file:///w/b.py", name: "a.py" }), false);
  assert.equal(sameAttachment(sel, { ...sel }), true);
  assert.equal(sameAttachment(sel, { ...sel, endLine: 9 }), false);
  assert.equal(sameAttachment({ kind: "url", url: "https://a/" }, { kind: "url", url: "https://a/" }), true);
  assert.equal(sameAttachment(file, { kind: "url", url: "file:///w/a.py" }), false);
});

test("web addresses: http(s) only, whole", () => {
  assert.equal(webAddress(" https://example.com/x?y=1 "), "https://example.com/x?y=1");
  assert.equal(webAddress("HTTP://Example.com"), "http://example.com/");
  assert.equal(webAddress("ftp://example.com"), null);
  assert.equal(webAddress("javascript:alert(1)"), null);
  assert.equal(webAddress("https://exa mple.com"), null);
  assert.equal(webAddress("https://"), null);
});

test("problems as text: 1-based places, severity, source and code, one line each", () => {
  const at = (line: number, character: number) => ({
    start: { line, character },
    end: { line, character: character + 1 },
  });
  assert.equal(
    problemsText("a.py", [
      {
        path: "/w/a.py",
        range: at(0, 4),
        severity: "error",
        message: "undefined name\n  'x'",
        source: "ruff",
        code: "F821",
      },
      { path: "/w/a.py", range: at(9, 0), severity: "warning", message: "unused" },
    ]),
    "Problems the editor reports in a.py:\n- a.py:1:5 error: undefined name 'x' (ruff F821)\n- a.py:10:1 warning: unused",
  );
  assert.equal(problemsText("a.py", []), "The editor reports no problems in a.py.");
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

test("a dropped URI is a file of this machine: file: in a local window, vscode-remote: in a remote one", () => {
  assert.equal(droppedFile("file", false), "file");
  assert.equal(droppedFile("vscode-remote", false), null);
  // VS Code Remote, Dev Containers, Codespaces, code-server: the workbench's names of the remote files.
  assert.equal(droppedFile("vscode-remote", true), "path");
  assert.equal(droppedFile("file", true), null, "a file of the machine the window is drawn on");
  assert.equal(droppedFile("untitled", false), null);
  assert.equal(droppedFile("https", true), null);
});

test("every file dragged from the explorer is dropped, not only the first", () => {
  // VS Code puts all of them in its own list and the first alone in the standard one.
  const from = (types: Record<string, string>) => (type: string) => types[type] ?? "";
  const both = from({
    "text/uri-list": "file:///w/a.py",
    "application/vnd.code.uri-list": "file:///w/a.py\r\nfile:///w/b.py",
  });
  assert.deepEqual(droppedUris(both), ["file:///w/a.py", "file:///w/b.py"]);
  const outside = from({ "text/uri-list": "# a comment\r\nfile:///home/me/c.py\r\n" });
  assert.deepEqual(droppedUris(outside), ["file:///home/me/c.py"]);
  assert.deepEqual(droppedUris(from({})), []);
});
