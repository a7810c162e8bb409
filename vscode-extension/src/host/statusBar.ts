/**
 * The agent's status bar item: working, waiting for you (a question pending), idle, starting or
 * stopped, with the session's mode and model when the agent says them, and its usage in the
 * tooltip (core/statusItem.ts words it); while several sessions are open, how many wait for you. A click opens the chat. Beside it, the follow toggle (follow.ts) stays as it was.
 */

import * as vscode from "vscode";
import { sessionTabs } from "../core/sessions";
import { statusItem, type StatusView } from "../core/statusItem";
import type { Store } from "../core/store";
import { usageLabel } from "../core/usage";
import { agentDisplayName } from "../core/viewModel";
import { COMMANDS } from "../protocol";

/** The item's id; VS Code puts the extension's id before it: the element in the workbench is
 *  `[id="acp-editor.acp-editor.status"]`. */
export const STATUS_ITEM_ID = "status";

export class AgentStatusItem implements vscode.Disposable {
  /** Left of the follow toggle (priority 100). */
  private readonly item = vscode.window.createStatusBarItem(STATUS_ITEM_ID, vscode.StatusBarAlignment.Right, 101);
  private readonly unsubscribe: () => void;
  private shown: StatusView | null = null;

  constructor(
    private readonly store: Store,
    private readonly problem: () => string | null,
  ) {
    this.item.name = "ACP Agent";
    this.item.command = COMMANDS.focusChat;
    // Every store event may change it (a streamed chunk rarely does: drawn only when it changes).
    this.unsubscribe = store.subscribe(() => this.update());
    this.update();
    this.item.show();
  }

  /** Draw it again (after the sidecar started or failed to: that is not a store event). */
  update(): void {
    const s = this.store;
    const sessionId = s.currentSessionId;
    const usage = usageLabel(s.current()?.usage);
    const tabs = sessionTabs(s);
    // The front session's questions, and those of no session (a sign-in) which are everyone's.
    const unscoped = [...s.questions.values()].filter((id) => id === null).length;
    const view = statusItem({
      agent: s.agent,
      problem: this.problem(),
      busy: sessionId !== null && s.busy.has(sessionId),
      // Its subagents' questions are asked in its chat: the front session's too.
      waiting: sessionId === null ? s.waiting() : s.waiting(sessionId, true) + unscoped,
      sessions: tabs.length,
      waitingSessions: tabs.filter((t) => t.status === "waiting").map((t) => `${t.agent || t.agentName} · ${t.title}`),
      session: s.current(),
      agentName: agentDisplayName(s),
      usage: usage?.text ?? null,
      contextPercent: usage?.percent ?? null,
    });
    const last = this.shown;
    if (
      last &&
      last.text === view.text &&
      last.tooltip === view.tooltip &&
      last.background === view.background &&
      last.signIn === view.signIn
    )
      return;
    this.shown = view;
    this.item.command = view.signIn ? COMMANDS.signIn : COMMANDS.focusChat;
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.background === null ? undefined : new vscode.ThemeColor(view.background);
  }

  dispose(): void {
    this.unsubscribe();
    this.item.dispose();
  }
}
