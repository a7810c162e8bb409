/** Reading loosely typed wire JSON as text. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { stringOf } from "../src/core/json";

test("strings stay as they are, numbers and booleans are spelled out", () => {
  assert.equal(stringOf("a b"), "a b");
  assert.equal(stringOf(""), "");
  assert.equal(stringOf(3), "3");
  assert.equal(stringOf(false), "false");
});

test("anything else is the fallback, never [object Object]", () => {
  for (const value of [undefined, null, {}, { id: "x" }, ["a"]]) {
    assert.equal(stringOf(value), "");
    assert.equal(stringOf(value, "pending"), "pending");
  }
});
