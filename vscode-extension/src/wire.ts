/**
 * The payload types of the acp-editor editor protocol, as docs/protocol.md declares them.
 *
 * Types only: no runtime code, so the webview bundle and the unit tests can import them freely.
 * Payloads that come from the agent keep an index signature: the server passes unknown fields,
 * kinds and statuses on verbatim and the UI must render what it does not know generically.
 */

export type SessionId = string;
export type ToolCallId = string;

/** A JSON value: what every agent payload is, whatever its declared shape. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface ToolCall {
  toolCallId: ToolCallId;
  title?: string;
  kind?: string;
  status?: string;
  content?: unknown[];
  locations?: unknown[];
  rawInput?: unknown;
  rawOutput?: unknown;
  [field: string]: unknown;
}

export interface ContentBlock {
  type: string;
  [field: string]: unknown;
}

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: string;
  [field: string]: unknown;
}

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type AgentState = "starting" | "ready" | "exited" | "failed";

export interface AgentStatus {
  /** The agent's id: its preset name, "default" (the command after --) or "demo". */
  agent: string;
  state: AgentState;
  command: string[];
  agentInfo?: { name?: string; title?: string; version?: string };
  protocolVersion?: number;
  agentCapabilities?: unknown;
  message?: string;
  exitCode?: number | null;
  stderrTail?: string;
  /** Whether the agent can start sessions without the user signing in, as the agent says it
   *  (`auth/status`, `auth/status_update`): state authenticated | unauthenticated | not_required
   *  | unknown (another value: unknown); label, e.g. "Claude Max" or "Not logged in". */
  auth?: AuthState;
}

export interface AuthState {
  state: "authenticated" | "unauthenticated" | "not_required" | "unknown" | (string & {});
  label?: string;
  accounts?: unknown[];
}

/** Which session a subagent's session belongs to, and its title as its parent's agent gave it. */
export interface Subagentship {
  parentSessionId: SessionId;
  title?: string;
}

/** An agent sessions may run in (docs/protocol.md, "Several agents"). */
export interface AgentInfo {
  id: string;
  command: string[];
  /** The server's own: sessions that name no agent run in it. */
  default: boolean;
  /** null: not started in this server's life. */
  status: AgentStatus | null;
}

/** "session": a message between sessions (a parent and its subagent); "compaction": a context
 *  compaction, its summary as content. */
export type MessageRole = "user" | "agent" | "thought" | "session" | "compaction";

export type Entry =
  | {
      kind: "message";
      role: MessageRole;
      messageId: string | null;
      content: ContentBlock[];
      turn?: number;
      /** v2: sent while the agent worked, not taken up yet. */
      queued?: boolean;
      /** v2: the agent's work ended (cancelled) before it took this queued prompt up. */
      dropped?: boolean;
      /** A prompt that waited (went or was dropped): the entries' length then. It reads after
       *  the first `waitedUntil` entries (the turn it waited behind, that turn's reply). */
      waitedUntil?: number;
      /** role "session": a message between this session and a subagent's. */
      senderSessionId?: SessionId;
      recipientSessionId?: SessionId;
      /** role "compaction" (messageId: the compactionId, content: its summary). */
      status?: "in_progress" | "completed" | "failed" | "cancelled" | (string & {});
      error?: string;
    }
  | { kind: "notice"; severity: "info" | "warning" | "error" | (string & {}); title: string; description?: string }
  | { kind: "toolCall"; toolCallId: ToolCallId }
  | { kind: "update"; update: unknown };

export interface RestoreCheckpointParams {
  sessionId?: SessionId;
  turn?: number;
}

export interface DeleteSessionParams {
  sessionId?: SessionId;
}
export interface DeleteSessionResult {
  sessionId: SessionId;
}
export interface ForkSessionParams {
  sessionId?: SessionId;
}
export type ForkSessionResult = NewSessionResult;
export type LogoutParams = Record<string, never>;
export type LogoutResult = Record<string, never>;

/** `acp/setSessionTitle`: names a session where the agent supports it. */
export interface SetSessionTitleParams {
  sessionId?: SessionId;
  title: string;
}
export interface SetSessionTitleResult {
  sessionId: SessionId;
  title: string;
}
/** `acp/archiveSession`: hides a session from the agent's list (or brings it back). */
export interface ArchiveSessionParams {
  sessionId?: SessionId;
  archived?: boolean;
}
export interface ArchiveSessionResult {
  sessionId: SessionId;
  archived: boolean;
}

