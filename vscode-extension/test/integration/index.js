// The extension's integration suite in a real VS Code (code-server), run by scripts/integration.sh
// through the harness in ../../test-harness. It drives the extension the way a user does (the
// chat view's messages, commands, notification buttons) with the scripted demo agent, which
// streams its text word by word (it has no --fast; only tests/agents/scripted.py does), and
// checks what happened on the extension's test API (activate()'s return value), in the editor and
// on disk.
//
// Workspace (made by integration.sh): hello.py with four lines. The tests run in order and share
// one session: stream, read (follow), edit allowed, diff preview, edit rejected, cancel, an edit
// undone with "Restore to before this turn", a command's 40 new files reviewed as one bulk change.
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { test, run, screenshot, element, elements } = require(path.join(__dirname, '..', '..', 'test-harness', 'host'));
const {
  sleep,
  until,
  chatViewProbe,
  notificationSpy,
  editorWithFocus,
  commandSpy,
  quickInputScript,
} = require('./probes');

const EXTENSION_ID = 'acp-editor.acp-editor';
// What the demo agent says and writes (acp_editor/demo_agent/: scenarios.py, file_scenarios.py, turn.py).
const STREAMED =
  'Here is a streamed answer. Each word arrives as its own chunk, all sharing one messageId, so the client can join them into one message.';
const EDIT_LINE = 'print("edited by the demo agent")\n';
const REJECTED = 'The edit of hello.py was rejected, so I stopped here.';

const hello = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'hello.py');
const readDisk = () => fs.readFileSync(hello.fsPath);
const ORIGINAL = readDisk();

// Installed before the extension activates (it activates in the first test), see probes.js.
const wasActive = vscode.extensions.getExtension(EXTENSION_ID)?.isActive;
const chat = chatViewProbe('acp-editor.chat');
const notifications = notificationSpy();

let api;
const session = () => api.session();
const toolCalls = () => Object.values(session().toolCalls);
const textOf = (entry) =>
  entry.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('');
const entries = () => (session() ? session().entries : []);
const agentMessages = () =>
  entries()
    .filter((e) => e.kind === 'message' && e.role === 'agent')
    .map(textOf);
const userMessages = () => entries().filter((e) => e.kind === 'message' && e.role === 'user').length;

/** Send `text` as the chat view's Send button does: the webview posts {type: 'prompt', text} and
 *  the view's handler runs the prompt (see chatViewProbe). Resolves once the prompt is in the
 *  session; `turnEnded()` then waits for its stop reason. */
async function sendFromChat(text) {
  const before = userMessages();
  chat.post({ type: 'prompt', text });
  await until(`the prompt "${text}" in the session`, () => userMessages() > before, 5000, 10);
}
async function turnEnded(ms = 15000) {
  await until('the end of the turn', () => !api.extras().busy, ms);
  return api.extras().stopReason;
}
const question = () => until('a permission question', () => api.pendingPermissions()[0]);

test('activating starts the sidecar; the chat view loads its webview', async () => {
  assert.strictEqual(wasActive, false, 'the extension was active before the tests could attach to the chat view');
  api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
  assert.strictEqual(await api.ready, true, String(api.problem()));
  await vscode.commands.executeCommand('acp-editor.focusChat');
  await until('the chat webview to post "ready"', chat.readySeen, 10000);
});

test('a prompt sent from the chat view streams the agent message in', async () => {
  await vscode.commands.executeCommand('acp-editor.prompt'); // no text: focuses the prompt box
  const posted = chat.toWebview.length;
  const earlier = agentMessages().length;
  await sendFromChat('stream');
  const lengths = []; // of the turn's first agent message, each time it changed
  while (api.extras().busy) {
    const streamed = agentMessages()[earlier];
    if (streamed !== undefined && streamed.length !== lengths[lengths.length - 1]) {
      assert.ok(STREAMED.startsWith(streamed), `not a prefix of the answer: ${JSON.stringify(streamed)}`);
      lengths.push(streamed.length);
    }
    await sleep(10);
  }
  assert.strictEqual(api.extras().stopReason, 'end_turn');
  assert.deepStrictEqual(agentMessages().slice(-2), [STREAMED, 'Done: stream.']);
  console.log(`    the message grew through ${lengths.length} lengths: ${lengths.join(' ')}`);
  const partial = lengths.filter((n) => n < STREAMED.length);
  assert.ok(partial.length >= 5, `only ${partial.length} intermediate lengths seen: ${lengths.join(' ')}`);
  const batches = chat.toWebview.slice(posted).filter((m) => m.type === 'changes').length;
  assert.ok(batches >= 5, `the chat view was sent ${batches} change batches`);
});

