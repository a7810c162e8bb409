// The chat's prompt box, driven with the keyboard in the real webview and read as it is drawn: the
// `@` list of files (acp/findFiles), the chips of what is attached, the usage in the header, ↑/↓
// through earlier prompts (acp/promptHistory), a pasted image. What was sent is read from the
// session (the user's message as the agent got it).
//
// Each test stands alone (it activates the extension and sends what it needs itself), so
// `bash scripts/integration.sh --only 'prompt box'` runs them by themselves.
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { test, screenshot, press, type, pasteFiles, elements } = require(
  path.join(__dirname, '..', '..', 'test-harness', 'host'),
);
const { until, quickInputScript } = require('./probes');
const { ready, drawn, chips, promptText, focusPrompt, clearPrompt, userMessages } = require('./chat');

const root = vscode.workspace.workspaceFolders[0].uri;
const hello = vscode.Uri.joinPath(root, 'hello.py');
const notes = vscode.Uri.joinPath(root, 'docs', 'hello-notes.md');
// A 1x1 PNG.
const DOT = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Resolves with the next user message once its turn has ended. */
async function nextTurn(api, send) {
  const before = userMessages(api).length;
  await send();
  const mine = await until('the prompt in the session', () => userMessages(api)[before], 5000, 20);
  await until('the end of the turn', () => !api.extras().busy, 15000);
  return mine;
}

test(
  'prompt box: @ lists the files, open ones first; Enter attaches one as a chip, sent as a link and its text',
  async () => {
    const api = await ready();
    fs.mkdirSync(path.dirname(notes.fsPath), { recursive: true });
    fs.writeFileSync(notes.fsPath, '# Notes\n');
    const doc = await vscode.workspace.openTextDocument(hello);
    await vscode.window.showTextDocument(doc, { preview: false });
    await focusPrompt();
    await type('@hel');
    const items = await until(
      'hello.py and docs/hello-notes.md in the @ list',
      async () => {
        const rows = await drawn('#completions .completion');
        return rows.some((r) => r.includes('hello-notes.md')) ? rows : null;
      },
      5000,
    );
    assert.match(items[0], /^hello\.py\s+open$/, `the open document first: ${items.join(' | ')}`);
    assert.match(items[1], /^hello-notes\.md\s+docs\/$/, items.join(' | '));
    assert.strictEqual((await drawn('#completions .completion.selected'))[0], items[0]);
    await press('ArrowDown');
    await until('the second item selected', async () => (await drawn('#completions .selected'))[0] === items[1]);
    await press('ArrowUp');
    await until('the first item selected again', async () => (await drawn('#completions .selected'))[0] === items[0]);
    await press('Enter');
    await until('the chip of hello.py', async () => (await chips()).join() === 'hello.py', 5000);
    assert.deepStrictEqual(await drawn('#completions .completion'), [], 'the list is still drawn');
    assert.strictEqual(await promptText(), '@hello.py ');

    // A web address is offered as itself; Tab takes it.
    await type('and @https://example.com/page');
    await until('the web page offered', async () =>
      (await drawn('#completions .completion')).includes('↗ Attach the web page https://example.com/page'),
    );
    await press('Tab');
    await until('its chip', async () => (await chips()).join(' | ') === 'hello.py | example.com/page', 5000);

    await type('says what?');
    const sent = await nextTurn(api, () => press('Enter'));
    const blocks = sent.content;
    assert.strictEqual(blocks[0].text, '@hello.py and @https://example.com/page says what?');
    assert.deepStrictEqual(blocks[1], { type: 'resource_link', uri: hello.toString(), name: 'hello.py' });
    // The demo agent announces embeddedContext: the buffer's text goes along.
    assert.deepStrictEqual(blocks[2], {
      type: 'resource',
      resource: { uri: hello.toString(), text: doc.getText(), mimeType: 'text/x-python' },
    });
    const page = 'https://example.com/page';
    assert.deepStrictEqual(blocks[3], { type: 'resource_link', uri: page, name: page });
    await until('no chip once sent', async () => (await chips()).length === 0, 5000);
    // In the chat: the typed text, then each attachment an item of its own, not run into it.
    const attached = await until('the attachments drawn under the prompt', async () => {
      const li = await drawn('#transcript .msg.user .attached li');
      return li.length > 0 && li.some((t) => t.includes('example.com')) ? li : null;
    });
    assert.deepStrictEqual(attached.slice(-2), ['↗ hello.py', `↗ ${page}`]);
  },
  { timeoutMs: 30000 },
);

