/** Prompts again: waiting prompts, what a cancel asks, and an earlier prompt taken apart to resend. */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  cancelChoices,
  editedPrompt,
  queueEditable,
  readingOrder,
  resendChoices,
  resendParts,
  typedText,
  userMessageAt,
  waitingPrompts,
} from "../src/core/queue";
import { emptySnapshot } from "../src/core/reducer";
import type { ContentBlock, Entry } from "../src/wire";

const user = (text: string, over: Partial<Extract<Entry, { kind: "message" }>> = {}): Entry => ({
  kind: "message",
  role: "user",
  messageId: null,
  content: [{ type: "text", text }],
  ...over,
});

test("the waiting prompts are the queued user messages, by entry index; only v1's can be changed", () => {
  const s = emptySnapshot("s", 1);
  s.entries = [
    user("first"),
    { kind: "message", role: "agent", messageId: null, content: [{ type: "text", text: "working" }] },
    user("second", { queued: true }),
    user("gone", { dropped: true }),
    user("third", { queued: true }),
  ];
  assert.deepEqual(waitingPrompts(s), [
    { index: 2, text: "second" },
    { index: 4, text: "third" },
  ]);
  assert.equal(queueEditable(s), true);
  assert.equal(queueEditable({ ...s, protocolVersion: 2 }), false);
  assert.equal(queueEditable(null), false);
  assert.deepEqual(waitingPrompts(null), []);
  assert.equal(userMessageAt(s, 1), null, "an agent message is no prompt");
  assert.equal(userMessageAt(s, 9), null);
  assert.equal(typedText(userMessageAt(s, 3)?.content), "gone");
});

test("a waiting prompt's new text replaces its first text block; what it attached stays", () => {
  const link: ContentBlock = { type: "resource_link", uri: "file:///w/a.py", name: "a.py" };
  assert.deepEqual(editedPrompt([{ type: "text", text: "old" }, link], "new"), [{ type: "text", text: "new" }, link]);
  assert.deepEqual(editedPrompt([link], "new"), [{ type: "text", text: "new" }, link]);
  assert.deepEqual(editedPrompt(undefined, "new"), [{ type: "text", text: "new" }]);
});

test("a cancel with prompts waiting offers to keep them first, then to drop them", () => {
  assert.deepEqual(
    cancelChoices(2).map((c) => [c.label, c.dropQueued]),
    [
      ["Keep the 2 waiting prompts", false],
      ["Drop the 2 waiting prompts", true],
    ],
  );
  assert.deepEqual(
    cancelChoices(1).map((c) => c.label),
    ["Keep the waiting prompt", "Drop the waiting prompt"],
    "one prompt: both choices say so",
  );
  assert.deepEqual(
    cancelChoices(2).map((c) => c.label),
    ["Keep the 2 waiting prompts", "Drop the 2 waiting prompts"],
  );
  assert.match(cancelChoices(1)[0]?.description ?? "", /after the cancelled turn/);
});

test("a prompt that waited reads after the reply it waited for; one still waiting reads last", () => {
  const agent = (text: string): Entry => ({
    kind: "message",
    role: "agent",
    messageId: null,
    content: [{ type: "text", text }],
  });
  const entries: Entry[] = [
    user("first"), // 0
    { kind: "toolCall", toolCallId: "t1" }, // 1: the first turn's
    user("second", { waitedUntil: 5 }), // 2: sent during the first turn, went after its reply
    user("removed", { dropped: true, waitedUntil: 4 }), // 3: withdrawn while the reply streamed
    agent("the first's reply"), // 4
    agent("the second's reply"), // 5
    user("third", { queued: true }), // 6: still waiting
    { kind: "toolCall", toolCallId: "t2" }, // 7: the second turn's
  ];
  assert.deepEqual(readingOrder(entries), [0, 1, 3, 4, 2, 5, 7, 6]);
  assert.deepEqual(readingOrder([user("a"), agent("b")]), [0, 1], "nothing waited: index order");
  const tie: Entry[] = [user("a"), user("went", { waitedUntil: 3 }), user("gone", { dropped: true, waitedUntil: 3 })];
  assert.deepEqual(readingOrder(tie), [0, 2, 1], "the removed one first: the reply after is the other's");
});

test("resending asks this session first, a fork only when the agent can fork, and a new session", () => {
  assert.deepEqual(
    resendChoices(true).map((c) => [c.label, c.target]),
    [
      ["In this session", "session"],
      ["In a fork of the session", "fork"],
      ["In a new session", "new"],
    ],
  );
  assert.deepEqual(
    resendChoices(false).map((c) => c.target),
    ["session", "new"],
  );
});

test("an earlier prompt comes back as its typed text and chips for files, selections, pages and images", () => {
  const parts = resendParts([
    { type: "text", text: "look at @a.py" },
    { type: "resource_link", uri: "file:///w/a.py", name: "a.py" },
    { type: "resource", resource: { uri: "file:///w/a.py", text: "x = 1\n", mimeType: "text/x-python" } },
    { type: "resource", resource: { uri: "file:///w/b.ts#L3-4", text: "let y;\n", mimeType: "text/x-typescript" } },
    { type: "resource_link", uri: "https://example.com/page", name: "https://example.com/page" },
    { type: "text", text: "The editor reports no problems in a.py." },
    { type: "image", mimeType: "image/png", data: "AAAA" },
    { type: "resource", resource: { uri: "file:///w/c.md", text: "# C" } },
  ]);
  assert.equal(parts.text, "look at @a.py");
  assert.deepEqual(parts.attachments, [
    { kind: "file", uri: "file:///w/a.py", name: "a.py" },
    {
      kind: "selection",
      uri: "file:///w/b.ts",
      name: "b.ts",
      startLine: 2,
      endLine: 3,
      text: "let y;\n",
      languageId: "typescript",
    },
    { kind: "url", url: "https://example.com/page" },
    { kind: "image", name: "image", mimeType: "image/png", data: "AAAA" },
    { kind: "file", uri: "file:///w/c.md", name: "c.md" },
  ]);
  assert.equal(parts.leftOut, 1, "the problems' text is not a chip");
  assert.deepEqual(resendParts(undefined), { text: "", attachments: [], leftOut: 0 });
});
