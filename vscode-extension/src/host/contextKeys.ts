/**
 * The context keys the keybindings' `when` clauses read (package.json `contributes.keybindings`):
 * `acp-editor.busy` while a turn of the current session runs (cancel), and
 * `acp-editor.hunkAtCursor` while the active editor's cursor is on a pending hunk (accept, reject);
 * `acp-editor.worktreeSession` while the session in front works in a worktree of its own (the
 * chat's title bar then offers Bring Back Changes and Discard Worktree…).
 */

import * as vscode from "vscode";
import type { Store } from "../core/store";
import { worktreeOf } from "../core/worktree";

export const BUSY_KEY = "acp-editor.busy";
export const HUNK_AT_CURSOR_KEY = "acp-editor.hunkAtCursor";
export const WORKTREE_SESSION_KEY = "acp-editor.worktreeSession";

export class ContextKeys implements vscode.Disposable {
  private readonly values = new Map<string, boolean>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly store: Store) {
    const unsubscribe = store.subscribe((e) => {
      if (e.kind === "busy" || e.kind === "reset") this.updateBusy();
      // A session's worktree is known from its snapshot and from every acp/sessionChanged.
      if (e.kind === "reset" || e.kind === "changes")
        this.set(WORKTREE_SESSION_KEY, worktreeOf(store.current()) !== null);
      if (e.kind === "review" || e.kind === "reset") this.updateHunk();
    });
    this.disposables.push(
      { dispose: unsubscribe },
      vscode.window.onDidChangeTextEditorSelection(() => this.updateHunk()),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateHunk()),
    );
    this.updateBusy();
    this.updateHunk();
    this.set(WORKTREE_SESSION_KEY, worktreeOf(store.current()) !== null);
  }

  private updateBusy(): void {
    const id = this.store.currentSessionId;
    this.set(BUSY_KEY, id !== null && this.store.busy.has(id));
  }

  private updateHunk(): void {
    const editor = vscode.window.activeTextEditor;
    const at =
      editor !== undefined &&
      this.store.pendingHunkAt(editor.document.uri.toString(), editor.selection.active.line) !== undefined;
    this.set(HUNK_AT_CURSOR_KEY, at);
  }

  /** setContext crosses to the workbench: only when the value changes. */
  private set(key: string, value: boolean): void {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand("setContext", key, value);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
