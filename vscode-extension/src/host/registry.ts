/**
 * Choosing an agent from the ACP registry: the sidecar lists it (`acp-editor agents --json`,
 * which caches it for offline use), a quick pick shows it, and the choice goes into
 * `acp-editor.registryAgent`; the settings change restarts the sidecar with `--agent ID`.
 */

import { execFile } from "node:child_process";
import * as vscode from "vscode";
import type { Sidecar } from "./client";
import type { Log } from "./log";

interface Listed {
  id: string;
  name: string;
  version: string;
  description: string;
  runs: string;
}

function listAgents(program: string): Promise<{ agents: Listed[]; stale: string | null }> {
  return new Promise((resolve, reject) => {
    execFile(program, ["agents", "--json"], { timeout: 60_000, maxBuffer: 8 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(stderr.trim() || error.message));
      try {
        resolve(JSON.parse(stdout) as { agents: Listed[]; stale: string | null });
      } catch {
        reject(new Error(`acp-editor agents printed no list: ${stdout.slice(0, 200)}`));
      }
    });
  });
}

/** Pick an agent (or take `id`, for scripts and tests) and make it the one that runs. */
export async function chooseRegistryAgent(sidecar: Sidecar, log: Log, id?: string): Promise<string | undefined> {
  const program = sidecar.server?.path;
  if (program === undefined) throw new Error("the sidecar is not running: see ACP: Show the Log");
  const listing = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: "ACP: reading the agent registry" },
    () => listAgents(program),
  );
  if (listing.stale) void vscode.window.showWarningMessage(`ACP: ${listing.stale}`);
  let chosen = id;
  if (chosen === undefined) {
    const picked = await vscode.window.showQuickPick(
      listing.agents.map((a) => ({
        label: a.name,
        description: `${a.id} ${a.version} · ${a.runs}`,
        detail: a.description,
        id: a.id,
      })),
      { title: "Choose an agent from the ACP registry", matchOnDescription: true, matchOnDetail: true },
    );
    chosen = picked?.id;
  }
  if (chosen === undefined) return undefined;
  if (!listing.agents.some((a) => a.id === chosen)) throw new Error(`no agent ${chosen} in the registry`);
  log.info(`the ACP registry agent ${chosen} is chosen`);
  const config = vscode.workspace.getConfiguration("acp-editor");
  await config.update("defaultAgent", "", vscode.ConfigurationTarget.Global);
  await config.update("registryAgent", chosen, vscode.ConfigurationTarget.Global);
  return chosen;
}
