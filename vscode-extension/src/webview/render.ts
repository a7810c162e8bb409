/**
 * The chat view as HTML strings: transcript entries, tool-call cards, the plan, the header.
 *
 * Pure (no DOM) so it is unit-tested under node. Every value that came from the agent goes
 * through `escapeHtml` or the safe Markdown renderer; buttons carry `data-act` and `data-*`
 * arguments that the webview script turns into messages for the host (no inline handlers: the
 * CSP forbids them).
 */

import { basename, countsLabel, diffCounts, kindIcon, oneLine, statusLabel, toolTitle } from "../core/format";
import { stringOf } from "../core/json";
import { escapeHtml as esc, renderInline, renderMarkdown } from "../core/markdown";
import type { AttachmentView } from "../core/prompt";
import { DISCARDED_WORDS, STATUS_WORDS, type SessionTab } from "../core/sessions";
import { DISCARDED_MARK, NEW_SESSION_BUTTON, WORKTREE_MARK } from "../core/worktree";
import { queueEditable } from "../core/queue";
import { authWords } from "../core/signIn";
import {
  canCancelSubagent,
  errorMessage,
  subagentName,
  subagentStatus,
  subagentsOf,
  subagentsUnder,
  turnEnd,
} from "../core/subagents";
import { usageLabel } from "../core/usage";
import type { ContentBlock, Entry, RunState, SessionSnapshot, Subagent, ToolCall } from "../wire";
import type { GroupView, PermissionView, ViewExtras } from "./messages";

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** What an entry is drawn with besides its own session: the sessions of the session's
 *  subagents (their work is drawn under the tool call that started them), and how deep in such
 *  a line the session drawn is (0: the session in front). */
export interface RenderContext {
  child: (sessionId: string) => SessionSnapshot | undefined;
  depth: number;
}
export const NO_CHILDREN: RenderContext = { child: () => undefined, depth: 0 };
/** Subagents of subagents are drawn this deep, then only named. */
const MAX_DEPTH = 3;

function attrs(a: Record<string, string | number | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` data-${k}="${esc(String(v))}"`)
    .join("");
}

function button(label: string, act: string, args: Record<string, string | number | undefined> = {}, cls = ""): string {
  return `<button class="${cls}" data-act="${act}"${attrs(args)}>${esc(label)}</button>`;
}

/** JSON shown as text, shortened: for content nobody defined yet, so nothing is hidden. */
function rawJson(value: unknown, max = 2000): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 1) ?? String(value);
  } catch {
    text = String(value);
  }
  return `<pre class="raw">${esc(text.length > max ? `${text.slice(0, max)}…` : text)}</pre>`;
}

function resourceOf(block: Record<string, unknown>): Record<string, unknown> {
  const r = block["resource"];
  return typeof r === "object" && r !== null ? (r as Record<string, unknown>) : {};
}

/** A content block, or whatever an agent sent in its place (shown as raw JSON). */
export function renderBlock(block: unknown): string {
  if (typeof block !== "object" || block === null) return rawJson(block);
  const b = block as Record<string, unknown>;
  switch (b["type"]) {
    case "text":
      return renderMarkdown(typeof b["text"] === "string" ? b["text"] : "");
    case "image": {
      const mime = stringOf(b["mimeType"]);
      if (IMAGE_TYPES.has(mime) && typeof b["data"] === "string" && /^[A-Za-z0-9+/=\s]*$/.test(b["data"])) {
        return `<img class="image" alt="image" src="data:${mime};base64,${b["data"].replace(/\s/g, "")}">`;
      }
      return `<div class="unknown">[image ${esc(mime)}]</div>`;
    }
    case "resource_link": {
      const uri = stringOf(b["uri"]);
      const name = typeof b["name"] === "string" ? b["name"] : basename(uri);
      return `<div class="resource">↗ <a data-act="open"${attrs({ target: uri })}>${esc(name)}</a></div>`;
    }
    case "resource": {
      const r = resourceOf(b);
      const uri = stringOf(r["uri"]);
      const link = `<a data-act="open"${attrs({ target: uri })}>${esc(basename(uri))}</a>`;
      // A whole file's text would bury the conversation: shown folded, a click away.
      if (typeof r["text"] !== "string") return `<div class="resource">↗ ${link}</div>`;
      return `<details class="resource"><summary>↗ ${link}</summary><pre>${esc(r["text"])}</pre></details>`;
    }
    default:
      return `<div class="unknown">[${esc(String(b["type"]))}]${rawJson(block)}</div>`;
  }
}

