/**
 * The chat webview's script: keeps its own mirror of the current session (the shared reducer),
 * redraws only the entries a change touched, and turns clicks and keys into messages for the host.
 *
 * Several sessions live at once: the strip above the chat lists them, a click on one asks the
 * host to bring it to the front (which answers with that session's snapshot from its own
 * mirror). What the user left in the session that goes (the prompt being written, the scroll
 * position) is kept and comes back with it.
 */

import { MirrorError, applyChanges } from "../core/reducer";
import { readingOrder } from "../core/queue";
import { SessionMemory } from "../core/sessionMemory";
import type { Entry, SessionSnapshot } from "../wire";
import type { HostMessage, ViewExtras, ViewMessage } from "./messages";
import { PromptBox, type PromptDraft } from "./promptBox";
import { unplacedSubagents } from "../core/subagents";
import {
  renderChips,
  renderEntry,
  renderGroup,
  renderPermission,
  renderPickers,
  renderPlans,
  renderSessions,
  renderStatus,
  renderSubagent,
  renderTurnEnd,
  renderUsage,
  renderWorktree,
  type RenderContext,
} from "./render";

declare function acquireVsCodeApi(): { postMessage(message: ViewMessage): void };
const vscode = acquireVsCodeApi();
const post = (m: ViewMessage): void => vscode.postMessage(m);

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const transcript = $<HTMLDivElement>("transcript");
/** Whether the transcript follows its newest message. Kept from the user's own scrolling, not
 *  measured at each redraw: the plan, attachments and questions around the transcript change its
 *  height, and a redraw after such a change would find it "not at the bottom" and stop following. */
let stick = true;
const NEAR_BOTTOM = 40;
const toBottom = (): void => {
  transcript.scrollTop = transcript.scrollHeight;
};
transcript.addEventListener("scroll", () => {
  stick = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < NEAR_BOTTOM;
});
new ResizeObserver(() => {
  if (stick) toBottom();
}).observe(transcript);

/** What each session not in front had on screen: its prompt draft, its scroll position. */
const memory = new SessionMemory<{ draft: PromptDraft; scrollTop: number; stick: boolean }>();
/** A scroll position to put back once the session that came to the front is drawn. */
let scrollBack: number | null = null;
/** A session of the strip clicked, and when: the time to its drawing is written in #switched. */
let switching: { sessionId: string; at: number } | null = null;

let session: SessionSnapshot | null = null;
/** The sessions of the front session's subagents (theirs too): drawn under their tool calls. */
let children = new Map<string, SessionSnapshot>();
const context = (): RenderContext => ({ child: (id) => children.get(id), depth: 0 });
/** A subagent to bring into view once drawn (a click on it in the session strip). */
let reveal: string | null = null;
let extras: ViewExtras | null = null;
/** The HTML last drawn per entry: an entry is redrawn only when its HTML changed. */
let drawn: string[] = [];
let frame = 0;
const prompt = new PromptBox({
  input: $<HTMLTextAreaElement>("input"),
  list: $("completions"),
  hint: $("hint"),
  mode: $("mode"),
  post,
  session: () => session,
  extras: () => extras,
  sent: () => {
    stick = true; // the user's own message, and the answer to it, are what they look at now
  },
});

/** Replace an element's HTML only when it changed: buttons redrawn for nothing between a press
 *  and its release would lose the click. */
const shownHtml = new Map<string, string>();
function setHtml(id: string, html: string): void {
  if (shownHtml.get(id) === html) return;
  replaceKeeping($(id), html);
  shownHtml.set(id, html);
}

/** Replace an element's HTML, keeping each folded part (`details[data-key]`: a thought, a
 *  subagent's work, a compaction's summary, the plan) open or closed as it was: the user's
 *  choice, not the default drawn, survives each redraw. */
function replaceKeeping(node: HTMLElement, html: string): void {
  const open = new Map<string, boolean>();
  node
    .querySelectorAll<HTMLDetailsElement>("details[data-key]")
    .forEach((d) => open.set(d.dataset["key"] ?? "", d.open));
  node.innerHTML = html;
  node.querySelectorAll<HTMLDetailsElement>("details[data-key]").forEach((d) => {
    const was = open.get(d.dataset["key"] ?? "");
    if (was !== undefined) d.open = was;
  });
}

function schedule(): void {
  if (frame === 0) frame = requestAnimationFrame(draw);
}

