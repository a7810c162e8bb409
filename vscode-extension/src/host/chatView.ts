/**
 * The chat view in the sidebar: a webview with a strict CSP (scripts only with this load's
 * nonce, no inline styles, images only from the extension or data: URIs) fed from the store.
 *
 * The webview mirrors the current session itself (a snapshot on `reset`, then the change
 * batches); the small rest of the state goes as `extras`, coalesced to one message per 50 ms.
 * Pending permission questions show as a badge on the view. Several sessions live at once: the
 * strip above the chat (in `extras`) lists them, and a click on one brings it to the front from
 * the store's mirror (a `reset` with its snapshot at once; the sidecar is told after). The prompt box asks for files to
 * complete an `@`-mention with (`acp/findFiles`) and for earlier prompts (`acp/promptHistory`)
 * through here; what it attaches is kept by the controller and drawn back as chips.
 */

import * as crypto from "node:crypto";
import * as vscode from "vscode";
import { CHAT_VIEW, COMMANDS } from "../protocol";
import type { Store } from "../core/store";
import { promptCaps } from "../core/prompt";
import { buildExtras } from "../core/viewModel";
import type { HostMessage, ViewMessage } from "../webview/messages";
import { droppedAttachment, fileAttachment, imageAttachment, pickMore, urlAttachment } from "./attach";
import type { Controller } from "./controller";
import type { ProposedDocs } from "./diffs";
import type { ReviewGroups } from "./groups";
import type { Permissions } from "./permissions";
import type { Prompts } from "./prompts";
import type { AgentTerminals } from "./terminals";
import type { Sidecar } from "./client";
import type { Sessions } from "./sessions";
import type { Worktrees } from "./worktrees";

export interface ChatDeps {
  store: Store;
  sidecar: Sidecar;
  controller: Controller;
  prompts: Prompts;
  permissions: Permissions;
  docs: ProposedDocs;
  terminals: AgentTerminals;
  groups: ReviewGroups;
  sessions: Sessions;
  worktrees: Worktrees;
}

