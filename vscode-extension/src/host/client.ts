/**
 * The sidecar's lifecycle: find `acp-editor`, start it as a language server, feed the store from
 * its acp/... notifications, and offer the acp/... requests to the rest of the extension.
 *
 * Requests from the server (permissions, auth, the agent's questions) are delegated to handlers the UI modules install,
 * so this module holds no UI. Method names come from protocol.ts only.
 */

import * as fs from "node:fs";
import * as vscode from "vscode";
import {
  LanguageClient,
  State,
  Trace,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";
import * as P from "../protocol";
import { findAcpEditor, type Discovery } from "../core/discovery";
import { chooseAgent, initializationOptions, serverArgs, serverEnv, type Settings } from "../core/settings";
import { sessionTitle } from "../core/sessions";
import type { Store } from "../core/store";
import { DiscardedSessionError, discardedRefusalMessage, isDiscardedRefusal } from "../core/worktree";
import type * as w from "../wire";
import type { BundledSidecar } from "./bundled";
import type { Log } from "./log";
import * as context from "./editorContext";

export type PermissionHandler = (
  params: w.RequestPermissionParams,
  token: vscode.CancellationToken,
) => Promise<w.RequestPermissionResult>;
export type AuthHandler = (
  params: w.ChooseAuthMethodParams,
  token: vscode.CancellationToken,
) => Promise<w.ChooseAuthMethodResult>;
export type ElicitHandler = (params: w.ElicitParams, token: vscode.CancellationToken) => Promise<w.ElicitResult>;
export type SignInTerminalHandler = (
  params: w.SignInTerminalParams,
  token: vscode.CancellationToken,
) => Promise<w.SignInTerminalResult>;
export type SimpleHandler<T> = (params: T) => void;

export interface Handlers {
  permission: PermissionHandler;
  auth: AuthHandler;
  signInTerminal: SignInTerminalHandler;
  elicit: ElicitHandler;
  follow: SimpleHandler<w.FollowParams>;
}

function isExecutable(path: string): boolean {
  try {
    fs.accessSync(path, fs.constants.X_OK);
    return fs.statSync(path).isFile();
  } catch {
    return false;
  }
}

export class Sidecar implements vscode.Disposable {
  private client: LanguageClient | null = null;
  /** True while an acp/snapshot is in flight: changes arriving meanwhile are already in it. */
  private resyncing = false;
  private readonly disposables: vscode.Disposable[] = [];
  /** Why the sidecar is not running, when it is not (shown by the chat view and the test API). */
  problem: string | null = null;
  agentName: string | null = null;
  /** The acp-editor that runs, and how it was found. */
  server: { path: string; source: string } | null = null;

  constructor(
    private readonly store: Store,
    private readonly log: Log,
    private readonly handlers: Handlers,
    private readonly bundled: BundledSidecar | null = null,
  ) {}

  /** Which acp-editor to run: a set `acp-editor.path` always; else the bundled one (the default,
   *  when this build carries it); else the workspace's venv or PATH. */
  private async locate(settings: Settings, folders: string[]): Promise<Discovery> {
    if (settings.path === "" && settings.server === "bundled" && this.bundled?.available()) {
      return this.bundled.locate();
    }
    return findAcpEditor(
      {
        configured: settings.path,
        workspaceFolders: folders,
        pathVariable: process.env["PATH"],
        platform: process.platform,
        home: process.env["HOME"],
      },
      { isExecutable },
    );
  }

  get running(): boolean {
    return this.client?.state === State.Running;
  }

  async start(settings: Settings): Promise<boolean> {
    await this.stop();
    const folders = (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === "file")
      .map((f) => f.uri.fsPath);
    const found = await this.locate(settings, folders);
    if (!found.found) return this.fail(found.message, `tried: ${found.tried.join(", ") || "nothing"}`);
    this.server = { path: found.path, source: found.source };
    const agent = chooseAgent(settings);
    if (agent !== null && "error" in agent) return this.fail(agent.error);
    this.agentName = agent?.name ?? null;
    const args = serverArgs(settings, agent);
    this.log.info(`starting ${found.path} ${args.join(" ")} (found via ${found.source})`);
    const serverOptions: ServerOptions = {
      command: found.path,
      args,
      options: { cwd: folders[0], env: serverEnv(process.env, agent) },
    };
    const clientOptions: LanguageClientOptions = {
      // Every file buffer: the server keeps the editor's unsaved text so agent writes go through it.
      documentSelector: [{ scheme: "file" }],
      initializationOptions: initializationOptions(settings),
      outputChannel: this.log.channel,
      // The server ends with the agent; a restart is the user's choice (acp-editor.restart).
      connectionOptions: { maxRestartCount: 0 },
    };
    const client = new LanguageClient("acp-editor", "ACP Editor", serverOptions, clientOptions);
    this.client = client;
    this.register(client);
    try {
      await client.start();
    } catch (error) {
      this.client = null;
      return this.fail(`acp-editor did not start: ${String(error)}`);
    }
    if (settings.trace) await client.setTrace(Trace.Verbose);
    this.problem = null;
    this.store.followAll = false; // a new sidecar follows only the session in front
    await this.resync();
    return true;
  }

  private fail(message: string, detail?: string): boolean {
    this.problem = message;
    this.log.error(detail ? `${message} (${detail})` : message);
    return false;
  }

  private register(client: LanguageClient): void {
    const s = this.store;
    const subs = [
      client.onNotification(P.SESSION_CHANGED, (p) => {
        if (this.resyncing) return;
        if (!s.sessionChanged(p)) void this.resync();
      }),
      client.onNotification(P.AGENT_STATUS, (p) => s.setAgent(p)),
      client.onNotification(P.FOLLOW, (p) => {
        s.followed(p);
        this.handlers.follow(p);
      }),
      client.onNotification(P.DIFF, (p) => s.diff(p)),
      client.onNotification(P.TERMINAL_OUTPUT, (p) => s.terminalOutput(p)),
      client.onNotification(P.TERMINAL_EXIT, (p) => s.terminalExit(p.sessionId, p.terminalId, p.exitStatus)),
      client.onNotification(P.REVIEW_CHANGED, (p) => s.reviewChanged(p.hunks, p.groups ?? [])),
      client.onRequest(P.REQUEST_PERMISSION, (p, token) => this.handlers.permission(p, token)),
      client.onRequest(P.CHOOSE_AUTH_METHOD, (p, token) => this.handlers.auth(p, token)),
      client.onRequest(P.SIGN_IN_TERMINAL, (p, token) => this.handlers.signInTerminal(p, token)),
      client.onRequest(P.ELICIT, (p, token) => this.handlers.elicit(p, token)),
      client.onRequest(P.DIAGNOSTICS, (p) => context.diagnostics(p)),
      client.onRequest(P.SELECTION, () => context.selection()),
      client.onDidChangeState((e) => {
        if (e.newState === State.Stopped && this.client === client) {
          this.problem = "acp-editor stopped: see the log (ACP: Show the Log), then ACP: Restart the Sidecar.";
          s.setAgent({ ...(s.agent ?? { agent: "default", command: [] }), state: "exited", message: this.problem });
        }
      }),
    ];
    this.disposables.push(...subs);
  }

  /** The sidecar's own state (`acp/snapshot`), of one session when it is named: what the sidecar
   *  holds, not this mirror of it (the test API reads it). */
  async snapshot(sessionId?: string): Promise<w.SnapshotResult> {
    return this.need().sendRequest(P.SNAPSHOT, sessionId === undefined ? {} : { sessionId });
  }

  /** Fetch the whole state again (on start, and when the mirror missed a change). */
  async resync(): Promise<void> {
    if (this.client === null || this.resyncing) return;
    this.resyncing = true;
    try {
      this.store.loadSnapshot(await this.client.sendRequest(P.SNAPSHOT, {}));
    } catch (error) {
      this.log.error(`acp/snapshot failed: ${String(error)}`);
    } finally {
      this.resyncing = false;
    }
  }

  private need(): LanguageClient {
    if (this.client === null || !this.running) {
      throw new Error(this.problem ?? "acp-editor is not running (ACP: Restart the Sidecar)");
    }
    return this.client;
  }

  /** The current session, created first when there is none (so its changes have a mirror). */
  async session(): Promise<string> {
    const current = this.store.currentSessionId;
    if (current !== null) return current;
    return this.newSession();
  }

  /** A new session, of the agent named (an id of `acp/agents`) or the sidecar's own, in a
   *  worktree of its own when `worktree` (the sidecar refuses a folder outside git, saying so);
   *  it comes to the front. */
  async newSession(agent?: string, worktree = false): Promise<string> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const params: w.NewSessionParams = folder?.uri.scheme === "file" ? { cwd: folder.uri.fsPath } : {};
    if (agent !== undefined) params.agent = agent;
    if (worktree) params.worktree = true;
    const result = await this.need().sendRequest(P.NEW_SESSION, params);
    this.store.setSession(result.snapshot);
    return result.sessionId;
  }

  /** A worktree session's changes into the workspace as its review (`acp/bringBack`). */
  async bringBack(sessionId: string): Promise<w.BringBackResult> {
    return this.need().sendRequest(P.BRING_BACK, { sessionId });
  }

  /** Delete a session's worktree (`acp/discardWorktree`); the user was asked already. With
   *  `dryRun` nothing is deleted: the answer's `lost` says what would be, to ask with. */
  async discardWorktree(sessionId: string, dryRun = false): Promise<w.DiscardWorktreeResult> {
    const params: w.DiscardWorktreeParams = dryRun ? { sessionId, dryRun } : { sessionId };
    const result = await this.need().sendRequest(P.DISCARD_WORKTREE, params);
    if (result.discarded) this.store.worktreeDiscarded(sessionId);
    return result;
  }

  /** The agents sessions may run in (`acp/agents`); the store keeps the list. */
  async agents(): Promise<w.AgentInfo[]> {
    const result = await this.need().sendRequest(P.AGENTS, {});
    this.store.setAgentList(result.agents);
    return result.agents;
  }

  /** Tell the sidecar which session is in front (`acp/selectSession`): prompts and commands
   *  without a session, and follow-along, go to it. The store switched already. */
  async selectSession(sessionId: string): Promise<void> {
    await this.need().sendRequest(P.SELECT_SESSION, { sessionId });
  }

  /** A prompt to the session given (a live one), else to the one in front. */
  async prompt(
    prompt: string | w.ContentBlock[],
    token?: vscode.CancellationToken,
    to?: string,
  ): Promise<w.PromptResult> {
    const client = this.need();
    const sessionId = to ?? (await this.session());
    this.store.setBusy(sessionId, true);
    let stopReason = "error";
    try {
      const result = await client.sendRequest(P.PROMPT, { sessionId, prompt }, token);
      stopReason = result.stopReason;
      return result;
    } catch (error) {
      // Its worktree was discarded (here, or by another editor): said plainly, and marked.
      if (!isDiscardedRefusal(error)) throw error;
      this.store.worktreeDiscarded(sessionId);
      throw new DiscardedSessionError(
        sessionId,
        discardedRefusalMessage(sessionTitle(this.store.sessions.get(sessionId))),
      );
    } finally {
      this.store.setBusy(sessionId, false, stopReason);
    }
  }

  /** Cancel the current session's turn; `dropQueued`: the prompts waiting after it go too. */
  async cancel(dropQueued = false): Promise<boolean> {
    const sessionId = this.store.currentSessionId;
    if (sessionId === null || !this.store.busy.has(sessionId)) return false;
    await this.need().sendRequest(P.CANCEL, dropQueued ? { sessionId, dropQueued } : { sessionId });
    return true;
  }

  /** Cancel a session's work by its id (`acp/cancel`): a subagent's session stops alone. */
  async cancelSession(sessionId: string): Promise<void> {
    await this.need().sendRequest(P.CANCEL, { sessionId });
  }

  /** Sign in to an agent now (`acp/signIn`: the front session's agent unless one is named); the
   *  user chooses how (`acp/chooseAuthMethod`, then `acp/signInTerminal` for a terminal method). */
  async signIn(agent?: string): Promise<w.SignInResult> {
    return this.need().sendRequest(P.SIGN_IN, agent === undefined ? {} : { agent });
  }

  /** Change what a prompt waiting its turn says (`acp/editPrompt`; entry `index`). */
  async editPrompt(sessionId: string, index: number, prompt: string | w.ContentBlock[]): Promise<void> {
    await this.need().sendRequest(P.EDIT_PROMPT, { sessionId, index, prompt });
  }

  /** A prompt waiting its turn will not go (`acp/withdrawPrompt`): its entry is marked dropped. */
  async withdrawPrompt(sessionId: string, index: number): Promise<void> {
    await this.need().sendRequest(P.WITHDRAW_PROMPT, { sessionId, index });
  }

  async setMode(modeId: string): Promise<void> {
    await this.need().sendRequest(P.SET_MODE, { sessionId: await this.session(), modeId });
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    await this.need().sendRequest(P.SET_CONFIG_OPTION, { sessionId: await this.session(), configId, value });
  }

  async listSessions(): Promise<w.ListedSession[]> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const params = folder?.uri.scheme === "file" ? { cwd: folder.uri.fsPath } : {};
    return (await this.need().sendRequest(P.LIST_SESSIONS, params)).sessions;
  }

  async loadSession(sessionId: string, cwd?: string): Promise<void> {
    const result = await this.need().sendRequest(
      P.LOAD_SESSION,
      cwd === undefined ? { sessionId } : { sessionId, cwd },
    );
    this.store.setSession(result.snapshot);
    // The load's replay may still sit in the server's coalescing buffer; a snapshot (which
    // flushes it first) is exact, and changes arriving meanwhile are dropped as already in it.
    await this.resync();
  }

  /** Whether the agent advertised `sessionCapabilities[name]` (delete, fork, list...). */
  canSession(name: string): boolean {
    const caps = this.store.agent?.agentCapabilities as { sessionCapabilities?: Record<string, unknown> } | undefined;
    const value = caps?.sessionCapabilities?.[name];
    return typeof value === "object" && value !== null;
  }

  canLogout(): boolean {
    const caps = this.store.agent?.agentCapabilities as { auth?: { logout?: unknown } } | undefined;
    return typeof caps?.auth?.logout === "object" && caps.auth.logout !== null;
  }

  /** `acp/forkSession` of the current session; the fork becomes current. */
  async forkSession(): Promise<string> {
    const result = await this.need().sendRequest(P.FORK_SESSION, { sessionId: await this.session() });
    this.store.setSession(result.snapshot);
    return result.sessionId;
  }

  /** `acp/deleteSession`; the user was asked already. */
  async deleteSession(sessionId: string): Promise<void> {
    await this.need().sendRequest(P.DELETE_SESSION, { sessionId });
    this.store.removeSession(sessionId);
  }

  /** `acp/logout`; the user was asked already. */
  async logout(): Promise<void> {
    await this.need().sendRequest(P.LOGOUT, {});
  }

  /** Follow-along on or off (`acp/setFollow`); `allSessions`: every live session's agent, not
   *  only the session in front's (left as it is when not given). */
  async setFollow(enabled: boolean, allSessions?: boolean): Promise<boolean> {
    const params: w.SetFollowParams = allSessions === undefined ? { enabled } : { enabled, allSessions };
    const result = await this.need().sendRequest(P.SET_FOLLOW, params);
    // A sidecar older than allSessions answers without it.
    this.store.setFollow(result.enabled, typeof result.allSessions === "boolean" ? result.allSessions : undefined);
    return result.enabled;
  }

  /** Undo a turn (`acp/restoreCheckpoint`); the user was asked already. The current session is
   *  named when its transcript shows a checkpointed turn; else none is (after a restart: a new
   *  session, or none yet), and the sidecar undoes in the session of the workspace's last turn. */
  async restoreCheckpoint(turn?: number): Promise<w.RestoreResult> {
    const params: w.RestoreCheckpointParams = turn === undefined ? {} : { turn };
    const sessionId = this.store.undoSession();
    if (sessionId !== null) params.sessionId = sessionId;
    return this.need().sendRequest(P.RESTORE_CHECKPOINT, params);
  }

  async decide(params: w.ReviewDecideParams): Promise<w.ReviewResult[]> {
    return (await this.need().sendRequest(P.REVIEW_DECIDE, params)).results;
  }

  /** The files of a bulk change, for a list the user opens (`acp/reviewGroupFiles`). */
  async groupFiles(groupId: string): Promise<w.ReviewGroupFile[]> {
    return (await this.need().sendRequest(P.REVIEW_GROUP_FILES, { groupId })).files;
  }

  /** Files for an `@`-mention in the prompt (`acp/findFiles`): open documents first. */
  async findFiles(params: w.FindFilesParams): Promise<w.FindFilesResult> {
    return this.need().sendRequest(P.FIND_FILES, params);
  }

  /** The workspace's earlier prompts, oldest first (`acp/promptHistory`). */
  async promptHistory(): Promise<string[]> {
    return (await this.need().sendRequest(P.PROMPT_HISTORY, {})).prompts;
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = null;
    for (const d of this.disposables.splice(0)) d.dispose();
    if (client !== null && client.state !== State.Stopped) {
      try {
        await client.stop(5000);
      } catch (error) {
        this.log.warn(`stopping acp-editor: ${String(error)}`);
      }
    }
  }

  dispose(): void {
    void this.stop();
  }
}
