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

/** The question asked before a worktree is deleted. */
export function discardQuestion(title: string, worktree: string | null): string {
  const where = worktree === null ? "" : ` (${worktree})`;
  return (
    `Discard the worktree of session "${title}"${where}? What the agent changed there and you did ` +
    `not bring back is lost. Your own files are not touched.`
  );
}

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
