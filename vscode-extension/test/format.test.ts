/** Wording of permission options and tool calls, and diff line counts. */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  countsLabel,
  diffCounts,
  diffItems,
  kindIcon,
  oneLine,
  optionLabel,
  permissionMessage,
  splitLines,
  statusLabel,
  toolTitle,
} from "../src/core/format";
import type { RequestPermissionParams } from "../src/wire";

const opt = (kind: string, name: string): { optionId: string; name: string; kind: string } => ({
  optionId: `${kind}-id`,
  name,
  kind,
});

test("options are worded by kind, keeping a name that says more", () => {
  assert.equal(optionLabel(opt("allow_once", "Allow")), "Allow once");
  assert.equal(optionLabel(opt("allow_always", "Always Allow")), "Always allow");
  assert.equal(optionLabel(opt("reject_once", "Reject")), "Reject");
  assert.equal(optionLabel(opt("reject_always", "never")), "Always reject");
  assert.equal(
    optionLabel(opt("allow_always", "Allow all edits this session")),
    "Always allow (Allow all edits this session)",
  );
  // An "always" option stays recognisable whatever the agent called it.
  assert.equal(optionLabel(opt("allow_always", "Yes")), "Always allow");
});

test("custom and nameless options are shown generically", () => {
  assert.equal(optionLabel(opt("_ask_later", "Ask me later")), "Ask me later");
  assert.equal(optionLabel({ optionId: "x", name: "", kind: "_weird" }), "x");
  assert.equal(optionLabel({ optionId: "x", name: "", kind: "allow_once" }), "Allow once");
});

test("the permission question names the action, the command and the diff counts", () => {
  const params: RequestPermissionParams = {
    requestId: "r1",
    sessionId: "s",
    toolCall: { toolCallId: "c", title: "Edit a.py", kind: "edit" },
    options: [],
    diffs: [
      { uri: "file:///w/a.py", path: "/w/a.py", oldText: "a\n", newText: "b\nc\n", hunks: [], added: 2, removed: 1 },
    ],
  };
  assert.equal(permissionMessage(params, "Demo"), "Demo wants to edit: Edit a.py (a.py +2 −1)");
  const run: RequestPermissionParams = {
    requestId: "r1",
    sessionId: "s",
    toolCall: { toolCallId: "c", kind: "execute", title: "Run tests" },
    options: [],
    diffs: [],
    command: "npm   test\n--x",
  };
  assert.equal(permissionMessage(run), "The agent wants to run: Run tests — $ npm test --x");
  const odd: RequestPermissionParams = {
    requestId: "r1",
    sessionId: "s",
    toolCall: { toolCallId: "c", kind: "_teleport" },
    options: [],
    diffs: [],
  };
  assert.equal(permissionMessage(odd), "The agent asks: Tool call");
});

test("an ACP v2 question says the agent's own words first, then the tool call's", () => {
  const edit: RequestPermissionParams = {
    requestId: "r1",
    sessionId: "s",
    title: "Allow the edit of a.py?",
    description: "It fixes the failing test.",
    toolCall: { toolCallId: "c", title: "Edit a.py", kind: "edit" },
    options: [],
    diffs: [
      { uri: "file:///w/a.py", path: "/w/a.py", oldText: "a\n", newText: "b\n", hunks: [], added: 1, removed: 1 },
    ],
  };
  assert.equal(
    permissionMessage(edit, "Demo"),
    "Demo asks: Allow the edit of a.py? — It fixes the failing test. — Edit a.py (a.py +1 −1)",
  );
  // A command subject: the tool call the server made up carries only the request's title.
  const run: RequestPermissionParams = {
    requestId: "r1",
    sessionId: "s",
    title: "Run the tests?",
    toolCall: { toolCallId: "c", kind: "execute", title: "Run the tests?" },
    options: [],
    diffs: [],
    command: "pytest -q",
  };
  assert.equal(permissionMessage(run), "The agent asks: Run the tests? — $ pytest -q");
});

