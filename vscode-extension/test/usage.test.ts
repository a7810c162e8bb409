/** The usage in the chat header: tokens of the context window and the cost, or nothing. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { money, tokens, usageLabel } from "../src/core/usage";
import { renderUsage } from "../src/webview/render";

test("tokens read at a glance", () => {
  assert.deepEqual([0, 950, 1000, 5300, 53_000, 999_499, 1_200_000, 12_000_000].map(tokens), [
    "0",
    "950",
    "1k",
    "5.3k",
    "53k",
    "999k",
    "1.2M",
    "12M",
  ]);
});

test("amounts in their currency; an unknown code written out", () => {
  assert.equal(money(0.045, "USD"), "$0.045");
  assert.equal(money(1.5, "EUR"), "€1.50");
  assert.equal(money(0, "USD"), "$0.00");
  assert.equal(money(2, "not a code"), "2 not a code");
});

test("used of size, the share, and the cost when reported", () => {
  assert.deepEqual(usageLabel({ used: 53000, size: 200000, cost: { amount: 0.045, currency: "USD" } }), {
    text: "53k / 200k tokens (27%) · $0.045",
    title: "53,000 of 200,000 tokens of the context window used (27%); cost so far $0.045",
    percent: 27,
  });
  assert.equal(usageLabel({ used: 10, size: 0 })?.text, "10 / 0 tokens (0%)");
  assert.equal(usageLabel({ used: 5, size: 100, cost: { amount: "1", currency: "USD" } })?.text, "5 / 100 tokens (5%)");
});

test("nothing when the agent reported nothing, or without the two counts", () => {
  for (const u of [null, undefined, {}, { used: 5 }, { used: "5", size: 10 }, { used: -1, size: 10 }, 7]) {
    assert.equal(usageLabel(u), null, JSON.stringify(u));
    assert.equal(renderUsage(u), "");
  }
});

test("the header's usage is escaped and marked as the window fills", () => {
  assert.equal(
    renderUsage({ used: 1, size: 4, cost: { amount: 1, currency: "<b>" } }),
    '<span class="usage" title="1 of 4 tokens of the context window used (25%); cost so far 1 &lt;b&gt;">1 / 4 tokens (25%) · 1 &lt;b&gt;</span>',
  );
  assert.match(renderUsage({ used: 75, size: 100 }), /class="usage filling"/);
  assert.match(renderUsage({ used: 95, size: 100 }), /class="usage full"/);
});
