/**
 * Sessions in a worktree of their own (docs/protocol.md, "Sessions in a worktree of their own"):
 * what the editor says about them. Such a session works in a git worktree made from the user's
 * repository, outside the user's files; "Bring Back Changes" (`acp/bringBack`) brings what it
 * changed into the workspace as its review, "Discard Worktree…" (`acp/discardWorktree`) deletes
 * the worktree, and what was not brought back with it.
 *
 * Pure (no vscode): the host's notifications and the unit tests read the same words.
 */

import type { BringBackResult, SessionSnapshot } from "../wire";
import { basename } from "./format";

/** The mark of a worktree session in the strip (the webview draws no codicons). */
export const WORKTREE_MARK = "⎇";

/** Where a session works when it has a worktree of its own, else null. */
export function worktreeOf(session: SessionSnapshot | null | undefined): string | null {
  const w = session?.worktree;
  return typeof w === "string" && w !== "" ? w : null;
}

/** The two buttons of the discard question: keeping comes first (and closing the question
 *  keeps it too), so no stray click loses work. */
export const KEEP_WORKTREE = "Keep the Worktree";
export const DISCARD_WORKTREE = "Discard";

/** How many lost files the discard question names; more are only counted (the log lists them). */
export const LOST_NAMED_MAX = 5;

/** A path as the user reads it: relative to the workspace folder when inside it. */
export function shownPath(path: string, root: string | null = null): string {
  if (root === null || root === "") return path;
  const base = root.replace(/[\\/]+$/, "");
  const sep = path.charAt(base.length);
  return path.startsWith(base) && (sep === "/" || sep === "\\") ? path.slice(base.length + 1) : path;
}

/** The question asked before a worktree is deleted. `lost`: what the sidecar says would be lost
 *  (`acp/discardWorktree` with `dryRun`), named when there are few; null when it could not say. */
export function discardQuestion(
  title: string,
  worktree: string | null,
  lost: readonly string[] | null = null,
  root: string | null = null,
): string {
  const where = worktree === null ? "" : ` (${worktree})`;
  const ask = `Discard the worktree of session "${title}"${where}?`;
  const yours = "Your own files are not touched.";
  if (lost === null) return `${ask} What the agent changed there and you did not bring back is lost. ${yours}`;
  if (lost.length === 0)
    return `${ask} Nothing is lost: the agent changed nothing there that you did not bring back. ${yours}`;
  const n = lost.length === 1 ? "1 file" : `${lost.length} files`;
  const named =
    lost.length <= LOST_NAMED_MAX ? `: ${lost.map((p) => shownPath(p, root)).join(", ")}` : " (the log lists them)";
  return `${ask} ${n} the agent changed there and you did not bring back ${lost.length === 1 ? "is" : "are"} lost${named}. ${yours}`;
}

/** Said once the worktree is gone: what was lost, and that the session takes no more prompts. */
export function discardedMessage(title: string, lost: readonly string[]): string {
  const gone = lost.length === 0 ? "" : ` (${lost.length === 1 ? "1 file" : `${lost.length} files`} lost)`;
  return `The worktree of session "${title}" is discarded${gone}. The session stays to read; to go on, start a new session.`;
}

/** Whether an error is the sidecar refusing a prompt to a session whose worktree was discarded
 *  (-32602, "the worktree of session … was discarded: start a new session"). */
export function isDiscardedRefusal(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === -32602 && typeof message === "string" && /worktree of session .* was discarded/.test(message);
}

/** The plain words for that refusal (the notification offers a new session). */
export function discardedRefusalMessage(title: string): string {
  return `Session "${title}" takes no more prompts: its worktree was discarded. Start a new session to go on; this one stays to read.`;
}

/** A prompt refused because its session's worktree was discarded, worded for the user. */
export class DiscardedSessionError extends Error {
  constructor(
    readonly sessionId: string,
    message: string,
  ) {
    super(message);
    this.name = "DiscardedSessionError";
  }
}

/** The button of that notification, and of the discarded session's bar. */
export const NEW_SESSION_BUTTON = "New Session";

/** The mark of a session whose worktree was discarded, in the strip. */
export const DISCARDED_MARK = "⎇✕";

/** How many paths a notification names before "and N more". */
export const NAMED_MAX = 3;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The notification after a bring-back: how many files wait in review, and which were left as
 *  the user has them, with the reason. `warning`: some were left. */
export function bringBackMessage(
  result: BringBackResult,
  title: string,
): { severity: "info" | "warning"; message: string } {
  const brought = result.brought.length;
  const left = result.left;
  if (brought === 0 && left.length === 0) {
    return {
      severity: "info",
      message: `Nothing to bring back from session "${title}": its worktree has no changes since it started or since the last bring-back.`,
    };
  }
  const parts: string[] = [];
  if (brought > 0) parts.push(`${plural(brought, "file")} from session "${title}" in review.`);
  else parts.push(`No file of session "${title}" could be brought back.`);
  if (left.length > 0) {
    const named = left.slice(0, NAMED_MAX).map((l) => `${basename(l.path)} (${l.reason})`);
    const more = left.length > NAMED_MAX ? `, and ${left.length - NAMED_MAX} more (see the log)` : "";
    parts.push(
      `${plural(left.length, "file")} left as you have ${left.length === 1 ? "it" : "them"}: ${named.join("; ")}${more}.`,
    );
  }
  return { severity: left.length > 0 ? "warning" : "info", message: parts.join(" ") };
}

/** The button of the bring-back notification that opens the first file brought back. */
export const SHOW_CHANGES = "Show Changes";
