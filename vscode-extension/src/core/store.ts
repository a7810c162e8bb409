/**
 * Everything the extension knows about the sidecar, in one place, fed by the acp/... messages.
 *
 * Pure (no vscode): the client module feeds it, the UI modules (chat view, follow, diffs, review,
 * terminals, status bar) subscribe to it, and the integration-test API reads it. Sessions are
 * mirrored with the reducer; a change that does not fit (a missed notification) is reported so
 * the caller fetches a fresh `acp/snapshot` instead of drawing a wrong transcript.
 *
 * Several sessions live at once, of one agent or of several (docs/protocol.md, "Several
 * agents"): every session's mirror is kept, one of them is in front (`currentSessionId`, what the
 * chat shows and commands act on), and each agent's status is kept by its id. `agent` is the
 * status of the front session's agent.
 *
 * A subagent's session (ACP schema 1.25) is a session of its own here too, naming its parent
 * (`parentSessionId`): it is never in front itself, it shares its top session's place (what is
 * "in front" is a session's root), and its questions count as its parent's.
 */

import { MirrorError, applyChanges } from "./reducer";
import { descendantsOf, rootOf } from "./subagents";
import type {
  AgentInfo,
  AgentStatus,
  DiffParams,
  ExitStatus,
  FollowParams,
  RequestPermissionParams,
  ReviewGroup,
  ReviewHunk,
  SessionChangedParams,
  SessionSnapshot,
  SnapshotResult,
  TerminalOutputParams,
} from "../wire";

/** As on the server: a terminal keeps its last 64 KiB, enough for any card. */
export const TERMINAL_KEEP = 64 * 1024;

export interface PendingPermission {
  /** The JSON-RPC id of the request, as a string: how the chat card answers it. */
  id: string;
  params: RequestPermissionParams;
}

export interface TerminalView {
  sessionId: string;
  terminalId: string;
  output: string;
  exitStatus: ExitStatus | null;
}

export type StoreEvent =
  | { kind: "reset" }
  | { kind: "changes"; sessionId: string; changes: unknown[] }
  | { kind: "agent" }
  | { kind: "follow" }
  | { kind: "terminal"; terminalId: string; data?: string; exit?: ExitStatus }
  | { kind: "review" }
  | { kind: "diff"; diff: DiffParams }
  | { kind: "permissions" }
  | { kind: "questions" }
  | { kind: "busy" };

export type Listener = (event: StoreEvent) => void;

export function diffKey(toolCallId: string, uri: string): string {
  return `${toolCallId}\u0000${uri}`;
}

/** The id an agent status is kept under: a sidecar older than several agents names none. */
export function agentId(status: AgentStatus): string {
  return typeof status.agent === "string" && status.agent !== "" ? status.agent : "default";
}

export class Store {
  /** The status of the front session's agent (else the last one heard of). */
  agent: AgentStatus | null = null;
  /** Every agent's last status, by its id (`acp/agentStatus` names it). */
  readonly agents = new Map<string, AgentStatus>();
  /** The agents sessions may run in, as the last snapshot listed them (`acp/agents` refreshes it). */
  agentList: AgentInfo[] = [];
  /** Every live session's mirror, in the order they were opened. */
  readonly sessions = new Map<string, SessionSnapshot>();
  currentSessionId: string | null = null;
  follow = true;
  /** Every live session's agent followed, not only the session in front (`acp/setFollow`'s
   *  `allSessions`; a new sidecar starts with it off). */
  followAll = false;
  lastFollow: FollowParams | null = null;
  /** Sessions whose worktree was discarded: the sidecar refuses their prompts. Kept while the
   *  session is (the sidecar's snapshot does not say it). */
  readonly discarded = new Set<string>();
  readonly terminals = new Map<string, TerminalView>();
  readonly review = new Map<string, ReviewHunk>();
  /** Bulk changes (many files reviewed as one), the latest view of each by groupId. */
  readonly groups = new Map<string, ReviewGroup>();
  readonly diffs = new Map<string, DiffParams>();
  readonly permissions = new Map<string, PendingPermission>();
  /** The agent's other questions (`acp/elicit`: a form, a web page) waiting for an answer, with
   *  the session each is about (null: none, e.g. a sign-in). */
  readonly questions = new Map<string, string | null>();
  /** Sessions with a prompt turn running (or prompts waiting for theirs), and the stop reason of
   *  the last turn that ended. */
  readonly busy = new Set<string>();
  /** Prompts sent and not answered yet, by session: a prompt sent while a turn runs waits its
   *  turn, so a session stays busy until the last one is answered. */
  private readonly prompts = new Map<string, number>();
  /** The stop reason of the last turn that ended, of any session and by session. */
  lastStopReason: string | null = null;
  readonly stopReasons = new Map<string, string>();
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: StoreEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  current(): SessionSnapshot | null {
    return this.currentSessionId === null ? null : (this.sessions.get(this.currentSessionId) ?? null);
  }

