/**
 * The agent's permission questions (`acp/requestPermission`) and auth choices
 * (`acp/chooseAuthMethod`).
 *
 * A question is a non-modal notification with the options worded by kind, plus "Show diff" or
 * "Show command" where they apply; the chat card can answer it too, whichever comes first. When
 * the server withdraws the request (the turn was cancelled: the handler's CancellationToken
 * fires) the handler stops waiting at once; a late click on the stale notification is ignored.
 * Closing the notification does not answer: the question stays pending (badge, chat card) so
 * nothing is rejected by a stray click. A question answered elsewhere (the chat card) or withdrawn
 * takes its toast away: VS Code has no call to close one notification, so the toasts are hidden
 * (`notifications.hideToasts`: they stay in the notification centre, where a late click is
 * ignored).
 */

import * as vscode from "vscode";
import { buttonLabel, optionsNote, permissionMessage } from "../core/format";
import type { Store } from "../core/store";
import { agentDisplayName } from "../core/viewModel";
import type * as w from "../wire";
import type { ProposedDocs } from "./diffs";
import type { Log } from "./log";

interface Waiting {
  resolve: (optionId: string | null) => void;
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
      this.waiting.set(id, {
        resolve: (optionId) => {
          cancelled.dispose();
          resolve({ optionId });
        },
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
    const options = Array.isArray(params.options) ? params.options : [];
    type Item = vscode.MessageItem & { optionId?: string; extra?: "diff" | "command" };
    // Short buttons (VS Code cuts long ones off); the agent's full wording is in the message.
    const items: Item[] = options.map((o) => ({
      title: buttonLabel(o),
      optionId: o.optionId,
      isCloseAffordance: false,
    }));
    const diffs = Array.isArray(params.diffs) ? params.diffs : [];
    if (diffs.length > 0) items.push({ title: "Show diff", extra: "diff" });
    if (typeof params.command === "string" && params.command.length > 0)
      items.push({ title: "Show command", extra: "command" });
    const note = optionsNote(options);
    const message = permissionMessage(params, agentDisplayName(this.store)) + (note ? `. Options: ${note}` : "");
    const kind = typeof params.toolCall.kind === "string" ? params.toolCall.kind : "";
    // Each "Show ..." click closes the notification (VS Code closes it on any button), so it is
    // shown again until the question is answered or withdrawn.
    while (this.waiting.has(id)) {
      this.toasts.add(id);
      const picked = QUIET_KINDS.has(kind)
        ? await vscode.window.showInformationMessage<Item>(message, ...items)
        : await vscode.window.showWarningMessage<Item>(message, ...items);
      this.toasts.delete(id); // closed (a click, or the user): nothing to take away
      if (!this.waiting.has(id)) return; // answered elsewhere or withdrawn meanwhile
      if (picked === undefined) {
        this.log.info(`${id}: notification closed; the question stays pending in the chat view`);
        return;
      }
      if (picked.extra === "diff") await this.docs.show(params.toolCall.toolCallId, diffs[0]?.uri);
      else if (picked.extra === "command") await this.docs.showCommand(params.command ?? "");
      else if (picked.optionId !== undefined) this.answer(id, picked.optionId);
    }
  }

  /** Withdraw everything (the sidecar stopped): each pending question answers "dismissed". */
  clear(): void {
    for (const id of [...this.waiting.keys()]) this.answer(id, null);
  }
}

/** `acp/chooseAuthMethod`: a quick pick that closes when the server withdraws the request. */
export async function chooseAuthMethod(
  params: w.ChooseAuthMethodParams,
  token: vscode.CancellationToken,
): Promise<w.ChooseAuthMethodResult> {
  const methods = Array.isArray(params.methods) ? params.methods : [];
  const picked = await vscode.window.showQuickPick(
    methods.map((m) => ({ label: m.name, description: m.description ?? "", id: m.id })),
    { title: "The agent needs you to sign in", placeHolder: "Choose how to authenticate", ignoreFocusOut: true },
    token,
  );
  return { methodId: picked?.id ?? null };
}