/** A prompt as the user sent it: what was typed, then what was attached, each an item of its own
 *  (a file or a page as its link, an attached text, such as a file's problems, folded under its
 *  first line), never run into the text. */
function renderPrompt(blocks: readonly ContentBlock[]): string {
  const first = blocks.findIndex((b) => b.type === "text");
  const typed = first === -1 ? "" : renderBlock(blocks[first]);
  const items = blocks.filter((_, i) => i !== first).map((b) => `<li>${renderAttached(b)}</li>`);
  if (items.length === 0) return typed;
  return `${typed}<div class="attached"><span class="attached-head">Attached:</span><ul>${items.join("")}</ul></div>`;
}

/** One attached block: a text by its first line (its whole text folded under it), else as drawn
 *  anywhere (a link, a file's text folded, an image). */
function renderAttached(block: ContentBlock): string {
  const text = textOf(block);
  if (text === null) return renderBlock(block);
  const lines = text.replace(/\n+$/, "").split("\n");
  const head = (lines.find((l) => l.trim() !== "") ?? "").trim();
  const label = head.length > 60 ? `${head.slice(0, 59).trimEnd()}…` : head;
  const count = `${lines.length} line${lines.length === 1 ? "" : "s"}`;
  return `<details class="resource attached-text"><summary>§ ${esc(label)} <span class="counts">(${count})</span></summary><pre>${esc(text)}</pre></details>`;
}

/** What a prompt waiting its turn offers: to change or remove it while the sidecar holds it (a
 *  v1 agent), only a word when the agent holds it itself (v2); and what a dropped one says. */
function waitingLine(entry: Extract<Entry, { kind: "message" }>, index: number, editable: boolean): string {
  if (entry.queued) {
    if (!editable) {
      return `<div class="turn queued">◷ Queued by the agent: it takes it up when it is done with the work before it (the agent holds it, so it cannot be changed or removed here).</div>`;
    }
    return (
      `<div class="turn queued">◷ Waiting: it goes when the turn before it ends. ` +
      `${button("Edit", "editQueued", { index })}${button("Remove", "withdrawQueued", { index }, "reject")}</div>`
    );
  }
  if (entry.dropped) {
    const why = editable
      ? "removed, or dropped with a cancel, before its turn"
      : "the agent's work was cancelled before it took it up";
    return `<div class="turn dropped">✕ Not sent: ${why}.</div>`;
  }
  return "";
}

/** How a message between sessions names a session of it: a subagent of this session by its
 *  title, this session's parent as such. */
function sessionWho(id: unknown, snapshot: SessionSnapshot): string {
  if (typeof id !== "string") return "another session";
  const sub = subagentsOf(snapshot).find((r) => r.sessionId === id);
  if (sub !== undefined)
    return subagentName(sub.title)
      .replace(/^Subagent/, "subagent")
      .replace(/^A /, "a ");
  if (id === snapshot.parentSessionId) return "the session that started it";
  return `session ${id}`;
}

/** A message between this session and a subagent's (ACP `session_message`): which way it went
 *  and to or from whom. */
function sessionMessageHead(entry: Extract<Entry, { kind: "message" }>, snapshot: SessionSnapshot): string {
  const from = entry.senderSessionId;
  const to = entry.recipientSessionId;
  if (from === snapshot.sessionId) return `→ To ${sessionWho(to, snapshot)}`;
  if (to === snapshot.sessionId) return `← From ${sessionWho(from, snapshot)}`;
  if (from === undefined && to === undefined) return "⇄ A message between sessions";
  return `⇄ From ${sessionWho(from, snapshot)} to ${sessionWho(to, snapshot)}`;
}

const COMPACTION_WORDS: Readonly<Record<string, string>> = {
  in_progress: "Compacting the conversation…",
  completed: "Conversation compacted",
  failed: "Compaction failed",
  cancelled: "Compaction cancelled",
};

