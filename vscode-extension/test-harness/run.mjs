#!/usr/bin/env node
// Runs a VS Code extension's integration tests inside a real VS Code: code-server (the VS Code
// workbench + extension host, served on 127.0.0.1) opened in Debian's headless Chromium through
// playwright-core. See README.md beside this file. Runs with Node 20 or Node 24; code-server
// itself is always started with the Node 24 that scripts/vscode-test-deps installs.
//
//   node run.mjs --extension DIR --tests DIR --workspace DIR --screenshots DIR [--timeout 120]
//
// Prints the tests' output, then a closing `N passed, N failed` line; exits 0 only when the
// tests ran, reported their counts and none failed.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import util from 'node:util';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const require = createRequire(import.meta.url);

// playwright adds `--headless` itself (headless: true) and drops it from `args`.
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// VS Code draws no notification toasts while the smoke-test driver is on (which the harness needs
// for `payload`): `addToast` returns early. The workbench script is served with that one check
// also asking a page flag, `globalThis.harnessToasts`, which the `toasts` route sets: a test can
// then see notifications drawn as desktop VS Code draws them. Off unless a test asks.
const WORKBENCH_SCRIPT = /\/vs\/code\/browser\/workbench\/workbench\.js$/;
const TOAST_CHECK =
  /(addToast\(\w+\)\{if\(!this\.isNotificationsCenterVisible&&)!this\.environmentService\.enableSmokeTestDriver&&/;
const TOAST_CHECK_PATCHED = '$1!(this.environmentService.enableSmokeTestDriver&&!globalThis.harnessToasts)&&';

// ---- arguments --------------------------------------------------------------------------------

function usage(message) {
  if (message) console.error(`run.mjs: ${message}`);
  console.error(
    'usage: node run.mjs --extension DIR --tests DIR --workspace DIR --screenshots DIR\n' +
      '                    [--timeout SECONDS (120)] [--settings FILE.json] [--keep-scratch] [--verbose]',
  );
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { timeout: 120, keepScratch: false, verbose: false };
  const valued = {
    '--extension': 'extension',
    '--tests': 'tests',
    '--workspace': 'workspace',
    '--screenshots': 'screenshots',
    '--timeout': 'timeout',
    '--settings': 'settings',
  };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (arg === '--keep-scratch') opts.keepScratch = true;
    else if (arg === '--verbose') opts.verbose = true;
    else if (arg === '--help' || arg === '-h') usage();
    else if (valued[arg]) {
      if (value === undefined) value = argv[++i];
      if (value === undefined) usage(`${arg} needs a value`);
      opts[valued[arg]] = value;
    } else usage(`unknown argument ${arg}`);
  }
  for (const key of ['extension', 'tests', 'workspace', 'screenshots']) {
    if (!opts[key]) usage(`--${key} is required`);
    opts[key] = path.resolve(opts[key]);
  }
  if (opts.settings) opts.settings = path.resolve(opts.settings);
  opts.timeout = Number(opts.timeout);
  if (!(opts.timeout > 0)) usage('--timeout must be a positive number of seconds');
  for (const key of ['extension', 'tests', 'workspace']) {
    if (!fs.statSync(opts[key], { throwIfNoEntry: false })?.isDirectory())
      usage(`--${key} ${opts[key]} is not a directory`);
  }
  if (!fs.existsSync(path.join(opts.extension, 'package.json'))) usage(`no package.json in ${opts.extension}`);
  if (!['index.js', 'index.cjs', 'package.json'].some((f) => fs.existsSync(path.join(opts.tests, f)))) {
    usage(`no index.js in ${opts.tests} (VS Code requires that folder and calls its run())`);
  }
  return opts;
}

// ---- tools the run needs ------------------------------------------------------------------------

function findTools() {
  const node24 = process.env.HARNESS_NODE24 || path.join(REPO, '.cache/node24/node_modules/node/bin/node');
  const codeServer =
    process.env.HARNESS_CODE_SERVER || path.join(REPO, '.cache/code-server/node_modules/code-server/out/node/entry.js');
  let chromium = process.env.HARNESS_CHROMIUM;
  if (!chromium) {
    chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
  }
  const missing = [];
  if (!fs.existsSync(node24)) missing.push(`Node 24 (${node24})`);
  if (!fs.existsSync(codeServer)) missing.push(`code-server (${codeServer})`);
  if (!chromium || !fs.existsSync(chromium)) missing.push('chromium (/usr/bin/chromium)');
  let playwright;
  try {
    playwright = require('playwright-core');
  } catch {
    missing.push(`playwright-core (${path.join(HERE, 'node_modules')})`);
  }
  if (missing.length) {
    console.error(`run.mjs: missing ${missing.join(', ')}; run scripts/vscode-test-deps first`);
    process.exit(2);
  }
  return { node24, codeServer, chromium, playwright };
}

// ---- scratch space --------------------------------------------------------------------------------

// User settings of every run: a quiet, predictable workbench (no chat side bar, no update or
// gallery checks, no welcome page). --settings FILE adds to or overrides these.
const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'window.commandCenter': false,
  'git.openRepositoryInParentFolders': 'never', // else a prompt about the repo around the workspace
};