test("follow shows hello.py at the agent's line while focus stays in the chat", async () => {
  // Focus probe check first: with focus in a text editor, the probe finds that editor.
  const scratch = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: '' }));
  assert.strictEqual(
    (await editorWithFocus())?.uri.toString(),
    scratch.document.uri.toString(),
    'the focus probe missed a focused editor',
  );
  await vscode.commands.executeCommand('acp-editor.prompt'); // focuses the chat's prompt box
  await sleep(300);
  assert.strictEqual(await editorWithFocus(), null, 'a text editor still has focus after focusing the chat');
  assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), scratch.document.uri.toString());

  await sendFromChat('read');
  assert.strictEqual(await turnEnded(), 'end_turn');
  const follow = api.lastFollow();
  assert.ok(follow && follow.uri === hello.toString(), JSON.stringify(follow));
  const line = follow.range ? follow.range.start.line : 0;
  const editor = await until(
    'hello.py as the active editor',
    () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.toString() === hello.toString() ? e : null;
    },
    3000,
  );
  assert.deepStrictEqual(
    api.followMark(),
    { uri: hello.toString(), line },
    'the agent cursor is not at the followed line',
  );
  assert.ok(
    editor.visibleRanges.some((r) => r.start.line <= line && line <= r.end.line),
    "the agent's line is not in view",
  );
  // The user's own cursor is not moved by follow (the agent cursor is a decoration), so it is not checked.
  assert.strictEqual(await editorWithFocus(), null, 'following moved focus into a text editor');
  const read = toolCalls().find((t) => t.kind === 'read');
  assert.strictEqual(read.status, 'completed');

  // Closed in the background (it is empty again, so not dirty): showing it would replace
  // hello.py's editor, and the agent cursor with it.
  const scratchTab = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.input?.uri?.toString() === scratch.document.uri.toString());
  assert.ok(await vscode.window.tabGroups.close(scratchTab), 'the scratch editor did not close');
  // The transcript so far (the streamed answer, the read card) next to the followed file.
  await vscode.commands.executeCommand('acp-editor.focusChat');
  await sleep(500);
  await screenshot('chat', { settleMs: 800 });
});

let proposed; // the permission's diff, for the diff preview test
test(
  'a permission question raises a notification; "allow" from the chat card reaches the agent',
  async () => {
    const shown = notifications.calls.length;
    await sendFromChat('edit');
    const q = await question();
    assert.strictEqual(q.params.toolCall.title, 'Edit hello.py');
    proposed = q.params.diffs[0];
    assert.strictEqual(proposed.newText, ORIGINAL.toString('utf8') + EDIT_LINE);
    const note = await until('the notification', () =>
      notifications.calls.slice(shown).find((c) => c.message.includes('hello.py')),
    );
    assert.strictEqual(note.severity, 'warning');
    assert.match(note.message, /wants to edit: Edit hello\.py \(hello\.py \+1\b/);
    // Three buttons, which VS Code draws whole (surface.js reads them drawn); "More…" has the rest.
    assert.deepStrictEqual(note.titles, ['Allow once', 'Reject', 'More…']);
    const script = quickInputScript([() => undefined]); // Escape: nothing chosen
    try {
      notifications.click(note, (item) => item.title === 'More…');
      await until('the notification shown again after "More…" closed', () =>
        notifications.calls.slice(shown).some((c) => c !== note && c.message === note.message),
      );
    } finally {
      script.restore();
    }
    assert.deepStrictEqual(script.calls[0].labels, [
      '$(check) Allow once',
      '$(check-all) Always allow',
      '$(close) Reject',
      '$(circle-slash) Always reject',
      '$(diff) Show the proposed diff',
      '$(comment-discussion) Answer in the chat',
    ]);
    const allow = q.params.options.find((o) => o.kind === 'allow_once');
    await until('the card in the chat view', () =>
      chat.toWebview.some((m) => m.type === 'extras' && m.extras.permissions.some((p) => p.id === q.id)),
    );
    await sleep(500);
    await screenshot('permission', { settleMs: 800, notifications: true });

    const hidden = commandSpy('notifications.hideToasts');
    chat.post({ type: 'permission', id: q.id, optionId: allow.optionId }); // the card's "Allow" button
    assert.strictEqual(await turnEnded(), 'end_turn');
    await until("the answered question's toast is taken away", () => hidden.count > 0);
    assert.strictEqual(
      readDisk().toString('utf8'),
      ORIGINAL.toString('utf8') + EDIT_LINE,
      'the agent did not write the allowed edit',
    );
    assert.strictEqual(toolCalls().find((t) => t.toolCallId === q.params.toolCall.toolCallId).status, 'completed');
    assert.deepStrictEqual(api.pendingPermissions(), []);
    // The agent's cursor ends on the line it wrote (the appended fifth line), not on line 1.
    await until('follow to the written line', () => api.lastFollow()?.range?.start.line === 4);
  },
  { timeoutMs: 30000 },
);

test('the diff preview shows the proposed text; the edit is then rejected in review', async () => {
  const shown = await vscode.commands.executeCommand('acp-editor.showDiff');
  const tab = await until(
    'a diff editor',
    () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : null;
    },
    5000,
  );
  assert.strictEqual(tab.modified.toString(), shown.right);
  const right = await vscode.workspace.openTextDocument(tab.modified);
  const left = await vscode.workspace.openTextDocument(tab.original);
  assert.strictEqual(right.getText(), proposed.newText);
  assert.strictEqual(left.getText(), ORIGINAL.toString('utf8'));
  await sleep(500);
  await screenshot('diff', { settleMs: 800 });

  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  const lenses = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', hello);
  const titles = lenses.map((l) => l.command && l.command.title);
  assert.ok(
    titles.some((t) => t.startsWith('✓ Accept hunk')),
    titles.join(' | '),
  );
  await vscode.window.showTextDocument(hello, { preview: false });
  await screenshot('review', { settleMs: 1000 }); // the Accept / Reject lenses over the agent's line
  const hunk = api.reviewHunks().find((h) => h.state === 'pending');
  const results = await vscode.commands.executeCommand('acp-editor.rejectHunk', hunk.hunkId);
  assert.deepStrictEqual(
    results.map((r) => r.state),
    ['rejected'],
  );
  await until('hello.py back to its text on disk', () => readDisk().equals(ORIGINAL), 5000);
});

