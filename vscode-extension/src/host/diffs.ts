/**
 * Diff editors for the agent's proposed edits: read-only virtual documents (scheme
 * `acp-proposed:`) hold the text before and after, and `vscode.diff` shows them side by side.
 *
 * Both sides are virtual on purpose: in after-write mode the file on disk already holds the new
 * text, so "file vs proposal" would show nothing; the proposal against the text it was made on is
 * what the user is asked to judge. The same provider shows a permission's full shell command.
 */

import * as vscode from "vscode";
import { PROPOSED_SCHEME } from "../protocol";
import { basename, countsLabel, diffCounts, diffItems } from "../core/format";
import type { Store } from "../core/store";
import type { DiffPreview } from "../wire";

export interface ShownDiff {
  toolCallId: string;
  uri: string;
  left: string;
  right: string;
  title: string;
}

export class ProposedDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, this);
  private serial = 0;
  /** The last diff opened: for the test API and for "Show diff" without arguments. */
  last: ShownDiff | null = null;

  constructor(private readonly store: Store) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }

  /** A read-only document holding `text`, named like `path` so it gets the right language. */
  put(path: string, query: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: path.startsWith("/") ? path : `/${path}`, query });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  /** Open a command in a read-only editor (for "Show command" of a permission question). */
  async showCommand(command: string): Promise<void> {
    const uri = this.put(`/agent-command-${++this.serial}.sh`, "", `${command}\n`);
    await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: false });
  }

  /** The proposals known for a tool call: acp/diff, else a pending permission's, else its content. */
  private candidates(toolCallId: string): DiffPreview[] {
    const fromServer = this.store.diffsOf(toolCallId);
    if (fromServer.length > 0) return fromServer;
    for (const p of this.store.permissions.values()) {
      if (p.params.toolCall.toolCallId === toolCallId && p.params.diffs.length > 0) return p.params.diffs;
    }
    for (const s of this.store.sessions.values()) {
      const tc = s.toolCalls[toolCallId];
      if (tc === undefined) continue;
      return diffItems(tc).map((d) => ({
        uri: vscode.Uri.file(d.path).toString(),
        path: d.path,
        oldText: d.oldText,
        newText: d.newText,
        hunks: [],
        ...diffCounts(d.oldText, d.newText),
      }));
    }
    return [];
  }

  async show(toolCallId?: string, uri?: string): Promise<ShownDiff | null> {
    let id = toolCallId;
    if (id === undefined) {
      // No argument (command palette): the newest proposal for the active file, else the newest.
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      const all = [...this.store.diffs.values()];
      const pick = [...all].reverse().find((d) => d.uri === active) ?? all[all.length - 1];
      if (pick === undefined) {
        void vscode.window.showInformationMessage("The agent has proposed no edit yet.");
        return null;
      }
      id = pick.toolCallId;
      uri = pick.uri;
    }
    const found = this.candidates(id);
    const diff = found.find((d) => uri === undefined || d.uri === uri) ?? found[0];
    if (diff === undefined) {
      void vscode.window.showInformationMessage(`No proposed edit is known for tool call ${id}.`);
      return null;
    }
    const query = `tool=${encodeURIComponent(id)}`;
    const left = this.put(diff.path, `${query}&side=old`, diff.oldText ?? "");
    const right = this.put(diff.path, `${query}&side=new`, diff.newText);
    const what = diff.oldText === null ? "new file" : countsLabel(diff.added, diff.removed);
    const title = `${basename(diff.path)}: agent's proposal (${what})`;
    // preserveFocus: a diff opened from the chat or a notification must not steal the prompt box.
    await vscode.commands.executeCommand("vscode.diff", left, right, title, { preview: true, preserveFocus: true });
    this.last = { toolCallId: id, uri: diff.uri, left: left.toString(), right: right.toString(), title };
    return this.last;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
