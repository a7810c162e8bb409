// Prompts again, in a real VS Code: a prompt sent while a turn runs waits in the chat with Edit and
// Remove (the demo agent is a v1 agent: the sidecar holds its queue), a cancel asks whether what
// waits goes too, and an earlier prompt comes back into the prompt box to be resent where the user
// says. What is drawn is read from the webview and the workbench (buttons, marks, the prompt box,
// the quick pick's rows); what the sidecar did from its own snapshot (acp/snapshot).
//
// The demo agent's `wait` starts a tool call that runs until it is cancelled: a turn to queue
// behind. Each test stands alone: `bash scripts/integration.sh --only 'queue'`.
'use strict';

const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { test, screenshot, press, type, click } = require(path.join(__dirname, '..', '..', 'test-harness', 'host'));
const { until } = require('./probes');
const { ready, drawn, chips, promptText, focusPrompt, clearPrompt, quickPickRows, userMessages } = require('./chat');

const hello = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'hello.py');
/** The quick pick's descriptions, drawn beside its rows' labels (quickPickRows). */
const DESCRIPTIONS = '.quick-input-widget .quick-input-list .monaco-list-row .label-description';
const textOf = (entry) => (entry.content.find((b) => b.type === 'text') || {}).text;

/** A new session whose turn runs (the demo agent's `wait`) until it is cancelled; `{turn}`, the
 *  turn's answer (in an object: an async function returning the promise would wait for it). */
async function runningTurn(api) {
  await api.newSession();
  const turn = api.prompt('wait');
  await until('the waiting tool call', () =>
    Object.values(api.session().toolCalls).some((t) => t.title.startsWith('Wait') && t.status === 'in_progress'),
  );
  return { turn };
}

/** Send `text` while the turn runs; resolves with its entry index once it shows as waiting. */
async function queue(api, text) {
  const answer = api.prompt(text);
  const index = await until(`"${text}" waiting`, () => {
    const i = api.session().entries.findIndex((e) => e.kind === 'message' && e.role === 'user' && textOf(e) === text);
    return i >= 0 && api.session().entries[i].queued ? i : null;
  });
  return { index, answer };
}

/** A user message as the sidecar holds it (not the extension's mirror). */
async function held(api, index) {
  return (await api.sidecarSession()).entries[index];
}

test(
  'queue: a waiting prompt shows Edit and Remove; Edit saves new text (acp/editPrompt), Remove drops it (acp/withdrawPrompt)',
  async () => {
    const api = await ready();
    const { turn } = await runningTurn(api);
    const first = await queue(api, 'first thing after');
    const second = await queue(api, 'second thing after');
    await focusPrompt();
    const buttons = await until('the waiting messages drawn with their buttons', async () => {
      const b = await drawn('#transcript .msg.queued button');
      return b.length === 4 ? b : null;
    });
    assert.deepStrictEqual(buttons, ['Edit', 'Remove', 'Edit', 'Remove']);
    await screenshot('queue', { settleMs: 500 }); // the README's picture of two waiting prompts
    const [line] = await drawn('#transcript .msg.queued .turn.queued');
    assert.match(line, /^◷ Waiting: it goes when the turn before it ends/);

    // Edit: the text into the prompt box, a line above it says Enter saves.
    await click(`#transcript [data-act="editQueued"][data-index="${first.index}"]`);
    await until('its text in the prompt box', async () => (await promptText()) === 'first thing after', 5000);
    assert.match((await drawn('#mode'))[0], /Editing the waiting prompt: Enter saves it/);
    await clearPrompt();
    await type('first thing, changed');
    await press('Enter');
    await until('the new text held by the sidecar', async () => {
      const e = await held(api, first.index);
      return e.queued === true && textOf(e) === 'first thing, changed';
    });
    await until('the new text drawn', async () =>
      (await drawn('#transcript .msg.queued')).some((t) => t.startsWith('first thing, changed')),
    );
    assert.deepStrictEqual(await drawn('#mode'), [''], 'the edit line is still shown');
    assert.strictEqual(userMessages(api).length, 3, 'saving the edit sent a prompt');
    // ↑ recalls what went to the agent: not the waiting prompt just saved (it may be removed).
    await press('ArrowUp');
    await until('an earlier prompt recalled', async () => (await promptText()) !== '', 5000);
    assert.strictEqual(await promptText(), 'wait');
    await clearPrompt();

    // Remove: marked dropped, its prompt answered "cancelled", no buttons left on it.
    await click(`#transcript [data-act="withdrawQueued"][data-index="${second.index}"]`);
    assert.strictEqual((await second.answer).stopReason, 'cancelled');
    const e = await held(api, second.index);
    assert.ok(e.dropped === true && !e.queued, JSON.stringify(e));
    const dropped = await until('the removed prompt drawn as not sent', async () => {
      const d = await drawn('#transcript .msg.dropped');
      return d.length === 1 ? d[0] : null;
    });
    assert.match(
      dropped,
      /^second thing after\s+✕ Not sent: removed, or dropped with a cancel, before its turn\.\s+Edit and resend$/,
    );

    // The turn cancelled: what still waits goes after it, as changed.
    await click(`#transcript [data-act="withdrawQueued"][data-index="${first.index}"]`);
    assert.strictEqual((await first.answer).stopReason, 'cancelled');
    assert.strictEqual(await api.cancel(), true);
    assert.strictEqual((await turn).stopReason, 'cancelled');
    assert.deepStrictEqual(api.cancelChoices(), [], 'nothing waited, yet the cancel asked');
    // Neither removed prompt is recalled, as first typed or as edited: they were never sent.
    await focusPrompt();
    await press('ArrowUp');
    await until('an earlier prompt recalled', async () => (await promptText()) !== '', 5000);
    assert.strictEqual(await promptText(), 'wait');
    await clearPrompt();
  },
  { timeoutMs: 30000 },
);

