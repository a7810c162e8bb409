// What ACP schema 1.25 added, in a real VS Code with the demo agent (issue 34): a notice at its
// severity, a compaction with its summary, the turn's end with its tokens, plans by id, a tool
// call's name for an empty title, the boolean option toggled in the chat, a subagent under the
// tool call that started it (its question naming it, Cancel), and signing in through an
// integrated terminal (the demo agent's --require-login, the terminal answered by sending it
// text). What is drawn is read from the chat's webview and the workbench.
//
// Each test stands alone: `bash scripts/integration.sh --only 'schema 1.25'` runs them, and
// `--only 'sign-in'` the sign-in ones (they restart the sidecar with the login flags, and put
// the settings back after).
'use strict';

const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { test, click, screenshot, elements } = require(path.join(__dirname, '..', '..', 'test-harness', 'host'));
const { sleep, until, notificationSpy, quickInputScript } = require('./probes');
const { ready, drawn } = require('./chat');

// Installed when index.js loads this file, before the extension activates.
const notifications = notificationSpy();
const STATUS = '[id="acp-editor.acp-editor.status"]';
// What the demo agent says and does (acp_editor/demo_agent/scenarios/opt_in_scenarios.py, subagent_scenarios.py).
const NOTICE_TITLE = 'Rate limit almost reached';
const CHILD = 'Explore hello.py';
const CHILD_FAILURE = "The subagent's model stopped answering (a demo failure)";
const CANCELLED = 'The subagent was cancelled before it finished.';

const hello = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'hello.py');
const HELLO = 'print("hello")\nx = 1\ny = 2\nz = 3\n'; // as integration.sh writes it

/** The workbench as a user starts with it, for a picture: what earlier tests left pending kept,
 *  hello.py as it was, its editor alone, no panel. */
async function tidyWorkbench() {
  await vscode.commands.executeCommand('acp-editor.acceptAll');
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  fs.writeFileSync(hello.fsPath, HELLO);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.window.showTextDocument(hello, { preview: false });
  await vscode.commands.executeCommand('workbench.action.closePanel');
}

/** A session of its own for a test (the chat shows it in front). */
async function freshSession(api) {
  const id = await api.newSession();
  await vscode.commands.executeCommand('acp-editor.focusChat');
  await until('the chat drawn', async () => (await drawn('#status')).some(Boolean), 10000);
  return id;
}

const text = (selector) => drawn(selector).then((all) => all.join('\n'));

