/**
 * Inline review in the real editor: CodeLens actions (accept/reject per hunk and per tool call,
 * show diff; a bulk change's accept/reject/show files atop the files of its folder) and decorations on the lines an agent edit touched or will touch.
 *
 * Placement is computed by core/lenses.ts; this module only turns specs into VS Code objects
 * and redraws when the store's review hunks or proposed diffs change.
 */

import * as vscode from "vscode";
import { COMMANDS } from "../protocol";
import { decorationSpecs, lensSpecs, type Author, type LensAction, type LineSpan } from "../core/lenses";
import { reviewAuthors } from "../core/sessions";
import type { Store } from "../core/store";

const ACTION_COMMANDS: Readonly<Record<LensAction, string>> = {
  acceptHunk: COMMANDS.acceptHunk,
  rejectHunk: COMMANDS.rejectHunk,
  acceptToolCall: COMMANDS.acceptToolCall,
  rejectToolCall: COMMANDS.rejectToolCall,
  showDiff: COMMANDS.showDiff,
  acceptGroup: COMMANDS.acceptGroup,
  rejectGroup: COMMANDS.rejectGroup,
  showGroupFiles: COMMANDS.showGroupFiles,
  revealHunk: COMMANDS.revealHunk,
};

/** A change that gives a tool call its final status. */
function endsToolCall(change: unknown): boolean {
  const c = (typeof change === "object" && change !== null ? change : {}) as { type?: unknown; set?: unknown };
  const set = (typeof c.set === "object" && c.set !== null ? c.set : {}) as { status?: unknown };
  return c.type === "tool_call" && (set.status === "failed" || set.status === "cancelled");
}

export class InlineReview implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly added = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly replaced = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor("diffEditor.removedLineBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.deletedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly inserts = vscode.window.createTextEditorDecorationType({});
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Who made a change: named while several sessions are open. */
  private readonly author: Author;

  constructor(private readonly store: Store) {
    this.author = (sessionId, sessions) => reviewAuthors(store, sessionId, sessions);
    this.disposables.push(
      vscode.languages.registerCodeLensProvider({ scheme: "file" }, this),
      vscode.window.onDidChangeVisibleTextEditors(() => this.schedule()),
      vscode.workspace.onDidChangeTextDocument(() => this.schedule()),
    );
    const unsubscribe = store.subscribe((e) => {
      if (e.kind === "review" || e.kind === "diff" || e.kind === "reset") this.schedule();
      // A tool call that ended takes its proposed edit away (unless it was written: review).
      else if (e.kind === "changes" && e.changes.some(endsToolCall)) this.schedule();
    });
    this.disposables.push({ dispose: unsubscribe });
  }

  /** Redraw at most every 50 ms: a burst of review changes or keystrokes is one redraw. */
  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.redraw();
    }, 50);
  }

  redraw(): void {
    this.changed.fire();
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.scheme !== "file") continue;
      const uri = editor.document.uri.toString();
      const specs = decorationSpecs(
        uri,
        [...this.store.review.values()],
        this.store.proposedDiffs(),
        editor.document.getText(),
        this.author,
      );
      editor.setDecorations(
        this.added,
        specs.added.map((s) => this.option(editor.document, s)),
      );
      editor.setDecorations(
        this.replaced,
        specs.replaced.map((s) => this.option(editor.document, s)),
      );
      editor.setDecorations(
        this.inserts,
        specs.inserts.map((s) => this.option(editor.document, s)),
      );
    }
  }

  private option(doc: vscode.TextDocument, span: LineSpan): vscode.DecorationOptions {
    const last = Math.max(0, doc.lineCount - 1);
    const start = Math.min(span.startLine, last);
    const end = Math.min(Math.max(span.endLine, start), last);
    const hover = new vscode.MarkdownString(span.hover);
    hover.isTrusted = false;
    return {
      range: new vscode.Range(start, 0, end, doc.lineAt(end).text.length),
      hoverMessage: hover,
      renderOptions: {
        after: {
          contentText: `  ${span.note}`,
          color: new vscode.ThemeColor("editorCodeLens.foreground"),
          fontStyle: "italic",
        },
      },
    };
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const uri = doc.uri.toString();
    const specs = lensSpecs(
      uri,
      [...this.store.review.values()],
      this.store.proposedDiffs(),
      doc.getText(),
      [...this.store.groups.values()],
      this.author,
    );
    const last = Math.max(0, doc.lineCount - 1);
    return specs.map((s) => {
      const line = Math.min(s.line, last);
      const args = s.action === "showDiff" ? [s.arg, s.uri] : [s.arg];
      return new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
        title: s.title,
        command: ACTION_COMMANDS[s.action],
        arguments: args,
      });
    });
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
    this.added.dispose();
    this.replaced.dispose();
    this.inserts.dispose();
    this.changed.dispose();
  }
}