/** `acp/promptHistory`: the workspace's prompts, oldest first. */
export interface PromptHistoryParams {
  limit?: number;
}
export interface PromptHistoryResult {
  prompts: string[];
}

/** `acp/findFiles`: files to complete an `@`-mention with, open documents first. */
export interface FindFilesParams {
  query: string;
  limit?: number;
}
export interface FoundFile {
  uri: string;
  /** Relative to its workspace folder, with `/`. */
  path: string;
  open: boolean;
}
export interface FindFilesResult {
  files: FoundFile[];
  /** False until the first listing of every folder has ended: ask again on the next keystroke. */
  complete: boolean;
}

/** The result of `acp/restoreCheckpoint` (and of the `acp.restoreCheckpoint` command). */
export interface RestoreResult {
  sessionId: SessionId;
  turn: number;
  restored: string[];
  /** Of `restored`: files another session changed too (or may have). */
  shared?: string[];
  done: boolean;
}
export type RestoreCheckpointResult = RestoreResult;

export interface SessionSnapshot {
  sessionId: SessionId;
  /** The id of the agent the session runs in. */
  agent?: string;
  /** Where it works, when in a worktree of its own. */
  worktree?: string;
  protocolVersion: number;
  entries: Entry[];
  toolCalls: { [id: ToolCallId]: ToolCall };
  /** Replaced whole: the old whole-plan update, or the plan by id updated last (`plans`). */
  plan: { entries: unknown[] } | Plan | null;
  availableCommands: unknown[] | null;
  modes: { currentModeId: string; availableModes: unknown[] } | null;
  configOptions: unknown[] | null;
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- as docs/protocol.md spells it: null before the first report.
  usage: unknown | null;
  info: { [field: string]: unknown };
  /** Plans by their `planId` (`plan_update`; `plan_removed` drops one); `plan` is the one
   *  updated last. */
  plans: { [planId: string]: Plan } | null;
  /** The foreground work: `state` running, idle (with `stopReason`) or requires_action (v2: the
   *  agent's; v1: the server's, from the turn and the questions waiting for an answer). */
  runState: RunState | null;
  /** Child sessions this session's agent started, by their session id (`subagent_update`). */
  subagents?: { [sessionId: SessionId]: Subagent } | null;
  /** Set on a subagent's own session: the session that started it. */
  parentSessionId?: SessionId;
}

/** ACP plan operations (schema 1.25): a plan by id, its content one of these (v2: no `type`,
 *  told apart by its fields). */
export type Plan =
  | { type: "items"; planId: string; entries: unknown[] }
  | { type: "markdown"; planId: string; content: string }
  | { type: "file"; planId: string; uri: string }
  | { type?: string; planId?: string; [field: string]: unknown };

/** A child session as its parent's agent describes it (ACP `subagent_update`, patched). */
export interface Subagent {
  sessionId: SessionId;
  title?: string;
  description?: string;
  /** running, idle (with `stopReason`, an `error` when it is "error", and `usage`),
   *  requires_action, unknown, or a future state. */
  state?: RunState;
  capabilities?: { cancel?: object | null } | null;
  cwd?: string;
  /** The parent's tool call that was running when the child was announced. */
  toolCallId?: ToolCallId;
  [field: string]: unknown;
}

export interface RunState {
  state: "running" | "idle" | "requires_action" | (string & {});
  stopReason?: string | null;
  /** Idle after a v1 turn (and a subagent's idle): the tokens it used. */
  usage?: TurnUsage | null;
  /** With stopReason "error": what went wrong. */
  error?: { code?: number; message?: string; [field: string]: unknown } | null;
  [field: string]: unknown;
}

/** A turn's tokens (ACP `Usage`). */
export interface TurnUsage {
  totalTokens?: number;
  inputTokens?: number;
  outputTokens?: number;
  thoughtTokens?: number;
  cachedReadTokens?: number;
  cachedWriteTokens?: number;
  [field: string]: unknown;
}

