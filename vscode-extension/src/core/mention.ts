/**
 * `@`-mentions in the prompt box: where the one under the caret starts and what it asks for, the
 * list offered for it (a web address, else the files `acp/findFiles` found), and the text once
 * one is chosen.
 *
 * Pure (no DOM), so the webview's keys and the unit tests share it.
 */

import type { FoundFile } from "../wire";
import { webAddress } from "./prompt";

export interface Mention {
  /** Where the `@` is. */
  start: number;
  /** Where the mention ends: the first blank after the caret, or the end of the text. */
  end: number;
  /** What follows the `@` up to the caret. */
  query: string;
}

/**
 * The mention the caret is in: an `@` at the start of the text or after a blank, then no blank up
 * to the caret (so `a@b.com` is no mention, and a blank typed after one ends it).
 */
export function mentionAt(text: string, caret: number): Mention | null {
  const before = text.slice(0, caret);
  const m = /(?:^|\s)@(\S*)$/.exec(before);
  if (m === null) return null;
  const query = m[1] ?? "";
  const start = caret - query.length - 1;
  const rest = /^\S*/.exec(text.slice(caret));
  return { start, end: caret + (rest?.[0].length ?? 0), query };
}

export type MentionItem = { kind: "file"; file: FoundFile } | { kind: "url"; url: string };

/** What the list offers for a mention: its web address when it is one, else the files found. */
export function mentionItems(query: string, files: readonly FoundFile[]): MentionItem[] {
  const url = webAddress(query);
  if (url !== null) return [{ kind: "url", url }];
  return files.map((file) => ({ kind: "file", file }));
}

/** Whether the mention needs files from the sidecar (a web address does not). */
export function needsFiles(query: string): boolean {
  return webAddress(query) === null;
}

/** A file's name and the folder it is in, as the list shows them. */
export function splitPath(path: string): { name: string; dir: string } {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? { name: path, dir: "" } : { name: path.slice(cut + 1), dir: path.slice(0, cut + 1) };
}

/**
 * The text once an item is chosen: the mention becomes `@path` (or `@address`) and a blank, and
 * the caret goes after it, so the sentence still reads as written and typing goes on.
 */
export function applyMention(text: string, mention: Mention, item: MentionItem): { text: string; caret: number } {
  const word = `@${item.kind === "file" ? item.file.path : item.url}`;
  const after = text.slice(mention.end);
  const glue = /^\s/.test(after) ? "" : " ";
  const replaced = text.slice(0, mention.start) + word + glue;
  return { text: replaced + after, caret: replaced.length + (glue === "" ? 1 : 0) };
}
