/**
 * Finding the `acp-editor` program: the setting, else the workspace's virtual environment, else
 * PATH. The file system and environment are injected so every branch is unit-tested.
 *
 * The workspace venv comes before PATH because a project that pins its own acp-editor (as this
 * repository's `.venv` does) should not silently get an older global one.
 */

export interface DiscoveryFs {
  /** Whether `path` is a file this user may execute. */
  isExecutable(path: string): boolean;
}

export interface DiscoveryInput {
  /** The `acp-editor.path` setting ("" when unset). */
  configured: string;
  /** Absolute paths of the workspace folders, first one first. */
  workspaceFolders: string[];
  /** The PATH variable. */
  pathVariable: string | undefined;
  platform: string;
  home: string | undefined;
}

export type Discovery =
  | { found: true; path: string; source: "setting" | "venv" | "PATH" | "bundled" }
  | { found: false; message: string; tried: string[] };

const VENV_DIRS = [".venv", "venv", "env"];

function join(dir: string, ...parts: string[]): string {
  const sep = dir.includes("\\") && !dir.includes("/") ? "\\" : "/";
  return [dir.replace(/[\\/]+$/, ""), ...parts].join(sep);
}

function programNames(platform: string): string[] {
  return platform === "win32" ? ["acp-editor.exe", "acp-editor.cmd", "acp-editor"] : ["acp-editor"];
}

/** `~` and `${workspaceFolder}` are expanded in the setting, as users write them in VS Code. */
export function expandSetting(value: string, input: DiscoveryInput): string {
  let v = value.trim();
  const folder = input.workspaceFolders[0];
  if (folder !== undefined) v = v.replace(/\$\{workspaceFolder\}/g, folder);
  if (input.home !== undefined && (v === "~" || v.startsWith("~/"))) v = input.home + v.slice(1);
  return v;
}

export function findAcpEditor(input: DiscoveryInput, fs: DiscoveryFs): Discovery {
  const tried: string[] = [];
  const check = (path: string): boolean => {
    tried.push(path);
    return fs.isExecutable(path);
  };
  if (input.configured.trim() !== "") {
    const path = expandSetting(input.configured, input);
    if (check(path)) return { found: true, path, source: "setting" };
    return {
      found: false,
      tried,
      message:
        `acp-editor.path is set to "${input.configured}", but ${path} is not an executable file. ` +
        `Fix the setting, or clear it to use the workspace's .venv or PATH.`,
    };
  }
  const bin = input.platform === "win32" ? "Scripts" : "bin";
  for (const folder of input.workspaceFolders) {
    for (const venv of VENV_DIRS) {
      for (const name of programNames(input.platform)) {
        const path = join(folder, venv, bin, name);
        if (check(path)) return { found: true, path, source: "venv" };
      }
    }
  }
  const sep = input.platform === "win32" ? ";" : ":";
  for (const dir of (input.pathVariable ?? "").split(sep)) {
    if (dir === "") continue;
    for (const name of programNames(input.platform)) {
      const path = join(dir, name);
      if (check(path)) return { found: true, path, source: "PATH" };
    }
  }
  return {
    found: false,
    tried,
    message:
      "acp-editor was not found (looked in the workspace's .venv/bin and on PATH). Set " +
      'acp-editor.server to "bundled" to use the sidecar this extension carries, install it from a ' +
      "checkout of acp-editor (`pipx install .` or `python3 -m pip install -e .` there), " +
      "or set acp-editor.path to the program.",
  };
}