test(
  '"reject" from the notification leaves hello.py untouched and fails the tool call',
  async () => {
    const before = readDisk();
    const shown = notifications.calls.length;
    await sendFromChat('edit');
    const q = await question();
    // A prompt sent while the turn asks waits; the turn's reply (REJECTED) comes after it in the
    // entries, yet is drawn under the prompt it answers, and the waiting prompt's reply under it.
    const after = api.prompt('thanks for trying');
    await until('the prompt waiting', () => entries().some((e) => e.queued === true));
    const note = await until('the notification', () =>
      notifications.calls.slice(shown).find((c) => c.message.includes('hello.py')),
    );
    const reject = q.params.options.find((o) => o.kind === 'reject_once');
    notifications.click(note, (item) => item.optionId === reject.optionId); // its "Reject" button
    assert.strictEqual((await after).stopReason, 'end_turn');
    assert.strictEqual(await turnEnded(), 'end_turn');
    const call = toolCalls().find((t) => t.toolCallId === q.params.toolCall.toolCallId);
    assert.strictEqual(call.status, 'failed');
    assert.strictEqual(textOf({ content: call.content.map((c) => c.content) }), REJECTED);
    assert.deepStrictEqual(agentMessages().slice(-2)[0], REJECTED);
    const order = await until('both replies drawn', async () => {
      const msgs = await elements('#transcript .msg');
      const at = (start) => msgs.findIndex((m) => m.innerText.trim().startsWith(start));
      const found = [at(REJECTED), at('thanks for trying'), at('You said: thanks for trying')];
      return found.every((i) => i >= 0) ? found : null;
    });
    assert.ok(order[0] < order[1] && order[1] < order[2], `drawn out of order: ${order}`);
    assert.ok(readDisk().equals(before), 'hello.py changed on disk');
    // The buffer too: same text, and not dirty (after the review's revert, written through the
    // buffer and then the disk, VS Code takes a moment to see that the disk matches).
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === hello.toString());
    assert.ok(doc, 'hello.py is not open');
    assert.strictEqual(doc.getText(), before.toString('utf8'));
    await until('hello.py not dirty', () => !doc.isDirty, 5000);
    assert.deepStrictEqual(api.pendingPermissions(), []);
  },
  { timeoutMs: 30000 },
);

test('cancel stops a running turn promptly, and withdraws a pending question', async () => {
  // Through the "ACP: Send a Prompt" command, whose result carries the stop reason.
  const turn = vscode.commands.executeCommand('acp-editor.prompt', 'wait');
  await until('the waiting tool call', () =>
    toolCalls().some((t) => t.title.startsWith('Wait') && t.status === 'in_progress'),
  );
  // The chat's header says one state after the agent's name: what the turn does, not "ready" too.
  const header = async () => ((await elements('#status .agent'))[0] || {}).innerText;
  await until('"working…" in the header', async () => (await header()) === 'acp-editor demo agent: working…');
  const start = Date.now();
  await vscode.commands.executeCommand('acp-editor.cancel');
  assert.strictEqual((await turn).stopReason, 'cancelled');
  await until('"ready" in the header', async () => (await header()) === 'acp-editor demo agent: ready');
  const took = Date.now() - start;
  console.log(`    the turn ended ${took} ms after cancel`);
  assert.ok(took < 3000, `the turn took ${took} ms to stop`);
  assert.strictEqual(api.extras().busy, false);

  const asking = vscode.commands.executeCommand('acp-editor.prompt', 'early-permission');
  await question();
  await vscode.commands.executeCommand('acp-editor.cancel');
  assert.strictEqual((await asking).stopReason, 'cancelled');
  await until('the question withdrawn', () => api.pendingPermissions().length === 0, 3000);
});

