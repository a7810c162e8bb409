// Several live sessions in a real VS Code (issue 28): the session strip above the chat, a click
// on a session drawing its own transcript (and giving back its prompt draft), and a permission
// question of a session that is not in front: announced by a notification with "Show" while the
// focus stays in the editor, then answered on that session's chat card. What is drawn is read
// from the webview and the workbench.
//
// The first two use sessions of the sidecar's own agent ("default"); the third starts a session
// of a second agent ("demo": integration.sh's acp-editor.agents, which the extension passes on as
// initializationOptions.acp.agents) through "ACP: New Session with Agent...". Each test stands alone:
// `bash scripts/integration.sh --only 'sessions'`.
'use strict';

const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { test, click, type, screenshot, elements } = require(path.join(__dirname, '..', '..', 'test-harness', 'host'));
const { until, notificationSpy, editorWithFocus, quickInputScript } = require('./probes');
const { ready, drawn, promptText, focusPrompt, clearPrompt } = require('./chat');

// Installed when index.js loads this file, before the extension activates.
const notifications = notificationSpy();
const hello = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'hello.py');
const STATUS = '[id="acp-editor.acp-editor.status"]';

const tab = (sessionId) => `#sessions [data-session="${sessionId}"]`;
const transcript = async () => (await drawn('#transcript')).join('\n');

/** A new session (it comes to the front) with one short turn that says `word`. */
async function sessionSaying(api, word) {
  const sessionId = await api.newSession();
  assert.strictEqual((await api.prompt(word)).stopReason, 'end_turn');
  return sessionId;
}

test(
  'sessions: two live sessions in the strip; a click on one draws its own transcript at once and gives back its draft',
  async () => {
    // A sidecar of its own: the strip (and the README's picture, in the next test) shows the
    // sessions of these tests, not every session the tests before opened.
    await ready();
    await vscode.commands.executeCommand('acp-editor.restart');
    const api = await ready();
    const alpha = await sessionSaying(api, 'alpha one');
    const bravo = await sessionSaying(api, 'bravo two');
    await focusPrompt();
    await until('bravo drawn', async () => (await transcript()).includes('You said: bravo two'));
    const strip = await until('the strip with both sessions', async () => {
      const shown = await drawn('#sessions button.session');
      return shown.length >= 2 ? shown : null;
    });
    console.log(`    the strip: ${strip.join(' | ')}`);
    const [alphaTab] = await drawn(tab(alpha));
    assert.match(alphaTab, /alpha one/);
    // The sidecar's own agent (the one after --) is "default" (docs/protocol.md, "Several agents").
    assert.match(alphaTab, /default · idle/);
    // A draft in bravo, left there when alpha comes to the front.
    await clearPrompt();
    await type('half a thought for bravo');

    const times = [];
    for (const [id, mine, other] of [
      [alpha, 'You said: alpha one', 'You said: bravo two'],
      [bravo, 'You said: bravo two', 'You said: alpha one'],
      [alpha, 'You said: alpha one', 'You said: bravo two'],
    ]) {
      await click(tab(id));
      await until(`${id} drawn`, async () => {
        const text = await transcript();
        return text.includes(mine) && !text.includes(other);
      });
      const [measured] = await elements('#switched');
      times.push(measured ? Number(measured.text) : NaN);
      assert.strictEqual(api.session().sessionId, id);
      if (id === bravo) {
        assert.strictEqual(await promptText(), 'half a thought for bravo', "bravo's draft did not come back");
      } else assert.strictEqual(await promptText(), '', "bravo's draft showed in alpha");
    }
    console.log(`    click to drawn (webview's own clock): ${times.join(', ')} ms`);
    // The sidecar has alpha in front too: a prompt naming no session goes to it.
    await until('the sidecar told (acp.status)', async () => {
      const status = await vscode.commands.executeCommand('acp.status');
      return status && status.currentSessionId === alpha;
    });
  },
  { timeoutMs: 60000 },
);