/** A context compaction (ACP `compaction_update`): its status, its summary folded. */
function renderCompaction(entry: Extract<Entry, { kind: "message" }>, body: string, key: string): string {
  const status = typeof entry.status === "string" && entry.status !== "" ? entry.status : "in_progress";
  const why = status === "failed" ? errorMessage(entry.error) : null;
  const words = `${COMPACTION_WORDS[status] ?? `Compaction: ${status.replace(/_/g, " ")}`}${why === null ? "" : `: ${why}`}`;
  const summary =
    body === ""
      ? ""
      : `<details class="compaction-summary" data-key="${esc(key)}"><summary>Summary</summary>${body}</details>`;
  return `<div class="compaction st-${esc(status)}" role="${status === "failed" ? "alert" : "note"}"><div class="compaction-head">⇲ ${esc(words)}</div>${summary}</div>`;
}

function renderMessage(
  entry: Extract<Entry, { kind: "message" }>,
  index: number,
  editable: boolean,
  snapshot: SessionSnapshot,
  depth = 0,
): string {
  const blocks = Array.isArray(entry.content) ? entry.content : [];
  // A file the user attached goes as a link and, for agents that take it, its text too: one line.
  const embedded = new Set(blocks.flatMap((b) => (b.type === "resource" ? [stringOf(resourceOf(b)["uri"])] : [])));
  const shown = blocks.filter((b) => !(b.type === "resource_link" && embedded.has(stringOf(b["uri"]))));
  const body = entry.role === "user" ? renderPrompt(shown) : shown.map(renderBlock).join("");
  const key = `${snapshot.sessionId}:${index}`;
  if (entry.role === "thought") {
    return `<details class="thought" data-key="${esc(key)}"><summary>✱ Thinking</summary>${body}</details>`;
  }
  if (entry.role === "compaction") return renderCompaction(entry, body, key);
  if (entry.role === "session") {
    return `<div class="msg session"><div class="session-head">${esc(sessionMessageHead(entry, snapshot))}</div>${body}</div>`;
  }
  const role = entry.role === "user" ? "user" : entry.role === "agent" ? "agent" : "other";
  // An earlier prompt can come back into the prompt box, to be changed and sent again; the
  // workspace was checkpointed before it: offer to go back to it.
  const actions =
    entry.role === "user" && !entry.queued && depth === 0
      ? [
          button("Edit and resend", "editResend", { index }),
          typeof entry.turn === "number" ? button("Restore to before this turn", "restore", { turn: entry.turn }) : "",
        ].join("")
      : "";
  const waiting = entry.role === "user" ? waitingLine(entry, index, editable) : "";
  const state = entry.queued ? " queued" : entry.dropped ? " dropped" : "";
  return `<div class="msg ${role}${state}">${body}${waiting}${actions ? `<div class="turn">${actions}</div>` : ""}</div>`;
}

function locationLinks(tc: ToolCall): string {
  const locs = Array.isArray(tc.locations) ? tc.locations : [];
  const links = locs.flatMap((l) => {
    if (typeof l !== "object" || l === null || typeof (l as Record<string, unknown>)["path"] !== "string") return [];
    const path = String((l as Record<string, unknown>)["path"]);
    const line = (l as Record<string, unknown>)["line"];
    const n = typeof line === "number" ? line : undefined;
    const label = n !== undefined ? `${basename(path)}:${n}` : basename(path);
    return [`<a class="loc" data-act="open"${attrs({ target: path, line: n })} title="${esc(path)}">${esc(label)}</a>`];
  });
  return links.length ? `<div class="locs">${links.join(" ")}</div>` : "";
}

/** A tool's text output: Markdown when it is written as such (fenced code, as Claude's tools
 *  send it), else exactly as written, indentation kept (a command's output, a file's lines). */
