/**
 * The status bar item: what the agent is doing (working, waiting for you, idle; starting or
 * stopped), and the session's mode, model and share of the context window used when the agent
 * says them; while several sessions are open, how many wait for the user ("2 waiting"). Pure (no vscode): the host
 * draws what `statusItem` returns, the unit tests read it.
 */

import type { AgentStatus, SessionSnapshot } from "../wire";
import { authWords } from "./signIn";

export type Activity = "starting" | "stopped" | "working" | "waiting" | "idle";

export interface StatusInput {
  agent: AgentStatus | null;
  /** Why the sidecar is not running, when it is not. */
  problem: string | null;
  /** A prompt turn of the current session runs. */
  busy: boolean;
  /** Questions (permissions, forms, web pages) of the front session waiting for the user's answer. */
  waiting: number;
  session: SessionSnapshot | null;
  agentName: string;
  /** The session's usage, worded ("53k / 200k tokens · $0.045"), when the agent reports it. */
  usage?: string | null;
  /** The share of the context window used (0-100), when the agent reports it. */
  contextPercent?: number | null;
  /** Several sessions live at once: how many are open, and the ones waiting for the user (each
   *  "agent · title"). The count is shown when one besides the front one waits. */
  sessions?: number;
  waitingSessions?: string[];
}

export interface StatusView {
  activity: Activity;
  /** With codicons: "$(bell-dot) ACP: waiting for you · Ask · Demo fast". */
  text: string;
  tooltip: string;
  /** A theme color id for the item's background, when it should stand out. */
  background: "statusBarItem.warningBackground" | "statusBarItem.errorBackground" | null;
  /** The agent says the user is not signed in: a click signs in (else it opens the chat). */
  signIn: boolean;
}

const ICONS: Readonly<Record<Activity, string>> = {
  starting: "$(loading~spin)",
  stopped: "$(error)",
  working: "$(loading~spin)",
  waiting: "$(bell-dot)",
  idle: "$(comment-discussion)",
};

const WORDS: Readonly<Record<Activity, string>> = {
  starting: "starting",
  stopped: "stopped",
  working: "working",
  waiting: "waiting for you",
  idle: "idle",
};

function record(x: unknown): Record<string, unknown> {
  return typeof x === "object" && x !== null ? (x as Record<string, unknown>) : {};
}

/** The name of a select option's value; grouped options (`{group, options}`) are searched too. */
function valueName(options: unknown, value: unknown): string | null {
  for (const o of Array.isArray(options) ? options : []) {
    const r = record(o);
    if (Array.isArray(r["options"])) {
      const inner = valueName(r["options"], value);
      if (inner !== null) return inner;
    } else if (r["value"] === value) {
      return typeof r["name"] === "string" && r["name"] !== "" ? r["name"] : String(value);
    }
  }
  return typeof value === "string" && value !== "" ? value : null;
}

/** The current value's name of the session's config option of a category ("mode", "model"). */
export function configValue(session: SessionSnapshot | null, category: string): string | null {
  for (const o of Array.isArray(session?.configOptions) ? session.configOptions : []) {
    const r = record(o);
    if (r["category"] === category && r["currentValue"] !== undefined)
      return valueName(r["options"], r["currentValue"]);
  }
  return null;
}

/** The session's mode: v1's `modes` (its name), else the config option of category "mode". */
export function currentMode(session: SessionSnapshot | null): string | null {
  const modes = session?.modes;
  if (modes && typeof modes.currentModeId === "string") {
    const mode = (modes.availableModes ?? []).map(record).find((m) => m["id"] === modes.currentModeId);
    const name = mode?.["name"];
    return typeof name === "string" && name !== "" ? name : modes.currentModeId;
  }
  return configValue(session, "mode");
}

export function currentModel(session: SessionSnapshot | null): string | null {
  return configValue(session, "model");
}

export function activityOf(input: StatusInput): Activity {
  const state = input.agent?.state;
  if (input.problem !== null || state === "exited" || state === "failed") return "stopped";
  if (input.waiting > 0 || input.session?.runState?.state === "requires_action") return "waiting";
  if (input.busy || input.session?.runState?.state === "running") return "working";
  if (state === "ready") return "idle";
  return "starting";
}

export function statusItem(input: StatusInput): StatusView {
  const activity = activityOf(input);
  const mode = currentMode(input.session);
  const model = currentModel(input.session);
  const context = typeof input.contextPercent === "number" ? `${input.contextPercent}%` : null;
  const shown = activity === "stopped" || activity === "starting" ? [] : [mode, model, context];
  const parts = [`ACP: ${WORDS[activity]}`, ...shown.filter((x): x is string => x !== null)];
  const waitingSessions = input.waitingSessions ?? [];
  // Counted when a session besides the front one waits: the front one's wait is said already.
  const others = waitingSessions.length - (activity === "waiting" ? 1 : 0);
  const counted = (input.sessions ?? 1) > 1 && others > 0 && activity !== "stopped";
  if (counted) parts.push(`$(bell-dot) ${waitingSessions.length} waiting`);
  // The agent's own word that the user is not signed in (`AgentStatus.auth`): said, and a click
  // signs in.
  const auth = activity === "stopped" ? null : authWords(input.agent?.auth);
  const signIn = auth?.needsSignIn === true;
  if (signIn) parts.push(`$(account) ${auth.text}`);
  const lines = [`${input.agentName}: ${WORDS[activity]}`];
  if (activity === "waiting") {
    lines[0] += ` (${input.waiting || 1} question${input.waiting > 1 ? "s" : ""})`;
  }
  if (counted) {
    const n = waitingSessions.length;
    lines.push(`${n} session${n === 1 ? "" : "s"} waiting for you: ${waitingSessions.join("; ")}`);
  }
  if (activity === "stopped") lines.push(input.problem ?? input.agent?.message ?? "The agent stopped.");
  if (mode !== null) lines.push(`Mode: ${mode}`);
  if (model !== null) lines.push(`Model: ${model}`);
  if (input.usage) lines.push(`Context: ${input.usage}`);
  if (auth !== null) lines.push(signIn ? `${auth.text}: click to sign in.` : auth.text);
  if (!signIn) lines.push("Click to open the chat.");
  return {
    activity,
    text: `${ICONS[activity]} ${parts.join(" · ")}`,
    tooltip: lines.join("\n"),
    background:
      activity === "waiting" || counted || signIn
        ? "statusBarItem.warningBackground"
        : activity === "stopped"
          ? "statusBarItem.errorBackground"
          : null,
    signIn,
  };
}
