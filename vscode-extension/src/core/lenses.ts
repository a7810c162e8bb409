/**
 * Where the inline review UI goes in a file: CodeLens actions and line decorations, computed from
 * the review hunks (`acp/reviewChanged`) and proposed edits (`acp/diff`) of one document.
 *
 * Pure, so the placement rules are unit-tested; host/review.ts turns these specs into VS Code
 * CodeLenses and decorations.
 *
 * - A pending review hunk gets "Accept hunk" / "Reject hunk" on its first line; the first pending
 *   hunk of each tool call also gets the tool-call-wide actions and "Show diff".
 * - A file in the folder of a pending bulk change (a group: many files reviewed as one, which
 *   get no hunks) gets the group's title with "Accept", "Reject" and "Show files" on its first line.
 * - A proposed edit with no review hunks yet (asked about, not written) gets "Show proposed diff"
 *   on its first hunk, and its hunks are marked where the old lines are, but only while the file
 *   still holds the old text (otherwise the hunk ranges point at the wrong lines).
 * - While several sessions are open, each item names who made it (`Author`): its first lens
 *   starts with the agent's id ("claude: ✓ Accept hunk"), its hover with the agent and session.
 *   A change of unsure origin (`sessions`: turns of several sessions ran) names every session it
 *   may be of ("either claude or codex: ✓ Accept hunk").
 * - A pending change over another session's pending change (`conflictsWith`) says so in a lens
 *   ("⚠ over claude's pending change", which shows that change) and in its hover (decide this one
 *   first); the change it went over says it was changed again ("⚠ changed again by codex").
 */

import { countsLabel } from "./format";
import { inGroupFolder } from "./groups";
import type { DiffParams, ReviewGroup, ReviewHunk } from "../wire";

export type LensAction =
  | "acceptHunk"
  | "rejectHunk"
  | "acceptToolCall"
  | "rejectToolCall"
  | "showDiff"
  | "acceptGroup"
  | "rejectGroup"
  | "showGroupFiles"
  | "revealHunk";

export interface LensSpec {
  line: number;
  title: string;
  action: LensAction;
  /** hunkId for hunk actions (revealHunk: the hunk to show), groupId for group actions,
   *  toolCallId for the others. */
  arg: string;
  /** For showDiff: the file, since one tool call may edit several. */
  uri?: string;
}

export interface LineSpan {
  startLine: number;
  /** Inclusive. */
  endLine: number;
  /** A hover: what the lines were or will be. */
  hover: string;
  /** A short note drawn after the span's first line. */
  note: string;
}

export interface DecorationSpecs {
  /** Lines the agent added (after-write, pending review). */
  added: LineSpan[];
  /** Lines an edit will replace or remove (before-write, or a proposal not written yet). */
  replaced: LineSpan[];
  /** Where an edit will only insert lines: no line of the file changes, so only a note shows. */
  inserts: LineSpan[];
}

/** The last line a range really covers: a range ending at column 0 stops before that line. */
function lastLine(start: number, end: { line: number; character: number }): number {
  return end.character === 0 && end.line > start ? end.line - 1 : end.line;
}

/** Who made a change: the agent's id and the session's title. */
export interface Who {
  agent: string;
  session: string;
}

/** Who made the changes of a session, or of one of `sessions` when the origin is unsure (every
 *  one it may be of); null when nobody needs telling (one session open, origin certain). */
export type Author = (sessionId: string, sessions?: readonly string[]) => Who[] | null;

const nobody: Author = () => null;

/** An item's origin: its session, or every session it may be of. */
interface Origin {
  sessionId: string;
  sessions?: readonly string[];
}

function unique(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}

/** The lens title with the agent's id before it, when there is one to name. */
function by(author: Author, o: Origin, title: string): string {
  const who = author(o.sessionId, o.sessions);
  if (who === null || who.length === 0) return title;
  if (who.length === 1) return `${who[0]?.agent ?? ""}: ${title}`;
  const agents = unique(who.map((w) => w.agent));
  const either =
    agents.length > 1 ? `either ${agents.join(" or ")}` : `${agents[0] ?? ""} (either of ${who.length} sessions)`;
  return `${either}: ${title}`;
}