test(
  'schema 1.25: a notice at its severity, a compaction with its summary folded, the turn ended with its tokens',
  async () => {
    const api = await ready();
    await freshSession(api);
    assert.strictEqual((await api.prompt('notice')).stopReason, 'end_turn');
    const notice = await until('the notice drawn', async () => (await text('#transcript .notice.sev-warning')) || null);
    console.log(`    notice: ${notice.replace(/\s+/g, ' ')}`);
    assert.match(notice, new RegExp(`⚠\\s*${NOTICE_TITLE}`));
    assert.match(notice, /used 90% of this hour's requests/);
    // The turn's end, with the tokens the sidecar kept in its idle run state.
    const end = await until('the turn end drawn', async () => (await text('#turnEnd')) || null);
    console.log(`    turn end: ${end}`);
    assert.match(end, /^✓ Turn ended · [\d.]+k? tokens \([\d,]+ in · [\d,]+ out\)$/);
    assert.ok(api.session().runState.usage.totalTokens > 0, JSON.stringify(api.session().runState));

    assert.strictEqual((await api.prompt('compact')).stopReason, 'end_turn');
    const head = await until('the compaction drawn', async () => (await text('#transcript .compaction-head')) || null);
    assert.strictEqual(head, '⇲ Conversation compacted');
    // Its summary folded: a click opens it.
    const summary = '#transcript .compaction-summary';
    assert.deepStrictEqual(
      (await elements(`${summary} p`)).map((e) => e.visible),
      [false],
      'the summary is not folded',
    );
    await click(`${summary} > summary`);
    const opened = await until('the summary open', async () => {
      const [p] = await elements(`${summary} p`);
      return p && p.visible ? p.innerText : null;
    });
    assert.match(opened, /^The user is trying the acp-editor demo agent\./);
    // The context the header shows dropped with it.
    assert.match((await text('#usage')) || '', /^23k \/ 200k tokens \(12%\)/);
  },
  { timeoutMs: 60000 },
);

test(
  'schema 1.25: plans by id, the Markdown plan drawn as Markdown and gone once removed; an untitled tool call shows its name',
  async () => {
    const api = await ready();
    await freshSession(api);
    const turn = api.prompt('plans');
    // Read at once: the Markdown plan lives for less than a second.
    const both = await until(
      'both plans drawn',
      async () => {
        const [md, items, summary] = await Promise.all([
          text('#plan .plan-markdown'),
          drawn('#plan .plan-items li'),
          text('#plan > details > summary'),
        ]);
        return md && items.length === 3 ? { md, items, summary } : null;
      },
      15000,
      10,
    );
    assert.match(both.md, /^Follow-up\s+Tidy the imports\s+Write a docstring for greet$/);
    assert.strictEqual(both.summary, 'Plans (2)');
    assert.strictEqual((await turn).stopReason, 'end_turn');
    await until('the Markdown plan removed', async () => (await drawn('#plan .plan-markdown')).length === 0);
    assert.deepStrictEqual(Object.keys(api.session().plans), ['p1']);
    assert.deepStrictEqual(
      (await drawn('#plan .plan-items li')).map((t) => t.replace(/\s+/g, ' ')),
      ['● Read hello.py', '● Edit hello.py', '● Run the tests'],
    );

    assert.strictEqual((await api.prompt('untitled')).stopReason, 'end_turn');
    const titles = await drawn('#transcript .tool .title');
    assert.ok(titles.includes('Glob'), `the untitled call drawn as: ${titles.join(' | ')}`);
  },
  { timeoutMs: 60000 },
);

test(
  'schema 1.25: the boolean option is a toggle in the chat; on, the agent thinks aloud first',
  async () => {
    const api = await ready();
    await freshSession(api);
    const option = () => (api.session().configOptions || []).find((o) => o.id === 'think-aloud');
    await until('the boolean option offered', () => option());
    assert.strictEqual(option().type, 'boolean');
    assert.strictEqual(option().currentValue, false);
    const toggle = 'label.toggle:has(input[data-config="think-aloud"]) .switch';
    await until('the toggle drawn', async () => (await elements(toggle)).length === 1);
    await click(toggle);
    await until('the option on in the session (acp/setConfigOption with true)', () => option().currentValue === true);
    await until(
      'the toggle drawn on',
      async () => (await elements('input[data-config="think-aloud"]:checked')).length === 1,
    );
    assert.strictEqual((await api.prompt('read')).stopReason, 'end_turn');
    const roles = api.session().entries.map((e) => e.role || e.kind);
    assert.ok(roles.includes('thought'), `no thought: ${roles.join(', ')}`);
    // Off again from the command (a boolean option toggles when picked).
    assert.strictEqual(await vscode.commands.executeCommand('acp-editor.setConfigOption', 'think-aloud'), false);
    await until(
      'the toggle drawn off',
      async () => (await elements('input[data-config="think-aloud"]:checked')).length === 0,
    );
  },
  { timeoutMs: 60000 },
);

/** The demo's subagent turn until its child asks to edit: the child's session id and question. */
async function childAsking(api) {
  const shown = notifications.calls.length;
  const turn = api.prompt('subagent');
  const q = await until('the subagent asking', () => api.pendingPermissions().find((p) => p.params.subagent), 20000);
  const child = q.params.sessionId;
  const note = await until('its notification', () =>
    notifications.calls.slice(shown).find((c) => c.message.includes('wants to edit')),
  );
  return { turn, q, child, note };
}

test(
  'schema 1.25: a subagent under the tool call that started it, its question naming it, answered on its card',
  async () => {
    // A sidecar of its own, so that the picture shows this session alone in the strip.
    await ready();
    await tidyWorkbench();
    await vscode.commands.executeCommand('acp-editor.restart');
    const api = await ready();
    const parent = await freshSession(api);
    const { turn, q, child, note } = await childAsking(api);
    console.log(`    notification: ${note.message}`);
    assert.match(note.message, new RegExp(`^Subagent “${CHILD}” wants to edit: Edit hello\\.py`));
    assert.strictEqual(api.session().sessionId, parent, 'the child came to the front');
    // Drawn under the Task card: its title, its state, its own read, its question naming it.
    const block = `#transcript .tool [data-subagent="${child}"]`;
    const head = await until('the child under its Task card', async () => (await text(`${block} .sub-head`)) || null);
    console.log(`    drawn: ${head.replace(/\s+/g, ' ')}`);
    assert.match(head, new RegExp(`Subagent\\s+${CHILD}\\s+waiting for you`));
    const card = await text(`#transcript .tool:has(> [data-subagent="${child}"]) > .tool-head .title`);
    assert.match(card, /^Task: explore hello\.py/);
    await until('its read drawn in its work', async () =>
      (await text(`${block} .sub-work .tool .title`)).includes('Read hello.py'),
    );
    const question = await text(`${block} .permission .question`);
    assert.match(question, new RegExp(`Subagent “${CHILD}” wants to edit: Edit hello\\.py`));
    // The strip lists it under its session, not as a session of its own.
    await until('the strip naming it', async () => (await text('#sessions .subsession')).includes(CHILD));
    assert.ok(!api.sessions().some((t) => t.sessionId === child), 'the child is a top-level session');
    // The follow mark of its read names it.
    const follow = api.lastFollow();
    assert.strictEqual(follow.subagent && follow.subagent.title, CHILD);
    assert.ok(
      api
        .followLabels()
        .some((l) => l.text === `◆ subagent “${CHILD}” reading` || l.text === `◆ subagent “${CHILD}” here`),
      JSON.stringify(api.followLabels()),
    );
    // Its line in the strip brings it into view: the Task card's head, the child under it.
    await click(`#sessions .subsession[data-reveal="${child}"]`);
    await sleep(300);
    await screenshot('subagent', { settleMs: 800 });

    const allow = q.params.options.find((o) => o.kind === 'allow_once');
    await click(`${block} [data-act="permission"][data-option="${allow.optionId}"]`);
    assert.strictEqual((await turn).stopReason, 'end_turn');
    const done = await until('the child idle', async () => {
      const t = await text(`${block} .sub-state`);
      return /^idle/.test(t) ? t : null;
    });
    console.log(`    ended: ${done}`);
    assert.match(done, /^idle \(end turn\) · \d+ tokens \(\d+ in · \d+ out\)$/);
    // Its answer came back to the parent as a message between sessions (drawn as it streams:
    // the turn's end can come before its last words are drawn).
    const answer = new RegExp(`← From subagent “${CHILD}”[\\s\\S]*added a line at its end`);
    await until('its answer drawn in the parent', async () => answer.test(await text('#transcript .msg.session')));
    await until('the strip without it', async () => (await drawn('#sessions .subsession')).length === 0);
    await vscode.commands.executeCommand('acp-editor.rejectAll'); // hello.py as it was
  },
  { timeoutMs: 60000 },
);

test(
  "schema 1.25: a failing subagent says the error's message",
  async () => {
    const api = await ready();
    await freshSession(api);
    assert.strictEqual((await api.prompt('subagent-fails')).stopReason, 'end_turn');
    const state = await until(
      'the failed child drawn',
      async () => (await text('#transcript .subagent.st-failed .sub-state')) || null,
    );
    assert.strictEqual(state.replace(/ · .*$/, ''), `failed: ${CHILD_FAILURE}`);
  },
  { timeoutMs: 60000 },
);

test(
  'schema 1.25: Cancel on a subagent stops it alone (acp/cancel of its session); its question is withdrawn, its parent goes on',
  async () => {
    const api = await ready();
    await freshSession(api);
    const { turn, child } = await childAsking(api);
    try {
      await cancelChild(api, turn, child);
    } finally {
      // Whatever happened, no turn is left waiting for the tests after this one.
      if (api.extras().busy) await api.cancel();
    }
  },
  { timeoutMs: 60000 },
);

/** Cancel on the child's block: its question withdrawn, the child cancelled, the parent's turn
 *  going on with the child's word of it. */
async function cancelChild(api, turn, child) {
  const cancel = `#transcript [data-subagent="${child}"] [data-act="cancelSubagent"]`;
  await until('its Cancel drawn', async () => (await elements(cancel)).length === 1);
  const errors = notifications.calls.length;
  await click(cancel);
  await until('its question withdrawn', () => api.pendingPermissions().length === 0, 10000).catch((error) => {
    const said = notifications.calls.slice(errors).map((c) => c.message);
    throw new Error(`${error.message}; the extension said: ${said.join(' | ') || 'nothing'}`);
  });
  assert.strictEqual((await turn).stopReason, 'end_turn', 'the parent did not go on');
  await until('the child cancelled', async () =>
    (await text(`#transcript [data-subagent="${child}"] .sub-state`)).startsWith('cancelled'),
  );
  assert.ok(
    api
      .session()
      .entries.some(
        (e) =>
          e.kind === 'message' && e.role === 'session' && e.content.some((b) => (b.text || '').includes('cancelled')),
      ),
    'no word of the cancel came back to the parent',
  );
  assert.ok(JSON.stringify(Object.values(api.session().toolCalls)).includes(CANCELLED));
}

// -- signing in ---------------------------------------------------------------------------------

/** Run `body` with the demo agent asking for a terminal sign-in (--require-login), its login
 *  kept in a file of its own; the settings as they were after. */
async function withLoginRequired(body) {
  const config = vscode.workspace.getConfiguration('acp-editor');
  const agents = config.get('agents');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-login-'));
  const loginFile = path.join(dir, 'login.json');
  const api = await ready();
  const before = api.extras().agent;
  await config.update(
    'agents',
    agents.map((a) => ({ ...a, args: [...(a.args || []), '--require-login', '--login-file', loginFile] })),
    vscode.ConfigurationTarget.Global,
  );
  try {
    await until(
      'the sidecar restarted with the agent asking for a sign-in',
      () => {
        const agent = api.server() && api.extras().agent;
        return (
          agent && agent !== before && agent.state === 'ready' && (agent.command || []).includes('--require-login')
        );
      },
      20000,
    );
    await body(api, loginFile);
  } finally {
    await config.update('agents', agents, vscode.ConfigurationTarget.Global);
    await until(
      'the sidecar back to the plain demo agent',
      () => {
        const agent = api.server() && api.extras().agent;
        return agent && agent.state === 'ready' && !(agent.command || []).includes('--require-login');
      },
      20000,
    );
  }
}

/** The sign-in terminal the extension opened, once its program asks for the name. */
async function signInTerminal(api) {
  const [name] = await until('the sign-in terminal', () =>
    api.signInTerminals().length ? api.signInTerminals() : null,
  );
  const terminal = await until('it among the terminals', () => vscode.window.terminals.find((t) => t.name === name));
  await until('its program running', async () => (await terminal.processId) > 0);
  return { name, terminal };
}

/** The method list, answered with the terminal method; its rows recorded. */
const pickTerminalMethod = () =>
  quickInputScript([(items) => items.find((i) => i.description === 'opens a terminal: you sign in there')]);

test(
  'sign-in: "Not logged in" beside the agent; the login run in an integrated terminal the user types into; the waiting prompt goes on',
  async () => {
    await tidyWorkbench();
    await withLoginRequired(async (api, loginFile) => {
      await freshSession(api);
      const header = await until('"Not logged in" in the chat header', async () => {
        const t = await text('#status');
        return t.includes('Not logged in') ? t : null;
      });
      assert.match(header, /Not logged in\s*Sign In…/);
      await until('the status bar saying it', async () => /Not logged in/.test(await text(STATUS)));
      const script = pickTerminalMethod();
      let turn;
      try {
        turn = api.prompt('stream');
        const { name, terminal } = await signInTerminal(api);
        console.log(`    terminal: ${name}`);
        assert.match(name, /^Sign in: acp-editor demo agent \(Log in from a terminal\)$/);
        assert.deepStrictEqual(script.calls[0].labels, ['$(terminal) Log in from a terminal']);
        assert.strictEqual(script.calls[0].title, 'Sign in to acp-editor demo agent');
        await sleep(1500); // the program's question printed, for the picture
        await screenshot('signin', { settleMs: 500 });
        terminal.sendText('Alice'); // the user types a name and presses Enter
      } finally {
        script.restore();
      }
      const result = await turn;
      assert.strictEqual(result.stopReason, 'end_turn');
      assert.ok(fs.existsSync(loginFile), 'no login file');
      await until('the terminal closed when its program ended', () => api.signInTerminals().length === 0);
      const signedIn = await until('signed in, in the chat header', async () => {
        const t = await text('#status');
        return /Signed in: Alice/.test(t) ? t : null;
      });
      assert.doesNotMatch(signedIn, /Sign In…/);
      assert.doesNotMatch(await text(STATUS), /Not logged in/);
    });
  },
  { timeoutMs: 90000 },
);

test(
  'sign-in: "ACP: Sign In..." whose terminal is closed before it ends says so, with the command line to run',
  async () => {
    await withLoginRequired(async (api, loginFile) => {
      await freshSession(api);
      const shown = notifications.calls.length;
      const script = pickTerminalMethod();
      let signing;
      try {
        signing = vscode.commands.executeCommand('acp-editor.signIn');
        const { terminal } = await signInTerminal(api);
        terminal.dispose(); // the user closes it
      } finally {
        script.restore();
      }
      assert.strictEqual(await signing, undefined);
      const failure = await until('the failure said', () =>
        notifications.calls.slice(shown).find((c) => c.message.startsWith('ACP: not signed in.')),
      );
      console.log(`    said: ${failure.message} [${failure.titles.join(' | ')}]`);
      assert.strictEqual(failure.severity, 'error');
      assert.match(failure.message, /was not finished/);
      assert.match(failure.message, /run in a terminal: .*--login --login-file /);
      assert.deepStrictEqual(failure.titles, ['Sign In…', 'Copy the Command']);
      assert.ok(!fs.existsSync(loginFile));
    });
  },
  { timeoutMs: 90000 },
);
