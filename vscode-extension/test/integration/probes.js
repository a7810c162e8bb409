// Instruments for the integration suite (index.js): waiting, and three probes into the real VS Code.
//
// The tests' `require('vscode')` returns the same API object as the extension's own (the extension
// host hands out one per extension, and this folder is inside the extension's), so wrapping a
// `vscode.window` function here wraps it for the extension too. Each wrapper calls the real
// function: the chat view, its webview and the notifications are the real ones.
'use strict';

const vscode = require('vscode');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Poll `probe` until it returns something truthy; return that. */
async function until(what, probe, ms = 15000, every = 50) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe(); // a probe may ask the runner (async)
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
}

/**
 * The chat view's webview, seen from the host side. Must be installed before the extension
 * activates: it wraps `registerWebviewViewProvider` so that, when VS Code resolves the view, it
 * records the messages the webview script posts (`ready`, ...) and the ones the host posts to it
 * (`reset`, `changes`, `extras`), and it can deliver a message to the view's own
 * `onDidReceiveMessage` listener, the handler that the webview's Send button, Enter key and
 * permission buttons reach. A test cannot click inside the webview's iframe from the extension
 * host, so `post()` delivers the very message the webview script would post.
 */
function chatViewProbe(viewId) {
  const probe = { view: null, fromWebview: [], toWebview: [], listeners: [] };
  const register = vscode.window.registerWebviewViewProvider;
  vscode.window.registerWebviewViewProvider = function (id, provider, options) {
    if (id !== viewId) return register.call(this, id, provider, options);
    const wrapped = {
      resolveWebviewView(view, context, token) {
        const webview = view.webview;
        const onMessage = webview.onDidReceiveMessage;
        onMessage((m) => probe.fromWebview.push(m));
        Object.defineProperty(webview, 'onDidReceiveMessage', {
          configurable: true,
          value: (listener, thisArg, disposables) => {
            probe.listeners.push(thisArg === undefined ? listener : listener.bind(thisArg));
            return onMessage(listener, thisArg, disposables);
          },
        });
        const postMessage = webview.postMessage.bind(webview);
        Object.defineProperty(webview, 'postMessage', {
          configurable: true,
          value: (m) => {
            probe.toWebview.push(m);
            return postMessage(m);
          },
        });
        probe.view = view;
        return provider.resolveWebviewView(view, context, token);
      },
    };
    return register.call(this, id, wrapped, options);
  };
  /** Deliver `message` to the view's handler as if the webview script had posted it. */
  probe.post = (message) => {
    if (probe.listeners.length === 0) throw new Error('the chat view is not resolved yet');
    for (const listener of probe.listeners) listener(message);
  };
  probe.readySeen = () => probe.fromWebview.some((m) => m && m.type === 'ready');
  return probe;
}

/**
 * Every notification the extension shows (information, warning, error), still shown for real
 * (the harness's screenshots with `notifications: true` show them). `click(call, which)` answers
 * one as a click on its button would: VS Code resolves the extension's promise with that button's
 * item, which the extension host cannot make the workbench do, so the wrapper resolves it.
 */
/** Counts the calls of one command through vscode.commands.executeCommand (still executed). */
function commandSpy(id) {
  const spy = { count: 0 };
  const real = vscode.commands.executeCommand;
  vscode.commands.executeCommand = function (command, ...rest) {
    if (command === id) spy.count += 1;
    return real.call(this, command, ...rest);
  };
  return spy;
}

function notificationSpy() {
  const calls = [];
  for (const [fn, severity] of [
    ['showInformationMessage', 'info'],
    ['showWarningMessage', 'warning'],
    ['showErrorMessage', 'error'],
  ]) {
    const real = vscode.window[fn];
    vscode.window[fn] = function (message, ...rest) {
      const items = rest.filter((i) => typeof i === 'string' || (i && typeof i.title === 'string'));
      let click;
      const clicked = new Promise((resolve) => (click = resolve));
      calls.push({ severity, message, titles: items.map((i) => (typeof i === 'string' ? i : i.title)), items, click });
      return Promise.race([real.call(this, message, ...rest), clicked]);
    };
  }
  return {
    calls,
    /** Click the button of `call` whose item satisfies `which` (an item or a predicate). */
    click(call, which) {
      const item = call.items.find((i) => (typeof which === 'function' ? which(i) : i === which));
      if (item === undefined) throw new Error(`no such button in: ${call.titles.join(' | ')}`);
      call.click(item);
    },
  };
}

/**
 * Whether any text editor has keyboard focus. The built-in `type` command types only into the
 * focused code editor and does nothing when none has focus (a webview, the side bar...), so a
 * typed marker shows where focus is. Returns the editor that received it (after undoing it), or
 * null. The extension host has no API to read the `focusedView` context key itself.
 */
async function editorWithFocus(marker = '\u2063') {
  const before = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d.getText()]));
  await vscode.commands.executeCommand('type', { text: marker });
  await sleep(300); // the edit reaches the extension host's documents
  const changed = vscode.workspace.textDocuments.find(
    (d) => before.has(d.uri.toString()) && before.get(d.uri.toString()) !== d.getText(),
  );
  if (changed === undefined) return null;
  await vscode.commands.executeCommand('undo');
  return changed;
}

/**
 * Quick picks and input boxes answered by a script, in order: each step is a function of
 * (items or undefined, options) giving what the user picks or types (undefined: Escape). Every
 * call is recorded; `restore()` puts VS Code's own back.
 */
function quickInputScript(steps) {
  const queue = [...steps];
  const calls = [];
  const realPick = vscode.window.showQuickPick;
  const realInput = vscode.window.showInputBox;
  const answer = async (kind, items, options) => {
    const resolved = await items;
    const step = queue.shift();
    calls.push({
      kind,
      title: options && options.title,
      labels: resolved ? resolved.map((i) => (typeof i === 'string' ? i : i.label)) : undefined,
      value: options && options.value,
    });
    return step ? step(resolved, options) : undefined;
  };
  vscode.window.showQuickPick = (items, options) => answer('pick', items, options);
  vscode.window.showInputBox = (options) => answer('input', undefined, options);
  return {
    calls,
    restore() {
      vscode.window.showQuickPick = realPick;
      vscode.window.showInputBox = realInput;
    },
  };
}

module.exports = { sleep, until, chatViewProbe, notificationSpy, editorWithFocus, commandSpy, quickInputScript };
