/** The chat view's HTML: escaping everywhere, cards, plan, pickers, generic rendering of unknowns. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { emptySnapshot } from "../src/core/reducer";
import { viewExtras as extras } from "./helpers";
import {
  renderBlock,
  renderEntry,
  renderPickers,
  renderPlan,
  renderStatus,
  renderChips,
  renderToolCard,
} from "../src/webview/render";

test("messages render Markdown; thoughts are collapsible; nothing from the agent is markup", () => {
  const s = emptySnapshot("s", 1);
  const agent = renderEntry(
    { kind: "message", role: "agent", messageId: null, content: [{ type: "text", text: "**hi** <b>x</b>" }] },
    s,
    extras(),
  );
  assert.equal(agent, '<div class="msg agent"><p><strong>hi</strong> &lt;b&gt;x&lt;/b&gt;</p></div>');
  const thought = renderEntry(
    { kind: "message", role: "thought", messageId: null, content: [{ type: "text", text: "hmm" }] },
    s,
    extras(),
  );
  // Keyed by session and entry, so the chat keeps it open or closed as the user left it.
  assert.match(thought, /^<details class="thought" data-key="s:-1"><summary>/);
});

test("a user message of a checkpointed turn offers to restore the files to before it", () => {
  const s = emptySnapshot("s", 1);
  const text = [{ type: "text", text: "go" }];
  const mine = renderEntry({ kind: "message", role: "user", messageId: null, content: text, turn: 3 }, s, extras());
  assert.match(mine, /<button class="" data-act="restore" data-turn="3">Restore to before this turn<\/button>/);
  const older = renderEntry({ kind: "message", role: "user", messageId: null, content: text }, s, extras());
  assert.doesNotMatch(older, /data-act="restore"/);
  const agent = renderEntry({ kind: "message", role: "agent", messageId: null, content: text, turn: 3 }, s, extras());
  assert.doesNotMatch(agent, /data-act="restore"/);
});

test("v2: a queued prompt says the agent holds it (no Edit or Remove), a dropped one says so; the status says when the agent waits for you", () => {
  const s = emptySnapshot("s", 2);
  const text = [{ type: "text", text: "next" }];
  const queued = renderEntry(
    { kind: "message", role: "user", messageId: null, content: text, queued: true },
    s,
    extras(),
    4,
  );
  assert.match(queued, /Queued by the agent: .*cannot be changed or removed here/);
  assert.doesNotMatch(queued, /data-act="(editQueued|withdrawQueued|editResend)"/);
  assert.match(queued, /class="msg user queued"/);
  const dropped = renderEntry(
    { kind: "message", role: "user", messageId: null, content: text, dropped: true },
    s,
    extras(),
    4,
  );
  assert.match(dropped, /✕ Not sent: the agent's work was cancelled/);
  assert.match(dropped, /class="msg user dropped"/);
  const taken = renderEntry({ kind: "message", role: "user", messageId: "u1", content: text }, s, extras());
  assert.doesNotMatch(taken, /Queued|Not sent/);
  assert.match(renderStatus(extras(), { state: "requires_action" }), /waiting for you/);
  assert.match(renderStatus(extras(), { state: "running" }), /working…/);
  assert.doesNotMatch(renderStatus(extras(), { state: "idle", stopReason: "end_turn" }), /working|waiting/);
});

test("the header says one state after the agent's name: ready, or what its turn does", () => {
  const agent = { agent: "demo", state: "ready" as const, command: ["demo"], agentInfo: { title: "Demo" } };
  const words = (html: string): string => html.replace(/<[^>]*>/g, "").trim();
  assert.equal(words(renderStatus(extras({ agent }))), "Demo: ready");
  assert.equal(words(renderStatus(extras({ agent, busy: true }))), "Demo: working…");
  assert.equal(
    words(renderStatus(extras({ agent, busy: true }), { state: "requires_action" })),
    "Demo: waiting for you…",
  );
  assert.equal(words(renderStatus(extras({ agent: { ...agent, state: "starting" }, busy: true }))), "Demo: starting");
});

test("v1: a waiting prompt offers Edit and Remove, naming its entry; a removed one is marked; earlier prompts offer Edit and resend", () => {
  const s = emptySnapshot("s", 1);
  const text = [{ type: "text", text: "next" }];
  const queued = renderEntry(
    { kind: "message", role: "user", messageId: null, content: text, queued: true },
    s,
    extras(),
    7,
  );
  assert.match(queued, /◷ Waiting: it goes when the turn before it ends/);
  assert.match(queued, /<button class="" data-act="editQueued" data-index="7">Edit<\/button>/);
  assert.match(queued, /<button class="reject" data-act="withdrawQueued" data-index="7">Remove<\/button>/);
  assert.doesNotMatch(queued, /editResend/, "a waiting prompt is edited in place, not resent");
  const dropped = renderEntry(
    { kind: "message", role: "user", messageId: null, content: text, dropped: true },
    s,
    extras(),
    7,
  );
  assert.match(dropped, /✕ Not sent: removed, or dropped with a cancel, before its turn/);
  assert.doesNotMatch(dropped, /editQueued|withdrawQueued/);
  assert.match(dropped, /data-act="editResend" data-index="7">Edit and resend</);
  const earlier = renderEntry(
    { kind: "message", role: "user", messageId: null, content: text, turn: 2 },
    s,
    extras(),
    0,
  );
  assert.match(
    earlier,
    /data-act="editResend" data-index="0">Edit and resend<\/button><button class="" data-act="restore"/,
  );
  const agent = renderEntry({ kind: "message", role: "agent", messageId: null, content: text }, s, extras(), 1);
  assert.doesNotMatch(agent, /editResend/);
});

test("images only as base64 data of image types; unknown blocks shown as escaped JSON", () => {
  assert.match(
    renderBlock({ type: "image", mimeType: "image/png", data: "AAAA" }),
    /src="data:image\/png;base64,AAAA"/,
  );
  assert.doesNotMatch(renderBlock({ type: "image", mimeType: "image/svg+xml", data: "AAAA" }), /<img/);
  assert.doesNotMatch(renderBlock({ type: "image", mimeType: "image/png", data: '" onerror="x' }), /<img/);
  assert.match(renderBlock({ type: "_new", v: "<i>" }), /\[_new\]<pre class="raw">[^<]*&lt;i&gt;/);
});

test("a tool card: icon, escaped title, status, location links, diff counts, terminal output", () => {
  const tc = {
    toolCallId: "c1",
    kind: "execute",
    status: "in_progress",
    title: "<Run>",
    locations: [{ path: "/w/a.py", line: 4 }],
    content: [
      { type: "terminal", terminalId: "t1" },
      { type: "diff", path: "/w/a.py", oldText: "a\n", newText: "b\nc\n" },
      { type: "_odd" },
    ],
  };
  const html = renderToolCard(
    tc,
    extras({ terminals: { t1: { output: "<ok>\n", exitStatus: { exitCode: 0, signal: null } } } }),
  );
  assert.match(html, /<span class="icon">▶<\/span>/);
  assert.match(html, /&lt;Run&gt;/);
  assert.match(renderToolCard({ toolCallId: "c", title: "Run `npm test`" }, extras()), /Run <code>npm test<\/code>/);
  assert.match(html, /<span class="badge">running<\/span>/);
  assert.match(html, /data-act="open" data-target="\/w\/a.py" data-line="4"[^>]*>a\.py:4<\/a>/);
  assert.match(html, /<span class="counts">\+2 −1<\/span>/);
  assert.match(html, /<pre>&lt;ok&gt;\n<\/pre><div class="exit">exit 0<\/div>/);
  assert.match(html, /\[_odd\]/);
});

test("review counts and pending permissions appear on their tool card with answer buttons", () => {
  const html = renderToolCard(
    { toolCallId: "c1", kind: "edit" },
    extras({
      review: { c1: { pending: 2, accepted: 0, rejected: 0 } },
      permissions: [
        {
          id: "p1",
          toolCallId: "c1",
          title: "Edit",
          message: "Edit a.py?",
          options: [
            { optionId: "ok", label: "Allow once", kind: "allow_once" },
            { optionId: "no", label: "Reject", kind: "reject_once" },
          ],
          diffs: [{ uri: "file:///w/a.py", path: "/w/a.py", added: 1, removed: 0 }],
        },
      ],
    }),
  );
  assert.match(html, /2 changes to review/);
  assert.match(html, /data-act="review" data-decision="accept" data-tool="c1"/);
  assert.match(html, /class="allow" data-act="permission" data-id="p1" data-option="ok">Allow once</);
  assert.match(html, /class="reject" data-act="permission" data-id="p1" data-option="no">Reject</);
  assert.match(html, /Show diff a\.py \+1 −0/);
});

test("unknown transcript entries are shown generically", () => {
  const html = renderEntry(
    { kind: "update", update: { sessionUpdate: "_future", x: 1 } },
    emptySnapshot("s", 1),
    extras(),
  );
  assert.match(html, /<summary>_future<\/summary>/);
});

test("the plan, the pickers and the status line", () => {
  assert.equal(renderPlan(null), "");
  assert.match(
    renderPlan({
      entries: [
        { content: "<a>", status: "completed" },
        { content: "b", status: "_x" },
      ],
    }),
    /●<\/span> &lt;a&gt;.*\?<\/span> b/s,
  );
  const s = emptySnapshot("s", 1);
  s.modes = {
    currentModeId: "code",
    availableModes: [
      { id: "ask", name: "Ask" },
      { id: "code", name: "Code" },
    ],
  };
  s.configOptions = [
    {
      id: "model",
      name: "Model",
      type: "select",
      currentValue: "b",
      options: [
        { value: "a", name: "A" },
        { value: "b", name: "B" },
      ],
    },
    { id: "x", type: "boolean", currentValue: true },
  ];
  const p = renderPickers(s);
  assert.match(p, /<option value="code" selected>Code<\/option>/);
  assert.match(p, /data-act="setConfig" data-config="model"/);
  assert.match(p, /<option value="b" selected>B<\/option>/);
  // A boolean option is a toggle: a checkbox drawn as a switch.
  assert.match(
    p,
    /<label class="toggle"><input type="checkbox" role="switch" aria-checked="true" data-act="setConfig" data-config="x" checked>/,
  );
  const st = renderStatus(
    extras({
      agent: { agent: "x", state: "failed", command: ["x"], message: "no key", stderrTail: "<err>" },
      busy: true,
    }),
  );
  assert.match(st, /x: <span class="state">failed<\/span>/);
  assert.doesNotMatch(st, /working…/, "a failed agent's own state, not a stale turn's");
  assert.match(st, /&lt;err&gt;/);
  assert.match(
    renderStatus(extras({ problem: "acp-editor was not found: pip install acp-editor" })),
    /<div class="problem">acp-editor was not found: pip install acp-editor<\/div>/,
  );
});

test("tool output keeps its indentation, and a terminal's output is not repeated as text", async () => {
  const { renderToolText } = await import("../src/webview/render");
  assert.equal(renderToolText("def f():\n    return 1\n"), '<pre class="output">def f():\n    return 1</pre>');
  assert.match(renderToolText("```py\n  x = 1\n```"), /<pre data-lang="py"><code> {2}x = 1<\/code><\/pre>/);
  const tc = {
    toolCallId: "t1",
    title: "Run ls",
    kind: "execute",
    status: "completed",
    content: [
      { type: "terminal", terminalId: "term" },
      { type: "content", content: { type: "text", text: "a.txt\nb.txt\n" } },
    ],
  };
  const card = renderToolCard(
    tc,
    extras({ terminals: { term: { output: "a.txt\nb.txt\n", exitStatus: { exitCode: 0, signal: null } } } }),
  );
  assert.equal(card.split("a.txt").length - 1, 1, card);
});

test("chips: the kind's mark, the label and its whole title escaped, a × that removes that one", () => {
  const html = renderChips([
    { kind: "file", label: "a.py", title: "file:///w/a.py" },
    { kind: "url", label: "<x>", title: 'https://e.com/?q="1"' },
  ]);
  assert.equal(
    html,
    '<span class="chip chip-file" title="file:///w/a.py"><span class="chip-icon">@</span><span class="chip-label">a.py</span>' +
      '<button data-act="removeAttachment" data-index="0" title="Remove a.py" aria-label="Remove a.py">×</button></span>' +
      '<span class="chip chip-url" title="https://e.com/?q=&quot;1&quot;"><span class="chip-icon">↗</span><span class="chip-label">&lt;x&gt;</span>' +
      '<button data-act="removeAttachment" data-index="1" title="Remove &lt;x&gt;" aria-label="Remove &lt;x&gt;">×</button></span>',
  );
  assert.equal(renderChips([]), "");
});

test("a file sent as its link and its text shows once, its text folded", () => {
  const s = emptySnapshot("s", 1);
  const html = renderEntry(
    {
      kind: "message",
      role: "user",
      messageId: null,
      content: [
        { type: "text", text: "look" },
        { type: "resource_link", uri: "file:///w/a.py", name: "a.py" },
        { type: "resource", resource: { uri: "file:///w/a.py", text: "x = 1", mimeType: "text/x-python" } },
        { type: "resource_link", uri: "https://e.com/", name: "https://e.com/" },
      ],
    },
    s,
    extras(),
  );
  assert.equal((html.match(/>a\.py<\/a>/g) ?? []).length, 1, html);
  assert.match(
    html,
    /<details class="resource"><summary>↗ <a data-act="open" data-target="file:\/\/\/w\/a.py">a.py<\/a><\/summary><pre>x = 1<\/pre><\/details>/,
  );
  assert.match(html, /https:\/\/e\.com\//);
});

test("a prompt's attachments are drawn after its text, each an item of its own; an attached text folded under its first line", () => {
  const html = renderEntry(
    {
      kind: "message",
      role: "user",
      messageId: null,
      content: [
        { type: "text", text: "explain @a.py" },
        { type: "resource_link", uri: "file:///w/a.py", name: "a.py" },
        { type: "text", text: "Problems the editor reports in a.py:\n- a.py:1:1 error: no" },
        { type: "resource_link", uri: "https://e.com/", name: "https://e.com/" },
      ],
    },
    emptySnapshot("s", 1),
    extras(),
  );
  const [typed, attached = ""] = html.split('<div class="attached">');
  assert.match(typed ?? "", /<p>explain @a\.py<\/p>/);
  assert.doesNotMatch(typed ?? "", /a\.py<\/a>|Problems/, "an attachment drawn in the typed text");
  assert.equal((attached.match(/<li>/g) ?? []).length, 3, attached);
  assert.match(
    attached,
    /<summary>§ Problems the editor reports in a\.py: <span class="counts">\(2 lines\)<\/span><\/summary>/,
  );
});
