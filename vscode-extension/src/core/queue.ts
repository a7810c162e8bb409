/**
 * Prompts again: the prompts waiting their turn (a v1 agent's, queued by the sidecar; a v2
 * agent's, queued by the agent), what a cancel asks when some wait, and an earlier prompt taken
 * apart for "Edit and resend" (its text, and the attachments that are simple to bring back).
 *
 * Pure, so the rules (which prompts can be changed, the choices' words and order, what an
 * earlier prompt's blocks become) are unit-tested.
 */

import { basename } from "./format";
import type { Attachment } from "./prompt";
import type { ContentBlock, Entry, SessionSnapshot } from "../wire";

type Message = Extract<Entry, { kind: "message" }>;

/** A prompt waiting its turn: its entry index (what `acp/editPrompt` names) and what it says. */
export interface WaitingPrompt {
  index: number;
  text: string;
}

/** The first text block of a prompt: what the user typed (what follows it is attached). */
export function typedText(content: readonly ContentBlock[] | undefined): string {
  const first = (content ?? []).find((b) => b.type === "text");
  return first !== undefined && typeof first["text"] === "string" ? first["text"] : "";
}

function isUserMessage(e: Entry | undefined): e is Message {
  return e !== undefined && e.kind === "message" && e.role === "user";
}

/** The session's prompts waiting their turn, oldest first. */
export function waitingPrompts(session: SessionSnapshot | null): WaitingPrompt[] {
  return (session?.entries ?? []).flatMap((e, index) =>
    isUserMessage(e) && e.queued === true ? [{ index, text: typedText(e.content) }] : [],
  );
}

/** Whether the editor can change or withdraw a waiting prompt: only the sidecar's own queue (a
 *  v1 agent's); a v2 agent holds its queue itself. */
export function queueEditable(session: SessionSnapshot | null): boolean {
  return session !== null && session.protocolVersion < 2;
}

/** The prompt blocks a waiting prompt becomes when its text is changed: the first text block
 *  replaced (or put first), everything attached after it kept. */
export function editedPrompt(content: readonly ContentBlock[] | undefined, text: string): ContentBlock[] {
  const blocks = [...(content ?? [])];
  const at = blocks.findIndex((b) => b.type === "text");
  if (at === -1) return [{ type: "text", text }, ...blocks];
  blocks[at] = { ...blocks[at], type: "text", text };
  return blocks;
}

/** The user message at `index`, when it is one. */
export function userMessageAt(session: SessionSnapshot | null, index: number): Message | null {
  const e = session?.entries[index];
  return isUserMessage(e) ? e : null;
}

export interface CancelChoice {
  label: string;
  description: string;
  dropQueued: boolean;
}

/** What a cancel asks when `waiting` prompts wait: keeping them first (the answer that loses
 *  nothing), then dropping them; both name what they act on the same way ("the waiting prompt",
 *  "the 2 waiting prompts"). */
export function cancelChoices(waiting: number): CancelChoice[] {
  const them = waiting === 1 ? "the waiting prompt" : `the ${waiting} waiting prompts`;
  return [
    {
      label: `Keep ${them}`,
      description: waiting === 1 ? "it goes after the cancelled turn" : "they go after the cancelled turn, in order",
      dropQueued: false,
    },
    {
      label: `Drop ${them}`,
      description: waiting === 1 ? "it is not sent" : "none of them is sent",
      dropQueued: true,
    },
  ];
}

/** The order a session's entries are read in, as entry indexes. A prompt sent while a turn ran
 *  keeps its entry index, but the turn's reply came after it: it reads where its wait ended
 *  (`waitedUntil`), so the reply stays under the prompt it answers (a removed one before a prompt
 *  that went at the same place); one still waiting reads last,
 *  under the running turn. Everything else reads in index order. */
