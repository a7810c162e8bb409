/**
 * Subagents (ACP schema 1.25): child sessions a session's agent starts (claude-agent-acp's
 * `Task`), each a session of its own whose mirror names its parent (`parentSessionId`), and
 * described on the parent (`snapshot.subagents`: title, state, the tool call that started it,
 * whether it can be cancelled alone). And what the end of a turn says (`runState`: its stop
 * reason, the error of an "error" stop, the tokens of a v1 turn).
 *
 * Pure (no vscode, no DOM): the host, the chat webview and the unit tests read the same words.
 */

import type { RunState, SessionId, SessionSnapshot, Subagent, TurnUsage } from "../wire";
import { tokens } from "./usage";

/** What a subagent is doing, as the chat and the session strip say it. */
export type SubagentStatus = "running" | "waiting" | "idle" | "failed" | "cancelled" | "unknown";

/** How a person reads a subagent's name: `Subagent “Explore hello.py”` (as the sidecar names it
 *  to editors without the chat), or "A subagent" when its agent gave it no title. */
export function subagentName(title: unknown): string {
  return typeof title === "string" && title.trim() !== "" ? `Subagent “${title.trim()}”` : "A subagent";
}

/** The parent's record of each child, by child session id (`snapshot.subagents`). */
export function subagentsOf(snapshot: SessionSnapshot | null | undefined): Subagent[] {
  const all = snapshot?.subagents;
  if (typeof all !== "object" || all === null) return [];
  return Object.entries(all).flatMap(([id, record]) =>
    typeof record === "object" && record !== null ? [{ ...record, sessionId: record.sessionId ?? id }] : [],
  );
}

/** The children a tool call of the parent started (their `toolCallId`). */
export function subagentsUnder(snapshot: SessionSnapshot | null | undefined, toolCallId: string): Subagent[] {
  return subagentsOf(snapshot).filter((s) => s.toolCallId === toolCallId);
}

/** The children drawn under no tool call of the parent's transcript (no `toolCallId`, or one
 *  the transcript does not show): the chat lists them after it. */
export function unplacedSubagents(snapshot: SessionSnapshot | null | undefined): Subagent[] {
  const calls = new Set((snapshot?.entries ?? []).flatMap((e) => (e.kind === "toolCall" ? [e.toolCallId] : [])));
  return subagentsOf(snapshot).filter((s) => typeof s.toolCallId !== "string" || !calls.has(s.toolCallId));
}

function record(x: unknown): Record<string, unknown> {
  return typeof x === "object" && x !== null ? (x as Record<string, unknown>) : {};
}

/** The message of an ACP error (`{code, message}`), or of a string. */
export function errorMessage(error: unknown): string | null {
  if (typeof error === "string") return error.trim() === "" ? null : error;
  const message = record(error)["message"];
  return typeof message === "string" && message.trim() !== "" ? message : null;
}

/** A turn's tokens, short: "1.2k tokens (1,205 in · 4 out)"; null when it reports none. */
export function turnTokens(usage: TurnUsage | null | undefined): string | null {
  const u = record(usage);
  const n = (name: string): number | null => {
    const v = u[name];
    return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null;
  };
  const total = n("totalTokens");
  if (total === null) return null;
  const parts = [
    n("inputTokens") === null ? null : `${(n("inputTokens") ?? 0).toLocaleString("en")} in`,
    n("outputTokens") === null ? null : `${(n("outputTokens") ?? 0).toLocaleString("en")} out`,
    n("thoughtTokens") ? `${(n("thoughtTokens") ?? 0).toLocaleString("en")} thinking` : null,
    n("cachedReadTokens") ? `${(n("cachedReadTokens") ?? 0).toLocaleString("en")} cached` : null,
  ].filter((p): p is string => p !== null);
  return `${tokens(total)} tokens${parts.length > 0 ? ` (${parts.join(" · ")})` : ""}`;
}

/** What each stop reason says at the end of a turn (ACP StopReason; another is shown as sent). */
const STOP_WORDS: Readonly<Record<string, string>> = {
  end_turn: "Turn ended",
  cancelled: "Turn cancelled",
  max_tokens: "Turn ended: the agent reached its token limit",
  max_turn_requests: "Turn ended: the agent reached its limit of requests in one turn",
  refusal: "Turn ended: the agent refused to go on",
};