  /** The session a subagent's session belongs to, else null. */
  parentOf(sessionId: string): string | null {
    const parent = this.sessions.get(sessionId)?.parentSessionId;
    return typeof parent === "string" && parent !== "" ? parent : null;
  }

  /** The top session of a subagent's line (itself for a session the user prompts). */
  rootOf(sessionId: string): string {
    return rootOf((id) => this.sessions.get(id), sessionId);
  }

  /** Every session below one (its subagents' sessions, theirs...), nearest first. */
  descendantsOf(sessionId: string): string[] {
    return descendantsOf(this.sessions.values(), sessionId);
  }

  /** A session and the sessions of its subagents: what its chat shows. */
  family(sessionId: string | null): Set<string> {
    return sessionId === null ? new Set() : new Set([sessionId, ...this.descendantsOf(sessionId)]);
  }

  /** The session an undo names: the current one when its transcript shows a checkpointed turn,
   *  else none (after a restart of the sidecar the sidecar then picks the session of the
   *  workspace's last turn, the run before's, which no transcript here shows). */
  undoSession(): string | null {
    const entries = this.current()?.entries ?? [];
    const shown = entries.some((e) => e.kind === "message" && e.role === "user" && typeof e.turn === "number");
    return shown ? this.currentSessionId : null;
  }

  /** Replace everything with an `acp/snapshot` answer (on start and after a missed change). */
  loadSnapshot(result: SnapshotResult): void {
    this.agents.clear();
    // A sidecar older than several agents sends no list.
    this.agentList = Array.isArray(result.agents) ? result.agents : [];
    for (const a of this.agentList) if (a.status) this.agents.set(a.id, a.status);
    this.agents.set(agentId(result.agent), result.agent);
    this.agent = result.agent;
    this.sessions.clear();
    for (const s of result.sessions) this.sessions.set(s.sessionId, s);
    for (const id of [...this.discarded]) if (!this.sessions.has(id)) this.discarded.delete(id);
    this.currentSessionId = result.currentSessionId;
    this.follow = result.follow;
    this.terminals.clear();
    for (const t of result.terminals) this.terminals.set(t.terminalId, { ...t, output: t.output });
    this.review.clear();
    for (const h of result.review) this.review.set(h.hunkId, h);
    this.groups.clear();
    // A sidecar older than bulk changes sends no groups.
    for (const g of result.reviewGroups ?? []) this.groups.set(g.groupId, g);
    this.emit({ kind: "reset" });
  }

  /** A session from `acp/newSession` or `acp/loadSession`; it becomes the current one. */
  setSession(snapshot: SessionSnapshot): void {
    this.sessions.set(snapshot.sessionId, snapshot);
    this.currentSessionId = snapshot.sessionId;
    this.agent = this.agentOf(snapshot.sessionId) ?? this.agent;
    this.emit({ kind: "reset" });
  }

  /** Bring a live session to the front, from its mirror (no round trip: the caller tells the
   *  sidecar after). False when no such session is open. */
  select(sessionId: string): boolean {
    if (!this.sessions.has(sessionId)) return false;
    // A subagent's session is shown in its parent's chat: the parent comes to the front.
    const id = this.rootOf(sessionId);
    if (this.currentSessionId === id) return true;
    this.currentSessionId = id;
    this.agent = this.agentOf(id) ?? this.agent;
    this.emit({ kind: "reset" });
    return true;
  }

  /** The status of the agent a session runs in, when known. */
  agentOf(sessionId: string): AgentStatus | null {
    const id = this.sessions.get(sessionId)?.agent;
    return id === undefined ? null : (this.agents.get(id) ?? null);
  }

  /** A session's agent as a person reads it: its title or name, else its id. */
  agentNameOf(sessionId: string): string {
    const status = this.agentOf(sessionId);
    const info = status?.agentInfo;
    return info?.title ?? info?.name ?? this.sessions.get(sessionId)?.agent ?? "The agent";
  }

  /** A session's worktree was discarded (`acp/discardWorktree`, or a prompt refused for it): it
   *  no longer works in one, and takes no more prompts. */
  worktreeDiscarded(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (session === undefined || (this.discarded.has(sessionId) && session.worktree === undefined)) return;
    delete session.worktree;
    this.discarded.add(sessionId);
    this.emit({ kind: "reset" });
  }