test(
  "queue: Cancel (■) with a prompt waiting asks to keep it (first) or drop it; Ctrl+Alt+X's Keep sends it after the cancelled turn",
  async () => {
    const api = await ready();
    let { turn } = await runningTurn(api);
    let waiting = await queue(api, 'something after');
    await focusPrompt();
    await click('#cancel');
    const rows = await until('the cancel question drawn', async () => {
      const r = await quickPickRows();
      return r.length === 2 ? r : null;
    });
    assert.deepStrictEqual(rows, ['Keep the waiting prompt', 'Drop the waiting prompt']);
    assert.deepStrictEqual(await drawn(DESCRIPTIONS), ['it goes after the cancelled turn', 'it is not sent']);
    assert.match(
      (await drawn('.quick-input-widget .quick-input-title'))[0],
      /Cancel the turn: a prompt waits after it/,
    );
    assert.ok(api.extras().busy, 'the turn was cancelled before the question was answered');
    await press('ArrowDown');
    await press('Enter');
    assert.strictEqual((await turn).stopReason, 'cancelled');
    assert.strictEqual((await waiting.answer).stopReason, 'cancelled');
    assert.ok((await held(api, waiting.index)).dropped, 'the waiting prompt was not dropped');
    await until('the dropped mark drawn', async () =>
      (await drawn('#transcript .msg.dropped .turn.dropped')).some((t) => t.startsWith('✕ Not sent')),
    );

    // The key, and the first choice: the waiting prompt goes after the cancelled turn.
    turn = api.prompt('wait');
    await until('the turn running', () => api.extras().busy);
    waiting = await queue(api, 'keep me');
    // Pressed in the editor (a key the test presses into the webview does not reach the workbench
    // in headless Chromium: see surface.js).
    await vscode.window.showTextDocument(hello, { preview: false });
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await press('Control+Alt+KeyX');
    await until('the cancel question drawn', async () => (await quickPickRows()).length === 2);
    assert.deepStrictEqual(api.cancelChoices(), ['Keep the waiting prompt', 'Drop the waiting prompt']);
    await press('Enter');
    assert.strictEqual((await turn).stopReason, 'cancelled');
    assert.strictEqual((await waiting.answer).stopReason, 'end_turn');
    const kept = await held(api, waiting.index);
    assert.ok(!kept.queued && !kept.dropped, JSON.stringify(kept));
    const reply = (await api.sidecarSession()).entries.slice(waiting.index + 1).find((e) => e.role === 'agent');
    assert.match(textOf(reply), /^You said: keep me\./);
  },
  { timeoutMs: 30000 },
);

test(
  'queue: Edit and resend brings an earlier prompt back with its chip; "In a fork of the session" sends it in a fork, the session left as it was',
  async () => {
    const api = await ready();
    const parent = await api.newSession();
    await vscode.window.showTextDocument(hello, { preview: false });
    await vscode.commands.executeCommand('acp-editor.attachFile');
    assert.strictEqual((await api.prompt('say something')).stopReason, 'end_turn');
    await focusPrompt();
    await clearPrompt();
    await until('no chip left', async () => (await chips()).length === 0, 5000);

    await click('#transcript .msg.user [data-act="editResend"][data-index="0"]');
    await until('the prompt back in the box', async () => (await promptText()) === 'say something', 5000);
    await until('its file back as a chip', async () => (await chips()).join() === 'hello.py', 5000);
    assert.match((await drawn('#mode'))[0], /Edit and resend: Enter asks where it goes/);
    await until('the focus in the prompt box', async () => (await drawn('textarea#input:focus')).length > 0, 5000);
    await press('End');
    await type(' again');
    await press('Enter');
    const rows = await until('where to send it, drawn', async () => {
      const r = await quickPickRows();
      return r.length === 3 ? r : null;
    });
    assert.deepStrictEqual(rows, ['In this session', 'In a fork of the session', 'In a new session']);
    assert.match((await drawn(DESCRIPTIONS))[2], /a fresh start, without the session's context/);
    await press('ArrowDown');
    await press('Enter');
    const fork = await until('the fork current', () => api.session().sessionId !== parent && api.session());
    const sent = await until('the prompt in the fork', () =>
      userMessages(api).find((e) => textOf(e) === 'say something again'),
    );
    assert.deepStrictEqual(sent.content[1], { type: 'resource_link', uri: hello.toString(), name: 'hello.py' });
    assert.strictEqual(textOf(userMessages(api)[0]), 'say something', "the fork starts with the parent's transcript");
    await until('the turn in the fork ended', () => !api.extras().busy);
    const before = await api.sidecarSession(parent);
    assert.deepStrictEqual(
      before.entries.filter((e) => e.role === 'user').map(textOf),
      ['say something'],
      'the parent session got the resent prompt',
    );
    assert.ok(fork.sessionId);
  },
  { timeoutMs: 30000 },
);