/** The end of the last turn as the chat shows it under the transcript: its stop reason, the
 *  error of an "error" stop, and a v1 turn's tokens. null while a turn runs, before any ended,
 *  or for a state that is not "idle". */
export function turnEnd(
  runState: RunState | null | undefined,
): { text: string; kind: "ok" | "stopped" | "error" } | null {
  if (!runState || runState.state !== "idle") return null;
  const reason = typeof runState.stopReason === "string" && runState.stopReason !== "" ? runState.stopReason : null;
  if (reason === null) return null;
  const used = turnTokens(runState.usage);
  const tail = used === null ? "" : ` · ${used}`;
  if (reason === "error") {
    const why = errorMessage(runState.error);
    const code =
      typeof record(runState.error)["code"] === "number" ? ` (${String(record(runState.error)["code"])})` : "";
    return { text: `✖ Turn failed${why === null ? "" : `: ${why}${code}`}${tail}`, kind: "error" };
  }
  const words = STOP_WORDS[reason] ?? `Turn ended: ${reason}`;
  const mark = reason === "end_turn" ? "✓" : reason === "cancelled" ? "■" : "◼";
  return { text: `${mark} ${words}${tail}`, kind: reason === "end_turn" ? "ok" : "stopped" };
}

/** A subagent's state from its parent's record (the agent's word), its own mirror's runState
 *  (the sidecar's: a question of it waits), and whether a question of it waits in the editor. */
export function subagentStatus(
  sub: Subagent,
  own: RunState | null | undefined,
  waiting: boolean,
): { status: SubagentStatus; words: string } {
  const state = sub.state ?? own ?? null;
  const name = typeof state?.state === "string" ? state.state : "unknown";
  if (waiting || name === "requires_action" || own?.state === "requires_action")
    return { status: "waiting", words: "waiting for you" };
  if (name === "running") return { status: "running", words: "running" };
  if (name === "idle") {
    const reason = typeof state?.stopReason === "string" ? state.stopReason : null;
    const used = turnTokens(state?.usage);
    const tail = used === null ? "" : ` · ${used}`;
    if (reason === "error") {
      const why = errorMessage(state?.error);
      return { status: "failed", words: `failed${why === null ? "" : `: ${why}`}${tail}` };
    }
    if (reason === "cancelled") return { status: "cancelled", words: `cancelled${tail}` };
    return { status: "idle", words: `idle${reason === null ? "" : ` (${reason.replace(/_/g, " ")})`}${tail}` };
  }
  return { status: "unknown", words: name.replace(/_/g, " ") };
}

/** Whether the child can be stopped alone (`capabilities.cancel`, `acp/cancel` of its session),
 *  and it is still at work. */
export function canCancelSubagent(sub: Subagent, status: SubagentStatus): boolean {
  const cancel = sub.capabilities?.cancel;
  return typeof cancel === "object" && cancel !== null && (status === "running" || status === "waiting");
}

/** Still at work: running, or waiting for the user (what the session strip lists). */
export function isLive(status: SubagentStatus): boolean {
  return status === "running" || status === "waiting";
}

/** The session a subagent's session belongs to, else null. */
export function parentOf(session: SessionSnapshot | null | undefined): SessionId | null {
  const parent = session?.parentSessionId;
  return typeof parent === "string" && parent !== "" ? parent : null;
}

/** The top session of a subagent's line (a subagent may start its own): the one the user
 *  prompts, whose place in front its subagents share. A session not known is its own root. */
export function rootOf(get: (id: string) => SessionSnapshot | undefined, sessionId: SessionId): SessionId {
  const seen = new Set([sessionId]);
  let id = sessionId;
  for (let parent = parentOf(get(id)); parent !== null && !seen.has(parent); parent = parentOf(get(id))) {
    seen.add(parent);
    id = parent;
  }
  return id;
}

/** Every session below one (its subagents, theirs...), nearest first. */
export function descendantsOf(sessions: Iterable<SessionSnapshot>, sessionId: SessionId): SessionId[] {
  const all = [...sessions];
  const found: SessionId[] = [];
  const seen = new Set([sessionId]);
  for (let i = -1; i < found.length; i += 1) {
    const of = i < 0 ? sessionId : found[i];
    for (const s of all) {
      if (parentOf(s) === of && !seen.has(s.sessionId)) {
        seen.add(s.sessionId);
        found.push(s.sessionId);
      }
    }
  }
  return found;
}
