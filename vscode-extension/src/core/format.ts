/**
 * Wording and small computations the UI shows: permission options, tool-call labels, diff counts.
 *
 * Pure (no vscode, no DOM) so the notification, the chat card and the unit tests agree. Anything
 * an agent may send that nobody defined (custom kinds and statuses) gets a generic wording rather
 * than being hidden.
 */

import type { PermissionOption, RequestPermissionParams, RestoreResult, ToolCall } from "../wire";

/** The verb of each permission option kind the protocol names. */
const OPTION_WORDS: Readonly<Record<string, string>> = {
  allow_once: "Allow once",
  allow_always: "Always allow",
  reject_once: "Reject",
  reject_always: "Always reject",
};

/** Agents' own names that say no more than the kind's word: shown as the word alone. */
const GENERIC_NAMES = new Set([
  "allow",
  "allow once",
  "yes",
  "always allow",
  "allow always",
  "always",
  "reject",
  "deny",
  "no",
  "reject once",
  "always reject",
  "reject always",
  "always deny",
  "never",
]);

export function isAllow(option: PermissionOption): boolean {
  return option.kind === "allow_once" || option.kind === "allow_always";
}

export function isReject(option: PermissionOption): boolean {
  return option.kind === "reject_once" || option.kind === "reject_always";
}

/**
 * The label of a permission option. Known kinds are worded by kind so "always" answers (which
 * create a remembered rule) cannot be mistaken for one-off ones whatever the agent named them;
 * the agent's own name is kept beside the word when it says something more. Unknown (custom
 * `_...`) kinds show the agent's name alone.
 */
export function optionLabel(option: PermissionOption): string {
  const name = typeof option.name === "string" ? option.name.trim() : "";
  const word = OPTION_WORDS[option.kind];
  if (word === undefined) return name || option.optionId;
  if (name === "" || GENERIC_NAMES.has(name.toLowerCase())) return word;
  return `${word} (${name})`;
}

/** Longest label a notification button gets: VS Code cuts longer ones off ("Allow on…"). */
export const BUTTON_MAX = 16;

/**
 * A permission option as a notification button: the word of its kind alone ("Always allow"),
 * or a custom kind's name shortened. What the agent's own name adds goes into the message
 * (`optionsNote`), where it is read whole.
 */
export function buttonLabel(option: PermissionOption): string {
  const word = OPTION_WORDS[option.kind];
  if (word !== undefined) return word;
  const name = typeof option.name === "string" && option.name.trim() !== "" ? option.name : option.optionId;
  return oneLine(name, BUTTON_MAX);
}

/** The options whose button says less than the agent did, in full: "Always allow = “Allow all
 *  edits this session”"; "" when every button says it all. */
export function optionsNote(options: readonly PermissionOption[]): string {
  const notes = options
    .filter((o) => optionLabel(o) !== buttonLabel(o))
    .map((o) => {
      const name = typeof o.name === "string" && o.name.trim() !== "" ? o.name.trim() : o.optionId;
      return `${buttonLabel(o)} = “${oneLine(name, 120)}”`;
    });
  return notes.join("; ");
}

/** What a tool call of each kind does, as a verb phrase for "The agent wants to ...". */
const KIND_VERBS: Readonly<Record<string, string>> = {
  read: "read",
  edit: "edit",
  delete: "delete",
  move: "move",
  search: "search",
  execute: "run",
  think: "think",
  fetch: "fetch",
  switch_mode: "switch mode",
};

/** A short glyph per tool kind for cards; unknown kinds share one generic glyph. Symbols from
 *  the Basic Multilingual Plane only: emoji fonts are missing on many Linux desktops, and a
 *  missing glyph draws as an empty box. */
const KIND_ICONS: Readonly<Record<string, string>> = {
  read: "▤",
  edit: "✎",
  delete: "⌫",
  move: "⇄",
  search: "⌕",
  execute: "▶",
  think: "✱",
  fetch: "⇣",
  switch_mode: "⇆",
};

export function kindIcon(kind: unknown): string {
  return (typeof kind === "string" && KIND_ICONS[kind]) || "⚙";
}

const STATUS_LABELS: Readonly<Record<string, string>> = {
  pending: "pending",
  in_progress: "running",
  completed: "done",
  failed: "failed",
  cancelled: "cancelled",
};

/** A status word; an unknown status is shown as sent (custom statuses are the agent's own). */
export function statusLabel(status: unknown): string {
  if (typeof status !== "string" || status === "") return "pending";
  return STATUS_LABELS[status] ?? status;
}

/** A tool call's title; an empty one (agents send it before they know what to call the call)
 *  gives way to the tool's `name` (schema 1.25), else to what its kind does. */
