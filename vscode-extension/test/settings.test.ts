/** Settings: parsing with defaults and problems, the agent choice, the sidecar's command line. */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  DEFAULTS,
  chooseAgent,
  initializationOptions,
  needsRestart,
  parseSettings,
  serverArgs,
  serverEnv,
} from "../src/core/settings";
import { FEATURES } from "../src/protocol";

const from = (values: Record<string, unknown>) => parseSettings((k) => values[k]);

test("nothing set: the defaults, no problems; auto-approve is off", () => {
  const { settings, problems } = from({});
  assert.deepEqual(settings, DEFAULTS);
  assert.deepEqual(problems, []);
  assert.deepEqual(settings.autoApprove, []);
});

test("good values are taken, bad ones reported and replaced by defaults", () => {
  const { settings, problems } = from({
    follow: false,
    review: "before-write",
    autoApprove: [" read ", "", "execute:npm test"],
    trace: "yes",
    serverArgs: [1],
    path: " ~/bin/acp-editor ",
  });
  assert.equal(settings.follow, false);
  assert.equal(settings.review, "before-write");
  assert.deepEqual(settings.autoApprove, ["read", "execute:npm test"]);
  assert.equal(settings.trace, false);
  assert.deepEqual(settings.serverArgs, []);
  assert.equal(settings.path, "~/bin/acp-editor");
  assert.equal(problems.length, 2);
  assert.match(problems[0] ?? "", /acp-editor\.trace/);
  const bad = from({ review: "sometimes" });
  assert.equal(bad.settings.review, "after-write");
  assert.match(bad.problems[0] ?? "", /unknown mode "sometimes"/);
});

test("agents: well-formed ones kept, others skipped with a reason", () => {
  const { settings, problems } = from({
    agents: [
      { name: "claude", command: "npx", args: ["@zed-industries/claude-code-acp", 3], env: { KEY: "v", N: 1 } },
      { name: "", command: "x" },
      "nonsense",
      { name: "demo", command: "python", args: ["-m", "acp_editor.demo_agent"] },
    ],
  });
  assert.deepEqual(settings.agents, [
    { name: "claude", command: "npx", args: ["@zed-industries/claude-code-acp"], env: { KEY: "v" } },
    { name: "demo", command: "python", args: ["-m", "acp_editor.demo_agent"], env: {} },
  ]);
  assert.equal(problems.length, 3);
  assert.deepEqual(from({ agents: {} }).problems, ["acp-editor.agents: not a list (no agents configured)"]);
});

test("the agent: picked, else default, else the first, else none; an unknown name is an error", () => {
  const a = { name: "a", command: "a", args: [], env: {} };
  const b = { name: "b", command: "b", args: ["--x"], env: { K: "1" } };
  const s = { ...DEFAULTS, agents: [a, b] };
  assert.equal(chooseAgent(s), a);
  assert.equal(chooseAgent({ ...s, defaultAgent: "b" }), b);
  assert.equal(chooseAgent(s, "b"), b);
  assert.equal(chooseAgent(DEFAULTS), null);
  assert.deepEqual(chooseAgent(s, "c"), { error: 'No agent named "c" in acp-editor.agents (configured: a, b).' });
});

test("the command line: --stdio, trace, extras, then -- AGENT ARGS", () => {
  const b = { name: "b", command: "b", args: ["--x"], env: { K: "1" } };
  assert.deepEqual(serverArgs(DEFAULTS, null), ["--stdio"]);
  const asks = { name: "c", command: "claude-agent-acp", args: [], env: {}, mode: "default" };
  assert.deepEqual(from({ agents: [{ name: "c", command: "claude-agent-acp", mode: " default " }] }).settings.agents, [
    asks,
  ]);
  assert.deepEqual(serverArgs(DEFAULTS, asks), ["--stdio", "--mode", "default", "--", "claude-agent-acp"]);
  assert.deepEqual(serverArgs({ ...DEFAULTS, trace: true, serverArgs: ["--protocol-version", "2"] }, b), [
    "--stdio",
    "--log-level",
    "DEBUG",
    "--protocol-version",
    "2",
    "--",
    "b",
    "--x",
  ]);
  // An agent that speaks the v2 draft is offered it.
  const v2 = from({
    agents: [
      { name: "d", command: "demo", protocolVersion: 2 },
      { name: "e", command: "e", protocolVersion: 3 },
    ],
  });
  assert.deepEqual(v2.settings.agents[0], { name: "d", command: "demo", args: [], env: {}, protocolVersion: 2 });
  assert.equal(v2.settings.agents[1]?.protocolVersion, undefined);
  assert.match(v2.problems.join("\n"), /agents\[1\]\.protocolVersion: must be 1 or 2/);
  assert.deepEqual(serverArgs(DEFAULTS, v2.settings.agents[0] ?? null), [
    "--stdio",
    "--protocol-version",
    "2",
    "--",
    "demo",
  ]);
  // An explicit --log-level in serverArgs wins over trace.
  assert.deepEqual(serverArgs({ ...DEFAULTS, trace: true, serverArgs: ["--log-level", "INFO"] }, null), [
    "--stdio",
    "--log-level",
    "INFO",
  ]);
  assert.deepEqual(serverEnv({ PATH: "/bin", GONE: undefined, K: "0" }, b), { PATH: "/bin", K: "1" });
});

