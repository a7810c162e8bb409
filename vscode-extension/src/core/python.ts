/**
 * The bundled sidecar's install, as decisions without I/O (src/host/bundled.ts does the I/O):
 * which Python to use, whether the private environment is current, and the commands that build
 * it from the wheels inside the extension, with no package index.
 */

/** pyproject.toml's requires-python. */
export const MIN_PYTHON: readonly [number, number] = [3, 11];

/** Interpreters tried on PATH, newest first. */
export function pythonCandidates(platform: string): string[] {
  const versioned = ["3.14", "3.13", "3.12", "3.11"].map((v) => `python${v}`);
  return platform === "win32" ? ["python", "python3", ...versioned] : [...versioned, "python3", "python"];
}

/** "3.12" (what the version probe prints) → [3, 12]; anything else → null. */
export function parseVersion(text: string): [number, number] | null {
  const m = /^\s*(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

export function supported(version: readonly [number, number] | null): boolean {
  if (version === null) return false;
  return version[0] > MIN_PYTHON[0] || (version[0] === MIN_PYTHON[0] && version[1] >= MIN_PYTHON[1]);
}

/** The probe each candidate runs: prints "MAJOR.MINOR". */
export const VERSION_PROBE = ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"];

export function noPythonMessage(tried: string[]): string {
  const wanted = `${MIN_PYTHON[0]}.${MIN_PYTHON[1]}`;
  return (
    `ACP Editor needs Python ${wanted} or newer to run its sidecar, and found none ` +
    `(tried ${tried.join(", ") || "nothing"}). Install Python from python.org or your package ` +
    `manager (or the Python extension, and select an interpreter), then run "ACP: Restart the Sidecar".`
  );
}

/** What the environment was built from: when the extension's wheels change, it is rebuilt. */
export interface Marker {
  wheels: string[];
}

export function isCurrent(marker: Marker | null, wheels: readonly string[]): boolean {
  if (marker === null || !Array.isArray(marker.wheels)) return false;
  const a = [...marker.wheels].sort();
  const b = [...wheels].sort();
  return a.length === b.length && a.every((w, i) => w === b[i]);
}

export interface Layout {
  venv: string;
  wheels: string;
  platform: string;
}

export function venvBin(layout: Layout, name: string): string {
  const sep = layout.platform === "win32" ? "\\" : "/";
  const dir = layout.platform === "win32" ? "Scripts" : "bin";
  const exe = layout.platform === "win32" ? `${name}.exe` : name;
  return [layout.venv, dir, exe].join(sep);
}

const PIP = ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--no-index"];

/** Install acp-editor and everything it needs from the bundled wheels only. */
export function installArgs(layout: Layout): string[] {
  return [...PIP, "--find-links", layout.wheels, "acp-editor"];
}

/** The fallback on a platform without a compiled watchfiles wheel: the pure-Python wheels, each
 *  named, without resolving dependencies (the sidecar runs without live file watching). */
export function pureInstallArgs(layout: Layout, pure: readonly string[]): string[] {
  const sep = layout.platform === "win32" ? "\\" : "/";
  return [...PIP, "--no-deps", ...pure.map((w) => `${layout.wheels}${sep}${w}`)];
}