export function readingOrder(entries: readonly Entry[]): number[] {
  const place = (e: Entry, i: number): number => {
    if (!isUserMessage(e)) return i;
    if (e.queued === true) return Number.POSITIVE_INFINITY;
    return typeof e.waitedUntil === "number" && e.waitedUntil > i ? e.waitedUntil - 0.5 : i;
  };
  // A removed prompt before one that went at the same place: it would read as that one's reply.
  const removed = (e: Entry): number => (isUserMessage(e) && e.dropped === true ? 0 : 1);
  return entries
    .map((e, i) => ({ i, at: place(e, i), then: removed(e) }))
    .sort((a, b) => a.at - b.at || a.then - b.then || a.i - b.i)
    .map((x) => x.i);
}

export type ResendTarget = "session" | "fork" | "new";

export interface ResendChoice {
  label: string;
  description: string;
  target: ResendTarget;
}

/** Where an edited earlier prompt goes: this session first (the default; nothing is lost), a
 *  fork when the agent can fork sessions, or a new session. ACP cannot cut a session's history at
 *  an earlier prompt: none of these rewrites what came after it. */
export function resendChoices(canFork: boolean): ResendChoice[] {
  return [
    {
      label: "In this session",
      description: "a new turn; the session keeps everything said since",
      target: "session",
    },
    ...(canFork
      ? [
          {
            label: "In a fork of the session",
            description: "a copy of the session as it is now; this one stays as it is",
            target: "fork" as const,
          },
        ]
      : []),
    { label: "In a new session", description: "a fresh start, without the session's context", target: "new" },
  ];
}

/** An earlier prompt taken apart: what was typed, the attachments that come back as chips (files,
 *  selections, web pages, images) and how many blocks do not (other text: a file's problems, a
 *  selection sent as text). */
export interface ResendParts {
  text: string;
  attachments: Attachment[];
  leftOut: number;
}

function languageOf(mimeType: unknown): string {
  return typeof mimeType === "string" && mimeType.startsWith("text/x-") ? mimeType.slice("text/x-".length) : "";
}

export function resendParts(content: readonly ContentBlock[] | undefined): ResendParts {
  const blocks = content ?? [];
  const first = blocks.findIndex((b) => b.type === "text");
  const attachments: Attachment[] = [];
  let leftOut = 0;
  const files = new Map<string, Extract<Attachment, { kind: "file" }>>();
  blocks.forEach((b, i) => {
    if (i === first) return;
    const uri = typeof b["uri"] === "string" ? b["uri"] : "";
    if (b.type === "resource_link" && /^https?:/i.test(uri)) {
      attachments.push({ kind: "url", url: uri });
    } else if (b.type === "resource_link" && uri.startsWith("file:")) {
      const name = typeof b["name"] === "string" && b["name"] !== "" ? b["name"] : basename(uri);
      const file = { kind: "file" as const, uri, name };
      files.set(uri, file);
      attachments.push(file);
    } else if (b.type === "resource") {
      const r = (typeof b["resource"] === "object" && b["resource"] !== null ? b["resource"] : {}) as Record<
        string,
        unknown
      >;
      const rUri = typeof r["uri"] === "string" ? r["uri"] : "";
      const lines = /^(file:[^#]*)#L(\d+)-(\d+)$/.exec(rUri);
      if (lines !== null && typeof r["text"] === "string") {
        const [, file = "", start = "1", end = "1"] = lines;
        attachments.push({
          kind: "selection",
          uri: file,
          name: basename(file),
          startLine: Number(start) - 1,
          endLine: Number(end) - 1,
          text: r["text"],
          languageId: languageOf(r["mimeType"]),
        });
      } else if (files.has(rUri)) {
        // A file's text sent along with its link: the link brings it back (read again when sent).
      } else if (rUri.startsWith("file:")) {
        attachments.push({ kind: "file", uri: rUri, name: basename(rUri) });
      } else leftOut += 1;
    } else if (b.type === "image" && typeof b["data"] === "string" && typeof b["mimeType"] === "string") {
      attachments.push({ kind: "image", name: "image", mimeType: b["mimeType"], data: b["data"] });
    } else leftOut += 1;
  });
  return { text: first === -1 ? "" : typedText([blocks[first] as ContentBlock]), attachments, leftOut };
}
