/**
 * Prompts again, on the VS Code side: a prompt waiting its turn changed or withdrawn, a cancel
 * that asks whether what waits goes too, and an earlier prompt edited and resent where the user
 * says (this session, a fork, a new session).
 *
 * The questions are quick picks (never modal; Escape answers nothing and nothing is sent). The
 * rules and words are in `core/queue.ts`.
 */

import * as vscode from "vscode";
import {
  cancelChoices,
  editedPrompt,
  queueEditable,
  resendChoices,
  resendParts,
  userMessageAt,
  waitingPrompts,
  type ResendTarget,
} from "../core/queue";
import type { Store } from "../core/store";
import type * as w from "../wire";
import type { Sidecar } from "./client";
import type { Controller } from "./controller";

/** What the chat's prompt box gets back for "Edit and resend". */
export interface ResendDraft {
  text: string;
  /** Blocks of the earlier prompt that do not come back as chips (other text). */
  leftOut: number;
}

export class Prompts {
  /** The last cancel question's choices, as shown (for the test API). */
  lastCancelChoices: string[] = [];

  constructor(
    private readonly store: Store,
    private readonly sidecar: Sidecar,
    private readonly controller: Controller,
  ) {}

  /** Cancel the turn; when prompts wait after it (the sidecar's queue), ask first whether they
   *  go after it (the first answer) or are dropped. Nothing waiting: cancelled at once. */
  async cancel(): Promise<boolean> {
    const session = this.store.current();
    const waiting = queueEditable(session) ? waitingPrompts(session).length : 0;
    if (waiting === 0) return this.sidecar.cancel();
    const choices = cancelChoices(waiting);
    this.lastCancelChoices = choices.map((c) => c.label);
    const picked = await vscode.window.showQuickPick(
      choices.map((c) => ({ ...c })),
      {
        title: `Cancel the turn: ${waiting === 1 ? "a prompt waits" : `${waiting} prompts wait`} after it`,
        placeHolder: waiting === 1 ? "Keep the waiting prompt, or drop it?" : "Keep the waiting prompts, or drop them?",
      },
    );
    if (picked === undefined) return false;
    return this.sidecar.cancel(picked.dropQueued);
  }

  /** The current session's waiting prompt at `index`, when the editor can change it. */
  private waiting(index: number): { sessionId: string; content: w.ContentBlock[] } {
    const session = this.store.current();
    const entry = userMessageAt(session, index);
    if (session === null || entry === null || entry.queued !== true) {
      throw new Error("that prompt is not waiting any more (the agent has it, or it was withdrawn)");
    }
    if (!queueEditable(session)) throw new Error("the agent holds its waiting prompts itself: they cannot be changed");
    return { sessionId: session.sessionId, content: entry.content };
  }

  /** Save a waiting prompt's new text (what it attached stays). */
  async edit(index: number, text: string): Promise<void> {
    const { sessionId, content } = this.waiting(index);
    await this.sidecar.editPrompt(sessionId, index, editedPrompt(content, text));
  }

  async withdraw(index: number): Promise<void> {
    const { sessionId } = this.waiting(index);
    await this.sidecar.withdrawPrompt(sessionId, index);
  }

  /** An earlier prompt back as a draft: its text for the box, its simple attachments as chips
   *  (replacing those attached now). */
  draft(index: number): ResendDraft {
    const entry = userMessageAt(this.store.current(), index);
    if (entry === null) throw new Error("that message is not a prompt of this session");
    const parts = resendParts(entry.content);
    this.controller.replaceAttachments(parts.attachments);
    return { text: parts.text, leftOut: parts.leftOut };
  }

  /** Where an edited earlier prompt goes (this session is the default); undefined: not sent. */
  async where(): Promise<ResendTarget | undefined> {
    const picked = await vscode.window.showQuickPick(resendChoices(this.sidecar.canSession("fork")), {
      title: "Send the edited prompt",
      placeHolder: "Where? (an earlier turn cannot be replaced: ACP keeps a session's history whole)",
    });
    return picked?.target;
  }

  /** Send an edited earlier prompt where the user says; undefined when they chose nothing. */
  async resend(text: string): Promise<w.PromptResult | undefined> {
    const target = await this.where();
    if (target === undefined) return undefined;
    if (target === "fork") await this.sidecar.forkSession();
    else if (target === "new") await this.sidecar.newSession();
    return this.controller.prompt(text);
  }
}
