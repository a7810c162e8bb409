/**
 * What `activate()` returns: a small API for integration tests (and other extensions) to drive
 * and observe the extension without scraping the UI. Everything is a plain JSON-able value or a
 * function; nothing here is needed by the extension itself.
 */

import { sessionTabs, type SessionTab } from "../core/sessions";
import type { Store } from "../core/store";
import { buildExtras } from "../core/viewModel";
import type { ViewExtras } from "../webview/messages";
import type * as w from "../wire";
import type { ChatPresence } from "./chatPresence";
import type { Sidecar } from "./client";
import type { Controller } from "./controller";
import type { ProposedDocs, ShownDiff } from "./diffs";
import type { FollowView } from "./follow";
import type { Permissions } from "./permissions";
import type { Prompts } from "./prompts";
import type { Sessions } from "./sessions";
import type { SignInTerminals } from "./signIn";
import type { AgentTerminals } from "./terminals";

export interface AcpEditorApi {
  /** Resolves once the sidecar started (true) or failed to (false: see `problem()`). */
  ready: Promise<boolean>;
  problem(): string | null;
  /** The acp-editor program that runs, and how it was found ("bundled", "venv", ...). */
  server(): { path: string; source: string } | null;
  /** The current session as the chat mirrors it, or null before the first session. */
  session(): w.SessionSnapshot | null;
  /** A session as the sidecar holds it (`acp/snapshot`; default: the current one), or null. */
  sidecarSession(sessionId?: string): Promise<w.SessionSnapshot | null>;
  /** What the chat view shows besides the transcript (agent, permissions, terminals, review...). */
  extras(): ViewExtras;
  /** A prompt to the session in front, or to the live session given. */
  prompt(text: string, sessionId?: string): Promise<w.PromptResult>;
  /** Cancel as the command does: asks first when prompts wait after the turn. */
  cancel(): Promise<boolean>;
  /** The choices the last cancel question offered, in order. */
  cancelChoices(): string[];
  /** A new session (of the agent named, an id of `acp/agents`); it comes to the front. */
  newSession(agent?: string): Promise<string>;
  /** Every live session as the strip and the switch quick pick show it. */
  sessions(): SessionTab[];
  /** A live session's mirror (the chat's), or null. */
  sessionOf(sessionId: string): w.SessionSnapshot | null;
  /** Bring a live session to the front as a click on the strip does. */
  selectSession(sessionId: string): boolean;
  /** The last `acp/follow` received, and where the agent cursor is drawn now. */
  lastFollow(): w.FollowParams | null;
  followMark(): { uri: string; line: number } | null;
  /** Every session's agent cursor and the words drawn after it (`background`: not in front). */
  followLabels(): { sessionId: string; uri: string; line: number; text: string; background: boolean }[];
  /** Pending permission questions, and answering one as the user would. */
  pendingPermissions(): { id: string; params: w.RequestPermissionParams }[];
  answerPermission(id: string, optionId: string | null): boolean;
  reviewHunks(): w.ReviewHunk[];
  /** Bulk changes (many files reviewed as one), the latest view of each. */
  reviewGroups(): w.ReviewGroup[];
  diffs(): w.DiffParams[];
  lastDiff(): ShownDiff | null;
  terminals(): { terminalId: string; output: string; exitStatus: w.ExitStatus | null }[];
  terminalNames(): string[];
  /** The sign-in terminals running now (`acp/signInTerminal`), by name. */
  signInTerminals(): string[];
  /** Whether the chat view is on screen (its container open and the view expanded). */
  chatVisible(): boolean;
}

export interface ApiDeps {
  ready: Promise<boolean>;
  store: Store;
  sidecar: Sidecar;
  controller: Controller;
  prompts: Prompts;
  permissions: Permissions;
  docs: ProposedDocs;
  follow: FollowView;
  terminals: AgentTerminals;
  presence: ChatPresence;
  sessions: Sessions;
  signInTerminals: SignInTerminals;
}

export function createApi(d: ApiDeps): AcpEditorApi {
  const copy = <T>(x: T): T => structuredClone(x);
  return {
    ready: d.ready,
    problem: () => d.sidecar.problem,
    server: () => copy(d.sidecar.server),
    session: () => copy(d.store.current()),
    sidecarSession: async (sessionId) => {
      const id = sessionId ?? d.store.currentSessionId;
      if (id === null) return null;
      return (await d.sidecar.snapshot(id)).sessions.find((s) => s.sessionId === id) ?? null;
    },
    extras: () => copy(buildExtras(d.store, d.controller.attachmentLabels(), d.sidecar.problem)),
    prompt: (text, sessionId) => d.controller.prompt(text, sessionId),
    cancel: () => d.prompts.cancel(),
    cancelChoices: () => [...d.prompts.lastCancelChoices],
    newSession: (agent) => d.sidecar.newSession(agent),
    sessions: () => copy(sessionTabs(d.store)),
    sessionOf: (sessionId) => copy(d.store.sessions.get(sessionId) ?? null),
    selectSession: (sessionId) => d.sessions.select(sessionId),
    lastFollow: () => copy(d.store.lastFollow),
    followMark: () => d.follow.markedAt(),
    followLabels: () => d.follow.labels(),
    pendingPermissions: () => [...d.store.permissions.values()].map((p) => copy({ id: p.id, params: p.params })),
    answerPermission: (id, optionId) => d.permissions.answer(id, optionId),
    reviewHunks: () => copy([...d.store.review.values()]),
    reviewGroups: () => copy([...d.store.groups.values()]),
    diffs: () => copy([...d.store.diffs.values()]),
    lastDiff: () => copy(d.docs.last),
    terminals: () =>
      [...d.store.terminals.values()].map((t) => ({
        terminalId: t.terminalId,
        output: t.output,
        exitStatus: t.exitStatus,
      })),
    terminalNames: () => d.terminals.names(),
    signInTerminals: () => d.signInTerminals.names(),
    chatVisible: () => d.presence.visible,
  };
}
