/**
 * End to end without VS Code: the real `acp-editor --stdio` with the scripted demo agent, spoken
 * to through vscode-languageserver-protocol with the extension's own pieces (protocol.ts
 * constants, initialization options, Store, permission wording). Checks that the TypeScript mirror
 * fed by every `acp/sessionChanged` equals the server's `acp/snapshot`, and that diffs, review
 * hunks, terminals, follow and permissions arrive as the UI expects.
 *
 * Skipped when no acp-editor is found (set ACP_EDITOR, or have the repository's .venv / PATH).
 */

import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import {
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type ProtocolConnection,
} from "vscode-languageserver-protocol/node";
import { findAcpEditor } from "../src/core/discovery";
import { isAllow } from "../src/core/format";
import { DEFAULTS, initializationOptions } from "../src/core/settings";
import { Store } from "../src/core/store";
import * as P from "../src/protocol";
import type * as w from "../src/wire";
import { REPO } from "./helpers";

function executable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

const found = process.env["ACP_EDITOR"]
  ? { found: true as const, path: process.env["ACP_EDITOR"] }
  : findAcpEditor(
      {
        configured: "",
        workspaceFolders: [REPO],
        pathVariable: process.env["PATH"],
        platform: process.platform,
        home: os.homedir(),
      },
      { isExecutable: executable },
    );

interface Live {
  conn: ProtocolConnection;
  child: ChildProcessWithoutNullStreams;
  store: Store;
  asked: w.RequestPermissionParams[];
  follows: w.FollowParams[];
  workspace: string;
}

async function start(): Promise<Live> {
  assert.ok(found.found);
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "acp-vscode-live-"));
  fs.writeFileSync(path.join(workspace, "hello.py"), 'print("hello")\nx = 1\ny = 2\nz = 3\n');
  // The tests' agent (the demo agent plus test-only switches such as --fast), by absolute path
  // since the cwd is the workspace, under the same Python as the acp-editor found (its venv's).
  const python = path.join(path.dirname(found.path), "python");
  const scripted = path.join(REPO, "tests", "agents", "scripted.py");
  const agent = executable(python) ? [python, scripted, "--fast"] : [];
  const child = spawn(found.path, ["--stdio", ...(agent.length ? ["--", ...agent] : [])], { cwd: workspace });
  child.stderr.resume();
  const conn = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const live: Live = { conn, child, store: new Store(), asked: [], follows: [], workspace };
  const s = live.store;
  conn.onNotification(P.SESSION_CHANGED, (p) => assert.ok(s.sessionChanged(p), "the mirror lost track"));
  conn.onNotification(P.AGENT_STATUS, (p) => s.setAgent(p));
  conn.onNotification(P.FOLLOW, (p) => live.follows.push(p));
  conn.onNotification(P.DIFF, (p) => s.diff(p));
  conn.onNotification(P.TERMINAL_OUTPUT, (p) => s.terminalOutput(p));
  conn.onNotification(P.TERMINAL_EXIT, (p) => s.terminalExit(p.sessionId, p.terminalId, p.exitStatus));
  conn.onNotification(P.REVIEW_CHANGED, (p) => s.reviewChanged(p.hunks));
  conn.onRequest(P.REQUEST_PERMISSION, (p) => {
    live.asked.push(p);
    return { optionId: p.options.find((o) => o.kind === "allow_once" || isAllow(o))?.optionId ?? null };
  });
  conn.onRequest(P.CHOOSE_AUTH_METHOD, () => ({ methodId: null }));
  conn.onNotification("window/logMessage", () => undefined);
  conn.onRequest("workspace/applyEdit", () => ({ applied: false }));
  conn.listen();
  await conn.sendRequest("initialize", {
    processId: process.pid,
    rootUri: `file://${workspace}`,
    workspaceFolders: [{ uri: `file://${workspace}`, name: "w" }],
    capabilities: {},
    initializationOptions: initializationOptions(DEFAULTS),
  });
  await conn.sendNotification("initialized", {});
  return live;
}

async function stop(live: Live): Promise<void> {
  try {
    await Promise.race([live.conn.sendRequest("shutdown"), new Promise((r) => setTimeout(r, 3000))]);
    await live.conn.sendNotification("exit");
  } finally {
    live.conn.dispose();
    const exited = new Promise((r) => live.child.once("exit", r));
    setTimeout(() => live.child.kill("SIGKILL"), 3000).unref();
    await exited;
    fs.rmSync(live.workspace, { recursive: true, force: true });
  }
}

test(
  "the TypeScript mirror equals the server's snapshot after a full demo turn",
  { skip: found.found ? false : "acp-editor not found", timeout: 60_000 },
  async () => {
    const live = await start();
    try {
      const created = await live.conn.sendRequest(P.NEW_SESSION, { cwd: live.workspace });
      live.store.setSession(created.snapshot);
      const result = await live.conn.sendRequest(P.PROMPT, {
        sessionId: created.sessionId,
        prompt: [{ type: "text", text: "all hunks" }],
      });
      assert.equal(result.stopReason, "end_turn");
      const snap = await live.conn.sendRequest(P.SNAPSHOT, { sessionId: created.sessionId });
      const server = snap.sessions.find((x) => x.sessionId === created.sessionId);
      assert.deepEqual(live.store.current(), server);

      const kinds = new Set(Object.values(server?.toolCalls ?? {}).map((t) => t.kind));
      assert.ok(kinds.has("read") && kinds.has("edit") && kinds.has("execute"), [...kinds].join(","));
      assert.ok(live.asked.length > 0, "the agent asked for permission");
      assert.ok(
        live.follows.some((f) => f.uri.endsWith("/hello.py")),
        "follow reached hello.py",
      );
      assert.ok(live.store.diffs.size > 0, "acp/diff arrived");
      const terminal = [...live.store.terminals.values()][0];
      assert.match(terminal?.output ?? "", /hello from the demo agent/);
      assert.deepEqual(terminal?.exitStatus, { exitCode: 0, signal: null });

      const pending = live.store.pendingHunks();
      assert.ok(pending.length >= 2, `pending hunks: ${pending.length}`);
      // The newest hunk: older ones may have been edited over by later scenarios (then they
      // cannot be reverted safely, and stay pending with an error, as the protocol says).
      const decided = await live.conn.sendRequest(P.REVIEW_DECIDE, {
        decision: "reject",
        hunkIds: [pending[pending.length - 1]?.hunkId ?? ""],
      });
      assert.deepEqual(
        decided.results.map((r) => r.state),
        ["rejected"],
        JSON.stringify(decided.results),
      );
      const accepted = await live.conn.sendRequest(P.REVIEW_DECIDE, { decision: "accept", all: true });
      assert.ok(
        accepted.results.every((r) => r.state === "accepted"),
        JSON.stringify(accepted.results),
      );
      // acp/reviewChanged is published from a short server-side timer, not before the answer.
      const deadline = Date.now() + 5000;
      while (live.store.pendingHunks().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(live.store.pendingHunks(), []);
    } finally {
      await stop(live);
    }
  },
);
