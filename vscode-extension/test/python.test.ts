/** The bundled sidecar's install decisions (core/python.ts): which Python, whether the private
 *  environment is current, and the offline install commands. */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  installArgs,
  isCurrent,
  noPythonMessage,
  parseVersion,
  pureInstallArgs,
  pythonCandidates,
  supported,
  venvBin,
} from "../src/core/python";

test("interpreters are tried newest first, then the generic names", () => {
  assert.deepEqual(pythonCandidates("linux").slice(0, 2), ["python3.14", "python3.13"]);
  assert.deepEqual(pythonCandidates("linux").slice(-2), ["python3", "python"]);
  assert.equal(pythonCandidates("win32")[0], "python");
});

test("only Python 3.11 or newer will do", () => {
  assert.deepEqual(parseVersion("3.12\n"), [3, 12]);
  assert.equal(parseVersion("Python not found"), null);
  assert.equal(supported([3, 11]), true);
  assert.equal(supported([3, 10]), false);
  assert.equal(supported([4, 0]), true);
  assert.equal(supported(null), false);
});

test("without a Python the message says what to install and how to retry", () => {
  const m = noPythonMessage(["python3.13", "python3"]);
  assert.match(m, /Python 3\.11 or newer/);
  assert.match(m, /python3\.13, python3/);
  assert.match(m, /Restart the Sidecar/);
});

test("the environment is rebuilt when the extension's wheels change", () => {
  assert.equal(isCurrent({ wheels: ["b.whl", "a.whl"] }, ["a.whl", "b.whl"]), true);
  assert.equal(isCurrent({ wheels: ["a.whl"] }, ["a.whl", "b.whl"]), false);
  assert.equal(isCurrent(null, ["a.whl"]), false);
});

test("installs use the bundled wheels only, never an index", () => {
  const layout = { venv: "/s/venv", wheels: "/x/bundled/wheels", platform: "linux" };
  assert.equal(venvBin(layout, "acp-editor"), "/s/venv/bin/acp-editor");
  assert.equal(
    venvBin({ ...layout, venv: "C:\\s\\venv", platform: "win32" }, "python"),
    "C:\\s\\venv\\Scripts\\python.exe",
  );
  const full = installArgs(layout);
  assert.ok(full.includes("--no-index") && full.includes("/x/bundled/wheels") && full.at(-1) === "acp-editor");
  const pure = pureInstallArgs(layout, ["acp_editor-0.1.0-py3-none-any.whl"]);
  assert.ok(pure.includes("--no-index") && pure.includes("--no-deps"));
  assert.equal(pure.at(-1), "/x/bundled/wheels/acp_editor-0.1.0-py3-none-any.whl");
});
