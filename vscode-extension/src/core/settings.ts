/**
 * The extension's settings, typed, and what they turn into: the sidecar's command line, its
 * environment and the `initializationOptions` of `initialize`.
 *
 * Pure: the host reads `vscode.workspace.getConfiguration("acp-editor")` and hands the raw values
 * to `parseSettings`, so every rule (defaults, bad values, which agent is chosen) is unit-tested
 * without VS Code. Bad values are reported, never thrown: a typo in settings.json must not stop
 * the extension from starting with the rest.
 */

import { FEATURES, REVIEW_MODES } from "../protocol";
import type { InitializationOptions, ReviewMode } from "../wire";

export interface AgentSetting {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The session mode new sessions start in (it decides whether the agent asks first). */
  mode?: string;
  /** The ACP version to offer the agent: 2 is the draft (opt-in); absent: the sidecar's 1. */
  protocolVersion?: number;
}

export const SERVER_SOURCES = ["bundled", "environment"] as const;
export type ServerSource = (typeof SERVER_SOURCES)[number];

export interface Settings {
  agents: AgentSetting[];
  defaultAgent: string;
  /** An ACP registry agent id: run (the sidecar's `--agent ID`) when no defaultAgent is set. */
  registryAgent: string;
  path: string;
  /** "bundled": the sidecar inside the extension (installed on first run); "environment":
   *  `path`, else the workspace's venv, else PATH. A set `path` always wins. */
  server: ServerSource;
  follow: boolean;
  /** Follow every live session's agent, not only the session in front's (`acp/setFollow`'s
   *  `allSessions`, sent once the sidecar runs). */
  followAllSessions: boolean;
  review: ReviewMode;
  tellAgentRejections: boolean;
  autoApprove: string[];
  /** Give the agent's sessions the editor-context MCP server (open buffers, review). */
  editorContext: boolean;
  /** The user's own MCP servers, passed on to every session (checked by the sidecar). */
  mcpServers: object[];
  trace: boolean;
  serverArgs: string[];
  /** Notify when a turn ends while the window is unfocused or the chat hidden. */
  turnEndNotice: boolean;
}

export const DEFAULTS: Settings = {
  agents: [],
  defaultAgent: "",
  registryAgent: "",
  path: "",
  server: "bundled",
  follow: true,
  followAllSessions: false,
  review: "after-write",
  tellAgentRejections: false,
  autoApprove: [],
  editorContext: true,
  mcpServers: [],
  trace: false,
  serverArgs: [],
  turnEndNotice: true,
};

export interface Parsed {
  settings: Settings;
  /** One line per ignored value, for the log: "acp-editor.review: ... (using after-write)". */
  problems: string[];
}

/** `get(key)` returns the raw value of `acp-editor.<key>`, or undefined when unset. */
export function parseSettings(get: (key: string) => unknown): Parsed {
  const problems: string[] = [];
  const bad = (key: string, why: string, fallback: unknown): void => {
    problems.push(`acp-editor.${key}: ${why} (using ${JSON.stringify(fallback)})`);
  };
  const bool = (key: keyof Settings, fallback: boolean): boolean => {
    const v = get(key);
    if (v === undefined || typeof v === "boolean") return v ?? fallback;
    bad(key, "not true or false", fallback);
    return fallback;
  };
  const str = (key: keyof Settings): string => {
    const v = get(key);
    if (v === undefined || typeof v === "string") return (v ?? "").trim();
    bad(key, "not a string", "");
    return "";
  };
  const strings = (key: keyof Settings): string[] => {
    const v = get(key);
    if (v === undefined) return [];
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) return [...v];
    bad(key, "not a list of strings", []);
    return [];
  };
  const objects = (key: keyof Settings): object[] => {
    const v = get(key);
    if (v === undefined) return [];
    if (Array.isArray(v) && v.every((x) => typeof x === "object" && x !== null && !Array.isArray(x)))
      return [...(v as object[])];
    bad(key, "not a list of objects", []);
    return [];
  };
  const server = get("server");
  let serverSource: ServerSource = DEFAULTS.server;
  if ((SERVER_SOURCES as readonly unknown[]).includes(server)) serverSource = server as ServerSource;
  else if (server !== undefined) bad("server", `unknown source ${JSON.stringify(server)}`, serverSource);
  const review = get("review");
  let reviewMode: ReviewMode = DEFAULTS.review;
  if ((REVIEW_MODES as readonly unknown[]).includes(review)) reviewMode = review as ReviewMode;
  else if (review !== undefined) bad("review", `unknown mode ${JSON.stringify(review)}`, reviewMode);
  return {
    settings: {
      agents: parseAgents(get("agents"), problems),
      defaultAgent: str("defaultAgent"),
      registryAgent: str("registryAgent"),
      path: str("path"),
      server: serverSource,
      follow: bool("follow", DEFAULTS.follow),
      followAllSessions: bool("followAllSessions", DEFAULTS.followAllSessions),
      review: reviewMode,
      tellAgentRejections: bool("tellAgentRejections", DEFAULTS.tellAgentRejections),
      autoApprove: strings("autoApprove")
        .map((r) => r.trim())
        .filter((r) => r !== ""),
      editorContext: bool("editorContext", DEFAULTS.editorContext),
      mcpServers: objects("mcpServers"),
      trace: bool("trace", DEFAULTS.trace),
      serverArgs: strings("serverArgs"),
      turnEndNotice: bool("turnEndNotice", DEFAULTS.turnEndNotice),
    },
    problems,
  };
}