function makeScratch(extraSettings) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vscode-harness-'));
  const dirs = { root };
  for (const name of ['user-data', 'extensions', 'tmp', 'config', 'data', 'cache', 'chromium-profile']) {
    dirs[name] = path.join(root, name);
    fs.mkdirSync(dirs[name]);
  }
  const userDir = path.join(dirs['user-data'], 'User');
  fs.mkdirSync(userDir);
  const settings = { ...DEFAULT_SETTINGS, ...extraSettings };
  fs.writeFileSync(path.join(userDir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  return dirs;
}

/** A screenshot's region, in CSS pixels of the viewport; negative x/y count from the right/bottom
 *  edge, so a test can ask for "the bottom-right corner" whatever the window's size. */
function screenClip(clip, viewport) {
  const n = (v) => Math.round(Number(v) || 0);
  const width = n(clip.width);
  const height = n(clip.height);
  const x = n(clip.x) < 0 ? viewport.width + n(clip.x) : n(clip.x);
  const y = n(clip.y) < 0 ? viewport.height + n(clip.y) : n(clip.y);
  if (!(width > 0 && height > 0)) throw new Error(`bad screenshot clip ${JSON.stringify(clip)}`);
  return { x: Math.max(0, x), y: Math.max(0, y), width, height };
}

// ---- the bridge: the extension host's tests ask the runner for screenshots and report counts ----

function startBridge(handlers) {
  const token = randomBytes(16).toString('hex');
  const server = http.createServer((req, res) => {
    const answer = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const prefix = `/${token}/`;
    if (req.method !== 'POST' || !req.url.startsWith(prefix)) return answer(404, { error: 'not found' });
    const route = req.url.slice(prefix.length);
    const handler = handlers[route];
    if (!handler) return answer(404, { error: `no route ${route}` });
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        answer(200, await handler(body));
      } catch (err) {
        answer(500, { error: String(err && err.message ? err.message : err) });
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({ server, url: `http://127.0.0.1:${server.address().port}/${token}` });
    });
  });
}

// ---- code-server --------------------------------------------------------------------------------

