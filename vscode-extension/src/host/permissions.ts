/**
 * The agent's permission questions (`acp/requestPermission`); sign-in choices are signIn.ts's.
 *
 * A question is a non-modal notification with at most three buttons, each drawn whole
 * (core/permissionNotice.ts): the one-off "Allow once" and "Reject", and "More…", a quick pick
 * with every option worded in full, the diff, the command and the chat (a question that fits in
 * three buttons shows them all). The chat card has every option too; whichever answers first
 * wins. When
 * the server withdraws the request (the turn was cancelled: the handler's CancellationToken
 * fires) the handler stops waiting at once; a late click on the stale notification is ignored.
 * Closing the notification does not answer: the question stays pending (badge, chat card) so
 * nothing is rejected by a stray click. A question answered elsewhere (the chat card) or withdrawn
 * takes its toast away: VS Code has no call to close one notification, so the toasts are hidden
 * (`notifications.hideToasts`: they stay in the notification centre, where a late click is
 * ignored).
 *
 * A question of a session that is not in front (several live at once) is only announced: a
 * non-modal notification naming the agent and the session, with "Show", which brings that session
 * to the front; it is answered on that session's chat card. Nothing takes the focus.
 */

import * as vscode from "vscode";
import { optionsNote, permissionMessage } from "../core/format";
import { moreChoices, notificationButtons, type Choice, type Extra } from "../core/permissionNotice";
import { SHOW, askerName, backgroundQuestion, chatOf, inBackground, sessionTitle } from "../core/sessions";
import { subagentName } from "../core/subagents";
import type { Store } from "../core/store";
import { CHAT_VIEW } from "../protocol";
import { agentDisplayName, askerOf } from "../core/viewModel";
import type * as w from "../wire";
import type { ProposedDocs } from "./diffs";
import type { Log } from "./log";

interface Waiting {
  resolve: (optionId: string | null) => void;
  /** Cancelled once the question is answered or withdrawn: closes its "More…" quick pick. */
  done: vscode.CancellationTokenSource;
}

/** Tool kinds whose questions are only informational (no change to files or the system). */
const QUIET_KINDS = new Set(["read", "search", "think", "fetch"]);

export class Permissions {
  private readonly waiting = new Map<string, Waiting>();
  /** Questions whose notification is on screen now. */
  private readonly toasts = new Set<string>();
  private serial = 0;

  constructor(
    private readonly store: Store,
    private readonly docs: ProposedDocs,
    private readonly log: Log,
    /** Bring a session to the front and show the chat ("Show" on a background question). */
    private readonly showSession: (sessionId: string) => Promise<void> = async () => {},
  ) {}

  readonly handle = (
    params: w.RequestPermissionParams,
    token: vscode.CancellationToken,
  ): Promise<w.RequestPermissionResult> =>
    new Promise((resolve) => {
      const id = `permission-${++this.serial}`;
      const cancelled = token.onCancellationRequested(() => {
        this.log.info(`${id}: withdrawn by the server (turn cancelled)`);
        this.answer(id, null);
      });
      const done = new vscode.CancellationTokenSource();
      this.waiting.set(id, {
        resolve: (optionId) => {
          cancelled.dispose();
          done.cancel();
          done.dispose();
          resolve({ optionId });
        },
        done,
      });
      this.store.addPermission({ id, params });
      void this.notify(id, params);
    });

  /** Answer a pending question (from the notification, the chat card or a test); false when it
   *  is no longer pending. An optionId the question did not offer is refused, never sent. */
  answer(id: string, optionId: string | null): boolean {
    const waiting = this.waiting.get(id);
    if (waiting === undefined) return false;
    const pending = this.store.permissions.get(id);
    if (optionId !== null && pending !== undefined && !pending.params.options.some((o) => o.optionId === optionId)) {
      this.log.warn(`${id}: ${optionId} is not one of the options offered`);
      return false;
    }
    this.waiting.delete(id);
    this.store.removePermission(id);
    waiting.resolve(optionId);
    if (this.toasts.delete(id)) void vscode.commands.executeCommand("notifications.hideToasts");
    return true;
  }

  pendingIds(): string[] {
    return [...this.waiting.keys()];
  }