function parseAgents(raw: unknown, problems: string[]): AgentSetting[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push("acp-editor.agents: not a list (no agents configured)");
    return [];
  }
  const agents: AgentSetting[] = [];
  raw.forEach((item: unknown, i) => {
    const a = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    const name = typeof a["name"] === "string" ? a["name"].trim() : "";
    const command = typeof a["command"] === "string" ? a["command"].trim() : "";
    if (name === "" || command === "") {
      problems.push(`acp-editor.agents[${i}]: needs a "name" and a "command" (skipped)`);
      return;
    }
    const args = Array.isArray(a["args"]) ? a["args"].filter((x): x is string => typeof x === "string") : [];
    const env: Record<string, string> = {};
    if (typeof a["env"] === "object" && a["env"] !== null && !Array.isArray(a["env"])) {
      for (const [k, v] of Object.entries(a["env"] as Record<string, unknown>)) {
        if (typeof v === "string") env[k] = v;
        else problems.push(`acp-editor.agents[${i}].env.${k}: not a string (skipped)`);
      }
    }
    const agent: AgentSetting = { name, command, args, env };
    if (typeof a["mode"] === "string" && a["mode"].trim() !== "") agent.mode = a["mode"].trim();
    const version = a["protocolVersion"];
    if (version === 1 || version === 2) agent.protocolVersion = version;
    else if (version !== undefined) problems.push(`acp-editor.agents[${i}].protocolVersion: must be 1 or 2 (ignored)`);
    agents.push(agent);
  });
  return agents;
}

/**
 * The agent to start: `name` (a picked one), else `defaultAgent`, else the first listed, else
 * none (the sidecar then uses its own default preset or its demo agent). An unknown name is an
 * error the user must see, not a silent fallback to some other agent.
 */
export function chooseAgent(settings: Settings, name?: string): AgentSetting | null | { error: string } {
  const wanted = name ?? settings.defaultAgent;
  if (wanted !== "") {
    const found = settings.agents.find((a) => a.name === wanted);
    if (found) return found;
    const known = settings.agents.map((a) => a.name).join(", ") || "none";
    return { error: `No agent named "${wanted}" in acp-editor.agents (configured: ${known}).` };
  }
  if (settings.registryAgent !== "") return null; // serverArgs passes it to the sidecar
  return settings.agents[0] ?? null;
}

/** The sidecar's arguments after its program: `--stdio`, the log level, extras, `-- AGENT`. */
export function serverArgs(settings: Settings, agent: AgentSetting | null): string[] {
  const args = ["--stdio"];
  // Without trace the sidecar's own default (WARNING) applies: its records reach the log channel
  // twice (stderr and window/logMessage), which is tolerable for warnings, noisy for INFO.
  if (settings.trace && !settings.serverArgs.includes("--log-level")) args.push("--log-level", "DEBUG");
  args.push(...settings.serverArgs);
  if (agent?.mode !== undefined) args.push("--mode", agent.mode);
  if (agent?.protocolVersion !== undefined) args.push("--protocol-version", String(agent.protocolVersion));
  if (agent !== null) args.push("--", agent.command, ...agent.args);
  else if (settings.registryAgent !== "") args.push("--agent", settings.registryAgent);
  return args;
}

/** The sidecar's environment: the agent inherits it, so the agent's `env` is added here. */
export function serverEnv(
  base: Record<string, string | undefined>,
  agent: AgentSetting | null,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  return { ...env, ...(agent?.env ?? {}) };
}

export function initializationOptions(settings: Settings): InitializationOptions {
  return {
    acp: {
      features: [...FEATURES],
      // VS Code's workspace/applyEdit leaves the document dirty; the server then writes the same
      // text to disk so the agent's next read sees it.
      savesAfterApply: false,
      follow: settings.follow,
      review: settings.review,
      tellAgentRejections: settings.tellAgentRejections,
      autoApprove: [...settings.autoApprove],
      editorContext: settings.editorContext,
      mcpServers: [...settings.mcpServers],
      // Every configured agent, by name: sessions of any of them can run side by side
      // (acp/newSession's `agent`, "ACP: New Session with Agent...").
      ...(settings.agents.length > 0 ? { agents: agentTable(settings.agents) } : {}),
    },
  };
}

/** `initializationOptions.acp.agents`: the configured agents by name. */
function agentTable(agents: readonly AgentSetting[]): NonNullable<NonNullable<InitializationOptions["acp"]>["agents"]> {
  const table: NonNullable<NonNullable<InitializationOptions["acp"]>["agents"]> = {};
  for (const a of agents) {
    table[a.name] = {
      command: [a.command, ...a.args],
      ...(Object.keys(a.env).length > 0 ? { env: { ...a.env } } : {}),
      ...(a.mode !== undefined ? { mode: a.mode } : {}),
    };
  }
  return table;
}

/** Whether a settings change needs the sidecar restarted (its command line or init options). */
export function needsRestart(before: Settings, after: Settings): boolean {
  const key = (s: Settings): string =>
    JSON.stringify([
      s.agents,
      s.defaultAgent,
      s.registryAgent,
      s.path,
      s.server,
      s.review,
      s.tellAgentRejections,
      s.autoApprove,
      s.editorContext,
      s.mcpServers,
      s.trace,
      s.serverArgs,
    ]);
  return key(before) !== key(after);
}
