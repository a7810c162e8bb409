/** protocol.ts agrees with docs/protocol.md and with package.json (commands, view, settings).
 *  Its tables are generated from the document (scripts/protocol_tables.py, kept current by
 *  tests/unit/protocol/test_editor_names.py); this checks what protocol.ts exports at run time. */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { NotificationType, RequestType } from "vscode-languageserver-protocol";
import * as P from "../src/protocol";
import { DEFAULTS } from "../src/core/settings";
import { REPO, ROOT } from "./helpers";

const doc = fs.readFileSync(path.join(REPO, "docs", "protocol.md"), "utf8");
/** The parts of package.json these tests read. */
interface Package {
  contributes: {
    commands: { command: string }[];
    keybindings: { command: string; key: string; mac: string; when?: string }[];
    views: Record<string, { id: string }[]>;
    configuration: { properties: Record<string, { default: unknown }> };
    walkthroughs: { steps: { media: { markdown: string }; completionEvents: string[] }[] }[];
  };
}
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as Package;

function section(name: string): string {
  const m = new RegExp(`<!-- ${name} -->([\\s\\S]*?)<!-- /${name} -->`).exec(doc);
  assert.ok(m, `docs/protocol.md has no ${name} section`);
  return m[1] ?? "";
}

function docMessages(): Map<string, { direction: string; kind: string }> {
  const found = new Map<string, { direction: string; kind: string }>();
  for (const block of section("messages").split(/^### /m).slice(1)) {
    const method = /^`(acp\/\w+)`/.exec(block)?.[1];
    const dir = /\*\*Direction:\*\* (.+?), (request|notification)\s*$/m.exec(block);
    assert.ok(method && dir, `unparsable message block: ${block.slice(0, 40)}`);
    found.set(method, { direction: dir[1] ?? "", kind: dir[2] ?? "" });
  }
  return found;
}

const upperSnake = (method: string): string =>
  method
    .replace(/^acp\//, "")
    .replace(/([A-Z])/g, "_$1")
    .toUpperCase();

const typed = Object.entries(P).filter(([, v]) => v instanceof RequestType || v instanceof NotificationType) as [
  string,
  RequestType<unknown, unknown, unknown> | NotificationType<unknown>,
][];

test("every documented message is in the table with its direction and kind, and back", () => {
  assert.deepEqual(new Map(Object.entries(P.MESSAGES)), docMessages());
});

test("each typed constant is named after its method and has the table's kind", () => {
  assert.equal(typed.length, Object.keys(P.MESSAGES).length);
  for (const [name, type] of typed) {
    assert.equal(name, upperSnake(type.method));
    const kind = type instanceof RequestType ? "request" : "notification";
    assert.equal(P.MESSAGES[type.method]?.kind, kind, type.method);
  }
});

test("features and zero-plugin commands are the document's, in its order", () => {
  const column = (name: string): string[] => [...section(name).matchAll(/^\| `([^`]+)`/gm)].map((m) => m[1] ?? "");
  assert.deepEqual([...P.FEATURES], column("features"));
  assert.deepEqual([...P.ZERO_PLUGIN_COMMANDS], column("commands"));
  assert.ok(P.ZERO_PLUGIN_COMMANDS.includes(P.TRANSCRIPT_COMMAND));
});

test("every keybinding runs one of the extension's commands, on every platform, once per key", () => {
  const ours = new Set<string>(Object.values(P.COMMANDS));
  const keys = new Set<string>();
  for (const k of pkg.contributes.keybindings) {
    assert.ok(ours.has(k.command), k.command);
    assert.ok(k.key && k.mac, `${k.command} has no key for every platform`);
    assert.ok(!keys.has(k.key) && !keys.has(k.mac), `${k.key} twice`);
    keys.add(k.key).add(k.mac);
  }
  // The hunk keys act on the hunk at the cursor only; cancel only while a turn runs.
  const when = (command: string): string | undefined =>
    pkg.contributes.keybindings.find((k) => k.command === command)?.when;
  assert.match(when(P.COMMANDS.acceptHunk) ?? "", /acp-editor\.hunkAtCursor/);
  assert.match(when(P.COMMANDS.rejectHunk) ?? "", /acp-editor\.hunkAtCursor/);
  assert.match(when(P.COMMANDS.cancel) ?? "", /acp-editor\.busy/);
});

test("the extension's commands are exactly package.json's contributed commands", () => {
  const contributed = pkg.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual(Object.values(P.COMMANDS).sort(), contributed);
});

test("the chat view id is the one package.json contributes", () => {
  const views = Object.values(pkg.contributes.views)
    .flat()
    .map((v) => v.id);
  assert.ok(views.includes(P.CHAT_VIEW));
});

test("package.json declares every setting the settings reader knows, and no other", () => {
  const declared = Object.keys(pkg.contributes.configuration.properties).sort();
  assert.deepEqual(
    declared,
    Object.keys(DEFAULTS)
      .map((k) => `acp-editor.${k}`)
      .sort(),
  );
  for (const [key, value] of Object.entries(DEFAULTS)) {
    assert.deepEqual(pkg.contributes.configuration.properties[`acp-editor.${key}`]?.default, value, key);
  }
});

test("the walkthrough's pages are in the .vsix and its steps complete on real commands", () => {
  const commands = new Set(pkg.contributes.commands.map((c) => c.command));
  const shipped = fs.readFileSync(path.join(ROOT, ".vscodeignore"), "utf8");
  for (const walk of pkg.contributes.walkthroughs) {
    for (const step of walk.steps) {
      assert.ok(fs.existsSync(path.join(ROOT, step.media.markdown)), step.media.markdown);
      assert.ok(
        shipped.includes("!media/walkthrough/**") && step.media.markdown.startsWith("media/walkthrough/"),
        step.media.markdown,
      );
      for (const event of step.completionEvents.filter((e) => e.startsWith("onCommand:"))) {
        assert.ok(commands.has(event.slice("onCommand:".length)), event);
      }
    }
  }
});
