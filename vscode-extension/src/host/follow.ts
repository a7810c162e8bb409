/**
 * Following the agent: `acp/follow` reveals where it works without taking focus from the chat
 * (preserveFocus), marked by an agent-cursor decoration distinct from the user's own cursor;
 * a status-bar item shows and toggles follow mode (`acp/setFollow`). With every session followed
 * each session keeps its own mark, and those of sessions not in front are named (core/follow.ts).
 */

import * as vscode from "vscode";
import { COMMANDS } from "../protocol";
import { followLabel, followToggle } from "../core/follow";
import { chatOf } from "../core/sessions";
import type { Store } from "../core/store";
import type { FollowParams } from "../wire";
import type { Log } from "./log";

/** Where one session's agent cursor is drawn. */
interface Mark {
  uri: string;
  line: number;
  params: FollowParams;
}

export class FollowView implements vscode.Disposable {
  /** The agent cursor of the session in front. */
  private readonly cursor = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderWidth: "0 0 0 3px",
    borderStyle: "solid",
    borderColor: new vscode.ThemeColor("editorInfo.foreground"),
    backgroundColor: new vscode.ThemeColor("editor.wordHighlightBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorInfo.foreground"),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
  /** The cursors of sessions not in front (followed with "Follow Every Session"): dashed, and
   *  each named with its agent and session. */
  private readonly others = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderWidth: "0 0 0 3px",
    borderStyle: "dashed",
    borderColor: new vscode.ThemeColor("editorHint.foreground"),
    overviewRulerColor: new vscode.ThemeColor("editorHint.foreground"),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
  private readonly status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  private readonly unsubscribe: () => void;
  /** Each session's mark, by session id, so a mark moves instead of piling up; the last drawn. */
  private readonly marks = new Map<string, Mark>();
  private latest: Mark | null = null;
  /** The editors decorated last, so a mark that moved away is taken off. */
  private decorated = new Set<vscode.TextEditor>();
  /** VS Code drops decorations when it recreates an editor (a tab hidden and shown again). */
  private readonly remark = vscode.window.onDidChangeVisibleTextEditors(() => this.draw());

  constructor(
    private readonly store: Store,
    private readonly log: Log,
  ) {
    this.status.command = COMMANDS.toggleFollow;
    this.unsubscribe = store.subscribe((e) => {
      if (e.kind === "follow" || e.kind === "reset" || e.kind === "agent") this.updateStatus();
      // Another session in front (or one gone): the labels say whose mark is whose again.
      if (e.kind === "reset" || e.kind === "follow") this.prune(e.kind === "reset");
    });
    this.updateStatus();
    this.status.show();
  }

  private updateStatus(): void {
    const { text, tooltip } = followToggle(this.store.follow, this.store.followAll);
    this.status.text = text;
    this.status.tooltip = tooltip;
  }

  /** Show where an agent works (the session in front's, or any session's when all are
   *  followed). Never throws: a file that cannot open is only logged. */
  async show(params: FollowParams): Promise<void> {
    if (!this.store.follow) return;
    try {
      const uri = vscode.Uri.parse(params.uri);
      // Reuse a visible editor of the file, so following does not open the same file twice.
      const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
      const editor = await vscode.window.showTextDocument(uri, {
        preserveFocus: true,
        preview: true,
        ...(visible ? { viewColumn: visible.viewColumn } : {}),
      });
      const wanted = params.range?.start.line ?? 0;
      const line = Math.min(wanted, Math.max(0, editor.document.lineCount - 1));
      editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      const mark = { uri: editor.document.uri.toString(), line, params };
      // One mark per chat: a subagent's work moves its parent's mark (it is named with it).
      this.marks.set(chatOf(this.store, params.sessionId, params.subagent?.parentSessionId), mark);
      this.latest = mark;
      this.draw();
    } catch (error) {
      this.log.warn(`follow ${params.uri}: ${String(error)}`);
    }
  }

  /** Marks of sessions no longer open go, and while only the session in front is followed, those
   *  of the others (a mark left from when another session was in front would say nothing new);
   *  the rest are drawn again with today's labels. */
  private prune(redraw: boolean): void {
    const s = this.store;
    // A subagent's mark belongs with its parent's (the session whose chat shows it).
    const keep = (id: string): boolean =>
      s.sessions.has(id) && (s.followAll || s.currentSessionId === null || s.currentSessionId === s.rootOf(id));
    let changed = redraw;
    for (const id of [...this.marks.keys()]) {
      if (keep(id)) continue;
      this.marks.delete(id);
      changed = true;
    }
    if (
      this.latest !== null &&
      !keep(chatOf(s, this.latest.params.sessionId, this.latest.params.subagent?.parentSessionId))
    )
      this.latest = null;
    if (changed) this.draw();
  }

  /** Every mark into the visible editors of its file: the front session's as it always was, the
   *  others' named. Editors that had marks and have none now are cleared. */
  private draw(): void {
    const now = new Set<vscode.TextEditor>();
    for (const editor of vscode.window.visibleTextEditors) {
      const uri = editor.document.uri.toString();
      const front: vscode.DecorationOptions[] = [];
      const others: vscode.DecorationOptions[] = [];
      for (const mark of this.marks.values()) {
        if (mark.uri !== uri) continue;
        const label = followLabel(this.store, mark.params);
        const line = Math.min(mark.line, Math.max(0, editor.document.lineCount - 1));
        (label.background ? others : front).push({
          range: new vscode.Range(line, 0, line, 0),
          hoverMessage: label.hover,
          renderOptions: {
            after: {
              contentText: label.text,
              color: new vscode.ThemeColor(label.background ? "editorHint.foreground" : "editorInfo.foreground"),
            },
          },
        });
      }
      if (front.length === 0 && others.length === 0 && !this.decorated.has(editor)) continue;
      editor.setDecorations(this.cursor, front);
      editor.setDecorations(this.others, others);
      if (front.length > 0 || others.length > 0) now.add(editor);
    }
    this.decorated = now;
  }

  /** Where the agent cursor was drawn last (for the test API). */
  markedAt(): { uri: string; line: number } | null {
    return this.latest ? { uri: this.latest.uri, line: this.latest.line } : null;
  }

  /** Every session's agent cursor and what it says now (for the test API). */
  labels(): { sessionId: string; uri: string; line: number; text: string; background: boolean }[] {
    return [...this.marks.values()].map((m) => {
      const label = followLabel(this.store, m.params);
      return {
        sessionId: m.params.sessionId,
        uri: m.uri,
        line: m.line,
        text: label.text.trim(),
        background: label.background,
      };
    });
  }

  dispose(): void {
    this.remark.dispose();
    this.unsubscribe();
    this.cursor.dispose();
    this.others.dispose();
    this.status.dispose();
  }
}
