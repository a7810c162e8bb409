/**
 * Whether the chat view is on screen. VS Code tells that only to a view's provider, through the
 * `WebviewView` it resolves; `watch` wraps the chat view's resolve to keep that view (the chat
 * view itself is left as it is).
 */

import type * as vscode from "vscode";

export class ChatPresence {
  private view: vscode.WebviewView | null = null;

  /** The chat is drawn (its container open and the view expanded), focused or not. */
  get visible(): boolean {
    return this.view?.visible === true;
  }

  watch(provider: vscode.WebviewViewProvider): void {
    const resolve = provider.resolveWebviewView.bind(provider);
    provider.resolveWebviewView = (view, context, token) => {
      this.view = view;
      view.onDidDispose(() => {
        if (this.view === view) this.view = null;
      });
      return resolve(view, context, token);
    };
  }
}
