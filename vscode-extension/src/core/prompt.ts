/**
 * What the prompt box sends: the text plus its attachments (files, selections, a file's problems,
 * web pages, images) as the ACP content blocks the agent advertised, and the slash-command
 * completion offered while typing.
 *
 * Pure, so the rules (what an agent without `embeddedContext` or `image` gets, how commands are
 * matched) are unit-tested.
 */

import type { ContentBlock, EditorDiagnostic } from "../wire";

export type Attachment =
  | {
      kind: "file";
      uri: string;
      /** Relative to its workspace folder (what the chip shows). */
      name: string;
      /** The file's text (the open buffer's, else the disk's), read when the prompt is sent. */
      text?: string;
      languageId?: string;
    }
  | {
      kind: "selection";
      uri: string;
      name: string;
      /** 0-based, inclusive: the lines the selection covers. */
      startLine: number;
      endLine: number;
      text: string;
      languageId: string;
    }
  | {
      kind: "problems";
      uri: string;
      name: string;
      /** How many problems the text lists (for the chip). */
      count: number;
      /** The problems as text (`problemsText`), as they were when attached. */
      text: string;
    }
  | { kind: "url"; url: string }
  | {
      kind: "image";
      name: string;
      mimeType: string;
      /** Base64, as ACP's image block carries it. */
      data: string;
    };

/** What the agent said it takes in a prompt besides text and resource links (every agent takes those). */
export interface PromptCaps {
  embeddedContext: boolean;
  image: boolean;
}

/** `agentCapabilities.promptCapabilities`, read defensively (absent or malformed: nothing more). */
export function promptCaps(capabilities: Record<string, unknown>): PromptCaps {
  const p = capabilities["promptCapabilities"];
  const caps = typeof p === "object" && p !== null ? (p as Record<string, unknown>) : {};
  return { embeddedContext: caps["embeddedContext"] === true, image: caps["image"] === true };
}

/** Whether the agent accepts embedded resources, from its `agentCapabilities`. */
export function acceptsEmbeddedContext(capabilities: Record<string, unknown>): boolean {
  return promptCaps(capabilities).embeddedContext;
}

/** A chip: what it says, its kind (for its icon) and what a hover shows. */
export interface AttachmentView {
  kind: Attachment["kind"];
  label: string;
  title: string;
}

/** The size of base64 data, as a person reads it. */
export function sizeLabel(base64: string): string {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  const bytes = Math.floor((base64.length * 3) / 4) - padding;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A web address without its scheme, shortened in the middle past `max` characters. */
export function shortUrl(url: string, max = 40): string {
  const bare = url.replace(/^https?:\/\//i, "").replace(/\/$/, "");
  return bare.length <= max ? bare : `${bare.slice(0, max - 12)}…${bare.slice(-11)}`;
}

export function attachmentLabel(a: Attachment): string {
  switch (a.kind) {
    case "file":
      return a.name;
    case "selection":
      return `${a.name}:${a.startLine + 1}-${a.endLine + 1}`;
    case "problems":
      return `Problems: ${a.name} (${a.count})`;
    case "url":
      return shortUrl(a.url);
    case "image":
      return `${a.name} (${sizeLabel(a.data)})`;
  }
}

export function attachmentView(a: Attachment): AttachmentView {
  const title =
    a.kind === "url"
      ? a.url
      : a.kind === "image"
        ? `${a.name}, ${a.mimeType}`
        : a.kind === "problems"
          ? `The problems the editor reports in ${a.name}, as text`
          : a.uri;
  return { kind: a.kind, label: attachmentLabel(a), title };
}

/** Whether two attachments are the same thing (attaching it again adds nothing). */
export function sameAttachment(a: Attachment, b: Attachment): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "file":
      return a.uri === (b as typeof a).uri;
    case "url":
      return a.url === (b as typeof a).url;
    case "selection": {
      const s = b as typeof a;
      return a.uri === s.uri && a.startLine === s.startLine && a.endLine === s.endLine && a.text === s.text;
    }
    case "problems":
      return a.uri === (b as typeof a).uri && a.text === (b as typeof a).text;
    case "image":
      return a.data === (b as typeof a).data;
  }
}

