/**
 * The messages between the extension host and the chat webview (postMessage), types only.
 *
 * The webview mirrors the current session itself: it gets a snapshot on `reset` and then the
 * same change batches as `acp/sessionChanged` carried, applied with the shared reducer, so a long
 * transcript is never re-sent whole. Everything else it shows (agent status, pending permissions,
 * terminal output, review counts) is small and sent whole as `extras`.
 */

import type { AttachmentView } from "../core/prompt";
import type { SessionTab } from "../core/sessions";
import type { AgentStatus, ExitStatus, FoundFile, SessionSnapshot } from "../wire";

export interface PermissionView {
  id: string;
  /** The session that asks (a subagent's, in its parent's chat). */
  sessionId?: string;
  /** A subagent asks: its name (`Subagent “Explore hello.py”`). */
  subagent?: string;
  toolCallId: string;
  title: string;
  message: string;
  options: { optionId: string; label: string; kind: string }[];
  command?: string;
  diffs: { uri: string; path: string; added: number; removed: number }[];
}

/** A bulk change (many files reviewed as one) of the current session. */
export interface GroupView {
  groupId: string;
  toolCallId: string | null;
  title: string;
  state: "pending" | "accepted" | "rejected";
  message?: string;
}

export interface ViewExtras {
  agent: AgentStatus | null;
  /** Why the sidecar is not running (not found, failed to start), or null. */
  problem: string | null;
  follow: boolean;
  busy: boolean;
  stopReason: string | null;
  permissions: PermissionView[];
  terminals: Record<string, { output: string; exitStatus: ExitStatus | null }>;
  review: Record<string, { pending: number; accepted: number; rejected: number }>;
  /** The session's bulk changes, pending and decided, oldest first. */
  groups: GroupView[];
  diffs: Record<string, { uri: string; path: string; added: number; removed: number }[]>;
  /** What the next prompt carries, as chips. */
  attachments: AttachmentView[];
  /** Whether the agent takes images (`promptCapabilities.image`): pasting or dropping one attaches it. */
  canAttachImages: boolean;
  canListSessions: boolean;
  canLoadSessions: boolean;
  /** Every live session (the strip above the chat, drawn while more than one is open). */
  sessions: SessionTab[];
}

export type HostMessage =
  /** The session in front, and its subagents' sessions (theirs too), drawn in its chat. */
  | { type: "reset"; session: SessionSnapshot | null; children?: SessionSnapshot[]; extras: ViewExtras }
  | { type: "changes"; sessionId: string; changes: unknown[] }
  | { type: "extras"; extras: ViewExtras }
  /** Text for the prompt box; `mode: "resend"`: an earlier prompt to edit, sent through a
   *  question of where (`leftOut`: its blocks that did not come back as chips). */
  | { type: "setInput"; text: string; mode?: "resend"; leftOut?: number }
  /** The answer to `findFiles` number `seq` (`acp/findFiles`; none when the sidecar could not say). */
  | { type: "files"; seq: number; files: FoundFile[]; complete: boolean }
  /** The workspace's earlier prompts, oldest first (`acp/promptHistory`). */
  | { type: "history"; prompts: string[] };

export type ViewMessage =
  | { type: "ready" }
  | { type: "resync" }
  | { type: "prompt"; text: string }
  | { type: "cancel" }
  /** A subagent's Cancel: its session alone stops (`acp/cancel` of its session). */
  | { type: "cancelSubagent"; sessionId: string }
  /** "Sign In…" beside an agent that says it is not signed in. */
  | { type: "signIn" }
  /** A prompt waiting its turn (entry `index`): its new text, or withdrawn. */
  | { type: "editQueued"; index: number; text: string }
  | { type: "withdrawQueued"; index: number }
  /** "Edit and resend" on the earlier prompt at entry `index`; then the edited text sent through
   *  the question of where. */
  | { type: "editResend"; index: number }
  | { type: "resend"; text: string }
  | { type: "newSession" }
  /** A session of the strip clicked: it comes to the front. */
  | { type: "selectSession"; sessionId: string }
  /** A worktree session's "Bring Back Changes" and "Discard Worktree…" (the chat's bar). */
  | { type: "bringBack"; sessionId: string }
  | { type: "discardWorktree"; sessionId: string }
  | { type: "loadSession" }
  | { type: "setMode"; modeId: string }
  | { type: "setConfig"; configId: string; value: string | boolean }
  | { type: "permission"; id: string; optionId: string | null }
  | { type: "open"; target: string; line?: number }
  | { type: "showDiff"; toolCallId: string; uri?: string }
  | { type: "review"; decision: "accept" | "reject"; toolCallId: string }
  | { type: "group"; action: "accept" | "reject" | "files"; groupId: string }
  | { type: "showTerminal"; terminalId: string }
  | { type: "restore"; turn: number }
  | { type: "attachSelection" }
  | { type: "attachFile" }
  /** Files for an `@`-mention; `seq` numbers the asks, so a late answer is known as such. */
  | { type: "findFiles"; seq: number; query: string }
  | { type: "history" }
  /** A file chosen from the `@` list, or files dropped on the prompt (URIs). */
  | { type: "attachFound"; uri: string; path: string }
  | { type: "attachUris"; uris: string[] }
  | { type: "attachUrl"; url: string }
  | { type: "attachImage"; name: string; mimeType: string; data: string }
  /** "+ …": a list of everything else that can be attached (problems, a web page, an image, a file). */
  | { type: "attachMore" }
  | { type: "removeAttachment"; index: number }
  | { type: "toggleFollow" };
