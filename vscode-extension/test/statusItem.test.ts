/** The status bar item: working / waiting for you / idle, mode and model. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { currentMode, currentModel, statusItem, type StatusInput } from "../src/core/statusItem";
import type { AgentStatus, SessionSnapshot } from "../src/wire";

const READY: AgentStatus = { agent: "demo", state: "ready", command: ["demo"] };

function session(over: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return {
    sessionId: "s1",
    protocolVersion: 1,
    entries: [],
    toolCalls: {},
    plan: null,
    availableCommands: null,
    modes: {
      currentModeId: "ask",
      availableModes: [
        { id: "ask", name: "Ask" },
        { id: "code", name: "Code" },
      ],
    },
    configOptions: [
      {
        id: "model",
        name: "Model",
        category: "model",
        type: "select",
        currentValue: "demo-fast",
        options: [
          { value: "demo-fast", name: "Demo fast" },
          { value: "demo-careful", name: "Demo careful" },
        ],
      },
    ],
    usage: null,
    info: {},
    plans: null,
    runState: null,
    subagents: null,
    ...over,
  };
}

const input = (over: Partial<StatusInput> = {}): StatusInput => ({
  agent: READY,
  problem: null,
  busy: false,
  waiting: 0,
  session: session(),
  agentName: "Demo",
  ...over,
});

test("idle, working and waiting for you, with the mode and the model", () => {
  assert.equal(statusItem(input()).text, "$(comment-discussion) ACP: idle · Ask · Demo fast");
  assert.equal(statusItem(input({ busy: true })).text, "$(loading~spin) ACP: working · Ask · Demo fast");
  const waiting = statusItem(input({ busy: true, waiting: 2 }));
  assert.equal(waiting.text, "$(bell-dot) ACP: waiting for you · Ask · Demo fast");
  assert.equal(waiting.background, "statusBarItem.warningBackground");
  assert.match(waiting.tooltip, /^Demo: waiting for you \(2 questions\)\nMode: Ask\nModel: Demo fast\n/);
  assert.match(waiting.tooltip, /Click to open the chat\.$/);
  assert.equal(statusItem(input()).background, null);
});

test("the usage the agent reports is in the tooltip, its share of the context in the text", () => {
  const view = statusItem(input({ usage: "53k / 200k tokens", contextPercent: 27 }));
  assert.match(view.tooltip, /\nContext: 53k \/ 200k tokens\n/);
  assert.match(view.text, / · 27%$/);
  assert.doesNotMatch(statusItem(input({ usage: null, contextPercent: null })).text, /%/);
  assert.doesNotMatch(statusItem(input()).tooltip, /Context:/);
});

test("starting and stopped say no mode; stopped says why", () => {
  assert.equal(statusItem(input({ agent: null, session: null })).text, "$(loading~spin) ACP: starting");
  const stopped = statusItem(input({ problem: "acp-editor did not start" }));
  assert.equal(stopped.text, "$(error) ACP: stopped");
  assert.equal(stopped.background, "statusBarItem.errorBackground");
  assert.match(stopped.tooltip, /acp-editor did not start/);
  assert.equal(statusItem(input({ agent: { ...READY, state: "exited" } })).activity, "stopped");
});

test("nothing known, nothing shown: no session, no modes, no config options", () => {
  assert.equal(statusItem(input({ session: null })).text, "$(comment-discussion) ACP: idle");
  assert.equal(
    statusItem(input({ session: session({ modes: null, configOptions: null }) })).text,
    "$(comment-discussion) ACP: idle",
  );
});

test("v2: the mode is a config option, the run state says working or waiting", () => {
  const v2 = session({
    modes: null,
    configOptions: [
      {
        id: "mode",
        category: "mode",
        type: "select",
        currentValue: "code",
        options: [{ value: "code", name: "Code" }],
      },
      {
        id: "model",
        category: "model",
        type: "select",
        currentValue: "big",
        options: [{ group: "g", name: "Group", options: [{ value: "big", name: "Big model" }] }],
      },
    ],
  });
  assert.equal(currentMode(v2), "Code");
  assert.equal(currentModel(v2), "Big model");
  assert.equal(statusItem(input({ session: { ...v2, runState: { state: "running" } } })).activity, "working");
  assert.equal(statusItem(input({ session: { ...v2, runState: { state: "requires_action" } } })).activity, "waiting");
});

test("an unknown value is shown as the agent sent it", () => {
  const odd = session({
    modes: { currentModeId: "secret", availableModes: [] },
    configOptions: [{ id: "m", category: "model", currentValue: "x-1", options: [] }],
  });
  assert.equal(currentMode(odd), "secret");
  assert.equal(currentModel(odd), "x-1");
});