test(
  '"Restore to before this turn" on a message undoes its edit after the notification says so',
  async () => {
    const before = readDisk();
    const shown = notifications.calls.length;
    await sendFromChat('edit');
    const q = await question();
    chat.post({
      type: 'permission',
      id: q.id,
      optionId: q.params.options.find((o) => o.kind === 'allow_once').optionId,
    });
    assert.strictEqual(await turnEnded(), 'end_turn');
    assert.strictEqual(readDisk().toString('utf8'), before.toString('utf8') + EDIT_LINE);
    const mine = entries()
      .filter((e) => e.kind === 'message' && e.role === 'user')
      .pop();
    assert.strictEqual(typeof mine.turn, 'number', 'the prompt carries the turn it started');

    chat.post({ type: 'restore', turn: mine.turn }); // the message's "Restore to before this turn"
    const ask = await until('the undo question', () =>
      notifications.calls.slice(shown).find((c) => c.message.startsWith(`Undo turn ${mine.turn}?`)),
    );
    assert.strictEqual(ask.severity, 'warning');
    notifications.click(ask, `Undo turn ${mine.turn}`);
    await until('hello.py back as before the turn', () => readDisk().equals(before), 5000);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === hello.toString());
    assert.ok(doc, 'hello.py is not open');
    await until('the editor shows it too', () => doc.getText() === before.toString('utf8'), 5000);
    await until('the undo is reported', () =>
      notifications.calls.slice(shown).some((c) => c.message.includes(`turn ${mine.turn} undone, 1 file(s) restored`)),
    );
  },
  { timeoutMs: 30000 },
);

// What the demo agent's "generate" writes with one command (acp_editor/demo_agent/scenarios/command_scenarios.py): 40
// files in generated/, reviewed as one bulk change (docs/protocol.md, "Bulk changes").
const generated = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'generated');
const generatedFiles = () => (fs.existsSync(generated.fsPath) ? fs.readdirSync(generated.fsPath) : []);
const GROUP_TITLE = '40 new files in generated/';

/** Run "generate" from the chat; resolves with the pending group and its notification. */
async function generate() {
  const shown = notifications.calls.length;
  const known = new Set(api.reviewGroups().map((g) => g.groupId));
  await sendFromChat('generate');
  assert.strictEqual(await turnEnded(), 'end_turn');
  assert.strictEqual(generatedFiles().length, 40);
  const group = await until('the bulk change', () =>
    api.reviewGroups().find((g) => !known.has(g.groupId) && g.state === 'pending'),
  );
  const note = await until('its notification', () =>
    notifications.calls.slice(shown).find((c) => c.message.endsWith('wait for review')),
  );
  return { group, note };
}

