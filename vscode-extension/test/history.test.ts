/** ↑/↓ through earlier prompts: newest first, the user's own text kept aside and brought back. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PromptHistory } from "../src/core/history";

const at = (n: number) => ({ start: n, end: n });

function loaded(): PromptHistory {
  const h = new PromptHistory();
  h.load(["first", "second", "third"]); // oldest first, as acp/promptHistory answers
  return h;
}

test("↑ in an empty prompt walks back from the newest; ↓ past the newest gives the empty prompt back", () => {
  const h = loaded();
  assert.equal(h.up("", at(0)), "third");
  assert.equal(h.up("third", at(5)), "second", "an unchanged earlier prompt walks on, wherever the caret");
  assert.equal(h.up("second", at(6)), "first");
  assert.equal(h.up("first", at(5)), null, "nothing older: the key is the box's");
  assert.equal(h.down("first", at(5)), "second");
  assert.equal(h.down("second", at(6)), "third");
  assert.equal(h.down("third", at(5)), "");
  assert.equal(h.walking, false);
  assert.equal(h.down("", at(0)), null, "not walking: ↓ is the box's");
});

test("what the user was typing is kept aside while walking and comes back", () => {
  const h = loaded();
  assert.equal(h.up("half a tho", at(10)), null, "↑ with the caret in typed text moves the caret");
  assert.equal(h.up("half a tho", at(0)), "third", "at the very start it walks, keeping the text");
  assert.equal(h.down("third", at(5)), "half a tho");
});

test("an earlier prompt being edited keeps the keys for moving the caret, except at its ends", () => {
  const h = loaded();
  assert.equal(h.up("", at(0)), "third");
  assert.equal(h.up("third!", at(3)), null);
  assert.equal(h.down("third!", at(3)), null);
  assert.equal(h.down("third!", at(6)), "", "at the very end ↓ goes on (to the user's empty prompt)");
  assert.equal(h.up("", { start: 0, end: 0 }), "third");
  assert.equal(h.up("th", { start: 0, end: 2 }), null, "a selection is not the caret at the start");
});

test("a prompt sent is not the newest until the history says so (a waiting one may be removed); the history arriving mid-walk waits", () => {
  const h = loaded();
  assert.equal(h.up("", at(0)), "third");
  h.endWalk();
  assert.equal(h.walking, false, "sending ends the walk");
  assert.equal(h.up("", at(0)), "third", "the prompt sent is not recalled before the sidecar holds it");
  h.endWalk();
  h.load(["first", "second", "third", "fourth"]);
  assert.equal(h.up("", at(0)), "fourth");
  assert.equal(h.up("fourth", at(6)), "third");
  h.load(["other"]);
  assert.equal(h.up("third", at(5)), "second", "not replaced while walking");
  h.endWalk();
  h.load(["other"]);
  assert.equal(h.up("", at(0)), "other");
  assert.equal(new PromptHistory().up("", at(0)), null);
  // The box emptied while walking (its input event ends the walk): ↑ starts from the newest.
  assert.equal(h.up("", at(0)), null, "one prompt, already shown");
  h.endWalk();
  assert.equal(h.up("", at(0)), "other");
});
