/** Finding acp-editor with a fake file system. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { expandSetting, findAcpEditor, type DiscoveryInput } from "../src/core/discovery";

const input = (over: Partial<DiscoveryInput> = {}): DiscoveryInput => ({
  configured: "",
  workspaceFolders: ["/w", "/other"],
  pathVariable: "/usr/local/bin:/usr/bin",
  platform: "linux",
  home: "/home/u",
  ...over,
});
const fsWith = (...files: string[]) => ({ isExecutable: (p: string) => files.includes(p) });

test("the workspace's .venv comes before PATH", () => {
  const r = findAcpEditor(input(), fsWith("/w/.venv/bin/acp-editor", "/usr/bin/acp-editor"));
  assert.deepEqual(r, { found: true, path: "/w/.venv/bin/acp-editor", source: "venv" });
});

test("other workspace folders and venv names are tried, then PATH in order", () => {
  assert.deepEqual(findAcpEditor(input(), fsWith("/other/venv/bin/acp-editor")), {
    found: true,
    path: "/other/venv/bin/acp-editor",
    source: "venv",
  });
  assert.deepEqual(findAcpEditor(input(), fsWith("/usr/bin/acp-editor", "/usr/local/bin/acp-editor")), {
    found: true,
    path: "/usr/local/bin/acp-editor",
    source: "PATH",
  });
});

test("the setting wins, with ~ and ${workspaceFolder} expanded; a wrong setting is not silently ignored", () => {
  assert.deepEqual(
    findAcpEditor(input({ configured: "${workspaceFolder}/tools/acp" }), fsWith("/w/tools/acp", "/usr/bin/acp-editor")),
    { found: true, path: "/w/tools/acp", source: "setting" },
  );
  assert.equal(expandSetting("~/x", input()), "/home/u/x");
  const r = findAcpEditor(input({ configured: "/nope" }), fsWith("/usr/bin/acp-editor"));
  assert.equal(r.found, false);
  assert.match(r.found ? "" : r.message, /acp-editor\.path is set to "\/nope"/);
});

test("nothing found: a message with the install command, and what was tried", () => {
  const r = findAcpEditor(input({ pathVariable: undefined }), fsWith());
  assert.equal(r.found, false);
  if (r.found) return;
  assert.match(r.message, /acp-editor\.server to "bundled"/);
  assert.match(r.message, /python3 -m pip install -e \./);
  assert.ok(r.tried.includes("/w/.venv/bin/acp-editor"));
});

test("Windows: Scripts folders, .exe names and ; in PATH", () => {
  const r = findAcpEditor(
    input({ platform: "win32", workspaceFolders: ["C:\\w"], pathVariable: "C:\\bin;C:\\py" }),
    fsWith("C:\\py\\acp-editor.exe"),
  );
  assert.deepEqual(r, { found: true, path: "C:\\py\\acp-editor.exe", source: "PATH" });
  const v = findAcpEditor(
    input({ platform: "win32", workspaceFolders: ["C:\\w"] }),
    fsWith("C:\\w\\.venv\\Scripts\\acp-editor.exe"),
  );
  assert.equal(v.found && v.source, "venv");
});