test(
  'a command that writes 40 files is one bulk change: announced, on its card, its files listed; Reject removes them',
  async () => {
    const { group, note } = await generate();
    assert.strictEqual(note.severity, 'info');
    assert.strictEqual(note.message, `${GROUP_TITLE} wait for review`);
    assert.deepStrictEqual(note.titles, ['Accept', 'Reject', 'Show files']);
    assert.strictEqual(group.title, GROUP_TITLE);
    // The first files of a burst may be found one by one before the rest (a live look while the
    // command still writes); they join the group then, and their hunks are superseded.
    assert.ok(
      !api.reviewHunks().some((h) => h.path.startsWith(generated.fsPath) && h.state === 'pending'),
      "the group's files got hunks too",
    );
    await until(
      "the group on the command's card in the chat",
      async () => {
        const t = await element('#transcript');
        return t.found && t.text.includes(`▦ ${GROUP_TITLE}`);
      },
      5000,
      100,
    );

    // "Show files": the files in a quick pick (the whole change's Accept/Reject on top); one opens.
    const script = quickInputScript([(items) => items.find((i) => i.label === 'generated/file7.js')]);
    try {
      notifications.click(note, 'Show files');
      // The list asked for first: follow-along may have opened file7.js already (the first files
      // of a burst can be found one by one while the command writes, and followed to).
      await until(
        'generated/file7.js in an editor, chosen from the list',
        () =>
          script.calls.length > 0 &&
          vscode.window.activeTextEditor?.document.uri.fsPath === path.join(generated.fsPath, 'file7.js'),
        5000,
      );
    } finally {
      script.restore();
    }
    const labels = script.calls[0].labels;
    assert.deepStrictEqual(labels.slice(0, 2), ['$(check) Accept all 40 files', '$(discard) Reject all 40 files']);
    assert.strictEqual(labels.filter((l) => /^generated\/file\d+\.js$/.test(l)).length, 40, labels.join(' | '));
    const lenses = await vscode.commands.executeCommand(
      'vscode.executeCodeLensProvider',
      vscode.window.activeTextEditor.document.uri,
    );
    assert.ok(
      lenses.some((l) => l.command?.title === `▦ ${GROUP_TITLE}: Accept`),
      lenses.map((l) => l.command?.title).join(' | '),
    );
    await vscode.commands.executeCommand('acp-editor.focusChat');
    await screenshot('group', { settleMs: 800 }); // the card's title and buttons, the lenses atop file7.js
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input?.uri?.fsPath === path.join(generated.fsPath, 'file7.js'));
    assert.ok(await vscode.window.tabGroups.close(tab), 'file7.js did not close');

    chat.post({ type: 'group', action: 'reject', groupId: group.groupId }); // the card's "Reject"
    await until('the 40 files gone from disk', () => generatedFiles().length === 0, 5000);
    await until('generated/, which held only them, removed too', () => !fs.existsSync(generated.fsPath), 2000);
    await until(
      'the group rejected',
      () => api.reviewGroups().find((g) => g.groupId === group.groupId).state === 'rejected',
    );
  },
  { timeoutMs: 30000 },
);

test(
  '"Accept" on the next bulk change\'s notification keeps its files',
  async () => {
    const { group, note } = await generate();
    assert.strictEqual(note.message, `${GROUP_TITLE} wait for review`);
    notifications.click(note, 'Accept');
    await until(
      'the group accepted',
      () => api.reviewGroups().find((g) => g.groupId === group.groupId).state === 'accepted',
    );
    assert.strictEqual(generatedFiles().length, 40);
  },
  { timeoutMs: 30000 },
);

test(
  'the Get Started walkthrough opens',
  async () => {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#acp-editor.start`, false);
    await until(
      'the walkthrough tab',
      () => vscode.window.tabGroups.activeTabGroup.activeTab?.label.includes('Welcome'),
      10000,
    );
    await screenshot('walkthrough', { settleMs: 1500 });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  },
  { timeoutMs: 30000 },
);

test(
  'the chat stays at the newest message while a turn streams and its plan grows',
  async () => {
    await sendFromChat('plan stream');
    assert.strictEqual(await turnEnded(), 'end_turn');
    let last;
    await until(
      'the chat scrolled to its newest message',
      async () => {
        const t = (last = await element('#transcript'));
        return (
          t.found &&
          t.scrollHeight > t.clientHeight &&
          t.scrollHeight - t.scrollTop - t.clientHeight < 40 &&
          t.text.includes('Done: plan, stream')
        );
      },
      5000,
      100,
    ).catch((error) => {
      throw new Error(`${error.message}: ${JSON.stringify({ ...last, text: last && last.text.slice(-80) })}`);
    });
  },
  { timeoutMs: 30000 },
);

// What the demo agent asks (acp_editor/demo_agent/scenarios/elicit.py).
const PAGE_URL = 'https://example.com/acp-editor-demo/sign-in';

test(
  'the agent asks to open a web page: the whole address first, then only "Open" opens it',
  async () => {
    const opened = [];
    const realOpen = vscode.env.openExternal;
    vscode.env.openExternal = async (uri) => {
      opened.push(uri.toString(true));
      return true;
    }; // the browser
    try {
      const shown = notifications.calls.length;
      await sendFromChat('ask-page');
      const note = await until('the web page question', () =>
        notifications.calls.slice(shown).find((c) => c.message.includes('asks you to open a web page')),
      );
      assert.deepStrictEqual(note.titles, ['Decline', 'Open']);
      assert.ok(note.message.startsWith('acp-editor demo agent asks'), note.message);
      assert.ok(
        note.message.includes('Site: example.com') && note.message.includes(`Address: ${PAGE_URL}`),
        note.message,
      );
      assert.deepStrictEqual(opened, [], 'opened before consent');
      notifications.click(note, 'Open');
      assert.strictEqual(await turnEnded(), 'end_turn');
      assert.deepStrictEqual(opened, [PAGE_URL]);
      assert.ok(
        agentMessages().some((m) => m.includes('Web page answered: accept')),
        agentMessages().join(' | '),
      );
    } finally {
      vscode.env.openExternal = realOpen;
    }
  },
  { timeoutMs: 30000 },
);

