/** A permission question as a notification: at most three whole buttons, everything in "More…". */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BUTTON_MAX } from "../src/core/format";
import { MAX_BUTTONS, MORE, moreChoices, notificationButtons } from "../src/core/permissionNotice";
import type { PermissionOption } from "../src/wire";

const opt = (kind: string, name = kind): PermissionOption => ({ optionId: `${kind}-id`, name, kind });
const FOUR = [
  opt("allow_once", "Allow"),
  opt("allow_always", "Allow all edits this session"),
  opt("reject_once", "Reject"),
  opt("reject_always", "Always reject"),
];

test("four options and a diff: Allow once, Reject and More…", () => {
  const buttons = notificationButtons(FOUR, ["diff", "chat"]);
  assert.deepEqual(
    buttons.map((b) => b.title),
    ["Allow once", "Reject", MORE],
  );
  assert.deepEqual(
    buttons.map((b) => b.optionId),
    ["allow_once-id", "reject_once-id", undefined],
  );
  assert.equal(buttons[2]!.more, true);
});

test("a question that fits in three buttons shows them all, extras too (the chat is never a button)", () => {
  const two = [opt("allow_once"), opt("reject_once")];
  assert.deepEqual(
    notificationButtons(two, ["diff", "chat"]).map((b) => [b.title, b.optionId ?? b.extra]),
    [
      ["Allow once", "allow_once-id"],
      ["Reject", "reject_once-id"],
      ["Show diff", "diff"],
    ],
  );
  assert.deepEqual(
    notificationButtons(two, ["diff", "command"]).map((b) => b.title),
    ["Allow once", "Reject", MORE],
  );
});

test("custom options only: the first two and More…; never more than three, each short", () => {
  const custom = ["_a", "_b", "_c", "_d"].map((k) => opt(k, `A very long custom answer named ${k}`));
  const buttons = notificationButtons(custom, []);
  assert.equal(buttons.length, MAX_BUTTONS);
  assert.deepEqual(
    buttons.map((b) => b.optionId),
    ["_a-id", "_b-id", undefined],
  );
  for (const b of buttons) assert.ok(b.title.length <= BUTTON_MAX, b.title);
});

test("only one one-off answer: it and More…", () => {
  const options = [opt("allow_once"), opt("allow_always"), opt("reject_always")];
  assert.deepEqual(
    notificationButtons(options, ["diff"]).map((b) => b.title),
    ["Allow once", MORE],
  );
});

test("More… lists every option worded in full, in the agent's order, then the extras", () => {
  const items = moreChoices(FOUR, ["diff", "command", "chat"]);
  assert.deepEqual(
    items.map((i) => i.title),
    [
      "$(check) Allow once",
      "$(check-all) Always allow (Allow all edits this session)",
      "$(close) Reject",
      "$(circle-slash) Always reject",
      "$(diff) Show the proposed diff",
      "$(terminal) Show the whole command",
      "$(comment-discussion) Answer in the chat",
    ],
  );
  assert.deepEqual(
    items.map((i) => i.optionId ?? i.extra),
    ["allow_once-id", "allow_always-id", "reject_once-id", "reject_always-id", "diff", "command", "chat"],
  );
  assert.equal(moreChoices([opt("_later", "Ask me later")], [])[0]!.title, "Ask me later");
});