export function toolTitle(toolCall: ToolCall): string {
  if (typeof toolCall.title === "string" && toolCall.title.trim() !== "") return toolCall.title;
  if (typeof toolCall["name"] === "string" && toolCall["name"].trim() !== "") return toolCall["name"].trim();
  const verb = typeof toolCall.kind === "string" ? KIND_VERBS[toolCall.kind] : undefined;
  return verb !== undefined ? `${verb[0]?.toUpperCase()}${verb.slice(1)}` : "Tool call";
}

export function basename(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

/** "+3 −1" as diff stats read everywhere; a minus sign, not a hyphen, so it is not a range. */
export function countsLabel(added: number, removed: number): string {
  return `+${added} −${removed}`;
}

/** The one-line question of a permission notification, with the counts or the command. An ACP
 *  v2 agent's own words (`title`, `description`) go first, the tool call's title after them
 *  (unless it only repeats the title: the call the server made up for a command). */
export function permissionMessage(params: RequestPermissionParams, agentName = "The agent"): string {
  const tc = params.toolCall;
  const verb = typeof tc.kind === "string" ? KIND_VERBS[tc.kind] : undefined;
  const title = toolTitle(tc);
  let message = verb !== undefined ? `${agentName} wants to ${verb}: ${title}` : `${agentName} asks: ${title}`;
  if (typeof params.title === "string" && params.title.trim() !== "") {
    const words = [params.title, params.description ?? ""].concat(title === params.title ? [] : [title]);
    message = `${agentName} asks: ${words.filter((w) => w.trim() !== "").join(" — ")}`;
  }
  if (typeof params.command === "string" && params.command !== "") {
    message += ` — $ ${oneLine(params.command, 120)}`;
  }
  const diffs = Array.isArray(params.diffs) ? params.diffs : [];
  if (diffs.length > 0) {
    const files = diffs.map((d) => `${basename(d.path)} ${countsLabel(d.added, d.removed)}`);
    message += ` (${files.join(", ")})`;
  }
  return message;
}

/** Collapse whitespace and shorten, for places that show one line. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Lines of a text the way LSP counts them (\n, \r\n, \r); "" is no lines, not one. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Added and removed line counts between two texts (`null` old text: a new file).
 *
 * Common leading and trailing lines are trimmed, then Myers' O(ND) algorithm gives the edit
 * distance D of the middle; with L the longest common subsequence, D = n + m − 2L, so
 * removed = n − L and added = m − L. Past `maxD` edits (huge rewrites) it stops and counts the
 * whole middle as replaced, which is what a reader would call it anyway.
 */
export function diffCounts(oldText: string | null, newText: string, maxD = 2000): { added: number; removed: number } {
  const a = splitLines(oldText ?? "");
  const b = splitLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return { added: m, removed: n };
  const d = editDistance(a.slice(start, endA), b.slice(start, endB), maxD);
  if (d === null) return { added: m, removed: n };
  const common = (n + m - d) / 2;
  return { added: m - common, removed: n - common };
}

function editDistance(a: string[], b: string[], maxD: number): number | null {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, maxD);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return null;
}

/** The `diff` content items of a tool call (ACP `{type: "diff", path, oldText, newText}`). */
export function diffItems(toolCall: ToolCall): { path: string; oldText: string | null; newText: string }[] {
  const content = Array.isArray(toolCall.content) ? toolCall.content : [];
  const found: { path: string; oldText: string | null; newText: string }[] = [];
  for (const item of content) {
    if (typeof item !== "object" || item === null) continue;
    const it = item as Record<string, unknown>;
    if (it["type"] === "diff" && typeof it["path"] === "string" && typeof it["newText"] === "string") {
      found.push({
        path: it["path"],
        oldText: typeof it["oldText"] === "string" ? it["oldText"] : null,
        newText: it["newText"],
      });
    }
  }
  return found;
}

/** What an undo did (`acp/restoreCheckpoint`'s result): how many files came back, and which of
 *  them another session changed too (`shared`: put back all the same, so that session lost those
 *  changes; the user may want to look). */
export function undoneMessage(result: RestoreResult): string {
  const base = `ACP: turn ${result.turn} undone, ${result.restored.length} file(s) restored.`;
  const shared = result.shared ?? [];
  if (shared.length === 0) return base;
  const named = shared.slice(0, 3).map(basename).join(", ");
  const more = shared.length > 3 ? ` and ${shared.length - 3} more` : "";
  return `${base} Another session changed ${shared.length === 1 ? "it" : "these"} too: ${named}${more}.`;
}