function startCodeServer(tools, scratch, extraEnv, verbose) {
  const env = {
    ...process.env,
    ...extraEnv,
    TMPDIR: scratch.tmp,
    XDG_CONFIG_HOME: scratch.config,
    XDG_DATA_HOME: scratch.data,
    XDG_CACHE_HOME: scratch.cache,
    PATH: `${path.dirname(tools.node24)}:${process.env.PATH}`,
  };
  const args = [
    tools.codeServer,
    '--bind-addr',
    '127.0.0.1:0', // code-server picks a free port and prints it
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--user-data-dir',
    scratch['user-data'],
    '--extensions-dir',
    scratch.extensions,
    // Without this a built VS Code ignores the workbench URL's `payload` and the run hangs.
    '--vscode-option',
    'enable-smoke-test-driver',
  ];
  // detached: its own process group, so the whole tree can be ended at once.
  const child = spawn(tools.node24, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = [];
  // Rejects whenever code-server ends (the harness's own kill included: nobody races it then).
  const died = new Promise((_, reject) => {
    child.once('exit', (code, signal) =>
      reject(new Error(`code-server exited (${signal || code}):\n${log.slice(-30).join('\n')}`)),
    );
    child.once('error', reject);
  });
  died.catch(() => {});
  const ready = new Promise((resolve, reject) => {
    died.catch(reject);
    const onLine = (line) => {
      log.push(line);
      if (verbose) console.error(`[code-server] ${line}`);
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(line);
      if (m) resolve({ origin: m[1], port: Number(m[2]) });
    };
    for (const stream of [child.stdout, child.stderr]) {
      let buf = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        buf += chunk;
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          onLine(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
        }
      });
    }
  });
  return { child, ready, died, log };
}

/** Send `signal` to the child's process group, which may be gone already. */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // No such group (every member has exited): nothing left to signal.
  }
}

async function killGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) {
    // The main process is gone; its group may not be.
    signalGroup(child, 'SIGKILL');
    return;
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  signalGroup(child, 'SIGTERM');
  const timer = new Promise((resolve) => setTimeout(resolve, 3000, 'timeout'));
  await Promise.race([exited, timer]);
  signalGroup(child, 'SIGKILL'); // whatever is left of the group
}

// ---- results --------------------------------------------------------------------------------------

/** Mocha's reporters end with "N passing" / "N failing" / "N pending". */
function countsFromMochaOutput(lines) {
  let passed;
  let failed = 0;
  let skipped = 0;
  for (const line of lines) {
    const m = /^\s*(\d+) (passing|failing|pending)\b/.exec(line);
    if (!m) continue;
    if (m[2] === 'passing') passed = Number(m[1]);
    else if (m[2] === 'failing') failed = Number(m[1]);
    else skipped = Number(m[1]);
  }
  return passed === undefined ? undefined : { passed, failed, skipped };
}

