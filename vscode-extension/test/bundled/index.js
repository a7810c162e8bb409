// The extension as a user installs it: from the built .vsix, in a fresh profile, with no
// acp-editor anywhere on PATH and no acp-editor.path setting. Run by scripts/bundled-test.sh
// through the harness in ../../test-harness. Activating installs the sidecar the .vsix carries
// into the extension's global storage (first run), and a prompt goes through it to the demo
// agent (the sidecar's own default when no agent is configured). code-server's extension host
// runs in the server, as VS Code Remote's on the remote side: the last test checks that side.
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { test, run, elements, screenshot } = require(path.join(__dirname, '..', '..', 'test-harness', 'host'));

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

// VS Code Remote, Dev Containers and Codespaces run a workspace extension in the extension host
// on the machine with the files, and the browser or desktop window only draws it; code-server is
// the same split (its extension host runs in the server, the workbench in Chromium). So here:
// the installed manifest says "workspace", the extension runs in the server's extension host, the
// sidecar it installed lives in the server's storage folder and runs under that extension host,
// and the user, in the browser, sees it working.

/** The value of `--name` on code-server's own command line (the server process the extension
 *  host belongs to: code-server passes its pid down as CODE_SERVER_PARENT_PID). */
function serverOption(name) {
  const pid = process.env.CODE_SERVER_PARENT_PID;
  assert.ok(pid, 'no CODE_SERVER_PARENT_PID: not code-server');
  const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const at = argv.indexOf(`--${name}`);
  assert.ok(at > 0 && argv[at + 1], `no --${name} in ${argv.join(' ')}`);
  return fs.realpathSync(argv[at + 1]);
}

/** The pids of the processes whose command line includes `needle`, each with its ancestors. */
function processesRunning(needle) {
  const parentOf = (pid) => Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  const found = [];
  for (const entry of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    let cmdline;
    try {
      cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      continue; // ended meanwhile
    }
    if (!cmdline.includes(needle)) continue;
    const ancestors = [];
    try {
      for (let pid = parentOf(entry); pid > 1; pid = parentOf(pid)) ancestors.push(pid);
    } catch {
      // an ancestor ended meanwhile: the chain up to it is enough
    }
    found.push({ pid: Number(entry), ancestors });
  }
  return found;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(what, probe, ms = 15000) {
  for (const end = Date.now() + ms; ; await sleep(100)) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
  }
}

test('VS Code Remote: a workspace extension, its sidecar installed and running on the server side', async () => {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.deepStrictEqual(extension.packageJSON.extensionKind, ['workspace'], 'the manifest of the .vsix');
  // A remote window (VS Code Remote's remoteName is "ssh-remote", "dev-container", "codespaces"...;
  // code-server's is its address), drawn in a browser; the extension runs on the other side.
  assert.ok(vscode.env.remoteName, 'not a remote window');
  assert.strictEqual(vscode.env.uiKind, vscode.UIKind.Web);
  assert.strictEqual(extension.extensionKind, vscode.ExtensionKind.Workspace, 'not in the workspace extension host');
  assert.ok(process.argv.includes('--type=extensionHost'), process.argv.join(' '));
  assert.ok(process.argv.includes('--transformURIs'), `not the remote extension host: ${process.argv.join(' ')}`);
  assert.strictEqual(extension.extensionUri.scheme, 'file');
  assert.ok(fs.existsSync(path.join(extension.extensionPath, 'bundled', 'pure.txt')), 'the wheels not on the server');

  // Installed into the extension's global storage in the server's user data folder (not the
  // browser's: a web extension's storage would be vscode-userdata:, in the browser's IndexedDB).
  const storage = path.join(serverOption('user-data-dir'), 'User', 'globalStorage', EXTENSION_ID);
  const server = api.server();
  const exe = fs.realpathSync(server.path);
  assert.ok(exe.startsWith(path.join(storage, 'sidecar', 'venv') + path.sep), `${exe} not under ${storage}`);
  assert.ok(fs.existsSync(path.join(storage, 'sidecar', 'installed.json')), 'no install marker');
  // And it runs there, a child of this extension host (the server's), not of anything else.
  const running = processesRunning(server.path);
  assert.ok(running.length > 0, `no process runs ${server.path}`);
  assert.ok(
    running.every((p) => p.ancestors.includes(process.pid)),
    `not under the extension host ${process.pid}: ${JSON.stringify(running)}`,
  );

  // What the user sees in the browser: the status bar item of the ready agent, and the answer of
  // the turn above drawn in the chat.
  await vscode.commands.executeCommand('acp-editor.focusChat');
  const status = await until('the status bar item drawn', async () => {
    const [item] = await elements('[id="acp-editor.acp-editor.status"]');
    const text = item && item.visible ? item.innerText.trim() : '';
    return /^ACP: idle\b/.test(text) ? text : null;
  });
  console.log(`    status bar: ${status}`);
  await until('the agent\'s answer drawn in the chat', async () =>
    (await elements('#transcript .msg.agent')).some((m) => /Done: read/.test(m.innerText)),
  );
  await screenshot('remote', { settleMs: 600 });
}, { timeoutMs: 60000 });

exports.run = run;