  private async notify(id: string, params: w.RequestPermissionParams): Promise<void> {
    // A subagent's question is asked where its parent is: in front when its parent is.
    if (inBackground(this.store, params.sessionId, params.subagent?.parentSessionId)) return this.announce(id, params);
    const options = Array.isArray(params.options) ? params.options : [];
    const diffs = Array.isArray(params.diffs) ? params.diffs : [];
    const extras: Extra[] = [];
    if (diffs.length > 0) extras.push("diff");
    if (typeof params.command === "string" && params.command.length > 0) extras.push("command");
    extras.push("chat");
    type Item = vscode.MessageItem & Choice;
    const items: Item[] = notificationButtons(options, extras).map((c) => ({ ...c, isCloseAffordance: false }));
    // What a button says less than the agent did is in the message, where it is read whole.
    const note = optionsNote(options.filter((o) => items.some((i) => i.optionId === o.optionId)));
    const asker = askerOf(params, agentDisplayName(this.store));
    const message = permissionMessage(params, asker) + (note ? `. Options: ${note}` : "");
    const kind = typeof params.toolCall.kind === "string" ? params.toolCall.kind : "";
    // A click closes the notification (VS Code closes it on any button), so after "Show ..." or
    // a "More…" left without an answer it is shown again, until the question is answered or
    // withdrawn.
    while (this.waiting.has(id)) {
      this.toasts.add(id);
      const clicked = QUIET_KINDS.has(kind)
        ? await vscode.window.showInformationMessage<Item>(message, ...items)
        : await vscode.window.showWarningMessage<Item>(message, ...items);
      this.toasts.delete(id); // closed (a click, or the user): nothing to take away
      if (!this.waiting.has(id)) return; // answered elsewhere or withdrawn meanwhile
      if (clicked === undefined) {
        this.log.info(`${id}: notification closed; the question stays pending in the chat view`);
        return;
      }
      const picked = clicked.more ? await this.more(id, params, options, extras) : clicked;
      if (!this.waiting.has(id)) return;
      if (picked?.extra === "diff") await this.docs.show(params.toolCall.toolCallId, diffs[0]?.uri);
      else if (picked?.extra === "command") await this.docs.showCommand(params.command ?? "");
      else if (picked?.extra === "chat") {
        await vscode.commands.executeCommand(`${CHAT_VIEW}.focus`);
        return; // answered on the chat card
      } else if (picked?.optionId !== undefined) this.answer(id, picked.optionId);
    }
  }

  /** A question of a session not in front: "Show" brings it to the front (its chat card answers). */
  private async announce(id: string, params: w.RequestPermissionParams): Promise<void> {
    // A subagent's question is answered in its parent's chat: that session is the one shown.
    const sessionId = chatOf(this.store, params.sessionId, params.subagent?.parentSessionId);
    const who = askerName(this.store, sessionId);
    const what = permissionMessage(
      params,
      params.subagent ? `${who}'s ${subagentName(params.subagent.title).replace(/^Subagent/, "subagent")}` : who,
    );
    const message = backgroundQuestion(what, sessionTitle(this.store.sessions.get(sessionId)));
    this.log.info(`${id}: asked in session ${sessionId}, not in front: announced`);
    this.toasts.add(id);
    const clicked = await vscode.window.showInformationMessage(message, SHOW);
    this.toasts.delete(id);
    if (clicked === SHOW && this.waiting.has(id)) await this.showSession(sessionId);
  }

  /** "More…": every option worded in full and the extras, in a quick pick that closes when the
   *  question is answered elsewhere or withdrawn; undefined when left without a choice. */
  private async more(
    id: string,
    params: w.RequestPermissionParams,
    options: w.PermissionOption[],
    extras: Extra[],
  ): Promise<Choice | undefined> {
    const token = this.waiting.get(id)?.done.token;
    const items = moreChoices(options, extras).map((c) => ({ ...c, label: c.title }));
    const title = permissionMessage(params, askerOf(params, agentDisplayName(this.store)));
    return vscode.window.showQuickPick(items, { title, placeHolder: "Answer the agent, or look first" }, token);
  }

  /** Withdraw everything (the sidecar stopped): each pending question answers "dismissed". */
  clear(): void {
    for (const id of [...this.waiting.keys()]) this.answer(id, null);
  }
}
