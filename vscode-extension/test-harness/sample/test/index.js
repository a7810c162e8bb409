// The sample's tests, run inside VS Code's extension host by run.mjs (extensionTestsPath points
// at this folder; VS Code requires index.js and awaits its run()).
// HARNESS_SAMPLE_FAIL=1 makes the first test fail on purpose, to prove failures are counted.
'use strict';

const assert = require('assert');
const vscode = require('vscode');
const { test, run, screenshot } = require('../../host');

test('the command activates the extension and returns its greeting', async () => {
  // Running a contributed command activates the extension (commands register on activation).
  const answer = await vscode.commands.executeCommand('harnessSample.hello', 'workbench');
  const expected = process.env.HARNESS_SAMPLE_FAIL === '1' ? 'deliberately wrong' : 'Hello, workbench!';
  assert.strictEqual(answer, expected);
  const commands = await vscode.commands.getCommands(true);
  assert.ok(commands.includes('harnessSample.hello'), 'harnessSample.hello is not registered');
});

test('a screenshot of the workbench is saved', async () => {
  const fs = require('fs');
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  assert.ok(folder, 'no workspace folder is open');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'hello.txt'));
  await vscode.window.showTextDocument(doc);
  // The greeting is a notification: `notifications: true` opens the list so the shot shows it.
  await vscode.commands.executeCommand('harnessSample.hello', 'screenshot');
  const file = await screenshot('sample-workbench', { settleMs: 1500, notifications: true });
  if (file !== undefined) {
    assert.ok(fs.statSync(file).size > 1000, `${file} is too small to be a screenshot`);
  }
});

exports.run = run;