test("initialization options declare every feature and carry the review settings", () => {
  const o = initializationOptions({
    ...DEFAULTS,
    follow: false,
    review: "off",
    autoApprove: ["read"],
    tellAgentRejections: true,
  });
  assert.deepEqual(o, {
    acp: {
      features: [...FEATURES],
      savesAfterApply: false,
      follow: false,
      review: "off",
      tellAgentRejections: true,
      autoApprove: ["read"],
      editorContext: true,
      mcpServers: [],
    },
  });
});

test("the editor-context server and the user's own MCP servers reach the sidecar; changing them restarts it", () => {
  const mine = { name: "mine", command: "my-mcp" };
  const parsed = from({ editorContext: false, mcpServers: [mine] });
  assert.deepEqual(initializationOptions(parsed.settings).acp?.mcpServers, [mine]);
  assert.equal(initializationOptions(parsed.settings).acp?.editorContext, false);
  assert.ok(needsRestart(DEFAULTS, parsed.settings));
  const bad = from({ mcpServers: ["not an object"] });
  assert.deepEqual(bad.settings.mcpServers, []);
  assert.match(bad.problems[0] ?? "", /mcpServers: not a list of objects/);
});

test("a restart is needed for command-line and init changes, not for follow (of every session) or the notice", () => {
  assert.equal(needsRestart(DEFAULTS, { ...DEFAULTS, follow: false }), false);
  assert.equal(needsRestart(DEFAULTS, { ...DEFAULTS, followAllSessions: true }), false);
  assert.equal(DEFAULTS.followAllSessions, false);
  assert.equal(from({ followAllSessions: true }).settings.followAllSessions, true);
  assert.match(
    from({ followAllSessions: "all" }).problems[0] ?? "",
    /acp-editor\.followAllSessions: not true or false/,
  );
  assert.equal(needsRestart(DEFAULTS, { ...DEFAULTS, turnEndNotice: false }), false);
  assert.equal(from({ turnEndNotice: false }).settings.turnEndNotice, false);
  assert.equal(needsRestart(DEFAULTS, { ...DEFAULTS, trace: true }), true);
  assert.equal(needsRestart(DEFAULTS, { ...DEFAULTS, autoApprove: ["read"] }), true);
});

test("a registry agent runs through the sidecar's --agent when no default agent is named", () => {
  const agents = [{ name: "mine", command: "my-agent", args: [], env: {} }];
  const s = { ...DEFAULTS, agents, registryAgent: "gemini" };
  assert.equal(chooseAgent(s), null);
  assert.deepEqual(serverArgs(s, null).slice(-2), ["--agent", "gemini"]);
  const named = { ...s, defaultAgent: "mine" };
  const picked = chooseAgent(named);
  assert.ok(picked !== null && !("error" in picked) && picked.name === "mine");
  assert.ok(!serverArgs(named, picked).includes("--agent"));
});

test("every configured agent goes to the sidecar by name, so sessions of several can run (issue 28)", () => {
  const { settings } = from({
    agents: [
      { name: "claude", command: "npx", args: ["@agentclientprotocol/claude-agent-acp"], mode: "default" },
      { name: "codex", command: "codex-acp", env: { CODEX_HOME: "/h" } },
    ],
  });
  assert.deepEqual(initializationOptions(settings).acp?.agents, {
    claude: { command: ["npx", "@agentclientprotocol/claude-agent-acp"], mode: "default" },
    codex: { command: ["codex-acp"], env: { CODEX_HOME: "/h" } },
  });
  assert.equal(initializationOptions(DEFAULTS).acp?.agents, undefined, "none configured: none sent");
});