test("statuses, kinds and titles have words and icons; unknown ones pass through", () => {
  assert.equal(statusLabel("in_progress"), "running");
  assert.equal(statusLabel("_paused"), "_paused");
  assert.equal(statusLabel(undefined), "pending");
  assert.equal(kindIcon("read"), "▤");
  assert.equal(kindIcon("_custom"), kindIcon(undefined));
  assert.equal(toolTitle({ toolCallId: "c", kind: "execute" }), "Run");
  assert.equal(toolTitle({ toolCallId: "c", title: "  " }), "Tool call");
  assert.equal(countsLabel(3, 0), "+3 −0");
  assert.equal(oneLine("a\n b", 10), "a b");
  assert.equal(oneLine("abcdefghijk", 5), "abcd…");
});

test("lines are split the LSP way", () => {
  assert.deepEqual(splitLines(""), []);
  assert.deepEqual(splitLines("a"), ["a"]);
  assert.deepEqual(splitLines("a\r\nb\rc\n"), ["a", "b", "c"]);
  assert.deepEqual(splitLines("a\n\n"), ["a", ""]);
});

test("diff counts: new file, deletion, replacement, unchanged", () => {
  assert.deepEqual(diffCounts(null, "a\nb\n"), { added: 2, removed: 0 });
  assert.deepEqual(diffCounts("a\nb\n", ""), { added: 0, removed: 2 });
  assert.deepEqual(diffCounts("a\nb\nc\n", "a\nB\nc\n"), { added: 1, removed: 1 });
  assert.deepEqual(diffCounts("x\n", "x\n"), { added: 0, removed: 0 });
  assert.deepEqual(diffCounts("a\nb\nc\nd\n", "b\nc\nX\nd\nY\n"), { added: 2, removed: 1 });
});

function lcs(a: string[], b: string[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
    }
  }
  return dp[a.length]![b.length]!;
}

test("diff counts equal a brute-force longest common subsequence on random texts", () => {
  let seed = 7;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let round = 0; round < 300; round++) {
    const a = Array.from({ length: rand(12) }, () => "abc"[rand(3)] ?? "a");
    const b = Array.from({ length: rand(12) }, () => "abc"[rand(3)] ?? "a");
    const common = lcs(a, b);
    const got = diffCounts(a.map((l) => `${l}\n`).join(""), b.map((l) => `${l}\n`).join(""));
    assert.deepEqual(got, { added: b.length - common, removed: a.length - common }, `${a.join(",")} → ${b.join(",")}`);
  }
});

test("past the edit budget the middle counts as replaced", () => {
  assert.deepEqual(diffCounts("a\nb\nc\n", "x\ny\nz\n", 1), { added: 3, removed: 3 });
});

test("diff items are read from a tool call's content, ignoring other and malformed items", () => {
  const items = diffItems({
    toolCallId: "c",
    content: [
      { type: "diff", path: "/a", oldText: null, newText: "x" },
      { type: "diff", path: 1 },
      { type: "content" },
      null,
    ],
  });
  assert.deepEqual(items, [{ path: "/a", oldText: null, newText: "x" }]);
});

test("notification buttons are short; what the agent's names add is in the message", async () => {
  const { buttonLabel, optionsNote, BUTTON_MAX } = await import("../src/core/format");
  const long = opt("allow_always", "Yes, and don't ask again for these files");
  assert.equal(buttonLabel(long), "Always allow");
  assert.equal(buttonLabel(opt("allow_once", "Yes, proceed")), "Allow once");
  assert.ok(buttonLabel(opt("_ask_later", "Ask me again in an hour or so")).length <= BUTTON_MAX);
  assert.equal(optionsNote([opt("allow_once", "Allow"), opt("reject_once", "Reject")]), "");
  assert.equal(optionsNote([long]), "Always allow = “Yes, and don't ask again for these files”");
});