test(
  'the agent asks with a form: asked field by field, reviewed, then sent',
  async () => {
    const pick = (prefix) => (items) => items.find((i) => (typeof i === 'string' ? i : i.label).startsWith(prefix));
    const script = quickInputScript([
      pick('Quick'), // strategy (required: first)
      () => '4', // files
      pick('No'), // notify
      () => '', // name: left empty
      pick('Send'), // the review
    ]);
    try {
      const shown = notifications.calls.length;
      await sendFromChat('ask-form');
      const note = await until('the form question', () =>
        notifications.calls.slice(shown).find((c) => c.message.includes('How should I go about')),
      );
      assert.deepStrictEqual(note.titles, ['Answer…', 'Decline']);
      assert.deepStrictEqual(script.calls, [], 'a quick input opened before "Answer…"');
      notifications.click(note, 'Answer…');
      assert.strictEqual(await turnEnded(), 'end_turn');
      assert.deepStrictEqual(
        script.calls.map((c) => c.kind),
        ['pick', 'input', 'pick', 'input', 'pick'],
      );
      const review = script.calls[4];
      assert.deepStrictEqual(review.labels.slice(0, 2), ['Send', 'Decline']);
      assert.ok(
        review.labels.includes('Strategy*: quick') && review.labels.includes('At most this many files: 4'),
        review.labels.join(' | '),
      );
      const said = 'Form answered: accept {"files": 4, "notify": false, "strategy": "quick"}';
      assert.ok(
        agentMessages().some((m) => m.includes(said)),
        agentMessages().join(' | '),
      );
    } finally {
      script.restore();
    }
  },
  { timeoutMs: 30000 },
);

test(
  'a session is forked, then deleted after the user says so; logging out asks first',
  async () => {
    const parent = session();
    assert.ok(parent && parent.entries.length > 0, 'no session with a conversation yet');
    await vscode.commands.executeCommand('acp-editor.forkSession');
    const fork = session();
    assert.notStrictEqual(fork.sessionId, parent.sessionId);
    assert.strictEqual(fork.entries.length, parent.entries.length, 'the fork starts with the conversation');

    const shown = notifications.calls.length;
    const deleting = vscode.commands.executeCommand('acp-editor.deleteSession');
    const ask = await until('the delete question', () =>
      notifications.calls.slice(shown).find((c) => c.message.startsWith(`Delete session ${fork.sessionId}?`)),
    );
    assert.deepStrictEqual(ask.titles, ['Keep the Session', 'Delete']);
    notifications.click(ask, 'Delete');
    await deleting;
    assert.strictEqual(session(), null, 'the deleted session is still current');

    const logoutShown = notifications.calls.length;
    const loggingOut = vscode.commands.executeCommand('acp-editor.logout');
    const out = await until('the logout question', () =>
      notifications.calls.slice(logoutShown).find((c) => c.message.startsWith('Log out of the agent?')),
    );
    assert.deepStrictEqual(out.titles, ['Stay Logged In', 'Log Out']);
    notifications.click(out, 'Stay Logged In');
    await loggingOut;
  },
  { timeoutMs: 30000 },
);

