/**
 * The user's actions, shared by commands, the chat view, CodeLenses and the test API: prompt
 * (with attachments), cancel, sessions, modes, review decisions, opening locations.
 *
 * Errors become one notification each (with the message the server gave) instead of rejected
 * promises nobody awaits; the functions the test API exposes still return or throw normally.
 */

import * as vscode from "vscode";
import {
  attachmentView,
  buildPrompt,
  promptCaps,
  sameAttachment,
  type Attachment,
  type AttachmentView,
} from "../core/prompt";
import { decisionProblem } from "../core/groups";
import { undoneMessage } from "../core/format";
import { stringOf } from "../core/json";
import { configChoices, modeChoices } from "../core/modes";
import { isSignInFailure } from "../core/signIn";
import type { Store } from "../core/store";
import { DiscardedSessionError, NEW_SESSION_BUTTON } from "../core/worktree";
import { COMMANDS } from "../protocol";
import type * as w from "../wire";
import type { Sidecar } from "./client";
import { currentFileAttachment, selectionAttachment, withTexts } from "./attach";
import type { Log } from "./log";
import { showSignInFailure } from "./signIn";

export class Controller {
  attachments: Attachment[] = [];
  private readonly attachmentsChanged = new vscode.EventEmitter<void>();
  readonly onAttachmentsChanged = this.attachmentsChanged.event;

  constructor(
    private readonly store: Store,
    private readonly sidecar: Sidecar,
    readonly log: Log,
  ) {}

