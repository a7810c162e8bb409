// The extension as a user installs it: from the built .vsix, in a fresh profile, with no
// acp-editor anywhere on PATH and no acp-editor.path setting. Run by scripts/bundled-test.sh
// through the harness in ../../test-harness. Activating installs the sidecar the .vsix carries
// into the extension's global storage (first run), and a prompt goes through it to the demo
// agent (the sidecar's own default when no agent is configured).
'use strict';

const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { test, run } = require(path.join(__dirname, '..', '..', 'test-harness', 'host'));

const EXTENSION_ID = 'acp-editor.acp-editor';
let api;

test('the first run installs the bundled sidecar and starts it', async () => {
  api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
  assert.strictEqual(await api.ready, true, String(api.problem()));
  const server = api.server();
  assert.strictEqual(server.source, 'bundled', JSON.stringify(server));
  assert.ok(server.path.includes(path.join('sidecar', 'venv')), server.path);
}, { timeoutMs: 180000 });

test('a prompt goes through the bundled sidecar to the demo agent', async () => {
  const result = await api.prompt('read');
  assert.strictEqual(result.stopReason, 'end_turn', JSON.stringify(result));
  const agentSaid = api.session().entries
    .filter((e) => e.kind === 'message' && e.role === 'agent')
    .map((e) => e.content.map((b) => b.text || '').join(''))
    .join('\n');
  assert.match(agentSaid, /Done: read/);
}, { timeoutMs: 60000 });

exports.run = run;
