/** The modes offered to pick from: v1's list, or v2's config option of category "mode". */
import assert from "node:assert/strict";
import { test } from "node:test";
import { modeChoices } from "../src/core/modes";
import { emptySnapshot } from "../src/core/reducer";

test("v1 modes, else the values of v2's mode config option, else none", () => {
  const v1 = { ...emptySnapshot("s", 1), modes: { currentModeId: "a", availableModes: [{ id: "a", name: "A" }] } };
  assert.deepEqual(modeChoices(v1), [{ id: "a", name: "A" }]);
  const options = [
    { id: "model", category: "model", type: "select", options: [{ value: "m" }] },
    {
      id: "mode",
      category: "mode",
      type: "select",
      currentValue: "ask",
      options: [{ value: "ask", name: "Ask", description: "asks first" }],
    },
  ];
  const v2 = { ...emptySnapshot("s", 2), configOptions: options };
  assert.deepEqual(modeChoices(v2), [{ id: "ask", name: "Ask", description: "asks first" }]);
  assert.deepEqual(modeChoices({ ...emptySnapshot("s", 2), configOptions: [options[0]] }), []);
  assert.deepEqual(modeChoices(null), []);
});
