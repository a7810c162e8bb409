// Puts the sidecar into the extension: bundled/wheels/ gets the acp-editor wheel built from this
// repository and the wheels of its dependencies, so that the extension can install it into a
// private environment on the user's machine with no package index (see src/host/bundled.ts).
// Runs as part of `vscode:prepublish`, so `npx @vscode/vsce package` builds the complete .vsix.
//
// The dependencies are pure Python except watchfiles (the sidecar's live file watcher, compiled;
// its wheels are abi3, one per platform for every CPython): its wheels come for the common
// platforms; elsewhere the extension installs the sidecar without it, and the sidecar then finds
// changes when tool calls end instead.
//
//   node scripts/bundle-sidecar.mjs        (PYTHON=python3.12 to build with another Python)
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const EXT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REPO = path.resolve(EXT, "..");
const OUT = path.join(EXT, "bundled", "wheels");
const PYTHON = process.env.PYTHON || "python3";
/** The oldest CPython the sidecar supports (pyproject.toml), and the platforms that get a
 *  compiled watchfiles wheel. */
const PY_VERSION = "3.11";
const PLATFORMS = [
  "manylinux2014_x86_64",
  "manylinux2014_aarch64",
  "macosx_11_0_arm64",
  "macosx_10_12_x86_64",
  "win_amd64",
];

function pip(...args) {
  execFileSync(PYTHON, ["-m", "pip", "--disable-pip-version-check", "--quiet", ...args], { stdio: "inherit" });
}

fs.rmSync(path.join(EXT, "bundled"), { recursive: true, force: true });
fs.mkdirSync(OUT, { recursive: true });
pip("wheel", "--no-deps", "--wheel-dir", OUT, REPO);
const own = fs.readdirSync(OUT).find((f) => f.startsWith("acp_editor-") && f.endsWith(".whl"));
if (!own) throw new Error("bundle-sidecar: no acp_editor wheel was built");
// Everything it needs, resolved for the oldest supported Python (the markers then keep what
// newer ones skip), binary wheels only: no sdist can be built on the user's machine offline.
pip("download", "--dest", OUT, "--only-binary=:all:", "--python-version", PY_VERSION, path.join(OUT, own));
const compiled = new Set();
for (const name of fs.readdirSync(OUT)) if (name.startsWith("watchfiles-")) fs.rmSync(path.join(OUT, name));
for (const platform of PLATFORMS) {
  const before = new Set(fs.readdirSync(OUT));
  try {
    pip(
      "download",
      "--dest",
      OUT,
      "--only-binary=:all:",
      "--no-deps",
      "--python-version",
      PY_VERSION,
      "--implementation",
      "cp",
      "--platform",
      platform,
      "watchfiles>=1.0,<2",
    );
  } catch {
    console.warn(`bundle-sidecar: no watchfiles wheel for ${platform}`);
  }
  for (const name of fs.readdirSync(OUT)) if (!before.has(name)) compiled.add(name);
}
// What can be installed without the compiled part: the fallback the extension uses.
const pure = fs.readdirSync(OUT).filter((f) => f.endsWith(".whl") && !f.startsWith("watchfiles-"));
fs.writeFileSync(path.join(EXT, "bundled", "pure.txt"), pure.join("\n") + "\n");
console.log(
  `bundle-sidecar: ${pure.length} wheels (${own} and its pure-Python dependencies), ` +
    `${compiled.size} watchfiles wheels, in ${path.relative(EXT, OUT)}`,
);
