// A session in a worktree of its own in a real VS Code (issue 28): started by "ACP: New Session in
// Its Own Worktree…", its edit stays out of the user's hello.py, the chat's bar brings it back
// as review (the lens drawn over the line in the editor), then discards the worktree after the
// question (which says nothing is lost: all was brought back); a prompt to it after is refused,
// said plainly. What is drawn is read from the webview and the workbench.
//
// The worktree is made from the workspace's git repository: the test makes one (and removes it
// after) when the workspace is not a repository, after checking that a folder outside git is
// refused with the sidecar's reason. It stands alone:
// `bash scripts/integration.sh --only 'worktree'`.
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const vscode = require('vscode');
const { test, click } = require(path.join(__dirname, '..', '..', 'test-harness', 'host'));
const { until, notificationSpy } = require('./probes');
const { ready, drawn } = require('./chat');

// Installed when index.js loads this file, before the extension activates.
const notifications = notificationSpy();
const folder = vscode.workspace.workspaceFolders[0].uri.fsPath;
const hello = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'hello.py');
const EDIT_LINE = 'print("edited by the demo agent")'; // what the demo agent's "edit" appends

const git = (...args) =>
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], {
    cwd: folder,
    stdio: 'pipe',
  });

/** The notification whose message matches `pattern`, shown since call number `from`. */
const shownSince = (from, pattern) =>
  until(`a notification ${pattern}`, () => notifications.calls.slice(from).find((c) => pattern.test(c.message)));

test(
  'worktree: a session in its own worktree leaves hello.py alone; Bring Back puts its edit in review, Discard deletes the worktree',
  async () => {
    const api = await ready();
    const madeRepository = !fs.existsSync(path.join(folder, '.git'));
    if (madeRepository) {
      // Outside git: refused, with the sidecar's reason in the error notification.
      const from = notifications.calls.length;
      assert.strictEqual(await vscode.commands.executeCommand('acp-editor.newSessionInWorktree', 'default'), undefined);
      const refused = await shownSince(from, /new session in its own worktree failed/);
      assert.strictEqual(refused.severity, 'error');
      assert.match(refused.message, /is not a git repository/);
      git('init', '-q');
      git('add', '-A');
      git('commit', '-q', '-m', 'the workspace as the tests left it');
    }
    const before = fs.readFileSync(hello.fsPath, 'utf8');
    try {
      const sessionId = await vscode.commands.executeCommand('acp-editor.newSessionInWorktree', 'default');
      assert.ok(sessionId, 'no session started');
      const worktree = api.sessionOf(sessionId).worktree;
      assert.ok(worktree && fs.existsSync(path.join(worktree, 'hello.py')), `no worktree: ${worktree}`);
      assert.ok(!worktree.startsWith(folder + path.sep), `the worktree ${worktree} is inside the workspace`);
      await vscode.commands.executeCommand('acp-editor.focusChat');
      const [bar] = await until('the worktree bar drawn', async () => {
        const shown = await drawn('#worktree');
        return shown.length && shown[0].includes('Bring Back Changes') ? shown : null;
      });
      assert.match(bar, /In its own worktree/);
      assert.match(bar, /Discard Worktree…/);

      const turn = api.prompt('edit', sessionId);
      const q = await until('the permission question', () =>
        api.pendingPermissions().find((p) => p.params.sessionId === sessionId),
      );
      api.answerPermission(q.id, q.params.options.find((o) => o.kind === 'allow_once').optionId);
      assert.strictEqual((await turn).stopReason, 'end_turn');
      assert.ok(fs.readFileSync(path.join(worktree, 'hello.py'), 'utf8').endsWith(`${EDIT_LINE}\n`));
      assert.strictEqual(fs.readFileSync(hello.fsPath, 'utf8'), before, "the user's hello.py changed");
      assert.deepStrictEqual(
        api.reviewHunks().filter((h) => h.sessionId === sessionId),
        [],
        'the worktree was reviewed before it was brought back',
      );

      // "Bring Back Changes" on the chat's bar: the edit comes into hello.py as the session's review.
      let from = notifications.calls.length;
      await click(`#worktree [data-act="bringBack"][data-session="${sessionId}"]`);
      const note = await shownSince(from, /in review\.$/);
      assert.strictEqual(note.severity, 'info');
      assert.match(note.message, /^1 file from session "edit" in review\.$/);
      const hunk = await until('the brought-back hunk', () =>
        api.reviewHunks().find((h) => h.sessionId === sessionId && h.uri === hello.toString() && h.state === 'pending'),
      );
      assert.deepStrictEqual(hunk.newLines, [EDIT_LINE]);
      await until(
        'hello.py holding the edit',
        () => fs.readFileSync(hello.fsPath, 'utf8') === before + `${EDIT_LINE}\n`,
      );
      await vscode.window.showTextDocument(hello, { preview: false });
      const lenses = await until('the review lens drawn over the line', async () => {
        const shown = await drawn('.codelens-decoration');
        return shown.some((t) => t.includes('Accept hunk')) ? shown : null;
      });
      console.log(`    drawn: ${lenses.map((t) => t.replace(/\s+/g, ' ')).join(' | ')}`);

      // "Discard Worktree…": asked first (keeping is the first answer), then the folder is gone.
      from = notifications.calls.length;
      await vscode.commands.executeCommand('acp-editor.focusChat');
      await click(`#worktree [data-act="discardWorktree"][data-session="${sessionId}"]`);
      const ask = await shownSince(from, /^Discard the worktree of session "edit"/);
      assert.strictEqual(ask.severity, 'warning');
      assert.deepStrictEqual(ask.titles, ['Keep the Worktree', 'Discard']);
      // Asked with what would be lost (acp/discardWorktree's dryRun): all of it was brought back.
      assert.match(ask.message, /Nothing is lost/);
      notifications.click(ask, 'Discard');
      // Deleted, or an error said why not (a failure is then shown, not a bare time-out).
      const failed = () => notifications.calls.slice(from).find((c) => c.severity === 'error');
      await until('the worktree deleted', () => !fs.existsSync(worktree) || failed(), 30000);
      assert.strictEqual(failed(), undefined, `the discard failed: ${failed()?.message}`);
      assert.ok(!fs.existsSync(worktree));
      const [gone] = await until('the bar saying it is discarded', async () => {
        const shown = await drawn('#worktree');
        return shown.length && shown[0].includes('Worktree discarded') ? shown : null;
      });
      assert.match(gone, /takes no more prompts[\s\S]*New Session/);
      assert.strictEqual(api.sessionOf(sessionId).worktree, undefined);
      assert.strictEqual(api.sessions().find((t) => t.sessionId === sessionId).discarded, true);

      // A prompt to it: the sidecar refuses it, and the chat says so plainly (not as a failure).
      from = notifications.calls.length;
      await vscode.commands.executeCommand('acp-editor.prompt', 'one more');
      const refused = await shownSince(from, /takes no more prompts/);
      assert.strictEqual(refused.severity, 'warning');
      assert.strictEqual(
        refused.message,
        'Session "edit" takes no more prompts: its worktree was discarded. Start a new session to go on; this one stays to read.',
      );
      assert.deepStrictEqual(refused.titles, ['New Session']);

      // Put hello.py back: the brought-back change rejected.
      await vscode.commands.executeCommand('acp-editor.rejectHunk', hunk.hunkId);
      await until('hello.py as before', () => fs.readFileSync(hello.fsPath, 'utf8') === before, 5000);
    } finally {
      if (madeRepository) fs.rmSync(path.join(folder, '.git'), { recursive: true, force: true });
    }
  },
  { timeoutMs: 60000 },
);
