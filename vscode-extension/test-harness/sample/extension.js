// Sample extension for the harness's self-test: one command that shows a message and returns it.
'use strict';

const vscode = require('vscode');

function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('harnessSample.hello', (who = 'harness') => {
      const text = `Hello, ${who}!`;
      // Not awaited: the notification stays up so a screenshot can show it.
      vscode.window.showInformationMessage(text);
      return text;
    }),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