/** The image types a prompt takes (those every vision model reads), and at most how big. */
export const IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Whether a URI dropped on the chat names a file of the machine the extension runs on: "file"
 * as it is, "path" as the file at the URI's path, or null. In a remote window (VS Code Remote,
 * Dev Containers, Codespaces, code-server) the workbench names the remote machine's files
 * `vscode-remote://<authority>/<path>`, and this workspace extension runs on that machine, so
 * the path is its own; a `file:` URI there is a file of the machine the window is drawn on.
 */
export function droppedFile(scheme: string, remoteWindow: boolean): "file" | "path" | null {
  if (remoteWindow) return scheme === "vscode-remote" ? "path" : null;
  return scheme === "file" ? "file" : null;
}

/**
 * The URIs of files dropped on the prompt, from a drop's data by type. VS Code's explorer puts
 * every dragged file in `application/vnd.code.uri-list` and only the first in the standard
 * `text/uri-list`, so its own list is read first; a file manager outside VS Code gives the
 * standard one alone. Both are URIs a line each (`#` lines are comments).
 */
export function droppedUris(getData: (type: string) => string): string[] {
  return (getData("application/vnd.code.uri-list") || getData("text/uri-list"))
    .split(/\r?\n/)
    .map((u) => u.trim())
    .filter((u) => u !== "" && !u.startsWith("#"));
}

/** A web address the prompt can attach: http(s) only, parsed as a URL. */
export function webAddress(text: string): string | null {
  const t = text.trim();
  if (!/^https?:\/\/\S+$/i.test(t)) return null;
  try {
    return new URL(t).toString();
  } catch {
    return null;
  }
}

/** A file's problems as the agent reads them: one line each, 1-based lines and columns. */
export function problemsText(name: string, problems: readonly EditorDiagnostic[]): string {
  if (problems.length === 0) return `The editor reports no problems in ${name}.`;
  const lines = problems.map((d) => {
    const where = `${name}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
    const by = [d.source, d.code].filter((x) => x !== undefined && x !== "").join(" ");
    return `- ${where} ${d.severity}: ${d.message.replace(/\s*\n\s*/g, " ")}${by ? ` (${by})` : ""}`;
  });
  return `Problems the editor reports in ${name}:\n${lines.join("\n")}`;
}

/** A fence that the selected text cannot close early: one backtick longer than its longest run. */
function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  return "`".repeat(longest + 1);
}

/**
 * The prompt as ACP content blocks, only of types the agent takes:
 * - a file: a `resource_link` always (every agent must accept those), and its text as an
 *   embedded `resource` too when the agent announced `promptCapabilities.embeddedContext`;
 * - a selection: an embedded `resource` (its lines in the URI's fragment) with
 *   `embeddedContext`, else a `text` block of its own, fenced;
 * - a file's problems: a `text` block of their own;
 * - a web page: a `resource_link` to its address;
 * - an image: an `image` block when the agent announced `promptCapabilities.image`, else nothing
 *   (the prompt box does not take images for such an agent).
 * The first block is what the user typed, alone: what is attached follows in blocks of its own
 * (the sidecar's prompt history keeps the typed text).
 */
export function buildPrompt(text: string, attachments: readonly Attachment[], caps: PromptCaps): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const a of attachments) {
    switch (a.kind) {
      case "file":
        blocks.push({ type: "resource_link", uri: a.uri, name: a.name });
        if (caps.embeddedContext && a.text !== undefined) {
          blocks.push({ type: "resource", resource: { uri: a.uri, text: a.text, mimeType: mimeOf(a.languageId) } });
        }
        break;
      case "selection":
        if (caps.embeddedContext) {
          const uri = `${a.uri}#L${a.startLine + 1}-${a.endLine + 1}`;
          blocks.push({ type: "resource", resource: { uri, text: a.text, mimeType: mimeOf(a.languageId) } });
        } else {
          const f = fence(a.text);
          blocks.push({ type: "text", text: `${attachmentLabel(a)}:\n${f}${a.languageId}\n${a.text}\n${f}` });
        }
        break;
      case "problems":
        blocks.push({ type: "text", text: a.text });
        break;
      case "url":
        blocks.push({ type: "resource_link", uri: a.url, name: a.url });
        break;
      case "image":
        if (caps.image) blocks.push({ type: "image", mimeType: a.mimeType, data: a.data });
        break;
    }
  }
  return [{ type: "text", text }, ...blocks];
}

function mimeOf(languageId: string | undefined): string {
  return languageId === undefined || languageId === "" || languageId === "plaintext"
    ? "text/plain"
    : `text/x-${languageId}`;
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