function draw(): void {
  frame = 0;
  if (extras === null) return;
  setHtml("sessions", renderSessions(extras.sessions));
  setHtml("worktree", renderWorktree(extras.sessions));
  $("status").innerHTML = renderStatus(extras, session?.runState ?? null);
  // Drawn again each time, so that a choice the agent refused shows its value again.
  $("pickers").innerHTML = renderPickers(session);
  setHtml("plan", renderPlans(session));
  $("follow").textContent = extras.follow ? "◉ Following" : "○ Follow off";
  $("cancel").toggleAttribute("disabled", !extras.busy);
  $("load").toggleAttribute("hidden", !extras.canLoadSessions);
  $("usage").innerHTML = renderUsage(session?.usage ?? null);
  $("attachments").innerHTML = renderChips(extras.attachments);
  const view = extras; // not null (checked above), for the closures below
  const entries = session?.entries ?? [];
  const known = new Set(entries.flatMap((e) => (e.kind === "toolCall" ? [e.toolCallId] : [])));
  const front = session?.sessionId;
  // The subagents drawn in the transcript (under their tool calls) or after it: their questions
  // are drawn with them.
  const loose = unplacedSubagents(session);
  const drawnSubagents = new Set([
    ...(session?.subagents ? Object.keys(session.subagents) : []),
    ...[...children.values()].flatMap((c) => Object.keys(c.subagents ?? {})),
  ]);
  // Questions about tool calls with no card (an agent asked before announcing one) still show,
  // and so do a subagent's its parent has not described yet, and pending bulk changes of no
  // tool call (found at the turn's end) or of one not shown.
  setHtml(
    "orphans",
    loose.map((sub) => renderSubagent(sub, view, context())).join("") +
      extras.permissions
        .filter((p) =>
          p.sessionId === undefined || p.sessionId === front
            ? !known.has(p.toolCallId)
            : !drawnSubagents.has(p.sessionId),
        )
        .map(renderPermission)
        .join("") +
      extras.groups
        .filter((g) => g.state === "pending" && (g.toolCallId === null || !known.has(g.toolCallId)))
        .map(renderGroup)
        .join(""),
  );
  if (drawn.length > entries.length) {
    transcript.innerHTML = "";
    drawn = [];
  }
  const ctx = context();
  // In reading order: a prompt that waited reads after the reply it waited for (readingOrder).
  readingOrder(entries).forEach((index, i) => {
    const entry = entries[index] as Entry;
    const html = session === null || extras === null ? "" : renderEntry(entry, session, extras, index, ctx);
    if (drawn[i] === html) return;
    let node = transcript.children[i] as HTMLElement | undefined;
    if (node === undefined) {
      node = document.createElement("div");
      node.className = "entry";
      transcript.appendChild(node);
    }
    // A thought the user opened stays open while more of it streams in (and so on).
    replaceKeeping(node, html);
    drawn[i] = html;
  });
  setHtml("turnEnd", renderTurnEnd(session?.runState ?? null, extras.busy));
  $("empty").toggleAttribute("hidden", entries.length > 0);
  if (reveal !== null) {
    const block =
      transcript.querySelector(`[data-subagent="${CSS.escape(reveal)}"]`) ??
      $("orphans").querySelector(`[data-subagent="${CSS.escape(reveal)}"]`);
    if (block !== null) {
      // The tool call that started it, with it under: what it is doing, and for whom.
      (block.parentElement?.closest(".tool") ?? block).scrollIntoView({ block: "start" });
      stick = false;
      reveal = null;
    }
  }
  if (scrollBack !== null && !stick) transcript.scrollTop = scrollBack;
  scrollBack = null;
  if (stick) toBottom();
  if (switching !== null && session?.sessionId === switching.sessionId) {
    $("switched").textContent = `${Math.round(performance.now() - switching.at)}`;
    switching = null;
  }
}

/** The chat draws another session (a switch): keep what the one before had, bring back what the
 *  new one had. */
function switchedTo(next: SessionSnapshot | null): void {
  const saved = { draft: prompt.draft(), scrollTop: transcript.scrollTop, stick };
  const { switched, restored } = memory.switchTo(next?.sessionId ?? null, () => saved);
  if (!switched) return;
  prompt.restore(restored?.draft);
  stick = restored?.stick ?? true;
  scrollBack = restored?.scrollTop ?? null;
}

/** A change that adds the user's prompt to the transcript. */
function isUserMessage(change: unknown): boolean {
  if (typeof change !== "object" || change === null) return false;
  const c = change as { type?: unknown; entry?: { kind?: unknown; role?: unknown } };
  return c.type === "entry" && c.entry?.kind === "message" && c.entry.role === "user";
}

