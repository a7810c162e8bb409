/**
 * Follow-along's words: what the agent cursor drawn in the editor says, and the follow toggle in
 * the status bar.
 *
 * The sidecar follows only the session in front unless told to follow every session
 * (`acp/setFollow`'s `allSessions`: the setting `acp-editor.followAllSessions`, the command
 * "ACP: Follow Every Session"); every `acp/follow` names its session and agent. The mark of the
 * session in front reads as it always did ("◆ agent reading"); a session's that is not in front
 * is named with its agent and title, so the user sees whose cursor it is.
 *
 * Pure (no vscode): the host's decorations and the unit tests read the same words.
 */

import type { FollowParams } from "../wire";
import { chatOf, inBackground, sessionTitle } from "./sessions";
import { subagentName } from "./subagents";
import type { Store } from "./store";

const REASONS: Readonly<Record<string, string>> = { read: "reading", write: "writing", location: "here" };

/** What an agent cursor says: the text drawn after its line and its hover. `background`: of a
 *  session not in front (drawn apart from the front one's). */
export interface FollowLabel {
  sessionId: string;
  text: string;
  hover: string;
  background: boolean;
}

/** The mark of one `acp/follow`, as things stand in the store now (which session is in front). */
export function followLabel(store: Store, params: FollowParams): FollowLabel {
  const doing = REASONS[params.reason] ?? params.reason;
  // A subagent's work is followed as its parent's, its mark named with the subagent.
  const sub = params.subagent;
  const parent = sub?.parentSessionId;
  const who = sub ? subagentName(sub.title).replace(/^Subagent/, "subagent") : null;
  if (!inBackground(store, params.sessionId, parent)) {
    return {
      sessionId: params.sessionId,
      text: who === null ? `  ◆ agent ${doing}` : `  ◆ ${who} ${doing}`,
      hover: who === null ? "The agent is working here" : `The agent's ${who} is working here`,
      background: false,
    };
  }
  const front = sub ? chatOf(store, params.sessionId, parent) : params.sessionId;
  const session = store.sessions.get(front);
  const agent =
    typeof params.agent === "string" && params.agent !== ""
      ? params.agent
      : (session?.agent ?? store.agentNameOf(params.sessionId));
  const title = sessionTitle(session);
  const where = params.reason === "location" ? "is here" : `is ${doing} here`;
  const doer = who === null ? agent : `${agent}'s ${who}`;
  return {
    sessionId: params.sessionId,
    text: `  ◆ ${doer} ${doing} · "${title}"`,
    hover: `${doer} ${where}, in session "${title}" (not in front: ACP: Switch Session… brings it)`,
    background: true,
  };
}

/** The follow toggle in the status bar: on or off, and whose agents are followed. */
export function followToggle(follow: boolean, all: boolean): { text: string; tooltip: string } {
  if (!follow) return { text: "$(eye-closed) Follow agent", tooltip: "Not following the agent: click to follow" };
  if (!all)
    return { text: "$(eye) Follow agent", tooltip: "Following the agent of the session in front: click to stop" };
  return {
    text: "$(eye) Follow all sessions",
    tooltip:
      "Following every session's agent (a mark not of the session in front names its agent and session): click to stop",
  };
}