// ---- main -----------------------------------------------------------------------------------------

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const tools = findTools();
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  fs.mkdirSync(opts.screenshots, { recursive: true });
  const scratch = makeScratch(opts.settings ? JSON.parse(fs.readFileSync(opts.settings, 'utf8')) : {});

  let page;
  let toastsPatched = false; // the workbench script was served with the toast flag (TOAST_CHECK)
  let reported; // counts from the tests' report() call
  let hostLoaded = false; // host/index.js said hello over the bridge
  const output = []; // the tests' console output, from the bridge
  const workbenchLog = []; // everything codeAutomationLog got
  const workbenchLogFile = path.join(opts.screenshots, 'workbench.log');
  fs.rmSync(workbenchLogFile, { force: true });
  const shots = [];

  const bridge = await startBridge({
    async screenshot({ name, settleMs, clip }) {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/.test(String(name))) throw new Error(`bad screenshot name ${name}`);
      if (!page) throw new Error('no page yet');
      await new Promise((r) => setTimeout(r, Math.min(Number(settleMs) || 0, 10000)));
      const file = path.join(opts.screenshots, `${name}.png`);
      const partial = `${file}.partial`;
      const region = clip ? { clip: screenClip(clip, page.viewportSize()) } : {};
      await page.screenshot({ path: partial, type: 'png', ...region });
      fs.renameSync(partial, file); // whole file or none
      shots.push(file);
      console.log(`[harness] screenshot saved: ${file}`);
      return { path: file };
    },
    /** Geometry of the first element matching `selector` in any frame (webviews are frames):
     *  what a test asks to check where a scrollable view is. */
    async element({ selector }) {
      if (!page) throw new Error('no page yet');
      for (const frame of page.frames()) {
        const found = await frame
          .$eval(String(selector), (el) => ({
            scrollTop: el.scrollTop,
            scrollHeight: el.scrollHeight,
            clientHeight: el.clientHeight,
            text: (el.textContent || '').slice(-400),
          }))
          .catch(() => null);
        if (found) return { found: true, ...found };
      }
      return { found: false };
    },
    /** Every element matching `selector` in any frame, as drawn: its text (and the text CSS
     *  draws after it), whether it is on screen, and its widths (text cut off by CSS has
     *  scrollWidth > clientWidth). */
    async elements({ selector }) {
      if (!page) throw new Error('no page yet');
      const all = [];
      for (const frame of page.frames()) {
        const found = await frame
          .$$eval(String(selector), (els) =>
            els.map((el) => {
              const box = el.getBoundingClientRect();
              return {
                text: el.textContent || '',
                innerText: el.innerText || '',
                visible: box.width > 0 && box.height > 0 && el.checkVisibility({ visibilityProperty: true }),
                scrollWidth: el.scrollWidth,
                clientWidth: el.clientWidth,
                box: { x: box.x, y: box.y, width: box.width, height: box.height },
                // What a text field holds now (its text content is only what it started with).
                ...(typeof el.value === 'string' ? { value: el.value } : {}),
                // Text drawn by CSS after it (an editor decoration's `after.contentText`), '' if none.
                after: ((c) => {
                  if (!c.startsWith('"')) return ''; // none, normal
                  try {
                    return JSON.parse(c);
                  } catch {
                    return c.slice(1, -1); // a CSS escape JSON does not know
                  }
                })(el.ownerDocument.defaultView.getComputedStyle(el, '::after').content),
              };
            }),
          )
          .catch(() => []);
        all.push(...found);
      }
      return { elements: all };
    },
    /** Draw notification toasts (VS Code's own, as on the desktop) or stop drawing them. */
    async toasts({ show }) {
      if (!page) throw new Error('no page yet');
      if (!toastsPatched) throw new Error("this workbench's toast check was not found: cannot draw toasts");
      await page.evaluate((on) => {
        globalThis.harnessToasts = on;
      }, show === true);
      return { show: show === true };
    },
    /** Press a key combination as the user would (playwright's names: `Control+Alt+KeyA`); the
     *  workbench's keybindings see it where the focus is. */
    async press({ keys }) {
      if (!page) throw new Error('no page yet');
      await page.keyboard.press(String(keys));
      return { ok: true };
    },
    /** Type text where the focus is, key by key, as the user would (each character's key
     *  events and input). */
    async type({ text }) {
      if (!page) throw new Error('no page yet');
      await page.keyboard.type(String(text));
      return { ok: true };
    },
    /** Click the first element matching `selector` in any frame (webviews are frames) with the
     *  mouse, as the user would: playwright scrolls it into view and waits until it can be
     *  clicked (visible, enabled, not covered). A locator, not a handle: a view that draws
     *  the element again meanwhile (a session update) leaves a handle detached, and the user
     *  would click the one drawn now. */
    async click({ selector }) {
      if (!page) throw new Error('no page yet');
      for (const frame of page.frames()) {
        const found = frame.locator(String(selector)).first();
        if ((await found.count().catch(() => 0)) > 0) {
          await found.click({ timeout: 5000 });
          return { ok: true };
        }
      }
      throw new Error(`nothing matches ${selector} to click`);
    },
    /** Paste files into the first element matching `selector` in any frame: a `paste` event
     *  whose clipboard data holds them, as the browser fires when the user pastes (say) a
     *  screenshot. A headless browser's clipboard cannot hold files, hence the event. */
    async pasteFiles({ selector, files }) {
      if (!page) throw new Error('no page yet');
      for (const frame of page.frames()) {
        const pasted = await frame
          .$eval(
            String(selector),
            (el, list) => {
              const { DataTransfer, ClipboardEvent } = globalThis; // the page's: this runs in the browser
              const data = new DataTransfer();
              for (const f of list) {
                const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
                data.items.add(new File([bytes], f.name, { type: f.type }));
              }
              el.focus();
              el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
              return true;
            },
            Array.isArray(files) ? files : [],
          )
          .catch(() => false);
        if (pasted) return { ok: true };
      }
      throw new Error(`nothing matches ${selector} to paste into`);
    },
    /** Resize the browser window's viewport (the workbench lays itself out again). */
    async viewport({ width, height }) {
      if (!page) throw new Error('no page yet');
      const size = { width: Math.round(Number(width)), height: Math.round(Number(height)) };
      if (!(size.width >= 400 && size.width <= 4000 && size.height >= 300 && size.height <= 4000))
        throw new Error(`bad viewport ${JSON.stringify({ width, height })}`);
      await page.setViewportSize(size);
      return size;
    },
    async hello() {
      hostLoaded = true;
      return { ok: true };
    },
    async log({ lines }) {
      for (const { text } of lines || []) {
        for (const line of String(text).split('\n')) {
          output.push(line);
          console.log(line); // one stream, so the closing line stays last
        }
      }
      return { ok: true };
    },
    async result({ passed, failed, skipped, final, running }) {
      reported = { passed: passed | 0, failed: failed | 0, skipped: skipped | 0, final: final !== false, running };
      return { ok: true };
    },
  });

  const cs = startCodeServer(
    tools,
    scratch,
    {
      HARNESS_BRIDGE_URL: bridge.url,
      HARNESS_HOST_MODULE: path.join(HERE, 'host', 'index.js'),
      HARNESS_SCREENSHOTS_DIR: opts.screenshots,
    },
    opts.verbose,
  );

  let browser;
  let exitCode; // the extension tests' exit code, from codeAutomationExit
  let problem; // why the run did not finish normally
  const cleanup = async () => {
    if (browser) await browser.close().catch(() => {});
    await killGroup(cs.child);
    bridge.server.close();
    if (opts.keepScratch) console.log(`[harness] scratch kept: ${scratch.root}`);
    else fs.rmSync(scratch.root, { recursive: true, force: true });
  };
  const onSignal = (sig) => {
    problem = `interrupted by ${sig}`;
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let deadlineTimer;
  try {
    const deadline = new Promise((_, reject) => {
      deadlineTimer = setTimeout(() => reject(new Error(`timed out after ${opts.timeout} s`)), opts.timeout * 1000);
    });
    const { origin, port } = await Promise.race([cs.ready, deadline]);
    if (opts.verbose) console.error(`[harness] code-server on ${origin} after ${elapsed()}`);

    const launching = tools.playwright.chromium.launchPersistentContext(scratch['chromium-profile'], {
      executablePath: tools.chromium,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 800 },
      env: { ...process.env, TMPDIR: scratch.tmp, XDG_CONFIG_HOME: scratch.config, XDG_CACHE_HOME: scratch.cache },
      timeout: opts.timeout * 1000,
    });
    launching.then(
      (b) => (browser = b),
      () => {},
    ); // so cleanup closes it even after a time-out
    await Promise.race([launching, deadline]);
    // A context route: it also sees requests a service worker makes.
    await browser.route(
      (url) => WORKBENCH_SCRIPT.test(url.pathname),
      async (route) => {
        const response = await route.fetch();
        const original = await response.text();
        const patched = original.replace(TOAST_CHECK, TOAST_CHECK_PATCHED);
        toastsPatched = patched !== original;
        const headers = { ...response.headers() };
        delete headers['content-length'];
        delete headers['content-encoding'];
        await route.fulfill({ status: response.status(), headers, body: patched });
      },
    );
    page = browser.pages()[0] || (await browser.newPage());

    // VS Code calls window.codeAutomationExit(code) when the tests' run() settles (smoke-test
    // driver mode): 0 when it resolved, 1 when it rejected or threw.
    let onExit;
    const exited = new Promise((resolve, reject) => {
      onExit = resolve;
      page.once('crash', () => reject(new Error('the workbench page crashed')));
      browser.once('close', () => reject(new Error('chromium closed')));
    });
    exited.catch(() => {});
    await page.exposeFunction('codeAutomationExit', (code) => onExit(Number(code)));
    // The workbench's log, which also carries the extension host's console output (VS Code
    // forwards it when running extension tests), mixed with the workbench's own messages: kept in
    // a file; printed at the end only when the tests never loaded host/index.js (whose console
    // tee sends their output over the bridge instead).
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = util.format(...(Array.isArray(args) ? args : [args])); // mocha logs printf-style
      for (const line of text.split('\n')) {
        workbenchLog.push(line);
        fs.appendFileSync(workbenchLogFile, `${type} ${line}\n`);
        if (opts.verbose) console.error(`[workbench ${type}] ${line}`);
      }
    });
    if (opts.verbose) {
      page.on('console', (msg) => console.error(`[page ${msg.type()}] ${msg.text()}`));
      page.on('pageerror', (err) => console.error(`[page error] ${err.message}`));
    }

    const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(opts.extension)],
      ['extensionTestsPath', remote(opts.tests)],
    ];
    const url = `${origin}/?folder=${encodeURIComponent(opts.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    if (opts.verbose) console.error(`[harness] opening ${url}`);
    await Promise.race([page.goto(url), deadline, cs.died]);
    exitCode = await Promise.race([exited, deadline, cs.died]);
  } catch (err) {
    problem = err && err.message ? err.message : String(err);
    if (page) {
      const file = path.join(opts.screenshots, 'harness-failure.png');
      await page.screenshot({ path: file, timeout: 5000 }).then(
        () => console.log(`[harness] screenshot of the workbench at the failure: ${file}`),
        () => {},
      );
    }
  } finally {
    clearTimeout(deadlineTimer);
    await cleanup();
  }

  if (output.length === 0 && workbenchLog.length) {
    // The tests never loaded host/index.js (or wrote before loading it): show what VS Code has.
    console.log('[harness] no test output came over the bridge; the workbench log follows:');
    for (const line of workbenchLog) console.log(line);
  }
  let counts = reported || countsFromMochaOutput(output) || countsFromMochaOutput(workbenchLog);
  let failedRun = false;
  if (problem) {
    const during = reported && !reported.final && reported.running ? ` while running test "${reported.running}"` : '';
    console.log(`[harness] ${problem}${during}`);
    if (!page && !problem.startsWith('code-server exited')) console.log(cs.log.slice(-30).join('\n'));
    failedRun = true;
  } else if (exitCode !== 0) {
    console.log(`[harness] the extension tests ended with exit code ${exitCode}`);
    failedRun = true;
  } else if (!counts) {
    const hint = hostLoaded ? 'call report() with the counts' : 'load host/index.js and use its runner or report()';
    console.log(`[harness] the tests reported no counts and printed no mocha summary (${hint})`);
    failedRun = true;
  }
  if (!counts) counts = { passed: 0, failed: 0, skipped: 0 };
  // The closing line never says "0 failed" for a run that failed, and a test cut short by a
  // time-out or a crash counts as failed.
  if (failedRun && (counts.failed === 0 || counts.final === false)) counts.failed += 1;
  console.log(`[harness] ${shots.length} screenshot(s), run took ${elapsed()}`);
  console.log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
  process.exit(failedRun || counts.failed > 0 ? 1 : 0);
}

main().catch((err) => {
  console.log(`run.mjs: ${err && err.stack ? err.stack : err}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