test(
  'an agent chosen from the ACP registry runs after the restart',
  async () => {
    // A registry on 127.0.0.1 (never the internet), with one binary agent: the demo agent in a
    // tar.gz. The sidecar lists it and, restarted, downloads and runs it (the extension host's
    // environment is the sidecar's).
    const os = require('os');
    const http = require('http');
    const { execFileSync } = require('child_process');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-registry-'));
    const python = vscode.workspace.getConfiguration('acp-editor').get('agents')[0].command; // the venv's python
    fs.mkdirSync(path.join(root, 'pkg', 'bin'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'pkg', 'bin', 'agent'),
      `#!/bin/sh\nexec "${python}" -m acp_editor.demo_agent "$@"\n`,
      { mode: 0o755 },
    );
    execFileSync('tar', ['czf', path.join(root, 'agent.tar.gz'), '-C', path.join(root, 'pkg'), 'bin']);
    const server = http.createServer((req, res) => {
      const file = path.join(root, path.basename(req.url));
      if (!fs.existsSync(file)) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200);
      res.end(fs.readFileSync(file));
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${server.address().port}`;
    const target = `linux-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}`;
    fs.writeFileSync(
      path.join(root, 'registry.json'),
      JSON.stringify({
        version: '1.0.0',
        agents: [
          {
            id: 'packed-demo',
            name: 'Packed demo',
            version: '1.0.0',
            description: 'The demo agent as a binary.',
            distribution: { binary: { [target]: { archive: `${base}/agent.tar.gz`, cmd: './bin/agent' } } },
          },
        ],
      }),
    );
    process.env.ACP_EDITOR_REGISTRY = `${base}/registry.json`;
    process.env.ACP_EDITOR_CACHE_DIR = path.join(root, 'cache');
    try {
      const chosen = await vscode.commands.executeCommand('acp-editor.chooseRegistryAgent', 'packed-demo');
      assert.strictEqual(chosen, 'packed-demo');
      assert.strictEqual(vscode.workspace.getConfiguration('acp-editor').get('registryAgent'), 'packed-demo');
      await until(
        'the sidecar restarted with the registry agent',
        () =>
          api.server() &&
          api.extras().agent &&
          api.extras().agent.state === 'ready' &&
          (api.extras().agent.command || []).some((a) => a.endsWith('bin/agent')),
        20000,
      );
      const result = await api.prompt('read');
      assert.strictEqual(result.stopReason, 'end_turn');
    } finally {
      await vscode.workspace
        .getConfiguration('acp-editor')
        .update('registryAgent', undefined, vscode.ConfigurationTarget.Global);
      server.close();
    }
  },
  { timeoutMs: 60000 },
);

test(
  'an agent set to the ACP v2 draft: a turn with its structured diff previewed and its command shown',
  async () => {
    const config = vscode.workspace.getConfiguration('acp-editor');
    const agents = config.get('agents');
    const v1Ready = api.extras().agent;
    await config.update(
      'agents',
      agents.map((a) => ({ ...a, protocolVersion: 2 })),
      vscode.ConfigurationTarget.Global,
    );
    try {
      await until(
        'the sidecar restarted, speaking v2 with the agent',
        () => {
          const agent = api.server() && api.extras().agent;
          return agent && agent !== v1Ready && agent.state === 'ready' && agent.protocolVersion === 2;
        },
        20000,
      ).catch((err) => {
        throw new Error(`${err.message}; the agent: ${JSON.stringify(api.extras().agent)}`);
      });
      const before = readDisk().toString('utf8');
      const running = api.prompt('edit shell');
      const q = await question();
      // v2 sends changes + a git patch, not texts: the preview is the patch applied to the file.
      assert.strictEqual(q.params.diffs[0].oldText, before);
      assert.strictEqual(q.params.diffs[0].newText, before + EDIT_LINE);
      const allow = q.params.options.find((o) => o.kind === 'allow_once');
      chat.post({ type: 'permission', id: q.id, optionId: allow.optionId });
      const result = await running;
      assert.strictEqual(result.stopReason, 'end_turn');
      assert.strictEqual(readDisk().toString('utf8'), before + EDIT_LINE, 'the v2 agent did not write the edit itself');
      assert.strictEqual(session().protocolVersion, 2);
      assert.deepStrictEqual(session().runState, { state: 'idle', stopReason: 'end_turn' });
      const mine = entries()
        .filter((e) => e.kind === 'message' && e.role === 'user')
        .pop();
      assert.ok(typeof mine.messageId === 'string' && !mine.queued, JSON.stringify(mine));
      const shell = toolCalls().find(
        (t) =>
          t.kind === 'execute' &&
          t.status === 'completed' &&
          JSON.stringify(t.content).includes('hello from the demo agent'),
      );
      assert.ok(shell, 'the command the agent ran itself is not in the session');
    } finally {
      await config.update('agents', agents, vscode.ConfigurationTarget.Global);
    }
  },
  { timeoutMs: 60000 },
);

test(
  "claude-agent-acp reads the TypeScript server's diagnostics and the unsaved buffer through the editor MCP server",
  async () => {
    // The real agent, offline: tests/agents/claude_offline.py serves a scripted fake model and
    // says how to start the agent against it. The diagnostics are those VS Code's bundled
    // TypeScript server published for a line that is only in the buffer.
    const os = require('os');
    const { spawn } = require('child_process');
    const app = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'app.ts');
    fs.writeFileSync(app.fsPath, 'export const n: number = 1;\n');
    // code-server saves after a delay by default; desktop VS Code does not, and the line must stay
    // unsaved.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(app), {
      preview: false,
    });
    const unsaved = 'export const s: number = "not saved";';
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), unsaved + '\n'));
    const codeOf = (d) => String(typeof d.code === 'object' ? d.code.value : d.code);
    await until(
      'the TypeScript server reports the unsaved line',
      () => vscode.languages.getDiagnostics(app).some((d) => codeOf(d) === '2322'),
      60000,
    );
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-claude-'));
    const steps = path.join(scratch, 'steps.json');
    const record = path.join(scratch, 'record.json');
    fs.writeFileSync(
      steps,
      JSON.stringify([
        { call: 'diagnostics', text: 'What does the editor report?', input: { path: app.fsPath } },
        { call: 'read_buffer', text: 'And the text it holds.', input: { path: app.fsPath } },
        { text: 'Seen.' },
      ]),
    );
    const config = vscode.workspace.getConfiguration('acp-editor');
    const agents = config.get('agents');
    const fake = spawn(
      agents[0].command,
      ['-m', 'tests.agents.claude_offline', steps, record, path.join(scratch, 'home')],
      { cwd: process.env.ACP_EDITOR_REPO, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      const started = await new Promise((resolve, reject) => {
        let out = '';
        fake.stdout.on('data', (chunk) => {
          out += chunk;
          if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
        });
        fake.on('exit', (code) => reject(new Error(`tests.agents.claude_offline exited with ${code}`)));
      });
      const before = api.extras().agent;
      const claude = { name: 'claude', command: started.command[0], args: started.command.slice(1), env: started.env };
      await config.update('agents', [claude], vscode.ConfigurationTarget.Global);
      await until(
        'the sidecar restarted with claude-agent-acp',
        () => {
          const agent = api.server() && api.extras().agent;
          return (
            agent &&
            agent !== before &&
            agent.state === 'ready' &&
            (agent.command || []).some((a) => a.includes('claude-agent-acp'))
          );
        },
        30000,
      );
      const result = await api.prompt('Look at app.ts');
      assert.strictEqual(result.stopReason, 'end_turn');
      const [diagnostics, text] = JSON.parse(fs.readFileSync(record, 'utf8'));
      assert.ok(!diagnostics.isError && !text.isError, JSON.stringify([diagnostics, text]));
      const found = JSON.parse(diagnostics.text).diagnostics;
      const typeError = found.find((d) => d.code === '2322' && d.source === 'ts');
      assert.ok(typeError && typeError.path === app.fsPath && typeError.range.start.line === 2, JSON.stringify(found));
      assert.ok(JSON.parse(text.text).text.includes(unsaved), text.text);
      assert.ok(!fs.readFileSync(app.fsPath, 'utf8').includes(unsaved), 'the unsaved line reached the disk');
      // The user saw what the agent looked at: Claude Code's own tool call, pointed at app.ts.
      const looked = toolCalls().find((t) => JSON.stringify(t).includes('mcp__editor__diagnostics'));
      assert.deepStrictEqual(looked && looked.locations, [{ path: app.fsPath }]);
    } finally {
      await config.update('agents', agents, vscode.ConfigurationTarget.Global);
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
      fake.stdin.end();
      await vscode.window.showTextDocument(app);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  },
  { timeoutMs: 150000 },
);

// In a remote window (VS Code Remote, Dev Containers, Codespaces; code-server is one: the
// extension host runs on the server) the workbench names the server's files
// vscode-remote://<authority>/<path>, and so does the drag of a file from its explorer onto the
// chat. The extension runs on the server: the path is its own. (It stands alone.)
test("remote window: a file dragged from the explorer (vscode-remote://) attaches as the server's file", async () => {
  const { ready, chips } = require('./chat');
  await ready();
  assert.ok(vscode.env.remoteName, 'not a remote window');
  await vscode.commands.executeCommand('acp-editor.focusChat');
  await until('the chat view resolved', () => chat.listeners.length > 0, 10000);
  const dragged = hello.with({ scheme: 'vscode-remote', authority: vscode.env.remoteName }).toString();
  chat.post({ type: 'attachUris', uris: [dragged] }); // what the webview posts for the drop
  // Its chip names it relative to the workspace folder: the very hello.py, not some other path.
  await until('the chip of hello.py', async () => (await chips()).join() === 'hello.py', 5000);
  chat.post({ type: 'removeAttachment', index: 0 });
  await until('no chip left', async () => (await chips()).length === 0, 5000);
});

// What is drawn around the chat (status bar, notifications, keybindings, transcript): tests that
// stand alone, after the ones above.
require('./surface');

// The chat's prompt box: @-mentions, chips, the usage header, history, images (each stands alone).
require('./prompt');

// Prompts again: waiting prompts edited and removed, a cancel that asks, edit and resend (each stands alone).
require('./queue');

// Several live sessions: the strip, switching, a background session's question (each stands alone).
require('./sessions');

// A session in a worktree of its own: the round trip (it stands alone).
require('./worktree');

// What ACP schema 1.25 added: notices, compactions, plans by id, the boolean toggle, subagents,
// signing in through an integrated terminal (each stands alone).
require('./schema125');

exports.run = run;