window.addEventListener("message", (event: MessageEvent<HostMessage>) => {
  const m = event.data;
  if (m.type === "reset") {
    switchedTo(m.session);
    memory.keepOnly(m.extras.sessions.map((t) => t.sessionId));
    session = m.session;
    children = new Map((m.children ?? []).map((c) => [c.sessionId, c]));
    extras = m.extras;
    transcript.innerHTML = "";
    drawn = [];
  } else if (m.type === "changes") {
    // The front session's, or one of its subagents' (drawn in its chat).
    const target = session?.sessionId === m.sessionId ? session : children.get(m.sessionId);
    if (session === null || target === undefined) return;
    if (target === session && m.changes.some(isUserMessage)) prompt.historyStale();
    try {
      applyChanges(target, m.changes);
    } catch (error) {
      if (!(error instanceof MirrorError)) throw error;
      session = null;
      post({ type: "resync" });
      return;
    }
  } else if (m.type === "extras") {
    extras = m.extras;
  } else if (m.type === "setInput") {
    prompt.setInput(m.text, m.mode, m.leftOut);
  } else if (m.type === "files") {
    prompt.files(m.seq, m.files, m.complete);
    return;
  } else if (m.type === "history") {
    prompt.historyArrived(m.prompts);
    return;
  }
  prompt.refresh();
  schedule();
});

document.addEventListener("click", (event) => {
  const el = (event.target as HTMLElement).closest<HTMLElement>("[data-act]");
  if (el === null || el.tagName === "SELECT" || el.tagName === "INPUT") return;
  const d = el.dataset;
  switch (d["act"]) {
    case "open":
      event.preventDefault();
      post({ type: "open", target: d["target"] ?? "", ...(d["line"] ? { line: Number(d["line"]) } : {}) });
      break;
    case "permission":
      post({ type: "permission", id: d["id"] ?? "", optionId: d["option"] ?? null });
      break;
    case "showDiff":
      post({ type: "showDiff", toolCallId: d["tool"] ?? "", ...(d["uri"] ? { uri: d["uri"] } : {}) });
      break;
    case "review":
      post({ type: "review", decision: d["decision"] === "accept" ? "accept" : "reject", toolCallId: d["tool"] ?? "" });
      break;
    case "group": {
      const action = d["action"] === "accept" || d["action"] === "reject" ? d["action"] : "files";
      post({ type: "group", action, groupId: d["group"] ?? "" });
      break;
    }
    case "showTerminal":
      post({ type: "showTerminal", terminalId: d["terminal"] ?? "" });
      break;
    case "restore":
      post({ type: "restore", turn: Number(d["turn"]) });
      break;
    case "editQueued":
      prompt.editQueued(Number(d["index"]));
      break;
    case "withdrawQueued":
      post({ type: "withdrawQueued", index: Number(d["index"]) });
      break;
    case "editResend":
      post({ type: "editResend", index: Number(d["index"]) });
      break;
    case "leaveMode":
      prompt.leaveMode();
      break;
    case "removeAttachment":
      post({ type: "removeAttachment", index: Number(d["index"]) });
      break;
    case "pick":
      prompt.choose(Number(d["index"]));
      break;
    case "bringBack":
      post({ type: "bringBack", sessionId: d["session"] ?? "" });
      break;
    case "discardWorktree":
      post({ type: "discardWorktree", sessionId: d["session"] ?? "" });
      break;
    case "newSession":
      post({ type: "newSession" });
      break;
    case "cancelSubagent":
      post({ type: "cancelSubagent", sessionId: d["session"] ?? "" });
      break;
    case "signIn":
      post({ type: "signIn" });
      break;
    case "selectSession": {
      const sessionId = d["session"] ?? "";
      // A subagent of the strip: its session (whose chat shows it) to the front, it into view.
      if (d["reveal"]) {
        reveal = d["reveal"];
        schedule();
      }
      if (sessionId === session?.sessionId) break;
      switching = { sessionId, at: performance.now() };
      post({ type: "selectSession", sessionId });
      break;
    }
    default:
      break;
  }
});

// Markdown links (<a href>) never navigate the webview: the host opens them.
document.addEventListener("click", (event) => {
  const a = (event.target as HTMLElement).closest<HTMLAnchorElement>("a[href]");
  if (a === null) return;
  event.preventDefault();
  post({ type: "open", target: a.getAttribute("href") ?? "" });
});

document.addEventListener("change", (event) => {
  const el = event.target as HTMLSelectElement | HTMLInputElement;
  if (el.dataset["act"] === "setMode") post({ type: "setMode", modeId: el.value });
  if (el.dataset["act"] === "setConfig") {
    const value = el instanceof HTMLInputElement && el.type === "checkbox" ? el.checked : el.value;
    post({ type: "setConfig", configId: el.dataset["config"] ?? "", value });
  }
});

$("send").addEventListener("click", () => prompt.send());
$("cancel").addEventListener("click", () => post({ type: "cancel" }));
$("new").addEventListener("click", () => post({ type: "newSession" }));
$("load").addEventListener("click", () => post({ type: "loadSession" }));
$("follow").addEventListener("click", () => post({ type: "toggleFollow" }));
$("attachSelection").addEventListener("click", () => post({ type: "attachSelection" }));
$("attachFile").addEventListener("click", () => post({ type: "attachFile" }));
$("attachMore").addEventListener("click", () => post({ type: "attachMore" }));

post({ type: "ready" });