/** The hover with who made the change first, when there is one to name. */
function byHover(author: Author, o: Origin, hover: string): string {
  const who = author(o.sessionId, o.sessions);
  if (who === null || who.length === 0) return hover;
  const named = who.map((w) => `${w.agent} in session "${w.session}"`);
  if (named.length === 1) return `By ${named[0] ?? ""}.\n\n${hover}`;
  return `By either ${named.join(" or ")}: their turns ran at the same time, and which one made it is not certain.\n\n${hover}`;
}

/** The agent a conflict names (while several sessions are open), else null. */
function agentOf(author: Author, sessionId: string): string | null {
  const who = author(sessionId);
  return who !== null && who.length === 1 ? (who[0]?.agent ?? null) : null;
}

const possessive = (agent: string | null): string => (agent === null ? "another session's" : `${agent}'s`);

/** Which pending hunks went over which (`conflictsWith`), indexed once per drawing. */
interface Conflicts {
  /** By hunk id: the pending hunks it went over. */
  over: Map<string, ReviewHunk[]>;
  /** By hunk id: the pending hunks that went over it. */
  under: Map<string, ReviewHunk[]>;
}

function conflictIndex(hunks: readonly ReviewHunk[]): Conflicts {
  const index: Conflicts = { over: new Map(), under: new Map() };
  const newer = hunks.filter((h) => h.state === "pending" && (h.conflictsWith ?? []).length > 0);
  if (newer.length === 0) return index;
  const byId = new Map(hunks.map((h) => [h.hunkId, h]));
  for (const h of newer) {
    for (const id of h.conflictsWith ?? []) {
      const x = byId.get(id);
      if (x === undefined || x.state !== "pending") continue;
      index.over.set(h.hunkId, [...(index.over.get(h.hunkId) ?? []), x]);
      index.under.set(x.hunkId, [...(index.under.get(x.hunkId) ?? []), h]);
    }
  }
  return index;
}

/** What a hover adds about the conflicts of `h`, or "". */
function conflictHover(author: Author, h: ReviewHunk, index: Conflicts): string {
  const over = index.over.get(h.hunkId) ?? [];
  const under = index.under.get(h.hunkId) ?? [];
  const lines: string[] = [];
  for (const x of over) {
    lines.push(
      `⚠ These lines were pending as ${possessive(agentOf(author, x.sessionId))} change, which this one ` +
        `changed again: decide this one first (rejecting it puts that change's lines back), or both at once.`,
    );
  }
  for (const x of under) {
    lines.push(
      `⚠ ${agentOf(author, x.sessionId) ?? "Another session"} changed these lines again, still pending: ` +
        `rejecting this one first is refused; reject that change first, or both at once.`,
    );
  }
  return lines.length === 0 ? "" : `\n\n${lines.join("\n\n")}`;
}

function fenced(lines: string[]): string {
  return ["```", ...lines, "```"].join("\n");
}

