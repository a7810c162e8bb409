// In-extension-host side of the harness: a tiny test runner, screenshots and result reporting.
// Loaded inside VS Code's extension host (CommonJS, no dependencies). Talks to run.mjs over the
// HTTP "bridge" whose address run.mjs passes down in HARNESS_BRIDGE_URL; outside the harness
// (no such variable) screenshot() and report() do nothing, so the same tests still run elsewhere.
'use strict';

const http = require('http');

const BRIDGE = process.env.HARNESS_BRIDGE_URL || '';
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/;

/** POST a JSON body to the runner and resolve with its JSON answer. */
function call(route, body, timeoutMs) {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = http.request(
      `${BRIDGE}/${route}`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': data.length } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) {
            reject(new Error(`harness bridge ${route}: HTTP ${res.statusCode} ${text}`));
            return;
          }
          try {
            resolve(JSON.parse(text));
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`harness bridge ${route}: no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(data);
  });
}

/** True when running under run.mjs. */
function underHarness() {
  return BRIDGE !== '';
}

// ---- console tee: the extension host's console output goes to run.mjs's stdout, in order -----
// (VS Code also forwards it to the workbench log, mixed with the workbench's own messages; run.mjs
// keeps that one in a file.)

let pending = []; // lines not sent yet
let sending = null; // the promise of the batch in flight

function sendPending() {
  if (sending || pending.length === 0) return sending;
  const lines = pending;
  pending = [];
  sending = call('log', { lines }, 10000)
    .catch((err) => ORIGINAL_CONSOLE.error(`[harness] could not forward output: ${err.message}`))
    .then(() => {
      sending = null;
      return sendPending();
    });
  return sending;
}

/** Resolves once every console line written so far has reached the runner. */
async function flush() {
  while (sending || pending.length) {
    await (sending || sendPending());
  }
}

const ORIGINAL_CONSOLE = {};
const TEE_KEY = Symbol.for('acp-editor.vscode-test-harness.console-tee');
if (underHarness() && !globalThis[TEE_KEY]) {
  globalThis[TEE_KEY] = true;
  const util = require('util');
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const original = console[level].bind(console);
    ORIGINAL_CONSOLE[level] = original;
    const tee = (...args) => {
      original(...args);
      pending.push({ level, text: util.format(...args) });
      sendPending();
    };
    // The extension host defines console's methods as getters with a no-op setter (that is how
    // it forwards them to the workbench), so a plain assignment would be silently ignored.
    try {
      Object.defineProperty(console, level, { value: tee, writable: true, configurable: true });
    } catch (err) {
      original(`[harness] cannot forward console.${level}: ${err.message}`);
    }
  }
  call('hello', { pid: process.pid }, 10000).catch(() => {});
} else {
  Object.assign(ORIGINAL_CONSOLE, { error: console.error.bind(console) });
}

/**
 * Ask the runner for a PNG of the whole workbench; resolves with the file's path once it is
 * written (undefined outside the harness). Options:
 *   settleMs (500): how long the runner waits first, so the UI finishes painting;
 *   notifications (false): open the notification list for the shot and close it after. VS Code
 *     shows no notification toasts in this mode (the smoke-test driver the harness needs turns
 *     them off) unless a test asks for them with toasts(true);
 *   clip ({x, y, width, height}): only this region of the viewport, in CSS pixels; a negative x
 *     or y counts from the right or bottom edge.
 */
async function screenshot(name, options = {}) {
  if (!NAME_RE.test(name)) {
    throw new Error(`screenshot name must match ${NAME_RE}: ${JSON.stringify(name)}`);
  }
  if (!underHarness()) {
    console.log(`[harness] screenshot ${name} skipped: not running under run.mjs`);
    return undefined;
  }
  const settleMs = options.settleMs === undefined ? 500 : options.settleMs;
  await flush(); // the output so far comes before the runner's "screenshot saved" line
  const vscode = options.notifications ? require('vscode') : undefined;
  if (vscode) await vscode.commands.executeCommand('notifications.showList');
  try {
    const answer = await call('screenshot', { name, settleMs, clip: options.clip }, 30000 + settleMs);
    return answer.path;
  } finally {
    if (vscode) await vscode.commands.executeCommand('notifications.hideList');
  }
}

/**
 * Tell the runner the counts; its closing `N passed, N failed` line is printed from the last
 * report. `final: false` marks a progress report (a run that then times out or crashes still shows
 * what passed), `running` names the test under way for the runner's time-out message.
 */
async function report(counts) {
  const body = {
    passed: counts.passed | 0,
    failed: counts.failed | 0,
    skipped: counts.skipped | 0,
    final: counts.final !== false,
    running: counts.running || null,
  };
  if (underHarness()) {
    await flush();
    await call('result', body, 10000);
  }
}

/** Report a mocha run's stats when it ends: `reportMocha(mocha.run(cb))`. */
function reportMocha(runner) {
  runner.once('end', () => {
    const s = runner.stats || {};
    report({ passed: s.passes, failed: s.failures, skipped: s.pending }).catch((err) => console.error(err));
  });
  return runner;
}

// ---- the tiny runner ------------------------------------------------------------------------

const registered = [];

/** Register a test: `test(name, async () => { ... })`. Runs in registration order. */
function test(name, fn, options = {}) {
  registered.push({ name, fn, timeoutMs: options.timeoutMs || 20000, skip: false });
}
test.skip = (name, fn) => registered.push({ name, fn, timeoutMs: 0, skip: true });

function withTimeout(promise, ms, name) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`test "${name}" timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Run every registered test, print one line each, report the counts to the runner, and reject
 * when any failed (VS Code then ends the run with exit code 1). Use as `exports.run = run`.
 */
async function run() {
  const tests = registered.splice(0);
  // HARNESS_ONLY=REGEX (the runner passes its environment down) runs only the tests it matches.
  const only = process.env.HARNESS_ONLY ? new RegExp(process.env.HARNESS_ONLY, 'i') : null;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const t of tests) {
    if (only && !only.test(t.name)) {
      skipped += 1;
      continue;
    }
    if (t.skip) {
      skipped += 1;
      console.log(`  - ${t.name} (skipped)`);
      continue;
    }
    const start = Date.now();
    await report({ passed, failed, skipped, final: false, running: t.name });
    try {
      await withTimeout(Promise.resolve().then(t.fn), t.timeoutMs, t.name);
      passed += 1;
      console.log(`  ok ${t.name} (${Date.now() - start} ms)`);
    } catch (err) {
      failed += 1;
      console.log(`  FAIL ${t.name} (${Date.now() - start} ms)`);
      console.log(String((err && err.stack) || err).replace(/^/gm, '      '));
    }
  }
  console.log(`tests: ${passed} ok, ${failed} failing, ${skipped} skipped`);
  await report({ passed, failed, skipped });
  if (failed > 0) {
    throw new Error(`${failed} test(s) failed`);
  }
}

/** The geometry of the first element matching `selector` in the workbench or any webview
 *  ({found, scrollTop, scrollHeight, clientHeight, text}); {found: false} outside the harness. */
async function element(selector) {
  if (!underHarness()) return { found: false };
  return call('element', { selector }, 15000);
}

/** Every element matching `selector` in the workbench and its webviews, as drawn: `{text,
 *  innerText, visible, scrollWidth, clientWidth, box}` each ([] outside the harness). Text that
 *  CSS cuts off with an ellipsis has scrollWidth > clientWidth. */
async function elements(selector) {
  if (!underHarness()) return [];
  return (await call('elements', { selector }, 15000)).elements;
}

/** Have the workbench draw notification toasts as desktop VS Code does (true), or not (false, as
 *  the smoke-test driver would). Rejects when this VS Code's toast check is unknown to the runner. */
async function toasts(show) {
  if (!underHarness()) return;
  await call('toasts', { show: show === true }, 15000);
}

/** Press a key combination in the workbench as the user would, e.g. `Control+Alt+KeyA`
 *  (playwright's key names): VS Code's keybindings see it where the focus is. */
async function press(keys) {
  if (!underHarness()) return;
  await call('press', { keys }, 15000);
}

/** Type `text` where the focus is, key by key, as the user would. */
async function type(text) {
  if (!underHarness()) return;
  await call('type', { text }, 15000);
}

/** Click the first element matching `selector` in the workbench or a webview with the mouse, as
 *  the user would (scrolled into view first; it must be visible and enabled). */
async function click(selector) {
  if (!underHarness()) return;
  await call('click', { selector }, 15000);
}

/** Paste files (`[{name, type, base64}]`) into the first element matching `selector` in the
 *  workbench or a webview, as the browser's paste event carries them (a pasted screenshot). */
async function pasteFiles(selector, files) {
  if (!underHarness()) return;
  await call('pasteFiles', { selector, files }, 15000);
}

/** Resize the window the workbench is drawn in (CSS pixels; the runner starts at 1280x800). */
async function viewport(width, height) {
  if (!underHarness()) return;
  await call('viewport', { width, height }, 15000);
}

module.exports = {
  test,
  run,
  screenshot,
  report,
  reportMocha,
  flush,
  underHarness,
  element,
  elements,
  toasts,
  press,
  type,
  pasteFiles,
  click,
  viewport,
};
