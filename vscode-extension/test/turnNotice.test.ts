/** The notice that a turn ended out of sight: when, and what it says. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { noticeWanted, turnEndMessage } from "../src/core/turnNotice";

test("only when the window is unfocused or the chat hidden", () => {
  assert.equal(noticeWanted({ windowFocused: true, chatVisible: true }), false);
  assert.equal(noticeWanted({ windowFocused: false, chatVisible: true }), true);
  assert.equal(noticeWanted({ windowFocused: true, chatVisible: false }), true);
  assert.equal(noticeWanted({ windowFocused: false, chatVisible: false }), true);
});

test("what the turn's end says, with the review that waits", () => {
  assert.equal(turnEndMessage("Demo", "end_turn"), "Demo finished its turn.");
  assert.equal(turnEndMessage("Demo", "end_turn", 1), "Demo finished its turn; 1 change waits for your review.");
  assert.equal(turnEndMessage("Demo", "end_turn", 3), "Demo finished its turn; 3 changes wait for your review.");
  assert.equal(turnEndMessage("Demo", "max_tokens"), "Demo stopped: it reached its token limit.");
  assert.equal(turnEndMessage("Demo", "_custom"), "Demo stopped (_custom).");
});

test("no notice for a turn the user cancelled, or without a stop reason", () => {
  assert.equal(turnEndMessage("Demo", "cancelled"), null);
  assert.equal(turnEndMessage("Demo", null), null);
});