test(
  "prompt box: the chat's header shows the tokens and the cost the agent reports, nothing before",
  async () => {
    const api = await ready();
    await api.newSession();
    await until('an empty usage line for the new session', async () => {
      const usage = await drawn('#usage');
      return usage.length === 1 && usage[0] === '';
    });
    await api.prompt('Report the usage, please');
    const [usage] = await until('the usage drawn', async () => (await drawn('#usage')).filter(Boolean), 5000);
    assert.strictEqual(usage, '53k / 200k tokens (27%) · $0.045');
    // The status bar item says the share of the context window too, as drawn.
    const item = '[id="acp-editor.acp-editor.status"]';
    await until('the status bar item with the share of the context', async () => {
      const [drawnItem] = await elements(item);
      return drawnItem && drawnItem.visible && / · 27%$/.test(drawnItem.innerText.trim());
    });
  },
  { timeoutMs: 30000 },
);

test(
  'prompt box: ↑ walks back through earlier prompts, ↓ past the newest gives back what was typed',
  async () => {
    const api = await ready();
    await api.prompt('Show the usage once more');
    await api.prompt('And the usage now?');
    await focusPrompt();
    await type('half typed');
    await press('Home');
    await press('ArrowUp');
    await until('the newest prompt', async () => (await promptText()) === 'And the usage now?', 5000);
    await press('ArrowUp');
    await until('the one before', async () => (await promptText()) === 'Show the usage once more', 5000);
    await press('ArrowDown');
    await until('the newest again', async () => (await promptText()) === 'And the usage now?', 5000);
    await press('ArrowDown');
    await until('what was typed, back', async () => (await promptText()) === 'half typed', 5000);
    await clearPrompt();
  },
  { timeoutMs: 30000 },
);

test(
  "prompt box: the selection, a file's problems and a pasted image are chips, removable, sent as blocks",
  async () => {
    const api = await ready();
    if ((await drawn('#usage')).join('') === '') await api.prompt('Report the usage, please'); // for the picture
    const editor = await vscode.window.showTextDocument(hello, { preview: false });
    editor.selection = new vscode.Selection(0, 0, 1, 0);
    await vscode.commands.executeCommand('acp-editor.attachSelection');
    // "+ …" (three Tabs after the prompt box: + Selection, + File, + …), then its first item.
    await focusPrompt();
    const script = quickInputScript([(items) => items.find((i) => i.label.includes('Problems of the current file'))]);
    try {
      for (let i = 0; i < 3; i += 1) await press('Tab');
      await press('Enter');
      await until('the problems chip', async () => (await chips()).length === 2, 5000);
    } finally {
      script.restore();
    }
    await focusPrompt();
    await pasteFiles('textarea#input', [{ name: 'dot.png', type: 'image/png', base64: DOT }]);
    await until(
      'three chips',
      async () => (await chips()).join(' | ') === 'hello.py:1-1 | Problems: hello.py (0) | dot.png (70 B)',
      5000,
    );
    // The picture for the README: the usage above, the chips and the @ list below.
    await type('@hel');
    await until('the @ list', async () => (await drawn('#completions .completion')).length > 0, 5000);
    await screenshot('prompt', { settleMs: 500 });
    await press('Escape');
    await until('the list closed', async () => (await drawn('#completions .completion')).length === 0, 5000);

    // The selection's chip removed with its ×, reached from the prompt box with the keyboard.
    await clearPrompt();
    await type('look at these');
    for (let i = 0; i < 3; i += 1) await press('Shift+Tab'); // the ×s, last chip first
    await press('Enter');
    await until(
      'the selection chip gone',
      async () => (await chips()).join(' | ') === 'Problems: hello.py (0) | dot.png (70 B)',
      5000,
    );

    await focusPrompt();
    await press('End');
    const sent = await nextTurn(api, () => press('Enter'));
    assert.deepStrictEqual(
      sent.content.map((b) => b.type),
      ['text', 'text', 'image'],
      JSON.stringify(sent.content).slice(0, 300),
    );
    assert.strictEqual(sent.content[0].text, 'look at these');
    assert.strictEqual(sent.content[1].text, 'The editor reports no problems in hello.py.');
    assert.deepStrictEqual(sent.content[2], { type: 'image', mimeType: 'image/png', data: DOT });
  },
  { timeoutMs: 30000 },
);
