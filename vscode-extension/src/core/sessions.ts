/**
 * The live sessions as the user sees them: a short title, the agent each runs in and what it is
 * doing (running, waiting for you, idle), for the chat's session strip, the "ACP: Switch
 * Session" quick pick, the status bar's count and the announcement of a question asked in a
 * session that is not in front.
 *
 * Pure (no vscode, no DOM): the host and the unit tests read the same rules.
 */

import type { SessionSnapshot } from "../wire";
import { basename } from "./format";
import type { Who } from "./lenses";
import type { Store } from "./store";
import { typedText } from "./queue";
import { isLive, subagentStatus, subagentsOf, type SubagentStatus } from "./subagents";
import { worktreeOf } from "./worktree";

/** What the strip and the quick pick say of a session whose worktree was discarded. */
export const DISCARDED_WORDS = "worktree discarded";

/** What a session is doing. `waiting`: a question of it (a permission, a form, a web page) waits
 *  for the user, or the agent says it needs them (runState `requires_action`). `stopped`: its
 *  agent exited or failed. */
export type SessionStatus = "running" | "waiting" | "idle" | "stopped";

export const STATUS_WORDS: Readonly<Record<SessionStatus, string>> = {
  running: "running",
  waiting: "waiting for you",
  idle: "idle",
  stopped: "stopped",
};

/** One session of the strip and the quick pick. */
export interface SessionTab {
  sessionId: string;
  /** Its first prompt (one line, shortened), the title the agent gave it, or "New session". */
  title: string;
  /** The id of the agent it runs in ("" when the sidecar does not say). */
  agent: string;
  /** That agent's name as it announced it (its title or name), else its id. */
  agentName: string;
  status: SessionStatus;
  /** Questions of this session waiting for the user. */
  waiting: number;
  /** In front: what the chat shows and commands act on. */
  current: boolean;
  /** Where it works when in a worktree of its own (its changes come back on "Bring Back"),
   *  else null. */
  worktree: string | null;
  /** Its worktree was discarded: the sidecar refuses its prompts (it stays to read). */
  discarded: boolean;
  /** Its subagents still at work (running, or waiting for the user), drawn under it: they are
   *  not sessions the user prompts, and a click on one brings this session to the front. */
  children: ChildTab[];
}

/** A subagent of a session, as the strip and the quick pick list it under its parent. */
export interface ChildTab {
  sessionId: string;
  /** Its title as its parent's agent gave it, else "Subagent". */
  title: string;
  status: SubagentStatus;
  /** "running", "waiting for you", "failed: …". */
  words: string;
}

export const TITLE_MAX = 40;
export const NEW_SESSION = "New session";

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? ""
  );
}

