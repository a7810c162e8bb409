/**
 * Bulk changes (protocol.md, "Bulk changes"): a command that changed many files at once is one
 * review group, accepted or rejected as one, its files listed on demand. This module holds the
 * wording and choices the notification, the quick picks and the chat card share.
 *
 * Pure (no vscode), so the unit tests see what the user sees.
 */

import type { Decision, ReviewGroup, ReviewGroupFile, ReviewResult } from "../wire";

/** The buttons of a new group's notification, in order: the decisions first, then a look. */
export const GROUP_BUTTONS = { accept: "Accept", reject: "Reject", files: "Show files" } as const;

/** The notification's text: the server's title says what and where ("40 new files in generated/"). */
export function groupNotice(group: ReviewGroup): string {
  return `${group.title} wait for review`;
}

/** New groups are announced once review changes have paused this long (the burst settled). */
export const ANNOUNCE_AFTER_MS = 500;

/** More new groups than this at once (an install into many folders) are announced together. */
export const NOTICES_AT_ONCE = 3;

/** The one notification for a burst of new groups. */
export function groupsNotice(groups: readonly ReviewGroup[]): string {
  const titles = groups
    .slice(0, NOTICES_AT_ONCE)
    .map((g) => g.title)
    .join("; ");
  const more = groups.length > NOTICES_AT_ONCE ? `; ${groups.length - NOTICES_AT_ONCE} more` : "";
  return `${groups.length} bulk changes wait for review: ${titles}${more}`;
}

/**
 * Which pending groups have not been announced yet. A group is announced once: later views of it
 * (a later look of the same tool call adding files, a resync) do not announce it again.
 */
export class GroupAnnouncer {
  private readonly announced = new Set<string>();

  take(groups: Iterable<ReviewGroup>): ReviewGroup[] {
    const fresh: ReviewGroup[] = [];
    for (const g of groups) {
      if (g.state !== "pending" || this.announced.has(g.groupId)) continue;
      this.announced.add(g.groupId);
      fresh.push(g);
    }
    return fresh;
  }
}

/** Whether a file lies in a group's folder (its lenses show there). */
export function inGroupFolder(uri: string, group: ReviewGroup): boolean {
  const folder = group.uri.endsWith("/") ? group.uri : `${group.uri}/`;
  return uri.startsWith(folder);
}

const CHANGE_WORDS: Readonly<Record<ReviewGroupFile["change"], string>> = {
  created: "new",
  deleted: "deleted",
  changed: "changed",
};

export interface GroupFileItem {
  /** The file relative to the workspace, as the group's title names its folder. */
  label: string;
  description: string;
  file: ReviewGroupFile;
}

/** A group's files as a list, in path order with numbers in numeric order (file2 before file10). */
export function groupFileItems(files: readonly ReviewGroupFile[], relative: (path: string) => string): GroupFileItem[] {
  return files
    .map((file) => ({
      label: relative(file.path),
      description: CHANGE_WORDS[file.change] ?? String(file.change),
      file,
    }))
    .sort((a, b) => a.label.localeCompare(b.label, undefined, { numeric: true }));
}

/** A group in a list of groups: its title, and why a decision was not carried out in full. */
export function groupItem(group: ReviewGroup): { label: string; description: string; detail: string } {
  return { label: group.title, description: group.message ?? "", detail: group.path };
}

function counted(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}

/** The warning for results that could not be carried out (a hunk's lines changed, a group's
 *  files changed again since), or null when all were. */
export function decisionProblem(results: readonly ReviewResult[], decision: Decision): string | null {
  const failed = results.filter((r) => r.error !== undefined);
  if (failed.length === 0) return null;
  const groups = failed.filter((r) => r.groupId !== undefined).length;
  const hunks = failed.length - groups;
  const what = [hunks > 0 ? counted(hunks, "hunk") : "", groups > 0 ? counted(groups, "bulk change") : ""]
    .filter((s) => s !== "")
    .join(" and ");
  return `ACP: ${what} could not be ${decision}ed: ${failed[0]?.error ?? ""}`;
}
