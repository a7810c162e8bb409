/**
 * The sidecar that ships inside the extension: its wheels (bundled/wheels, made by
 * scripts/bundle-sidecar.mjs) are installed on first run into a private Python environment in
 * the extension's global storage, with a progress notification, and used from there. Nothing is
 * fetched from the network and nothing goes into the user's own environments.
 *
 * The interpreter comes from the Python extension when it is installed (the one the user
 * selected), else the newest Python >= 3.11 on PATH. Decisions live in core/python.ts.
 */

import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { Discovery } from "../core/discovery";
import {
  VERSION_PROBE,
  installArgs,
  isCurrent,
  noPythonMessage,
  parseVersion,
  pureInstallArgs,
  pythonCandidates,
  supported,
  venvBin,
  type Layout,
  type Marker,
} from "../core/python";
import type { Log } from "./log";

interface Run {
  code: number;
  out: string;
}

function run(file: string, args: string[], timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, windowsHide: true, maxBuffer: 4 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, out: `${stdout}${stderr}`.trim() });
    });
  });
}

export class BundledSidecar {
  private readonly wheels: string;
  private readonly root: string;

  constructor(
    extensionPath: string,
    storagePath: string,
    private readonly log: Log,
  ) {
    this.wheels = path.join(extensionPath, "bundled", "wheels");
    this.root = path.join(storagePath, "sidecar");
  }

  /** Whether this build of the extension carries the sidecar (a development checkout does not). */
  available(): boolean {
    return fs.existsSync(path.join(this.wheels, "..", "pure.txt"));
  }

  private layout(): Layout {
    return { venv: path.join(this.root, "venv"), wheels: this.wheels, platform: process.platform };
  }

  /** The private sidecar, installed first if needed. */
  async locate(): Promise<Discovery> {
    const layout = this.layout();
    const exe = venvBin(layout, "acp-editor");
    const wheels = fs.readdirSync(this.wheels).filter((w) => w.endsWith(".whl"));
    const markerPath = path.join(this.root, "installed.json");
    if (isCurrent(readMarker(markerPath), wheels) && fs.existsSync(exe)) {
      return { found: true, path: exe, source: "bundled" };
    }
    const { python, tried } = await this.findPython();
    if (python === null) return { found: false, message: noPythonMessage(tried), tried };
    const problem = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "ACP Editor: setting up its sidecar (first run)" },
      (progress) => this.install(python, layout, progress),
    );
    if (problem !== null) return { found: false, message: problem, tried: [python] };
    fs.writeFileSync(markerPath, JSON.stringify({ wheels } satisfies Marker));
    return { found: true, path: exe, source: "bundled" };
  }

  private async install(
    python: string,
    layout: Layout,
    progress: vscode.Progress<{ message?: string }>,
  ): Promise<string | null> {
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.mkdirSync(this.root, { recursive: true });
    progress.report({ message: `creating a Python environment with ${python}` });
    const venv = await run(python, ["-m", "venv", layout.venv], 120_000);
    if (venv.code !== 0) return this.failed(`creating a Python environment with ${python} failed`, venv.out);
    progress.report({ message: "installing acp-editor" });
    const venvPython = venvBin(layout, "python");
    const full = await run(venvPython, installArgs(layout), 300_000);
    if (full.code === 0) return null;
    // No compiled watchfiles wheel for this platform: the pure-Python part is enough to run.
    this.log.warn(`installing the sidecar with all its dependencies failed; without live file watching:\n${full.out}`);
    const pure = fs
      .readFileSync(path.join(this.wheels, "..", "pure.txt"), "utf8")
      .split("\n")
      .filter(Boolean);
    const fallback = await run(venvPython, pureInstallArgs(layout, pure), 300_000);
    return fallback.code === 0 ? null : this.failed("installing the sidecar failed", fallback.out);
  }

  private failed(what: string, output: string): string {
    this.log.error(`${what}:\n${output}`);
    return `${what}: see the log (ACP: Show the Log).`;
  }

  /** The Python extension's selected interpreter, else the newest suitable one on PATH. */
  private async findPython(): Promise<{ python: string | null; tried: string[] }> {
    const tried: string[] = [];
    const candidates = [...(await selectedInterpreter()), ...pythonCandidates(process.platform)];
    for (const candidate of candidates) {
      tried.push(candidate);
      const probe = await run(candidate, VERSION_PROBE, 15_000);
      if (probe.code === 0 && supported(parseVersion(probe.out))) {
        this.log.info(`the sidecar's Python: ${candidate} (${probe.out})`);
        return { python: candidate, tried };
      }
    }
    return { python: null, tried };
  }
}

function readMarker(file: string): Marker | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Marker;
  } catch {
    return null;
  }
}

/** The interpreter selected in the Python extension (its public `environments` API), if any. */
async function selectedInterpreter(): Promise<string[]> {
  const ext = vscode.extensions.getExtension("ms-python.python");
  if (!ext) return [];
  try {
    const api = (ext.isActive ? ext.exports : await ext.activate()) as {
      environments?: {
        getActiveEnvironmentPath(resource?: vscode.Uri): { path: string };
        resolveEnvironment(env: { path: string }): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
      };
    };
    const envs = api.environments;
    if (!envs) return [];
    const active = envs.getActiveEnvironmentPath(vscode.workspace.workspaceFolders?.[0]?.uri);
    const resolved = await envs.resolveEnvironment(active);
    const exe = resolved?.executable.uri?.fsPath;
    return exe ? [exe] : [];
  } catch {
    return [];
  }
}
