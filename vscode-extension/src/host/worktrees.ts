/**
 * Sessions in a worktree of their own: "ACP: New Session in Its Own Worktree…" (an agent picked
 * as for New Session with Agent, then `acp/newSession {worktree: true}`), "ACP: Bring Back
 * Changes" (`acp/bringBack`: the session's changes come into the workspace as its review, which
 * the lenses and the chat show as any other) and "ACP: Discard Worktree…" (`acp/discardWorktree`,
 * after the user says so, told how many files would be lost: `dryRun` first). A discarded
 * session stays to read; its prompts are refused (client.ts says so plainly).
 *
 * The two last act on the session named, else the one in front when it has a worktree, else the
 * user picks one of the sessions that have one. Their words are core/worktree.ts's.
 */

import * as vscode from "vscode";
import { sessionTitle } from "../core/sessions";
import type { Store } from "../core/store";
import {
  DISCARD_WORKTREE,
  KEEP_WORKTREE,
  SHOW_CHANGES,
  bringBackMessage,
  discardQuestion,
  discardedMessage,
  worktreeOf,
} from "../core/worktree";
import type * as w from "../wire";
import type { Sidecar } from "./client";
import type { Log } from "./log";
import type { Sessions } from "./sessions";

export class Worktrees {
  constructor(
    private readonly store: Store,
    private readonly sidecar: Sidecar,
    private readonly sessions: Sessions,
    private readonly log: Log,
  ) {}

  /** A new session in a worktree of its own, of the agent given, else picked; it comes to the
   *  front. Null when no agent was picked. A folder outside git is refused by the sidecar with
   *  a message saying so (the caller shows it). */
  async newSession(agent?: string): Promise<string | null> {
    const id = agent ?? (await this.sessions.pickAgent("New session in its own worktree"));
    if (id === undefined) return null;
    const sessionId = await this.sidecar.newSession(id, true);
    await this.sessions.showChat();
    return sessionId;
  }

  /** Bring a worktree session's changes back as its review; the result is announced (never
   *  modal): how many files wait in review, and which were left as the user has them, and why. */
  async bringBack(sessionId?: string): Promise<w.BringBackResult | undefined> {
    const id = await this.choose(sessionId, "Bring back the changes of which session?");
    if (id === undefined) return undefined;
    const result = await this.sidecar.bringBack(id);
    for (const l of result.left) this.log.info(`bring back ${id}: ${l.path} left as it is: ${l.reason}`);
    const { severity, message } = bringBackMessage(result, this.title(id));
    const buttons = result.brought.length > 0 ? [SHOW_CHANGES] : [];
    const shown =
      severity === "warning"
        ? vscode.window.showWarningMessage(message, ...buttons)
        : vscode.window.showInformationMessage(message, ...buttons);
    void shown.then((choice) => {
      const first = result.brought[0];
      if (choice === SHOW_CHANGES && first !== undefined)
        void vscode.window.showTextDocument(vscode.Uri.file(first), { preview: false });
    });
    return result;
  }

  /** Delete a worktree session's worktree after the user says so ("Keep the Worktree" first;
   *  closing the question keeps it too). The question says what would be lost: the sidecar is
   *  asked first (`dryRun`), and names the files when there are few. True when it was deleted. */
  async discard(sessionId?: string): Promise<boolean> {
    const id = await this.choose(sessionId, "Discard the worktree of which session?");
    if (id === undefined) return false;
    let lost: string[] | null = null;
    try {
      lost = (await this.sidecar.discardWorktree(id, true)).lost;
    } catch (error) {
      // Asked anyway, without the count: the discard itself says why if it cannot be done.
      this.log.warn(`discard ${id} (dry run): ${String(error)}`);
    }
    for (const path of lost ?? []) this.log.info(`discard ${id} would lose: ${path}`);
    const question = discardQuestion(this.title(id), worktreeOf(this.store.sessions.get(id)), lost, this.root());
    const answer = await vscode.window.showWarningMessage(question, KEEP_WORKTREE, DISCARD_WORKTREE);
    if (answer !== DISCARD_WORKTREE) return false;
    const result = await this.sidecar.discardWorktree(id);
    if (result.discarded) {
      for (const path of result.lost) this.log.info(`discard ${id}: lost ${path}`);
      void vscode.window.showInformationMessage(discardedMessage(this.title(id), result.lost));
    }
    return result.discarded;
  }

  /** The workspace folder, which lost files are named relative to. */
  private root(): string | null {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder?.uri.scheme === "file" ? folder.uri.fsPath : null;
  }

  private title(sessionId: string): string {
    return sessionTitle(this.store.sessions.get(sessionId));
  }

  /** The session an action means: the one named, else the front one when it has a worktree,
   *  else the only one that has, else the user's pick (undefined: none). */
  private async choose(sessionId: string | undefined, question: string): Promise<string | undefined> {
    if (sessionId !== undefined) return sessionId;
    const front = this.store.current();
    if (front !== null && worktreeOf(front) !== null) return front.sessionId;
    const own = [...this.store.sessions.values()].filter((s) => worktreeOf(s) !== null);
    if (own.length === 0) {
      void vscode.window.showInformationMessage(
        "No open session works in a worktree of its own (ACP: New Session in Its Own Worktree… starts one).",
      );
      return undefined;
    }
    if (own.length === 1) return own[0]?.sessionId;
    const picked = await vscode.window.showQuickPick(
      own.map((s) => ({
        label: `$(git-branch) ${sessionTitle(s)}`,
        description: s.agent ?? "",
        detail: worktreeOf(s) ?? "",
        sessionId: s.sessionId,
      })),
      { title: question, placeHolder: "The sessions that work in a worktree of their own" },
    );
    return picked?.sessionId;
  }
}
