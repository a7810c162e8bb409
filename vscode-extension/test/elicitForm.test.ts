/** A form the agent asks for: field order, choices, typed text to values, what is missing. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { choicesOf, defaults, fieldOrder, missing, parseInput, shown } from "../src/core/elicitForm";
import type { ElicitationSchema } from "../src/wire";

const schema: ElicitationSchema = {
  type: "object",
  properties: {
    notify: { type: "boolean", title: "Tell me", default: true },
    strategy: {
      type: "string",
      oneOf: [
        { const: "careful", title: "Careful" },
        { const: "quick", title: "Quick" },
      ],
      default: "careful",
    },
    files: { type: "integer", minimum: 1, maximum: 9 },
    mail: { type: "string", format: "email", maxLength: 12 },
    tags: { type: "array", items: { enum: ["x", "y"] } },
  },
  required: ["strategy", "files"],
};

test("required fields come first, each group in the schema's order", () => {
  assert.deepEqual(fieldOrder(schema), ["strategy", "files", "notify", "mail", "tags"]);
});

test("choices come from enum or oneOf, for single and multi-select fields", () => {
  assert.deepEqual(choicesOf(schema.properties["strategy"]!), [
    { value: "careful", title: "Careful" },
    { value: "quick", title: "Quick" },
  ]);
  assert.deepEqual(choicesOf(schema.properties["tags"]!), [
    { value: "x", title: "x" },
    { value: "y", title: "y" },
  ]);
  assert.deepEqual(choicesOf(schema.properties["files"]!), []);
});

test("the form starts from the defaults and says what is still missing", () => {
  const answers = defaults(schema);
  assert.deepEqual(answers, { notify: true, strategy: "careful" });
  assert.deepEqual(missing(schema, answers), ["files"]);
});

test("typed text becomes a value of the field's type, or says what is wrong", () => {
  const files = schema.properties["files"]!;
  assert.deepEqual(parseInput(files, " 3 "), { value: 3 });
  assert.deepEqual(parseInput(files, "2.5"), { error: "Type a whole number" });
  assert.deepEqual(parseInput(files, "12"), { error: "At most 9" });
  assert.deepEqual(parseInput(files, "three"), { error: "Type a number" });
  assert.deepEqual(parseInput(files, ""), {});
  const mail = schema.properties["mail"]!;
  assert.deepEqual(parseInput(mail, "a@b.co"), { value: "a@b.co" });
  assert.deepEqual(parseInput(mail, "nope"), { error: "Type an email address" });
  assert.deepEqual(parseInput(mail, "long@example.com"), { error: "At most 12 characters" });
});

test("answers are shown as a reader says them", () => {
  assert.equal(shown(true), "Yes");
  assert.equal(shown(undefined), "(empty)");
  assert.equal(shown(["x", "y"]), "x, y");
  assert.equal(shown(3), "3");
});