  /** A session the agent deleted: gone from the mirror (and no longer current). */
  removeSession(sessionId: string): void {
    this.sessions.delete(sessionId);
    this.discarded.delete(sessionId);
    if (this.currentSessionId === sessionId) this.currentSessionId = null;
    this.emit({ kind: "reset" });
  }

  /** Apply `acp/sessionChanged`; false when the mirror lost track and needs a fresh snapshot. */
  sessionChanged(params: SessionChangedParams): boolean {
    const session = this.sessions.get(params.sessionId);
    // A session we were never given (another client's prompt started it): only a snapshot can
    // tell what came before these changes.
    if (session === undefined) return false;
    // Every notification names the session's agent: a mirror made before the sidecar said it
    // (an older snapshot) learns it here, and the strip and review can name it.
    if (session.agent === undefined && typeof params.agent === "string" && params.agent !== "")
      session.agent = params.agent;
    // And where it works, when in a worktree of its own (from the first notification on).
    if (typeof params.worktree === "string" && params.worktree !== "" && !this.discarded.has(session.sessionId))
      session.worktree = params.worktree;
    // And whose subagent it is (a snapshot says it too).
    if (
      session.parentSessionId === undefined &&
      typeof params.parentSessionId === "string" &&
      params.parentSessionId !== ""
    )
      session.parentSessionId = params.parentSessionId;
    try {
      applyChanges(session, params.changes);
    } catch (error) {
      if (error instanceof MirrorError) return false;
      throw error;
    }
    // A subagent's session is never in front itself: its parent is.
    if (this.currentSessionId === null) this.currentSessionId = this.rootOf(session.sessionId);
    this.emit({ kind: "changes", sessionId: params.sessionId, changes: params.changes });
    return true;
  }

  /** `acp/agentStatus`: kept under the agent's id; it is `agent` too when the front session runs
   *  in that agent (or names none: a sidecar older than several agents). */
  setAgent(status: AgentStatus): void {
    const id = agentId(status);
    this.agents.set(id, status);
    const front = this.current()?.agent;
    if (front === undefined || front === id || this.agent === null) this.agent = status;
    this.emit({ kind: "agent" });
  }

  /** The agents sessions may run in (`acp/agents`). */
  setAgentList(agents: AgentInfo[]): void {
    this.agentList = agents;
    for (const a of agents) if (a.status && !this.agents.has(a.id)) this.agents.set(a.id, a.status);
  }

  /** `acp/setFollow`'s answer; `allSessions` when it said (a sidecar restart turns it off). */
  setFollow(enabled: boolean, allSessions?: boolean): void {
    this.follow = enabled;
    if (allSessions !== undefined) this.followAll = allSessions;
    this.emit({ kind: "follow" });
  }

  followed(params: FollowParams): void {
    this.lastFollow = params;
    this.emit({ kind: "follow" });
  }

  terminalOutput(params: TerminalOutputParams): void {
    const t = this.terminal(params.sessionId, params.terminalId);
    t.output += params.data;
    if (t.output.length > TERMINAL_KEEP) t.output = t.output.slice(t.output.length - TERMINAL_KEEP);
    this.emit({ kind: "terminal", terminalId: params.terminalId, data: params.data });
  }

  terminalExit(sessionId: string, terminalId: string, exitStatus: ExitStatus): void {
    this.terminal(sessionId, terminalId).exitStatus = exitStatus;
    this.emit({ kind: "terminal", terminalId, exit: exitStatus });
  }

  private terminal(sessionId: string, terminalId: string): TerminalView {
    let t = this.terminals.get(terminalId);
    if (t === undefined) {
      t = { sessionId, terminalId, output: "", exitStatus: null };
      this.terminals.set(terminalId, t);
    }
    return t;
  }

  /** `acp/reviewChanged`: each hunk and group carries its whole current view; the latest wins. */
  reviewChanged(hunks: readonly ReviewHunk[], groups: readonly ReviewGroup[] = []): void {
    for (const h of hunks) this.review.set(h.hunkId, h);
    for (const g of groups) this.groups.set(g.groupId, g);
    this.emit({ kind: "review" });
  }

  diff(params: DiffParams): void {
    this.diffs.set(diffKey(params.toolCallId, params.uri), params);
    this.emit({ kind: "diff", diff: params });
  }

  addPermission(p: PendingPermission): void {
    this.permissions.set(p.id, p);
    this.emit({ kind: "permissions" });
  }

  removePermission(id: string): void {
    if (this.permissions.delete(id)) this.emit({ kind: "permissions" });
  }