export class ChatView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | null = null;
  private ready = false;
  /** What `setInput` was given before the webview's script was ready (null: nothing). */
  private pendingInput: string | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly deps: ChatDeps,
  ) {
    this.disposables.push(
      vscode.window.registerWebviewViewProvider(CHAT_VIEW, this, { webviewOptions: { retainContextWhenHidden: true } }),
      deps.controller.onAttachmentsChanged(() => this.scheduleExtras()),
    );
    const unsubscribe = deps.store.subscribe((e) => {
      if (e.kind === "reset") this.reset();
      else if (e.kind === "changes") {
        // The front session's changes, and its subagents' (its chat draws their work).
        if (deps.store.family(deps.store.currentSessionId).has(e.sessionId))
          this.post({ type: "changes", sessionId: e.sessionId, changes: e.changes });
        // Cards show review counts and diffs per tool call, which changes may have added.
        this.scheduleExtras();
      } else this.scheduleExtras();
      if (e.kind === "permissions") this.updateBadge();
    });
    this.disposables.push({ dispose: unsubscribe });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const media = vscode.Uri.joinPath(this.extensionUri, "media");
    const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
    view.webview.options = { enableScripts: true, localResourceRoots: [media, dist] };
    view.webview.html = this.html(view.webview);
    view.webview.onDidReceiveMessage((m: ViewMessage) => void this.receive(m), null, this.disposables);
    view.onDidDispose(
      () => {
        this.view = null;
        this.ready = false;
      },
      null,
      this.disposables,
    );
    this.updateBadge();
  }

  private post(message: HostMessage): void {
    if (this.view !== null && this.ready) void this.view.webview.postMessage(message);
  }

  /** Redraw everything (after the sidecar started or failed to: that is not a store event). */
  refresh(): void {
    this.reset();
  }

  private reset(): void {
    const { store, controller } = this.deps;
    const front = store.currentSessionId;
    this.post({
      type: "reset",
      session: store.current(),
      children: front === null ? [] : store.descendantsOf(front).flatMap((id) => store.sessions.get(id) ?? []),
      extras: buildExtras(store, controller.attachmentLabels(), this.deps.sidecar.problem),
    });
  }

  private scheduleExtras(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.post({
        type: "extras",
        extras: buildExtras(this.deps.store, this.deps.controller.attachmentLabels(), this.deps.sidecar.problem),
      });
    }, 50);
  }

  private updateBadge(): void {
    if (this.view === null) return;
    const n = this.deps.store.permissions.size;
    this.view.badge =
      n > 0 ? { value: n, tooltip: `${n} question${n === 1 ? "" : "s"} from the agent waiting for you` } : undefined;
  }

  /** Put text into the prompt box and focus it ("": only the focus; the commands that bring the
   *  chat to the front use this, so the keys typed next go to the box). Before the webview's
   *  script runs (the view just made), it happens once the script says it is ready. */
  setInput(text: string): void {
    if (this.view !== null && this.ready) this.post({ type: "setInput", text });
    else this.pendingInput = text;
  }

  private async receive(m: ViewMessage): Promise<void> {
    const { controller: c, sidecar, permissions, docs, terminals, groups } = this.deps;
    switch (m.type) {
      case "ready":
        this.ready = true;
        this.reset();
        if (this.pendingInput !== null) this.post({ type: "setInput", text: this.pendingInput });
        this.pendingInput = null;
        return;
      case "resync":
        await sidecar.resync();
        this.reset();
        return;
      case "prompt":
        await c.guard("prompt", () => c.prompt(m.text));
        return;
      case "cancel":
        await c.guard("cancel", () => this.deps.prompts.cancel());
        return;
      case "cancelSubagent":
        await c.guard("cancel the subagent", () => sidecar.cancelSession(m.sessionId));
        return;
      case "signIn":
        await vscode.commands.executeCommand(COMMANDS.signIn);
        return;
      case "editQueued":
        await c.guard("change the waiting prompt", () => this.deps.prompts.edit(m.index, m.text));
        return;
      case "withdrawQueued":
        await c.guard("remove the waiting prompt", () => this.deps.prompts.withdraw(m.index));
        return;
      case "editResend": {
        const draft = await c.guard("edit the prompt", () => Promise.resolve(this.deps.prompts.draft(m.index)));
        if (draft !== undefined)
          this.post({ type: "setInput", text: draft.text, mode: "resend", leftOut: draft.leftOut });
        return;
      }
      case "resend":
        await c.guard("resend the prompt", async () => {
          // Nothing chosen: the text goes back into the box, still to be resent.
          if ((await this.deps.prompts.resend(m.text)) === undefined)
            this.post({ type: "setInput", text: m.text, mode: "resend", leftOut: 0 });
        });
        return;
      case "newSession":
        await c.guard("new session", () => sidecar.newSession());
        return;
      case "selectSession":
        this.deps.sessions.select(m.sessionId);
        return;
      case "bringBack":
        await c.guard("bring back the changes", () => this.deps.worktrees.bringBack(m.sessionId));
        return;
      case "discardWorktree":
        await c.guard("discard the worktree", () => this.deps.worktrees.discard(m.sessionId));
        return;
      case "loadSession":
        await c.guard("load session", () => c.loadSession());
        return;
      case "setMode":
        await c.guard("set mode", () => c.setMode(m.modeId));
        return;
      case "setConfig":
        await c.guard("set option", () => sidecar.setConfigOption(m.configId, m.value));
        return;
      case "permission":
        permissions.answer(m.id, m.optionId);
        return;
      case "open":
        await c.guard("open", () => c.open(m.target, m.line));
        return;
      case "showDiff":
        await c.guard("show diff", () => docs.show(m.toolCallId, m.uri));
        return;
      case "review":
        await c.guard(`${m.decision} edit`, () => c.decide(m.decision, { toolCallId: m.toolCallId }));
        return;
      case "group":
        if (m.action === "files") await c.guard("show the bulk change", () => groups.showFiles(m.groupId));
        else
          await c.guard(`${m.action} the bulk change`, () =>
            groups.decide(m.action === "accept" ? "accept" : "reject", m.groupId),
          );
        return;
      case "showTerminal":
        terminals.show(m.terminalId);
        return;
      case "restore":
        await c.guard("undo the turn", () => c.restoreCheckpoint(m.turn));
        return;
      case "attachSelection":
        c.attachSelection();
        return;
      case "attachFile":
        c.attachFile();
        return;
      case "removeAttachment":
        c.removeAttachment(m.index);
        return;
      case "findFiles":
        await this.findFiles(m.seq, m.query);
        return;
      case "history":
        await this.history();
        return;
      case "attachFound":
        c.attach(fileAttachment(vscode.Uri.parse(m.uri), m.path));
        return;
      case "attachUris":
        for (const uri of m.uris) {
          const dropped = droppedAttachment(uri);
          if (dropped !== null) c.attach(dropped);
        }
        return;
      case "attachUrl":
        c.attachOrSay(urlAttachment(m.url) ?? `Not a web address: ${m.url}`);
        return;
      case "attachImage":
        c.attachOrSay(
          promptCaps(this.deps.store.capabilities()).image
            ? imageAttachment(m.name, m.mimeType, m.data)
            : "This agent takes no images.",
        );
        return;
      case "attachMore":
        c.attachOrSay(await c.guard("attach", () => pickMore(promptCaps(this.deps.store.capabilities()))));
        return;
      case "toggleFollow":
        await c.guard("follow", () => c.toggleFollow());
        return;
    }
  }

  /** Files for an `@`-mention, answered to the webview with the number it asked with. Nothing is
   *  answered when the sidecar cannot say (not running): the list drawn stays as it is. */
  private async findFiles(seq: number, query: string): Promise<void> {
    try {
      const result = await this.deps.sidecar.findFiles({ query });
      this.post({ type: "files", seq, files: result.files, complete: result.complete });
    } catch (error) {
      this.deps.controller.log.info(`acp/findFiles: ${String(error)}`);
    }
  }

  private async history(): Promise<void> {
    try {
      this.post({ type: "history", prompts: await this.deps.sidecar.promptHistory() });
    } catch (error) {
      this.deps.controller.log.info(`acp/promptHistory: ${String(error)}`);
    }
  }

  private html(webview: vscode.Webview): string {
    const nonce = crypto.randomBytes(16).toString("base64");
    const css = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, "media", "chat.css"));
    const js = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, "dist", "webview.js"));
    const csp = [
      "default-src 'none'",
      `style-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
      `font-src ${webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join("; ");
    return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${css.toString()}"><title>ACP chat</title></head>
<body>
<header><nav id="sessions" aria-label="Live sessions"></nav><div id="worktree"></div><output id="switched" hidden></output><div id="status"></div><div id="usage"></div><div id="toolbar">
<button id="new" title="New session">+ New</button><button id="load" title="Load an earlier session" hidden>⟲ Load</button>
<button id="follow" title="Follow the agent in the editor">◉</button></div><div id="pickers"></div></header>
<div id="plan"></div>
<main id="transcript" aria-live="polite"></main>
<div id="empty">Ask the agent something below. Type / for its commands.</div>
<div id="turnEnd"></div>
<div id="orphans"></div>
<footer><div id="attachments"></div><div id="completions" role="listbox" hidden></div>
<div id="mode" hidden></div>
<textarea id="input" rows="3" placeholder="Ask the agent (Enter to send, Shift+Enter for a new line, / for commands, @ for files, ↑ for earlier prompts)"></textarea>
<div id="hint" hidden></div>
<div id="actions"><button id="attachSelection" title="Attach the selection">+ Selection</button><button id="attachFile" title="Attach the current file">+ File</button><button id="attachMore" title="Attach a file's problems, a web page, an image or another file">+ …</button>
<button id="cancel" title="Cancel the turn" aria-label="Cancel the turn" disabled>■</button><button id="send" class="primary">Send ➤</button></div></footer>
<script nonce="${nonce}" src="${js.toString()}"></script>
</body></html>`;
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
