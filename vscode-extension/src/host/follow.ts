/**
 * Following the agent: `acp/follow` reveals where it works without taking focus from the chat
 * (preserveFocus), marked by an agent-cursor decoration distinct from the user's own cursor;
 * a status-bar item shows and toggles follow mode (`acp/setFollow`).
 */

import * as vscode from "vscode";
import { COMMANDS } from "../protocol";
import type { Store } from "../core/store";
import type { FollowParams } from "../wire";
import type { Log } from "./log";

const REASONS: Readonly<Record<string, string>> = { read: "reading", write: "writing", location: "here" };

export class FollowView implements vscode.Disposable {
  private readonly cursor = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderWidth: "0 0 0 3px",
    borderStyle: "solid",
    borderColor: new vscode.ThemeColor("editorInfo.foreground"),
    backgroundColor: new vscode.ThemeColor("editor.wordHighlightBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorInfo.foreground"),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
  private readonly status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  private readonly unsubscribe: () => void;
  /** The editor and range last marked, so the mark moves instead of piling up. */
  private marked: { editor: vscode.TextEditor; range: vscode.Range; reason: string } | null = null;
  /** VS Code drops decorations when it recreates an editor (a tab hidden and shown again). */
  private readonly remark = vscode.window.onDidChangeVisibleTextEditors((editors) => {
    const marked = this.marked;
    if (!marked) return;
    const again = editors.find((e) => e.document.uri.toString() === marked.editor.document.uri.toString());
    if (again && again !== marked.editor) this.mark(again, marked.range, marked.reason);
  });

  constructor(
    private readonly store: Store,
    private readonly log: Log,
  ) {
    this.status.command = COMMANDS.toggleFollow;
    this.unsubscribe = store.subscribe((e) => {
      if (e.kind === "follow" || e.kind === "reset" || e.kind === "agent") this.updateStatus();
    });
    this.updateStatus();
    this.status.show();
  }

  private updateStatus(): void {
    const on = this.store.follow;
    this.status.text = on ? "$(eye) Follow agent" : "$(eye-closed) Follow agent";
    this.status.tooltip = on ? "Following the agent: click to stop" : "Not following the agent: click to follow";
  }

  /** Show where the agent works. Never throws: a file that cannot open is only logged. */
  async show(params: FollowParams): Promise<void> {
    if (!this.store.follow) return;
    try {
      const uri = vscode.Uri.parse(params.uri);
      const selection = params.range
        ? new vscode.Range(
            params.range.start.line,
            params.range.start.character,
            params.range.end.line,
            params.range.end.character,
          )
        : undefined;
      // Reuse a visible editor of the file, so following does not open the same file twice.
      const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
      const editor = await vscode.window.showTextDocument(uri, {
        preserveFocus: true,
        preview: true,
        ...(visible ? { viewColumn: visible.viewColumn } : {}),
      });
      const line = Math.min(selection?.start.line ?? 0, Math.max(0, editor.document.lineCount - 1));
      const range = new vscode.Range(line, 0, line, 0);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      this.mark(editor, range, params.reason);
    } catch (error) {
      this.log.warn(`follow ${params.uri}: ${String(error)}`);
    }
  }

  private mark(editor: vscode.TextEditor, range: vscode.Range, reason: string): void {
    if (this.marked && this.marked.editor !== editor) this.marked.editor.setDecorations(this.cursor, []);
    editor.setDecorations(this.cursor, [
      {
        range,
        hoverMessage: "The agent is working here",
        renderOptions: {
          after: {
            contentText: `  ◆ agent ${REASONS[reason] ?? reason}`,
            color: new vscode.ThemeColor("editorInfo.foreground"),
          },
        },
      },
    ]);
    this.marked = { editor, range, reason };
  }

  /** Where the agent cursor is drawn now (for the test API). */
  markedAt(): { uri: string; line: number } | null {
    return this.marked ? { uri: this.marked.editor.document.uri.toString(), line: this.marked.range.start.line } : null;
  }

  dispose(): void {
    this.remark.dispose();
    this.unsubscribe();
    this.cursor.dispose();
    this.status.dispose();
  }
}