test(
  "sessions: a background session's permission question is announced without taking focus and answered in its chat",
  async () => {
    const api = await ready();
    const asker = await api.newSession();
    const front = await api.newSession();
    await vscode.commands.executeCommand('acp-editor.focusChat');
    // The user works in hello.py, with the other session in the chat.
    const editor = await vscode.window.showTextDocument(hello, { preview: false });
    const seen = notifications.calls.length;
    const turn = api.prompt('edit', asker);
    const q = await until('the question', () => api.pendingPermissions().find((p) => p.params.sessionId === asker));
    const call = await until('the announcement', () =>
      notifications.calls.slice(seen).find((c) => c.message.includes('not in front')),
    );
    console.log(`    announced: ${call.message} [${call.titles.join(' | ')}]`);
    assert.deepStrictEqual(call.titles, ['Show']);
    assert.match(call.message, /^default wants to edit: .*in session "edit", not in front/);
    assert.strictEqual(
      notifications.calls.slice(seen).filter((c) => c.message.includes('wants to edit')).length,
      1,
      'the front-session notification was shown too',
    );
    assert.strictEqual(api.session().sessionId, front, 'the question took the chat');
    assert.strictEqual((await editorWithFocus())?.uri.toString(), editor.document.uri.toString(), 'focus moved');
    await until('the strip says the asker waits', async () =>
      ((await drawn(tab(asker)))[0] || '').includes('waiting for you'),
    );
    await until('the status bar counts it', async () => /1 waiting/.test(((await drawn(STATUS))[0] || '').trim()));
    await screenshot('sessions', { settleMs: 400 }); // the README's: the strip, one session waiting

    notifications.click(call, 'Show');
    await until('the asker in front', () => api.session().sessionId === asker);
    const reject = q.params.options.find((o) => o.kind === 'reject_once');
    const button = `[data-act="permission"][data-id="${q.id}"][data-option="${reject.optionId}"]`;
    await until('its card drawn in the chat', async () => (await drawn(button)).length > 0);
    await click(button);
    assert.strictEqual((await turn).stopReason, 'end_turn');
    assert.strictEqual(api.pendingPermissions().length, 0);
    await until('the rejection in its transcript', async () => (await transcript()).includes('was rejected'));
    await focusPrompt(); // leave the focus where the other tests expect it
  },
  { timeoutMs: 60000 },
);

test(
  'sessions: "New Session with Agent..." lists the agents (acp/agents) and runs a session of a second agent beside the first',
  async () => {
    const api = await ready();
    const first = await sessionSaying(api, 'charlie three');
    const script = quickInputScript([(items) => items.find((i) => i.label === 'demo')]);
    let second;
    try {
      second = await vscode.commands.executeCommand('acp-editor.newSessionWithAgent');
    } finally {
      script.restore();
    }
    console.log(`    the agents offered: ${script.calls[0].labels.join(', ')}`);
    assert.ok(script.calls[0].labels.includes('default') && script.calls[0].labels.includes('demo'));
    assert.strictEqual(typeof second, 'string', 'no session started');
    assert.strictEqual(api.session().sessionId, second);
    assert.strictEqual(api.session().agent, 'demo');
    assert.strictEqual((await api.prompt('delta four')).stopReason, 'end_turn');
    await focusPrompt();
    const shown = await until('both agents in the strip', async () => {
      const [a] = await drawn(tab(first));
      const [b] = await drawn(tab(second));
      return a && b && /default · idle/.test(a) && /delta four[\s\S]*demo · idle/.test(b) ? [a, b] : null;
    });
    console.log(`    drawn: ${shown.map((t) => t.replace(/\s+/g, ' ')).join(' | ')}`);
  },
  { timeoutMs: 60000 },
);

test(
  "sessions: with every session followed, a background session's agent cursor is drawn named with its agent and session",
  async () => {
    const api = await ready();
    const behind = await api.newSession();
    const front = await api.newSession();
    assert.strictEqual(await vscode.commands.executeCommand('acp-editor.followAllSessions', true), true);
    try {
      await until('the follow toggle says so', async () =>
        (await drawn('.statusbar-item')).some((t) => t.includes('Follow all sessions')),
      );
      // The demo agent's "read" reads hello.py in the session behind; the one in front stays.
      assert.strictEqual((await api.prompt('read', behind)).stopReason, 'end_turn');
      assert.strictEqual(api.session().sessionId, front);
      const label = await until('its mark', () =>
        api.followLabels().find((l) => l.sessionId === behind && l.uri === hello.toString()),
      );
      // Its agent's id and the session's title ("reading", or "here" for a location it reported).
      const named = /◆ default (reading|here) · "read"/;
      assert.strictEqual(label.background, true);
      assert.match(label.text, named);
      // As drawn in the editor: the words after the agent's line (CSS draws them, ::after).
      const after = async () => (await elements('.view-line span')).map((e) => e.after.trim()).filter(Boolean);
      const shown = await until('the label drawn in hello.py', async () => (await after()).find((t) => named.test(t)));
      console.log(`    drawn: ${shown}`);
      // Brought to the front, its mark reads as the front session's always did.
      api.selectSession(behind);
      await until('the front label drawn', async () => (await after()).some((t) => /^◆ agent (reading|here)$/.test(t)));
    } finally {
      await vscode.commands.executeCommand('acp-editor.followAllSessions', false);
    }
  },
  { timeoutMs: 60000 },
);