  /** An `acp/elicit` question asked (true) or answered, declined or withdrawn (false); the
   *  session it is about, if any. */
  setQuestion(id: string, pending: boolean, sessionId: string | null = null): void {
    const changed = pending ? !this.questions.has(id) : this.questions.has(id);
    if (pending) this.questions.set(id, sessionId);
    else this.questions.delete(id);
    if (changed) this.emit({ kind: "questions" });
  }

  /** Questions of any kind waiting for the user; of one session when it is given (with
   *  `withSubagents`, of its subagents' sessions too: they are asked in its chat). */
  waiting(sessionId?: string, withSubagents = false): number {
    if (sessionId === undefined) return this.permissions.size + this.questions.size;
    const of = withSubagents ? this.family(sessionId) : new Set([sessionId]);
    let n = 0;
    for (const p of this.permissions.values()) if (of.has(p.params.sessionId)) n += 1;
    for (const s of this.questions.values()) if (s !== null && of.has(s)) n += 1;
    return n;
  }

  /** A prompt of the session sent (true) or answered (false). */
  setBusy(sessionId: string, busy: boolean, stopReason?: string): void {
    const n = Math.max(0, (this.prompts.get(sessionId) ?? 0) + (busy ? 1 : -1));
    if (n > 0) {
      this.prompts.set(sessionId, n);
      this.busy.add(sessionId);
    } else {
      this.prompts.delete(sessionId);
      this.busy.delete(sessionId);
    }
    if (stopReason !== undefined) {
      this.lastStopReason = stopReason;
      this.stopReasons.set(sessionId, stopReason);
    }
    this.emit({ kind: "busy" });
  }

  // -- queries the UI shares -----------------------------------------------------------------

  pendingHunks(filter: { uri?: string; toolCallId?: string } = {}): ReviewHunk[] {
    return [...this.review.values()].filter(
      (h) =>
        h.state === "pending" &&
        (filter.uri === undefined || h.uri === filter.uri) &&
        (filter.toolCallId === undefined || h.toolCallId === filter.toolCallId),
    );
  }

  /** The pending hunk of a file whose lines hold `line` (0-based), if any. */
  pendingHunkAt(uri: string, line: number): ReviewHunk | undefined {
    return this.pendingHunks({ uri }).find(
      (h) => h.range !== null && h.range.start.line <= line && line <= Math.max(h.range.start.line, h.range.end.line),
    );
  }

  /** Pending bulk changes, oldest first; of one tool call when it is given. */
  pendingGroups(filter: { toolCallId?: string } = {}): ReviewGroup[] {
    return [...this.groups.values()].filter(
      (g) => g.state === "pending" && (filter.toolCallId === undefined || g.toolCallId === filter.toolCallId),
    );
  }

  /** Review counts of one tool call's hunks, for its chat card. */
  reviewSummary(toolCallId: string): { pending: number; accepted: number; rejected: number } {
    const summary = { pending: 0, accepted: 0, rejected: 0 };
    for (const h of this.review.values()) {
      // A superseded hunk lives on in the hunk that replaced it: not counted twice.
      if (h.toolCallId === toolCallId && h.state !== "superseded") summary[h.state] += 1;
    }
    return summary;
  }

  /** The proposed edits still to show in the editor: not those of a tool call that ended
   *  without writing (rejected, failed, cancelled: a subagent's cancelled with it), nor those of
   *  a session no longer open (a sidecar restarted since). */
  proposedDiffs(): DiffParams[] {
    return [...this.diffs.values()].filter((d) => {
      const session = this.sessions.get(d.sessionId);
      const status = session?.toolCalls[d.toolCallId]?.status;
      return session !== undefined && status !== "failed" && status !== "cancelled";
    });
  }

  diffsOf(toolCallId: string): DiffParams[] {
    return [...this.diffs.values()].filter((d) => d.toolCallId === toolCallId);
  }

  /** The agent's capabilities as it announced them (`{}` before it is ready). */
  capabilities(): Record<string, unknown> {
    const caps = this.agent?.agentCapabilities;
    return typeof caps === "object" && caps !== null ? (caps as Record<string, unknown>) : {};
  }

  canListSessions(): boolean {
    const s = this.capabilities()["sessionCapabilities"];
    return typeof s === "object" && s !== null && "list" in s && (s as Record<string, unknown>)["list"] != null;
  }

  canLoadSessions(): boolean {
    const s = this.capabilities()["sessionCapabilities"];
    const resume = typeof s === "object" && s !== null && (s as Record<string, unknown>)["resume"] != null;
    return this.capabilities()["loadSession"] === true || resume;
  }
}