export function lensSpecs(
  uri: string,
  hunks: readonly ReviewHunk[],
  diffs: readonly DiffParams[],
  docText: string,
  groups: readonly ReviewGroup[] = [],
  author: Author = nobody,
): LensSpec[] {
  const specs: LensSpec[] = [];
  for (const g of groups) {
    if (g.state !== "pending" || !inGroupFolder(uri, g)) continue;
    const title = by(author, g, `▦ ${g.title}: Accept`);
    specs.push({ line: 0, title, action: "acceptGroup", arg: g.groupId });
    specs.push({ line: 0, title: "Reject", action: "rejectGroup", arg: g.groupId });
    specs.push({ line: 0, title: "Show files", action: "showGroupFiles", arg: g.groupId });
  }
  const conflicts = conflictIndex(hunks);
  const pending = hunks
    .filter((h) => h.uri === uri && h.state === "pending" && h.range !== null)
    .sort((a, b) => (a.range?.start.line ?? 0) - (b.range?.start.line ?? 0));
  const firstOfTool = new Set<string>();
  for (const h of pending) {
    const line = h.range?.start.line ?? 0;
    const tool = h.toolCallId;
    let named = false;
    if (tool !== null && !firstOfTool.has(tool)) {
      firstOfTool.add(tool);
      const n = pending.filter((x) => x.toolCallId === tool).length;
      if (n > 1) {
        const title = by(author, h, `Accept edit (${n} hunks)`);
        specs.push({ line, title, action: "acceptToolCall", arg: tool });
        specs.push({ line, title: "Reject edit", action: "rejectToolCall", arg: tool });
        named = true;
      }
    }
    const counts = countsLabel(h.newLines.length, h.oldLines.length);
    const accept = `✓ Accept hunk ${counts}`;
    specs.push({
      line,
      title: named ? accept : by(author, h, accept),
      action: "acceptHunk",
      arg: h.hunkId,
    });
    specs.push({ line, title: "✗ Reject hunk", action: "rejectHunk", arg: h.hunkId });
    for (const x of conflicts.over.get(h.hunkId) ?? []) {
      const title = `⚠ over ${possessive(agentOf(author, x.sessionId))} pending change`;
      specs.push({ line, title, action: "revealHunk", arg: x.hunkId });
    }
    for (const x of conflicts.under.get(h.hunkId) ?? []) {
      const title = `⚠ changed again by ${agentOf(author, x.sessionId) ?? "another session"}`;
      specs.push({ line, title, action: "revealHunk", arg: x.hunkId });
    }
    if (tool !== null && specs.filter((s) => s.action === "showDiff" && s.arg === tool).length === 0) {
      specs.push({ line, title: "Show diff", action: "showDiff", arg: tool, uri });
    }
  }
  const reviewed = new Set(hunks.filter((h) => h.uri === uri).map((h) => h.toolCallId));
  for (const d of diffs) {
    if (d.uri !== uri || reviewed.has(d.toolCallId) || d.hunks.length === 0) continue;
    const line = d.oldText === docText ? (d.hunks[0]?.range.start.line ?? 0) : 0;
    specs.push({
      line,
      title: by(author, d, `Show proposed diff ${countsLabel(d.added, d.removed)}`),
      action: "showDiff",
      arg: d.toolCallId,
      uri,
    });
  }
  return specs;
}

export function decorationSpecs(
  uri: string,
  hunks: readonly ReviewHunk[],
  diffs: readonly DiffParams[],
  docText: string,
  author: Author = nobody,
): DecorationSpecs {
  const conflicts = conflictIndex(hunks);
  const added: LineSpan[] = [];
  const replaced: LineSpan[] = [];
  const inserts: LineSpan[] = [];
  /** A pending change of the old lines: painted when it replaces lines, a note when it inserts. */
  const pending = (start: number, end: number, oldLines: string[], hover: string, note: string): void => {
    if (oldLines.length === 0) inserts.push({ startLine: start, endLine: start, hover, note });
    else replaced.push({ startLine: start, endLine: lastLine(start, { line: end, character: 0 }), hover, note });
  };
  for (const h of hunks) {
    if (h.uri !== uri || h.state !== "pending" || h.range === null) continue;
    const start = h.range.start.line;
    if (h.applied) {
      if (h.newLines.length === 0) {
        added.push({
          startLine: start,
          endLine: start,
          hover:
            byHover(author, h, `The agent removed:\n\n${fenced(h.oldLines)}`) + conflictHover(author, h, conflicts),
          note: `−${h.oldLines.length} removed`,
        });
      } else {
        const hover = h.oldLines.length > 0 ? `The agent replaced:\n\n${fenced(h.oldLines)}` : "Added by the agent";
        added.push({
          startLine: start,
          endLine: lastLine(start, h.range.end),
          hover: byHover(author, h, hover) + conflictHover(author, h, conflicts),
          note: "agent edit: pending review",
        });
      }
    } else {
      const end = h.range.end.character === 0 ? h.range.end.line : h.range.end.line + 1;
      const hover =
        byHover(author, h, `The agent wants to write:\n\n${fenced(h.newLines)}`) + conflictHover(author, h, conflicts);
      pending(start, end, h.oldLines, hover, "held until you accept");
    }
  }
  const reviewed = new Set(hunks.filter((h) => h.uri === uri).map((h) => h.toolCallId));
  for (const d of diffs) {
    if (d.uri !== uri || reviewed.has(d.toolCallId) || d.oldText !== docText) continue;
    for (const h of d.hunks) {
      const end = h.range.end.character === 0 ? h.range.end.line : h.range.end.line + 1;
      const note = `proposed ${countsLabel(h.newLines.length, h.oldLines.length)}`;
      const hover = byHover(author, d, `Proposed by the agent:\n\n${fenced(h.newLines)}`);
      pending(h.range.start.line, end, h.oldLines, hover, note);
    }
  }
  return { added, replaced, inserts };
}