  /** Run an action for the UI: failures are shown and logged, never thrown at VS Code. */
  async guard<T>(what: string, action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof DiscardedSessionError) {
        // Not a failure to look into: the session is over. Said plainly, with the way on.
        this.log.info(`${what}: ${message}`);
        void vscode.window.showWarningMessage(message, NEW_SESSION_BUTTON).then((b) => {
          if (b === NEW_SESSION_BUTTON) void vscode.commands.executeCommand(COMMANDS.newSession);
        });
        return undefined;
      }
      this.log.error(`${what}: ${message}`);
      // Not signed in (the agent asked, and the sign-in was given up or failed): said as such,
      // with the way to try again and the command line the sidecar names.
      if (isSignInFailure(message)) {
        showSignInFailure(message);
        return undefined;
      }
      void vscode.window.showErrorMessage(`ACP: ${what} failed: ${message}`, "Show log").then((b) => {
        if (b) this.log.show();
      });
      return undefined;
    }
  }

  /** Send a prompt with the current attachments (which are then cleared), as the content
   *  blocks the agent takes (`core/prompt.ts`); attached files carry their text as it is now.
   *  To the session given (a live one), else to the one in front. */
  async prompt(text: string, sessionId?: string): Promise<w.PromptResult> {
    const caps = promptCaps(this.store.capabilities());
    const attached = this.attachments;
    this.attachments = [];
    this.attachmentsChanged.fire();
    return this.sidecar.prompt(buildPrompt(text, await withTexts(attached, caps), caps), undefined, sessionId);
  }

  /** The chips: what each attachment says, its kind and what a hover shows. */
  attachmentLabels(): AttachmentView[] {
    return this.attachments.map(attachmentView);
  }

  /** Attach something (the same thing twice is kept once). */
  attach(a: Attachment): void {
    if (this.attachments.some((b) => sameAttachment(a, b))) return;
    this.attachments.push(a);
    this.attachmentsChanged.fire();
  }

  /** Put these attachments on the next prompt instead of what is attached now. */
  replaceAttachments(attachments: Attachment[]): void {
    this.attachments = [...attachments];
    this.attachmentsChanged.fire();
  }

  removeAttachment(index: number): void {
    this.attachments.splice(index, 1);
    this.attachmentsChanged.fire();
  }

  attachSelection(): boolean {
    return this.attachOrSay(selectionAttachment());
  }

  attachFile(): boolean {
    return this.attachOrSay(currentFileAttachment());
  }

  /** Attach it, or say why there is nothing to attach. */
  attachOrSay(a: Attachment | string | undefined): boolean {
    if (a === undefined) return false;
    if (typeof a === "string") {
      void vscode.window.showInformationMessage(a);
      return false;
    }
    this.attach(a);
    return true;
  }

  async loadSession(): Promise<void> {
    if (!this.store.canListSessions()) {
      void vscode.window.showInformationMessage("This agent cannot list its earlier sessions.");
      return;
    }
    const sessions = await this.sidecar.listSessions();
    const picked = await vscode.window.showQuickPick(
      sessions.map((s) => ({
        label: s.title ?? s.sessionId,
        description: s.updatedAt ?? "",
        detail: s.cwd,
        session: s,
      })),
      {
        title: "Load a session",
        placeHolder: sessions.length ? "Choose a session" : "The agent has no earlier sessions",
      },
    );
    if (picked) await this.sidecar.loadSession(picked.session.sessionId, picked.session.cwd);
  }

  async setMode(modeId?: string): Promise<void> {
    let id = modeId;
    if (id === undefined) {
      const items = modeChoices(this.store.current()).map((r) => ({
        label: stringOf(r["name"], stringOf(r["id"])),
        description: stringOf(r["description"]),
        id: stringOf(r["id"]),
      }));
      if (items.length === 0) {
        void vscode.window.showInformationMessage("The agent offers no modes.");
        return;
      }
      id = (await vscode.window.showQuickPick(items, { title: "Agent mode" }))?.id;
    }
    if (id !== undefined) await this.sidecar.setMode(id);
  }

  /** "ACP: Set a Session Option...": a config option of the session in front (the one named,
   *  else picked from a list), set to the value given, else: a boolean one toggled, a select one
   *  set to the value picked. Returns the value set, or undefined when nothing was. */
  async setConfigOption(configId?: string, value?: unknown): Promise<string | boolean | undefined> {
    const choices = configChoices(this.store.current());
    let choice = configId === undefined ? undefined : choices.find((c) => c.id === configId);
    if (configId === undefined) {
      if (choices.length === 0) {
        void vscode.window.showInformationMessage("The agent offers no options for this session.");
        return undefined;
      }
      choice = (
        await vscode.window.showQuickPick(
          choices.map((c) => ({ label: c.label, description: c.description, choice: c })),
          { title: "Session options", placeHolder: "A toggle switches when picked; a list asks for its value" },
        )
      )?.choice;
    } else if (choice === undefined) throw new Error(`the session has no option ${configId}`);
    if (choice === undefined) return undefined;
    let next: string | boolean | undefined;
    if (typeof value === "boolean" || typeof value === "string") next = value;
    else if (choice.type === "boolean") next = choice.current !== true;
    else {
      next = (
        await vscode.window.showQuickPick(
          choice.values.map((v) => ({
            label: `${v.value === choice.current ? "$(check) " : ""}${v.name}`,
            description: v.description,
            value: v.value,
          })),
          { title: choice.name },
        )
      )?.value;
    }
    if (next === undefined) return undefined;
    await this.sidecar.setConfigOption(choice.id, next);
    return next;
  }

  /** Follow every session's agent (true) or only the session in front's (false); nothing given:
   *  the other way round. Following every session turns follow-along on too. Said in a
   *  notification (the follow toggle in the status bar says it too). Returns whether all are
   *  followed now. */
  async followAllSessions(on?: boolean): Promise<boolean> {
    const all = on ?? !this.store.followAll;
    await this.sidecar.setFollow(all || this.store.follow, all);
    void vscode.window.showInformationMessage(
      this.store.followAll
        ? "Following every session's agent: a mark not of the session in front names its agent and session."
        : "Following only the session in front.",
    );
    return this.store.followAll;
  }

  async toggleFollow(): Promise<boolean> {
    return this.sidecar.setFollow(!this.store.follow);
  }

  /** Accept or reject hunks and bulk changes by id, tool call, file or all (`acp/reviewDecide`;
   *  a tool call and all take its bulk changes too, a file only hunks). */
  async decide(
    decision: w.Decision,
    scope: { hunkId?: string; groupId?: string; toolCallId?: string; uri?: string; all?: boolean },
  ): Promise<w.ReviewResult[]> {
    const params: w.ReviewDecideParams = { decision };
    if (scope.hunkId !== undefined) params.hunkIds = [scope.hunkId];
    if (scope.groupId !== undefined) params.groupIds = [scope.groupId];
    if (scope.toolCallId !== undefined) params.toolCallId = scope.toolCallId;
    if (scope.uri !== undefined) params.uri = scope.uri;
    if (scope.all === true) params.all = true;
    const results = await this.sidecar.decide(params);
    const problem = decisionProblem(results, decision);
    if (problem !== null) void vscode.window.showWarningMessage(problem);
    return results;
  }

  /** Undo a turn (none given: the last, which after a restart is the session before's): every
   *  file back as before it, after the user says so in a (non-modal) notification; unsaved edits
   *  in open editors are kept by the sidecar's merge. */
  async restoreCheckpoint(turn?: number): Promise<w.RestoreResult | undefined> {
    const what = turn === undefined ? "the last turn" : `turn ${turn}`;
    const undo = `Undo ${what}`;
    const answer = await vscode.window.showWarningMessage(
      `Undo ${what}? The files it changed, created or deleted go back to how they were before it. Unsaved edits in open editors are kept.`,
      undo,
    );
    if (answer !== undo) return undefined;
    const result = await this.sidecar.restoreCheckpoint(turn);
    void vscode.window.showInformationMessage(undoneMessage(result));
    return result;
  }

  /** Open a location from the chat: a path or URI, with an ACP (1-based) line. */
  async open(target: string, line?: number): Promise<void> {
    if (/^(https?|mailto):/i.test(target)) {
      await vscode.env.openExternal(vscode.Uri.parse(target));
      return;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = /^file:/i.test(target)
      ? vscode.Uri.parse(target)
      : target.startsWith("/") || folder === undefined
        ? vscode.Uri.file(target)
        : vscode.Uri.joinPath(folder, target);
    const zeroBased = line !== undefined && line > 0 ? line - 1 : 0;
    const range = new vscode.Range(zeroBased, 0, zeroBased, 0);
    await vscode.window.showTextDocument(uri, { preview: true, selection: range, preserveFocus: false });
  }

  dispose(): void {
    this.attachmentsChanged.dispose();
  }
}
