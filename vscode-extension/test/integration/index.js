// A smoke suite for the real VS Code (code-server) through the harness in ../../test-harness
// (another module's; see scripts/integration.sh). It drives the extension only through its
// commands and the API that activate() returns, with the scripted demo agent.
'use strict';

const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { test, run, screenshot } = require(path.join(__dirname, '..', '..', 'test-harness', 'host'));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(what, probe, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
const file = (name) => vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, name);

let api;

test('activating starts the sidecar; the chat view opens', async () => {
  const extension = vscode.extensions.getExtension('acp-editor.acp-editor');
  assert.ok(extension, 'the extension is not installed');
  api = await extension.activate();
  assert.strictEqual(await api.ready, true, String(api.problem()));
  await vscode.commands.executeCommand('acp-editor.focusChat');
  await sleep(3000); // the webview's first load
});

test('a turn streams, follows, asks permission, edits and runs a command', async () => {
  await vscode.window.showTextDocument(file('hello.py'));
  const turn = api.prompt('stream plan read edit shell');
  const question = await until('a permission question', () => api.pendingPermissions()[0]);
  await sleep(1000);
  await screenshot('permission', { settleMs: 800, notifications: true });
  const allow = question.params.options.find((o) => o.kind === 'allow_once');
  assert.ok(api.answerPermission(question.id, allow.optionId));
  assert.strictEqual((await turn).stopReason, 'end_turn');
  const session = api.session();
  assert.ok(session.entries.some((e) => e.kind === 'toolCall'));
  assert.ok(api.lastFollow().uri.endsWith('/hello.py'));
  assert.ok(api.followMark(), 'no agent cursor drawn');
  assert.ok(api.diffs().length > 0, 'no acp/diff');
  assert.match(api.terminals()[0].output, /hello from the demo agent/);
  assert.ok(api.terminalNames().length > 0, 'no agent terminal');
  assert.ok(api.reviewHunks().some((h) => h.state === 'pending'), 'no hunk to review');
});

test('the proposed diff opens in a diff editor; CodeLenses offer accept/reject', async () => {
  const shown = await vscode.commands.executeCommand('acp-editor.showDiff');
  assert.ok(shown && shown.left.startsWith('acp-proposed:') && shown.right.startsWith('acp-proposed:'));
  await sleep(800);
  await screenshot('diff', { settleMs: 800 });
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.window.showTextDocument(file('hello.py'));
  const lenses = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', file('hello.py'));
  const titles = lenses.map((l) => l.command && l.command.title);
  assert.ok(titles.some((t) => t.startsWith('✓ Accept hunk')), titles.join(' | '));
  await sleep(800);
  await screenshot('chat', { settleMs: 800 });
  const hunk = api.reviewHunks().filter((h) => h.state === 'pending').pop();
  const results = await vscode.commands.executeCommand('acp-editor.rejectHunk', hunk.hunkId);
  assert.deepStrictEqual(results.map((r) => r.state), ['rejected']);
});

test('follow, mode, new session; cancelling withdraws a pending permission', async () => {
  assert.strictEqual(await vscode.commands.executeCommand('acp-editor.toggleFollow', false), false);
  assert.strictEqual(api.extras().follow, false);
  await vscode.commands.executeCommand('acp-editor.toggleFollow', true);
  await vscode.commands.executeCommand('acp-editor.setMode', 'ask');
  await until('mode ask', () => api.session().modes.currentModeId === 'ask');
  const sessionId = await vscode.commands.executeCommand('acp-editor.newSession');
  assert.strictEqual(api.session().sessionId, sessionId);
  const turn = vscode.commands.executeCommand('acp-editor.prompt', 'early-permission');
  await until('a permission question', () => api.pendingPermissions()[0]);
  await vscode.commands.executeCommand('acp-editor.cancel');
  assert.strictEqual((await turn).stopReason, 'cancelled');
  await until('the question withdrawn', () => api.pendingPermissions().length === 0);
});

exports.run = run;