export type Change =
  | { type: "entry"; index: number; entry: Entry }
  | { type: "message_chunk"; index: number; content: ContentBlock }
  | { type: "message"; index: number; set: { [field: string]: unknown }; unset: string[] }
  | { type: "tool_call"; toolCallId: ToolCallId; set: { [field: string]: unknown }; unset: string[] }
  | { type: "tool_call_content"; toolCallId: ToolCallId; content: unknown }
  | { type: "plan"; plan: unknown }
  | { type: "commands"; availableCommands: unknown }
  | { type: "modes"; modes: unknown }
  | { type: "config_options"; configOptions: unknown }
  | { type: "usage"; usage: unknown }
  | { type: "info"; info: unknown }
  | { type: "plans"; plans: unknown }
  | { type: "run_state"; runState: unknown }
  | { type: "subagents"; subagents: unknown };

export interface Hunk {
  oldStart: number;
  oldLines: string[];
  newStart: number;
  newLines: string[];
  range: Range;
}

export interface DiffPreview {
  uri: string;
  path: string;
  oldText: string | null;
  newText: string;
  hunks: Hunk[];
  added: number;
  removed: number;
}

export type HunkState = "pending" | "accepted" | "rejected" | "superseded";

export interface ReviewHunk {
  hunkId: string;
  sessionId: SessionId;
  toolCallId: ToolCallId | null;
  uri: string;
  path: string;
  state: HunkState;
  applied: boolean;
  oldLines: string[];
  newLines: string[];
  range: Range | null;
  message?: string;
  /** Every session the change may be of, when that is not certain ("either"): turns of several
   *  sessions ran and not exactly one of their tool calls named the file. Absent: `sessionId`. */
  sessions?: SessionId[];
  /** Pending hunks of other sessions whose lines this change changed again; rejecting one of
   *  those before this one is refused. */
  conflictsWith?: string[];
}

/** Many files changed at once, reviewed as one item (protocol.md, "Bulk changes"). */
export interface ReviewGroup {
  groupId: string;
  sessionId: SessionId;
  toolCallId: ToolCallId | null;
  uri: string;
  path: string;
  title: string;
  created: number;
  deleted: number;
  changed: number;
  state: "pending" | "accepted" | "rejected";
  message?: string;
  /** As `ReviewHunk.sessions`: every session it may be of, when that is not certain. */
  sessions?: SessionId[];
}

/** One per hunk (hunkId) or per group (groupId) decided. */
export interface ReviewResult {
  hunkId?: string;
  groupId?: string;
  state: HunkState;
  error?: string;
}

export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
}

export interface TerminalSnapshot {
  sessionId: SessionId;
  terminalId: string;
  output: string;
  exitStatus: ExitStatus | null;
}

export type ReviewMode = "after-write" | "before-write" | "off";

export interface InitializationOptions {
  acp?: {
    features?: string[];
    savesAfterApply?: boolean;
    follow?: boolean;
    review?: ReviewMode;
    tellAgentRejections?: boolean;
    autoApprove?: string[];
    editorContext?: boolean;
    mcpServers?: object[];
    /** More agents sessions may run in, by id (acp/newSession's `agent`). */
    agents?: { [id: string]: { command: string[]; env?: { [name: string]: string }; mode?: string } };
  };
}

// -- message params and results, in the order of docs/protocol.md --------------------------------

export interface NewSessionParams {
  cwd?: string;
  /** The id of the agent to run it in (acp/agents); default: the server's own. */
  agent?: string;
  /** In a worktree of its own, made from cwd's git repository as it is now. */
  worktree?: boolean;
}
export interface NewSessionResult {
  sessionId: SessionId;
  snapshot: SessionSnapshot;
}

export type AgentsParams = Record<string, never>;
export interface AgentsResult {
  agents: AgentInfo[];
}

export interface BringBackParams {
  sessionId: SessionId;
}
export interface BringBackResult {
  sessionId: SessionId;
  /** Paths now in review. */
  brought: string[];
  /** Kept as the user has them, and why. */
  left: { path: string; reason: string }[];
}

export interface DiscardWorktreeParams {
  sessionId: SessionId;
  /** Say what would be lost, discard nothing. */
  dryRun?: boolean;
}
export interface DiscardWorktreeResult {
  sessionId: SessionId;
  /** false with dryRun. */
  discarded: boolean;
  /** The files it changed and that were not brought back (with dryRun: would be). */
  lost: string[];
}