function shorten(text: string, max = TITLE_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** A file URI's last segment, decoded (`file:///w/a%20b.py` is `a b.py`). */
function fileName(uri: string): string {
  const name = basename(uri.split("#")[0] ?? uri);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** A session's short title: the agent's own title for it (`info.title`), else its first prompt's
 *  typed text's first line (not what was attached: a file's problems, a selection), else the name
 *  of a file it attached (never its URI), else "New session". */
export function sessionTitle(session: SessionSnapshot | null | undefined): string {
  if (!session) return NEW_SESSION;
  const own = session.info?.["title"];
  if (typeof own === "string" && own.trim() !== "") return shorten(firstLine(own));
  for (const e of session.entries) {
    if (e.kind !== "message" || e.role !== "user" || !Array.isArray(e.content)) continue;
    const line = firstLine(typedText(e.content));
    if (line !== "") return shorten(line);
    const file = e.content.find((b) => b.type === "resource_link" && String(b["uri"]).startsWith("file:"));
    if (file !== undefined) return shorten(fileName(String(file["uri"])));
  }
  return NEW_SESSION;
}

/** What one session is doing, from the store's questions, prompts and the session's runState;
 *  a question of one of its subagents is its question too (asked in its chat). */
export function sessionStatus(store: Store, sessionId: string): SessionStatus {
  const session = store.sessions.get(sessionId);
  const state = store.agentOf(sessionId)?.state;
  if (state === "exited" || state === "failed") return "stopped";
  if (store.waiting(sessionId, true) > 0 || session?.runState?.state === "requires_action") return "waiting";
  if (store.busy.has(sessionId) || session?.runState?.state === "running") return "running";
  return "idle";
}

/** A session's subagents (and theirs) as the strip lists them: those still at work. */
export function childTabs(store: Store, sessionId: string): ChildTab[] {
  return store.descendantsOf(sessionId).flatMap((id) => {
    const parent = store.sessions.get(store.parentOf(id) ?? "");
    const record = subagentsOf(parent).find((r) => r.sessionId === id) ?? { sessionId: id };
    const own = store.sessions.get(id)?.runState;
    const { status, words } = subagentStatus(record, own, store.waiting(id) > 0);
    const title = typeof record.title === "string" && record.title.trim() !== "" ? record.title.trim() : "Subagent";
    return isLive(status) ? [{ sessionId: id, title, status, words }] : [];
  });
}

/** Whether a session is a top one: not a subagent's of a session that is open. */
function isTop(store: Store, session: SessionSnapshot): boolean {
  const parent = store.parentOf(session.sessionId);
  return parent === null || !store.sessions.has(parent);
}

/** Every live session the user prompts, in the order they were opened, each with its
 *  subagents at work. */
export function sessionTabs(store: Store): SessionTab[] {
  return [...store.sessions.values()]
    .filter((s) => isTop(store, s))
    .map((s) => ({
      sessionId: s.sessionId,
      title: sessionTitle(s),
      agent: s.agent ?? "",
      agentName: store.agentNameOf(s.sessionId),
      status: sessionStatus(store, s.sessionId),
      waiting: store.waiting(s.sessionId, true),
      current: s.sessionId === store.currentSessionId,
      worktree: worktreeOf(s),
      discarded: store.discarded.has(s.sessionId),
      children: childTabs(store, s.sessionId),
    }));
}

/** How many sessions wait for the user (the status bar counts them). */
export function waitingSessions(store: Store): number {
  return sessionTabs(store).filter((t) => t.status === "waiting").length;
}

/** Whether a question of `sessionId` is asked out of sight: another session is in front. A
 *  subagent's question is asked where its parent is (`parent`: the parent the question names,
 *  for a subagent's session the store does not hold yet). */
export function inBackground(store: Store, sessionId: string | null | undefined, parent?: string): boolean {
  if (typeof sessionId !== "string" || store.currentSessionId === null) return false;
  const known = store.sessions.has(sessionId);
  const top = known ? store.rootOf(sessionId) : parent !== undefined ? store.rootOf(parent) : null;
  return top !== null && store.sessions.has(top) && top !== store.currentSessionId;
}

/** The session whose chat shows a session's work: its top session (a subagent's parent). */
export function chatOf(store: Store, sessionId: string, parent?: string): string {
  return store.sessions.has(sessionId) || parent === undefined ? store.rootOf(sessionId) : store.rootOf(parent);
}

/** The announcement of a question asked in a session not in front: `what` is the question
 *  worded with the agent's name (as the chat words it), `title` the session's. */
export function backgroundQuestion(what: string, title: string): string {
  return `${what} — in session "${title}", not in front: answer it in that session's chat.`;
}

/** The name a background question gives its agent: the agent's id when the sidecar says it
 *  (several may run), else its name. */
export function askerName(store: Store, sessionId: string): string {
  return store.sessions.get(sessionId)?.agent ?? store.agentNameOf(sessionId);
}

/** The button of a background question's notification: it brings that session to the front. */
export const SHOW = "Show";

/** The quick pick's row of a subagent at work, under its parent's: picking it brings the
 *  parent to the front. */
export function childPickItem(
  child: ChildTab,
  parent: SessionTab,
): { label: string; description: string; detail: string } {
  const icon = child.status === "waiting" ? "$(bell-dot)" : "$(loading~spin)";
  return {
    label: `    ${icon} ${child.title}`,
    description: `subagent of "${parent.title}" · ${child.words}`,
    detail: child.sessionId,
  };
}

/** The quick pick's row of a session: the label, the agent and status beside it. */
export function sessionPickItem(tab: SessionTab): { label: string; description: string; detail: string } {
  const icon =
    tab.status === "waiting"
      ? "$(bell-dot)"
      : tab.status === "running"
        ? "$(loading~spin)"
        : tab.discarded
          ? "$(circle-slash)"
          : tab.worktree !== null
            ? "$(git-branch)"
            : "$(comment)";
  const agent = tab.agent === "" ? tab.agentName : tab.agent;
  const waiting = tab.waiting > 1 ? ` (${tab.waiting} questions)` : "";
  const own = tab.worktree !== null ? " · own worktree" : tab.discarded ? ` · ${DISCARDED_WORDS}` : "";
  return {
    label: `${icon} ${tab.title}`,
    description: `${agent}${own} · ${STATUS_WORDS[tab.status]}${waiting}${tab.current ? " · in front" : ""}`,
    detail: tab.worktree === null ? tab.sessionId : `${tab.sessionId} · in ${tab.worktree}`,
  };
}

/** Who did a review item (its lens and hover name them): the agent of its session and the
 *  session's title, only while several sessions are open (with one there is nobody to mistake it
 *  for) and the sidecar names the session's agent; null otherwise. */
export function reviewAuthor(store: Store, sessionId: string): Who | null {
  // Sessions the user prompts: a subagent's change is its session's (the chat that shows it).
  if (sessionTabs(store).length < 2) return null;
  const session = store.sessions.get(store.rootOf(sessionId));
  if (session?.agent === undefined) return null;
  return { agent: session.agent, session: sessionTitle(session) };
}

/** Who did a review item whose origin may be unsure (`sessions`, "either": several sessions'
 *  turns ran when it appeared): every session it may be of, named even with one session open
 *  (a closed one may be among them); else as `reviewAuthor`, as a list of one. */
export function reviewAuthors(store: Store, sessionId: string, sessions?: readonly string[]): Who[] | null {
  const ids = [...new Set(sessions ?? [])];
  if (ids.length < 2) {
    const who = reviewAuthor(store, sessionId);
    return who === null ? null : [who];
  }
  return ids.map((id) => {
    const session = store.sessions.get(id);
    return {
      agent: session?.agent ?? store.agentNameOf(id),
      session: session === undefined ? id : sessionTitle(session),
    };
  });
}