export function renderToolText(text: string): string {
  if (/^\s*(```|~~~)/m.test(text)) return renderMarkdown(text);
  return `<pre class="output">${esc(text.replace(/\n+$/, ""))}</pre>`;
}

function textOf(block: unknown): string | null {
  if (typeof block !== "object" || block === null) return null;
  const b = block as Record<string, unknown>;
  return b["type"] === "text" && typeof b["text"] === "string" ? b["text"] : null;
}

function renderToolContent(tc: ToolCall, extras: ViewExtras): string {
  const items = Array.isArray(tc.content) ? tc.content : [];
  // Agents that report a command's terminal often repeat its output as text at the end: shown
  // once, in the terminal.
  const shown = items.flatMap((item) => {
    const it = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    return it["type"] === "terminal" ? [extras.terminals[stringOf(it["terminalId"])]?.output ?? ""] : [];
  });
  const repeated = (text: string): boolean => text.trim() !== "" && shown.some((out) => out.includes(text.trim()));
  return items
    .map((item) => {
      if (typeof item !== "object" || item === null) return rawJson(item);
      const it = item as Record<string, unknown>;
      if (it["type"] === "content") {
        const text = textOf(it["content"]);
        if (text === null) return renderBlock(it["content"]);
        return repeated(text) ? "" : renderToolText(text);
      }
      if (it["type"] === "diff") {
        const path = stringOf(it["path"]);
        const d = (extras.diffs[tc.toolCallId] ?? []).find((x) => x.path === path);
        // Without an acp/diff (an editor that connected late), count from the item itself.
        const c = d ?? diffCounts(typeof it["oldText"] === "string" ? it["oldText"] : null, stringOf(it["newText"]));
        const counts = ` <span class="counts">${esc(countsLabel(c.added, c.removed))}</span>`;
        return `<div class="diff">✎ ${esc(basename(path))}${counts} ${button("Show diff", "showDiff", { tool: tc.toolCallId, uri: d?.uri })}</div>`;
      }
      if (it["type"] === "terminal") {
        const id = stringOf(it["terminalId"]);
        const t = extras.terminals[id];
        const exit = t?.exitStatus
          ? `<div class="exit">exit ${esc(String(t.exitStatus.exitCode ?? t.exitStatus.signal))}</div>`
          : "";
        return `<div class="terminal"><pre>${esc(t?.output ?? "")}</pre>${exit}${button("Open terminal", "showTerminal", { terminal: id })}</div>`;
      }
      return `<div class="unknown">[${esc(String(it["type"]))}]${rawJson(item)}</div>`;
    })
    .join("");
}

const NOTICE_MARKS: Readonly<Record<string, string>> = { info: "ℹ", warning: "⚠", error: "✖" };

/** A notice for the user (ACP `notice`): at its severity, its title and description. */
export function renderNotice(entry: Extract<Entry, { kind: "notice" }>): string {
  const severity = typeof entry.severity === "string" && entry.severity in NOTICE_MARKS ? entry.severity : "info";
  const title = typeof entry.title === "string" ? entry.title : "";
  const description =
    typeof entry.description === "string" && entry.description.trim() !== ""
      ? `<div class="notice-desc">${renderMarkdown(entry.description)}</div>`
      : "";
  const role = severity === "error" ? "alert" : "note";
  return (
    `<div class="notice sev-${severity}" role="${role}"><div class="notice-title">` +
    `<span class="notice-mark" aria-hidden="true">${NOTICE_MARKS[severity]}</span> ${renderInline(title)}</div>${description}</div>`
  );
}

/** A subagent under the tool call that started it: its title, what it is doing (running, idle
 *  and why, failed and why, waiting for you), Cancel when it can be stopped alone, and its own
 *  work (its session's transcript, from its mirror), with its questions. */
export function renderSubagent(sub: Subagent, extras: ViewExtras, ctx: RenderContext): string {
  const id = sub.sessionId;
  const child = ctx.child(id);
  const waiting = extras.permissions.some((p) => p.sessionId === id);
  const { status, words } = subagentStatus(sub, child?.runState, waiting);
  const title = typeof sub.title === "string" && sub.title.trim() !== "" ? sub.title.trim() : "Subagent";
  const cancel = canCancelSubagent(sub, status)
    ? button("Cancel", "cancelSubagent", { session: id }, "reject sub-cancel")
    : "";
  const description =
    typeof sub.description === "string" && sub.description.trim() !== ""
      ? `<div class="sub-desc">${renderInline(sub.description)}</div>`
      : "";
  const deeper: RenderContext = { child: ctx.child, depth: ctx.depth + 1 };
  const entries = child !== undefined && ctx.depth < MAX_DEPTH ? child.entries : [];
  const shown = new Set(entries.flatMap((e) => (e.kind === "toolCall" ? [e.toolCallId] : [])));
  // Its questions about a tool call its transcript does not show (yet) are drawn on their own.
  const asks = extras.permissions
    .filter((p) => p.sessionId === id && !shown.has(p.toolCallId))
    .map(renderPermission)
    .join("");
  const work = entries.map(
    (e, i) => `<div class="sub-entry">${renderEntry(e, child as SessionSnapshot, extras, i, deeper)}</div>`,
  );
  const calls = shown.size;
  const summary = `Its work${calls > 0 ? ` (${calls} tool call${calls === 1 ? "" : "s"})` : ""}`;
  const body =
    work.length > 0
      ? `<details class="sub-work" data-key="sub:${esc(id)}" open><summary>${esc(summary)}</summary>${work.join("")}</details>`
      : "";
  return (
    `<div class="subagent st-${status}"${attrs({ subagent: id })}><div class="sub-head">` +
    `<span class="sub-mark" aria-hidden="true">↳</span> <span class="sub-kind">Subagent</span> ` +
    `<span class="sub-title">${esc(title)}</span> <span class="sub-state">${esc(words)}</span>${cancel}</div>` +
    `${description}${asks}${body}</div>`
  );
}

export function renderPermission(p: PermissionView): string {
  const opts = p.options
    .map((o) =>
      button(
        o.label,
        "permission",
        { id: p.id, option: o.optionId },
        o.kind.startsWith("allow") ? "allow" : o.kind.startsWith("reject") ? "reject" : "",
      ),
    )
    .join("");
  const command = p.command ? `<pre class="command">$ ${esc(p.command)}</pre>` : "";
  const diffs = p.diffs
    .map((d) =>
      button(`Show diff ${basename(d.path)} ${countsLabel(d.added, d.removed)}`, "showDiff", {
        tool: p.toolCallId,
        uri: d.uri,
      }),
    )
    .join("");
  return `<div class="permission"><div class="question">⚠ ${esc(p.message)}</div>${command}<div class="actions">${opts}${diffs}</div></div>`;
}

/** A bulk change: its title, and while pending its own Accept / Reject / Show files. */
export function renderGroup(g: GroupView): string {
  const message = g.message ? ` <span class="note">${esc(g.message)}</span>` : "";
  if (g.state !== "pending") return `<div class="review group">▦ ${esc(g.title)}: ${esc(g.state)}${message}</div>`;
  return (
    `<div class="review group">▦ ${esc(g.title)}${message} ` +
    `${button("Accept", "group", { action: "accept", group: g.groupId }, "allow")}` +
    `${button("Reject", "group", { action: "reject", group: g.groupId }, "reject")}` +
    `${button("Show files", "group", { action: "files", group: g.groupId })}</div>`
  );
}

/** A tool call's card; `sessionId`: the session it is of (its questions are that session's),
 *  `below`: what is drawn under it in the card (the subagents it started). */
export function renderToolCard(tc: ToolCall, extras: ViewExtras, sessionId?: string, below = ""): string {
  const status = statusLabel(tc.status);
  const review = extras.review[tc.toolCallId];
  const groups = extras.groups.filter((g) => g.toolCallId === tc.toolCallId);
  // The card's buttons decide by tool call, which takes its pending bulk changes too: said so.
  const alsoGroups = groups.some((g) => g.state === "pending") ? ", with the bulk change below" : "";
  const reviewHtml =
    review && review.pending > 0
      ? `<div class="review">${review.pending} change${review.pending === 1 ? "" : "s"} to review${alsoGroups} ` +
        `${button("Accept", "review", { decision: "accept", tool: tc.toolCallId }, "allow")}` +
        `${button("Reject", "review", { decision: "reject", tool: tc.toolCallId }, "reject")}</div>`
      : review && review.rejected > 0
        ? `<div class="review">${review.rejected} rejected</div>`
        : "";
  const perms = extras.permissions
    .filter(
      (p) =>
        p.toolCallId === tc.toolCallId &&
        (sessionId === undefined || p.sessionId === undefined || p.sessionId === sessionId),
    )
    .map(renderPermission)
    .join("");
  return (
    `<div class="tool status-${esc(String(tc.status ?? "pending"))}">` +
    `<div class="tool-head"><span class="icon">${kindIcon(tc.kind)}</span> <span class="title">${renderInline(toolTitle(tc))}</span>` +
    ` <span class="badge">${esc(status)}</span></div>` +
    locationLinks(tc) +
    renderToolContent(tc, extras) +
    reviewHtml +
    groups.map(renderGroup).join("") +
    perms +
    below +
    `</div>`
  );
}

/** One transcript entry; `index` is its place in the session's entries (what the buttons of a
 *  user message name). */
export function renderEntry(
  entry: Entry,
  snapshot: SessionSnapshot,
  extras: ViewExtras,
  index = -1,
  ctx: RenderContext = NO_CHILDREN,
): string {
  switch (entry.kind) {
    case "message":
      return renderMessage(entry, index, queueEditable(snapshot), snapshot, ctx.depth);
    case "notice":
      return renderNotice(entry);
    case "toolCall": {
      const tc = snapshot.toolCalls[entry.toolCallId] ?? { toolCallId: entry.toolCallId };
      const subagents = subagentsUnder(snapshot, entry.toolCallId)
        .map((sub) => renderSubagent(sub, extras, ctx))
        .join("");
      return renderToolCard(tc, extras, snapshot.sessionId, subagents);
    }
    default: {
      const update = (entry as { update?: unknown }).update;
      const name =
        typeof update === "object" && update !== null
          ? stringOf((update as Record<string, unknown>)["sessionUpdate"], "update")
          : "update";
      return `<details class="unknown"><summary>${esc(name)}</summary>${rawJson(update)}</details>`;
    }
  }
}

const PLAN_MARKS: Readonly<Record<string, string>> = { pending: "○", in_progress: "◐", completed: "●" };

function planItems(entries: unknown[]): string {
  const items = entries.map((e) => {
    const r = (typeof e === "object" && e !== null ? e : {}) as Record<string, unknown>;
    const status = stringOf(r["status"], "pending");
    return `<li class="plan-${esc(status)}"><span class="mark">${PLAN_MARKS[status] ?? "?"}</span> ${esc(stringOf(r["content"]))}</li>`;
  });
  return `<ul>${items.join("")}</ul>`;
}

/** The old whole plan (ACP `plan`: its entries). */
export function renderPlan(plan: unknown): string {
  const entries =
    typeof plan === "object" && plan !== null && Array.isArray((plan as Record<string, unknown>)["entries"])
      ? ((plan as Record<string, unknown>)["entries"] as unknown[])
      : [];
  if (entries.length === 0) return "";
  return `<details class="plan" data-key="plan" open><summary>Plan</summary>${planItems(entries)}</details>`;
}

/** One plan by id: its steps, a Markdown plan drawn as Markdown, a plan in a file as a link to
 *  it (v2 sends no `type`: told by its fields). "" for one with nothing to show. */
export function renderOnePlan(plan: unknown): string {
  if (typeof plan !== "object" || plan === null) return "";
  const p = plan as Record<string, unknown>;
  const type =
    typeof p["type"] === "string"
      ? p["type"]
      : Array.isArray(p["entries"])
        ? "items"
        : typeof p["content"] === "string"
          ? "markdown"
          : typeof p["uri"] === "string"
            ? "file"
            : "";
  const id = attrs({ plan: stringOf(p["planId"]) });
  if (type === "items" && Array.isArray(p["entries"]))
    return p["entries"].length === 0 ? "" : `<div class="plan-items"${id}>${planItems(p["entries"])}</div>`;
  if (type === "markdown" && typeof p["content"] === "string")
    return p["content"].trim() === "" ? "" : `<div class="plan-markdown"${id}>${renderMarkdown(p["content"])}</div>`;
  if (type === "file" && typeof p["uri"] === "string") {
    const uri = p["uri"];
    return `<div class="plan-file"${id}>▤ The plan is in <a data-act="open"${attrs({ target: uri })} title="${esc(uri)}">${esc(basename(uri))}</a></div>`;
  }
  return `<div class="plan-other"${id}>${rawJson(plan)}</div>`;
}

/** The session's plans: every plan by id (schema 1.25's plan operations: a removed one is gone
 *  from `plans`), else the old whole plan. */
export function renderPlans(snapshot: SessionSnapshot | null): string {
  if (snapshot === null) return "";
  const plans = snapshot.plans;
  if (typeof plans !== "object" || plans === null) return renderPlan(snapshot.plan);
  const parts = Object.values(plans)
    .map(renderOnePlan)
    .filter((h) => h !== "");
  if (parts.length === 0) return "";
  const head = parts.length > 1 ? `Plans (${parts.length})` : "Plan";
  return `<details class="plan" data-key="plan" open><summary>${head}</summary>${parts.join("")}</details>`;
}

/** The end of the last turn under the transcript: its stop reason, the error of an "error" stop,
 *  and a v1 turn's tokens; "" while a turn runs. */
export function renderTurnEnd(runState: RunState | null, busy: boolean): string {
  if (busy) return "";
  const end = turnEnd(runState);
  if (end === null) return "";
  return `<div class="turn-end ${end.kind}" role="status">${esc(end.text)}</div>`;
}

/** The mode and config-option pickers (only select and boolean options are interactive). */
export function renderPickers(snapshot: SessionSnapshot | null): string {
  if (snapshot === null) return "";
  const parts: string[] = [];
  const modes = snapshot.modes;
  if (modes && Array.isArray(modes.availableModes) && modes.availableModes.length > 0) {
    const opts = modes.availableModes.map((m) => {
      const r = (m ?? {}) as Record<string, unknown>;
      const id = stringOf(r["id"]);
      return `<option value="${esc(id)}"${id === modes.currentModeId ? " selected" : ""}>${esc(stringOf(r["name"], id))}</option>`;
    });
    parts.push(`<label>Mode <select data-act="setMode">${opts.join("")}</select></label>`);
  }
  for (const o of Array.isArray(snapshot.configOptions) ? snapshot.configOptions : []) {
    const r = (o ?? {}) as Record<string, unknown>;
    const id = stringOf(r["id"]);
    const name = esc(stringOf(r["name"], id));
    if (r["type"] === "select" && Array.isArray(r["options"])) {
      const opts = (r["options"] as unknown[]).map((v) => {
        const x = (v ?? {}) as Record<string, unknown>;
        const value = stringOf(x["value"]);
        return `<option value="${esc(value)}"${value === r["currentValue"] ? " selected" : ""}>${esc(stringOf(x["name"], value))}</option>`;
      });
      parts.push(
        `<label>${name} <select data-act="setConfig"${attrs({ config: id })}>${opts.join("")}</select></label>`,
      );
    } else if (r["type"] === "boolean") {
      // A toggle (a checkbox drawn as a switch): a click sets it to true or false.
      const on = r["currentValue"] === true;
      const hover = stringOf(r["description"]);
      parts.push(
        `<label class="toggle"${hover ? ` title="${esc(hover)}"` : ""}><input type="checkbox" role="switch" aria-checked="${on ? "true" : "false"}" data-act="setConfig"${attrs({ config: id })}${on ? " checked" : ""}>` +
          `<span class="switch" aria-hidden="true"></span> ${name}</label>`,
      );
    }
  }
  return parts.join(" ");
}

export function renderStatus(extras: ViewExtras, runState: RunState | null = null): string {
  const a = extras.agent;
  const name = a?.agentInfo?.title ?? a?.agentInfo?.name ?? (a ? oneLine(a.command.join(" "), 40) : "agent");
  const state = a?.state ?? "not started";
  // One state after the name: a ready agent's is what its session does (v2 agents say what their
  // work is blocked on: a question only the user can answer); any other agent's is its own
  // (starting, failed, exited: a turn cannot run then).
  const doing =
    state === "starting" || state === "failed" || state === "exited"
      ? null
      : runState?.state === "requires_action"
        ? "waiting for you…"
        : extras.busy || runState?.state === "running"
          ? "working…"
          : null;
  const word = doing === null ? `<span class="state">${esc(state)}</span>` : `<span class="busy">${esc(doing)}</span>`;
  const problem =
    a && (a.state === "failed" || a.state === "exited") && a.message
      ? `<div class="problem">${esc(a.message)}${a.stderrTail ? `<pre>${esc(a.stderrTail)}</pre>` : ""}</div>`
      : "";
  const sidecar = extras.problem ? `<div class="problem">${esc(extras.problem)}</div>` : "";
  // The agent's own word on its sign-in: "Not logged in" with Sign In…, or whose account.
  const words = authWords(a?.auth);
  const auth =
    words === null
      ? ""
      : ` <span class="auth${words.needsSignIn ? " signed-out" : ""}">${esc(words.text)}</span>` +
        (words.needsSignIn
          ? ` <button class="allow" data-act="signIn" title="Sign in to the agent">Sign In…</button>`
          : "");
  return `<span class="agent state-${esc(state)}">${esc(name)}: ${word}</span>${auth}${problem}${sidecar}`;
}

/** The strip of live sessions above the chat, drawn while more than one is open: each a button
 *  with its title, its agent and what it is doing; a click brings it to the front. */
export function renderSessions(tabs: readonly SessionTab[]): string {
  if (tabs.length < 2 && !tabs.some((t) => (t.children ?? []).length > 0)) return "";
  return tabs
    .map((t) => {
      const word = STATUS_WORDS[t.status];
      const agent = t.agent === "" ? t.agentName : t.agent;
      const own =
        t.worktree !== null
          ? `, in its own worktree (${t.worktree})`
          : t.discarded
            ? `, its worktree discarded: it takes no more prompts`
            : "";
      const hover = `${t.title} — ${t.agentName}, ${word}${own}${t.current ? " (in front)" : ""}`;
      const kind = t.worktree !== null ? " worktree" : t.discarded ? " discarded" : "";
      const cls = `session st-${t.status}${t.current ? " current" : ""}${kind}`;
      const mark =
        t.worktree !== null
          ? `<span class="wt" aria-label="own worktree">${WORKTREE_MARK}</span>`
          : t.discarded
            ? `<span class="wt gone" aria-label="${DISCARDED_WORDS}">${DISCARDED_MARK}</span>`
            : "";
      const meta = t.discarded ? `${agent} · ${DISCARDED_WORDS}` : `${agent} · ${word}`;
      return (
        `<button class="${cls}" data-act="selectSession"${attrs({ session: t.sessionId })} title="${esc(hover)}" ` +
        `aria-pressed="${t.current ? "true" : "false"}"><span class="dot" aria-hidden="true">●</span>${mark}` +
        `<span class="session-title">${esc(t.title)}</span>` +
        `<span class="session-meta">${esc(meta)}</span></button>` +
        renderChildTabs(t)
      );
    })
    .join("");
}

/** A session's subagents at work, under it in the strip: a click brings the session (whose chat
 *  shows them) to the front and the subagent into view. */
function renderChildTabs(t: SessionTab): string {
  return (t.children ?? [])
    .map(
      (c) =>
        `<button class="subsession st-${esc(c.status)}" data-act="selectSession"${attrs({ session: t.sessionId, reveal: c.sessionId })} ` +
        `title="${esc(`Subagent “${c.title}” of “${t.title}” — ${c.words}`)}"><span class="sub-mark" aria-hidden="true">↳</span>` +
        `<span class="session-title">${esc(c.title)}</span><span class="session-meta">subagent · ${esc(c.words)}</span></button>`,
    )
    .join("");
}

/** The bar of a session in a worktree of its own (the one in front): where it works, and its
 *  two actions, "Bring Back Changes" (into the workspace, as its review) and "Discard
 *  Worktree…" (asks first); once discarded, that it takes no more prompts, and "New Session".
 *  "" for any other session. */
export function renderWorktree(tabs: readonly SessionTab[]): string {
  const t = tabs.find((x) => x.current);
  if (t === undefined) return "";
  if (t.discarded) {
    return (
      `<span class="wt-label gone">${DISCARDED_MARK} Worktree discarded: this session takes no more prompts (it stays to read)</span>` +
      `<button data-act="newSession" title="A new session of the default agent">${NEW_SESSION_BUTTON}</button>`
    );
  }
  if (t.worktree === null) return "";
  const ids = attrs({ session: t.sessionId });
  return (
    `<span class="wt-label" title="${esc(t.worktree)}">${WORKTREE_MARK} In its own worktree: your files change only when you bring its changes back</span>` +
    `<button data-act="bringBack"${ids} title="Its changes into your workspace, as review">Bring Back Changes</button>` +
    `<button data-act="discardWorktree"${ids} title="Delete the worktree (asks first)">Discard Worktree…</button>`
  );
}

/** The session's usage for the header: tokens used of the context window and the cost, when
 *  the agent reported them; "" otherwise. */
export function renderUsage(usage: unknown): string {
  const u = usageLabel(usage);
  if (u === null) return "";
  const level = u.percent >= 90 ? " full" : u.percent >= 70 ? " filling" : "";
  return `<span class="usage${level}" title="${esc(u.title)}">${esc(u.text)}</span>`;
}

const CHIP_ICONS: Readonly<Record<AttachmentView["kind"], string>> = {
  file: "@",
  selection: "§",
  problems: "⚠",
  url: "↗",
  image: "▨",
};

/** What the next prompt carries, as chips; each can be removed before sending. */
export function renderChips(attachments: readonly AttachmentView[]): string {
  return attachments
    .map(
      (a, i) =>
        `<span class="chip chip-${esc(a.kind)}" title="${esc(a.title)}"><span class="chip-icon">${CHIP_ICONS[a.kind]}</span>` +
        `<span class="chip-label">${esc(a.label)}</span>` +
        `<button data-act="removeAttachment" data-index="${i}" title="Remove ${esc(a.label)}" aria-label="Remove ${esc(a.label)}">×</button></span>`,
    )
    .join("");
}
