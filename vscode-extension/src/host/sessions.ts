/**
 * Several live sessions: bringing one to the front, "ACP: Switch Session" (a quick pick of every
 * live session with its agent and status, its subagents at work under it) and "ACP: New Session with Agent…" (a quick pick of
 * the agents of `acp/agents`).
 *
 * A switch redraws from the store's mirror at once (the chat gets the session's snapshot as a
 * `reset`, with no round trip to the sidecar before it); the sidecar is told after
 * (`acp/selectSession`), so prompts and commands without a session and follow-along go to it.
 */

import * as vscode from "vscode";
import { childPickItem, sessionPickItem, sessionTabs } from "../core/sessions";
import type { Store } from "../core/store";
import { CHAT_VIEW } from "../protocol";
import type { Sidecar } from "./client";
import type { Log } from "./log";

export class Sessions {
  constructor(
    private readonly store: Store,
    private readonly sidecar: Sidecar,
    private readonly log: Log,
  ) {}

  /** Bring a live session to the front; false when no such session is open. The sidecar's
   *  answer is not waited for: a failure is logged (the next request naming no session would
   *  then go to the session it still has in front). */
  select(sessionId: string): boolean {
    const before = this.store.currentSessionId;
    if (!this.store.select(sessionId)) return false;
    // A subagent's session brings its parent (the session the user prompts) to the front.
    const front = this.store.currentSessionId;
    if (front !== null && before !== front && this.sidecar.running) {
      this.sidecar.selectSession(front).catch((error: unknown) => {
        this.log.warn(`acp/selectSession ${front}: ${String(error)}`);
      });
    }
    return true;
  }

  /** "ACP: Switch Session": the session given, else the one picked; the chat is shown. Returns
   *  the session in front after. */
  async switchSession(sessionId?: string): Promise<string | null> {
    let id = sessionId;
    if (id === undefined) {
      const tabs = sessionTabs(this.store);
      if (tabs.length === 0) {
        void vscode.window.showInformationMessage("No session is open yet: send a prompt, or start one.");
        return null;
      }
      // Each session, and under it its subagents at work (picking one brings its session).
      const picked = await vscode.window.showQuickPick(
        tabs.flatMap((t) => [
          { ...sessionPickItem(t), sessionId: t.sessionId },
          ...t.children.map((c) => ({ ...childPickItem(c, t), sessionId: t.sessionId })),
        ]),
        {
          title: "Switch session",
          placeHolder: "The live sessions: the agent and what it is doing",
          matchOnDetail: true,
        },
      );
      id = picked?.sessionId;
    }
    if (id === undefined) return this.store.currentSessionId;
    if (!this.select(id)) throw new Error(`no open session ${id}`);
    await this.showChat();
    return id;
  }

  /** "Show" on a question asked in the background: its session in front, the chat shown. */
  async show(sessionId: string): Promise<void> {
    if (this.select(sessionId)) await this.showChat();
  }

  /** "ACP: New Session with Agent…": an agent of `acp/agents` (the one given, else picked), a
   *  new session of it in front. Returns the new session's id, or null when none was picked. */
  async newWithAgent(agent?: string): Promise<string | null> {
    const id = agent ?? (await this.pickAgent("New session with agent"));
    if (id === undefined) return null;
    const sessionId = await this.sidecar.newSession(id);
    await this.showChat();
    return sessionId;
  }

  /** The user's pick of the agents of `acp/agents` (with their status), or undefined. */
  async pickAgent(title: string): Promise<string | undefined> {
    const agents = await this.sidecar.agents();
    const picked = await vscode.window.showQuickPick(
      agents.map((a) => ({
        label: a.id,
        description: [
          a.default ? "default" : "",
          a.status?.agentInfo?.title ?? a.status?.agentInfo?.name ?? "",
          a.status === null ? "not started" : a.status.state,
        ]
          .filter(Boolean)
          .join(" · "),
        detail: a.command.join(" "),
        id: a.id,
      })),
      { title, placeHolder: "The agent the new session runs in" },
    );
    return picked?.id;
  }

  /** The chat in view (the session in front is what it shows). */
  async showChat(): Promise<void> {
    // Shows the view; the webview keeps the focus where the user put it when it already shows.
    await vscode.commands.executeCommand(`${CHAT_VIEW}.focus`);
  }
}
