// Helpers for tests that drive the chat's webview as drawn (prompt.js, queue.js): the extension
// made ready, what an element shows, the prompt box focused and emptied, the quick pick's rows.
'use strict';

const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { elements, press } = require(path.join(__dirname, '..', '..', 'test-harness', 'host'));
const { until } = require('./probes');

const EXTENSION_ID = 'acp-editor.acp-editor';

/** The extension's test API once the demo agent is ready. */
async function ready() {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  const api = extension.isActive ? extension.exports : await extension.activate();
  assert.strictEqual(await api.ready, true, String(api.problem()));
  await until('the agent ready', () => api.extras().agent && api.extras().agent.state === 'ready', 20000);
  return api;
}

/** What is drawn in the workbench or the chat's webview for `selector`, each element's inner text. */
const drawn = async (selector) => (await elements(selector)).map((e) => e.innerText.trim());
const chips = () => drawn('#attachments .chip .chip-label');
const promptText = async () => {
  const [box] = await elements('textarea#input');
  return box ? box.value : undefined;
};

/** Focus the chat's prompt box as "ACP: Send a Prompt" without text does; wait until keys go there. */
async function focusPrompt() {
  // The first time, the chat view is made: its script must be running (it draws the status) first.
  await vscode.commands.executeCommand('acp-editor.focusChat');
  await until('the chat drawn', async () => (await drawn('#status')).some(Boolean), 10000);
  await vscode.commands.executeCommand('acp-editor.prompt');
  await until('the focus in the prompt box', async () => (await elements('textarea#input:focus')).length > 0, 5000);
}

/** Empty the focused prompt box key by key (a webview's Control+A goes round the workbench and
 *  selects later than the keys typed after it). */
async function clearPrompt() {
  const text = (await promptText()) || '';
  await press('End');
  for (let i = 0; i < text.length; i += 1) await press('Backspace');
  await until('the prompt box empty', async () => (await promptText()) === '', 5000);
}

/** The labels of the quick pick's rows drawn now. */
const quickPickRows = () => drawn('.quick-input-widget .quick-input-list .monaco-list-row .label-name');

const userMessages = (api) =>
  (api.session() ? api.session().entries : []).filter((e) => e.kind === 'message' && e.role === 'user');

module.exports = { ready, drawn, chips, promptText, focusPrompt, clearPrompt, quickPickRows, userMessages };
