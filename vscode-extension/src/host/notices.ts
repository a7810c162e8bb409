/**
 * A notice when a turn ends while the user is elsewhere: an information notification (never
 * modal, it takes no focus) only when the window is not focused or the chat is hidden, with
 * "Open the chat" (`acp-editor.turnEndNotice` turns it off). A question that waits is its own notification already (permissions.ts,
 * elicit.ts), whatever the user looks at.
 */

import * as vscode from "vscode";
import type { Store } from "../core/store";
import { OPEN_CHAT, noticeWanted, turnEndMessage } from "../core/turnNotice";
import { agentDisplayName } from "../core/viewModel";
import { COMMANDS } from "../protocol";
import type { ChatPresence } from "./chatPresence";
import type { Log } from "./log";

export class TurnNotices implements vscode.Disposable {
  private readonly unsubscribe: () => void;
  /** Sessions whose turn ran at the last store event. */
  private running = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly chat: ChatPresence,
    private readonly log: Log,
    /** `acp-editor.turnEndNotice`, read when a turn ends. */
    private readonly enabled: () => boolean,
  ) {
    this.unsubscribe = store.subscribe((e) => {
      if (e.kind === "busy") this.busyChanged();
    });
  }

  private busyChanged(): void {
    const ended = [...this.running].filter((id) => !this.store.busy.has(id));
    this.running = new Set(this.store.busy);
    if (ended.length === 0 || !this.enabled()) return;
    const where = { windowFocused: vscode.window.state.focused, chatVisible: this.chat.visible };
    if (!noticeWanted(where)) return;
    const pending = this.store.pendingHunks().length + this.store.pendingGroups().length;
    const message = turnEndMessage(agentDisplayName(this.store), this.store.lastStopReason, pending);
    if (message === null) return;
    this.log.info(`turn ended out of sight (${JSON.stringify(where)}): ${message}`);
    void vscode.window.showInformationMessage(message, OPEN_CHAT).then((choice) => {
      if (choice === OPEN_CHAT) void vscode.commands.executeCommand(COMMANDS.focusChat);
    });
  }

  dispose(): void {
    this.unsubscribe();
  }
}