export interface PromptParams {
  sessionId?: SessionId;
  prompt: string | ContentBlock[];
}
export interface PromptResult {
  sessionId: SessionId;
  stopReason: string;
  /** The agent's words in this turn. */
  reply: string;
  /** The turn's tool calls, in order. */
  toolCalls: { title: string; status: string }[];
}

export interface CancelParams {
  sessionId: SessionId;
  /** Prompts waiting for their turn are dropped too (default: they go after the cancel). */
  dropQueued?: boolean;
}
export type CancelResult = Record<string, never>;
/** `acp/cancelToolCall`: one tool call of a v2 agent's session cancelled (it advertises it). */
export interface CancelToolCallParams {
  sessionId: SessionId;
  toolCallId: ToolCallId;
}
export type CancelToolCallResult = Record<string, never>;
/** `acp/cancelTerminal`: one command a v2 agent runs itself stopped (it advertises it). */
export interface CancelTerminalParams {
  sessionId: SessionId;
  terminalId: string;
}
export type CancelTerminalResult = Record<string, never>;
/** `acp/editPrompt` / `acp/withdrawPrompt`: a prompt waiting for its turn (entry `index`). */
export interface EditPromptParams {
  sessionId: SessionId;
  index: number;
  prompt: string | ContentBlock[];
}
export type EditPromptResult = Record<string, never>;
export interface WithdrawPromptParams {
  sessionId: SessionId;
  index: number;
}
export type WithdrawPromptResult = Record<string, never>;

export interface SnapshotParams {
  sessionId?: SessionId;
}
export interface SnapshotResult {
  /** The current session's agent, else the server's own. */
  agent: AgentStatus;
  /** Every agent sessions may run in. */
  agents: AgentInfo[];
  sessions: SessionSnapshot[];
  currentSessionId: SessionId | null;
  follow: boolean;
  terminals: TerminalSnapshot[];
  review: ReviewHunk[];
  /** Every bulk change, pending or decided. */
  reviewGroups: ReviewGroup[];
}

export interface SetModeParams {
  sessionId: SessionId;
  modeId: string;
}
export type SetModeResult = Record<string, never>;

export interface SetConfigOptionParams {
  sessionId: SessionId;
  configId: string;
  value: string | boolean;
}
export type SetConfigOptionResult = Record<string, never>;

export interface ListedSession {
  sessionId: SessionId;
  cwd: string;
  title?: string;
  updatedAt?: string;
}
export interface ListSessionsParams {
  cwd?: string;
}
export interface ListSessionsResult {
  sessions: ListedSession[];
}

export interface LoadSessionParams {
  sessionId: SessionId;
  cwd?: string;
}
export interface LoadSessionResult {
  sessionId: SessionId;
  snapshot: SessionSnapshot;
}

export interface SetFollowParams {
  enabled: boolean;
  /** Follow every live session's agent, not only the session in front (default: as before). */
  allSessions?: boolean;
}
export interface SetFollowResult {
  enabled: boolean;
  allSessions: boolean;
}
/** `acp/selectSession`: an open session comes to the front. */
export interface SelectSessionParams {
  sessionId: SessionId;
}
export interface SelectSessionResult {
  sessionId: SessionId;
}

export interface SessionChangedParams {
  sessionId: SessionId;
  /** The session's agent (SessionSnapshot.agent): not a change. Optional here: a test's
   *  hand-made notification may leave it out. */
  agent?: string;
  /** Where it works, when in a worktree of its own (SessionSnapshot.worktree). */
  worktree?: string;
  /** A subagent's session: whose it is (SessionSnapshot.parentSessionId). */
  parentSessionId?: SessionId;
  changes: Change[];
}

export type AgentStatusParams = AgentStatus;

export type FollowReason = "location" | "read" | "write" | "change";
export interface FollowParams {
  sessionId: SessionId;
  /** The session's agent: what to label the mark with when several are followed. */
  agent?: string;
  toolCallId?: ToolCallId;
  uri: string;
  range?: Range;
  reason: FollowReason;
  /** A subagent's work: followed as its parent's (the same place in front); name it. */
  subagent?: Subagentship;
}

