/**
 * What the prompt box sends: the text plus attached files and selections as ACP content blocks,
 * and the slash-command completion offered while typing.
 *
 * Pure, so the rules (what an agent without `embeddedContext` gets, how commands are matched)
 * are unit-tested.
 */

import type { ContentBlock } from "../wire";

export type Attachment =
  | { kind: "file"; uri: string; name: string }
  | {
      kind: "selection";
      uri: string;
      name: string;
      /** 0-based, inclusive: the lines the selection covers. */
      startLine: number;
      endLine: number;
      text: string;
      languageId: string;
    };

export function attachmentLabel(a: Attachment): string {
  return a.kind === "file" ? a.name : `${a.name}:${a.startLine + 1}-${a.endLine + 1}`;
}

/** A fence that the selected text cannot close early: one backtick longer than its longest run. */
function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  return "`".repeat(longest + 1);
}

/**
 * The prompt as ACP content blocks. Files go as `resource_link` (every agent must accept those);
 * a selection goes as an embedded `resource` when the agent announced
 * `promptCapabilities.embeddedContext`, else as a fenced block inside the text, so no agent is
 * sent a block type it refused.
 */
export function buildPrompt(
  text: string,
  attachments: readonly Attachment[],
  embeddedContext: boolean,
): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  let body = text;
  for (const a of attachments) {
    if (a.kind === "file") {
      blocks.push({ type: "resource_link", uri: a.uri, name: a.name });
    } else if (embeddedContext) {
      const uri = `${a.uri}#L${a.startLine + 1}-${a.endLine + 1}`;
      blocks.push({ type: "resource", resource: { uri, text: a.text, mimeType: mimeOf(a.languageId) } });
    } else {
      const f = fence(a.text);
      body += `\n\n${attachmentLabel(a)}:\n${f}${a.languageId}\n${a.text}\n${f}`;
    }
  }
  return [{ type: "text", text: body }, ...blocks];
}

function mimeOf(languageId: string): string {
  return languageId === "" || languageId === "plaintext" ? "text/plain" : `text/x-${languageId}`;
}

/** Whether the agent accepts embedded resources, from its `agentCapabilities`. */
export function acceptsEmbeddedContext(capabilities: Record<string, unknown>): boolean {
  const p = capabilities["promptCapabilities"];
  return typeof p === "object" && p !== null && (p as Record<string, unknown>)["embeddedContext"] === true;
}

export interface CommandItem {
  name: string;
  description: string;
  /** The input hint of commands that take an argument, else "". */
  hint: string;
}

/** The agent's `availableCommands`, keeping only well-formed ones (a bad entry must not hide the rest). */
export function commandItems(available: unknown): CommandItem[] {
  if (!Array.isArray(available)) return [];
  const items: CommandItem[] = [];
  for (const c of available) {
    if (typeof c !== "object" || c === null) continue;
    const r = c as Record<string, unknown>;
    if (typeof r["name"] !== "string" || r["name"] === "") continue;
    const input = r["input"];
    const hint =
      typeof input === "object" && input !== null && typeof (input as Record<string, unknown>)["hint"] === "string"
        ? String((input as Record<string, unknown>)["hint"])
        : "";
    items.push({ name: r["name"], description: typeof r["description"] === "string" ? r["description"] : "", hint });
  }
  return items;
}

/**
 * Commands to offer for what is typed: only while the box holds `/word` (no space yet), names
 * starting with the word first, then names merely containing it.
 */
export function matchCommands(input: string, commands: readonly CommandItem[]): CommandItem[] {
  const m = /^\/(\S*)$/.exec(input);
  if (m === null) return [];
  const word = (m[1] ?? "").toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(word));
  const contains = commands.filter(
    (c) => !c.name.toLowerCase().startsWith(word) && c.name.toLowerCase().includes(word),
  );
  return [...starts, ...contains];
}