export interface DiffParams extends DiffPreview {
  sessionId: SessionId;
  toolCallId: ToolCallId;
}

export interface TerminalOutputParams {
  sessionId: SessionId;
  terminalId: string;
  data: string;
}
export interface TerminalExitParams {
  sessionId: SessionId;
  terminalId: string;
  exitStatus: ExitStatus;
}

export interface RequestPermissionParams {
  sessionId: SessionId;
  /** ACP v2: the question in the agent's own words, shown before the tool call's. */
  title?: string;
  description?: string;
  toolCall: ToolCall;
  options: PermissionOption[];
  diffs: DiffPreview[];
  command?: string;
  /** A subagent asks (its session is `sessionId`): name it. */
  subagent?: Subagentship;
}
export interface RequestPermissionResult {
  optionId: string | null;
}

export interface AuthMethod {
  id: string;
  name: string;
  description?: string;
  /** "agent": the agent signs in itself; "terminal": a command runs where the user types. */
  type?: "agent" | "terminal" | (string & {});
}
export interface ChooseAuthMethodParams {
  /** The agent that asks (its id). */
  agent?: string;
  methods: AuthMethod[];
}
export interface ChooseAuthMethodResult {
  methodId: string | null;
}

/** `acp/signInTerminal`: run the agent's own sign-in command where the user types. */
export interface SignInTerminalParams {
  agent: string;
  /** What to call the agent ("Claude Agent"). */
  agentName: string;
  methodId: string;
  /** The method's name ("Claude Subscription"). */
  name: string;
  description?: string;
  command: string[];
  /** Set on top of the editor's environment. */
  env: { [name: string]: string };
  /** `command` as a POSIX shell line, to show. */
  commandLine: string;
  cwd?: string;
}
/** null: it could not start, or the user closed it first. */
export interface SignInTerminalResult {
  exitCode: number | null;
}
/** `acp/signIn`: sign in to an agent now (the current session's unless named). */
export interface SignInParams {
  agent?: string;
}
export interface SignInResult {
  agent: string;
  methodId: string;
}

/** A form field of ACP's restricted JSON Schema (flat: no nesting). */
export interface ElicitationField {
  type: "string" | "number" | "integer" | "boolean" | "array";
  title?: string;
  description?: string;
  default?: string | number | boolean | string[];
  enum?: string[];
  oneOf?: { const: string; title: string }[];
  items?: { enum?: string[]; anyOf?: { const: string; title: string }[] };
  format?: "email" | "uri" | "date" | "date-time";
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}
export interface ElicitationSchema {
  type?: "object";
  title?: string;
  properties: { [name: string]: ElicitationField };
  required?: string[];
}
export type ElicitationValue = string | number | boolean | string[];
export interface ElicitParams {
  requestId: string;
  agent: string;
  mode: "form" | "url";
  message: string;
  sessionId?: SessionId;
  toolCallId?: ToolCallId;
  requestedSchema?: ElicitationSchema;
  url?: string;
  host?: string;
  warning?: string;
}
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: { [field: string]: ElicitationValue };
}

export interface ReviewChangedParams {
  hunks: ReviewHunk[];
  groups?: ReviewGroup[];
}

export type Decision = "accept" | "reject";
export interface ReviewDecideParams {
  decision: Decision;
  hunkIds?: string[];
  groupIds?: string[];
  uri?: string;
  toolCallId?: ToolCallId;
  all?: boolean;
}
export interface ReviewDecideResult {
  results: ReviewResult[];
}

export interface ReviewGroupFilesParams {
  groupId: string;
}
export interface ReviewGroupFile {
  uri: string;
  path: string;
  change: "created" | "deleted" | "changed";
}
export interface ReviewGroupFilesResult {
  groupId: string;
  files: ReviewGroupFile[];
}

export interface DiagnosticsParams {
  path?: string;
}
export interface EditorDiagnostic {
  path: string;
  range: Range;
  severity: "error" | "warning" | "information" | "hint";
  message: string;
  source?: string;
  code?: string;
}
export interface DiagnosticsResult {
  diagnostics: EditorDiagnostic[];
}
export type SelectionParams = Record<string, never>;
export type SelectionResult = { path: string; range: Range; text: string } | null;
