/**
 * The session mirror: the snapshot shape and the one function that applies a change.
 *
 * A port of acp_editor/session/reducer.py. The server builds its own snapshot by applying these
 * same changes, so a mirror that starts from `emptySnapshot` and applies every change of
 * `acp/sessionChanged` in order equals the server's `acp/snapshot`. The fixtures in
 * tests/fixtures/reducer/ (scripts/reducer_fixtures.py) are produced by the Python state and
 * replayed here (and by the Lua mirror), so the two
 * implementations cannot drift apart silently.
 *
 * Pure and DOM-free: the extension host and the webview both bundle it.
 */

import type { SessionSnapshot, ToolCall } from "../wire";

/** Thrown when a change does not fit the mirror (a missed or repeated change, an unknown type):
 *  the caller should fetch a fresh `acp/snapshot` rather than render a wrong state. */
export class MirrorError extends Error {}

/** Change types that replace one snapshot field whole, carried under the field's own name. */
const REPLACEMENTS: Readonly<Record<string, keyof SessionSnapshot>> = {
  plan: "plan",
  commands: "availableCommands",
  modes: "modes",
  config_options: "configOptions",
  usage: "usage",
  info: "info",
  plans: "plans",
  run_state: "runState",
  subagents: "subagents",
};

export function emptySnapshot(sessionId: string, protocolVersion: number): SessionSnapshot {
  return {
    sessionId,
    protocolVersion,
    entries: [],
    toolCalls: {},
    plan: null,
    availableCommands: null,
    modes: null,
    configOptions: null,
    usage: null,
    info: {},
    plans: null,
    runState: null,
    subagents: null,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Bare `{type: "text", text}` with no other key: only such blocks may be merged, because
 *  annotations or `_meta` belong to one block and merging would drop or smear them. */
export function isPlainText(block: unknown): block is { type: "text"; text: string } {
  return (
    isObject(block) && Object.keys(block).length === 2 && block["type"] === "text" && typeof block["text"] === "string"
  );
}

function clone<T>(value: T): T {
  // JSON payloads only; structuredClone keeps -0, large numbers and key order as JSON.parse would.
  return value === undefined ? value : structuredClone(value);
}

/** Append a streamed block, merging consecutive plain text blocks into one. */
export function appendBlock(content: unknown[], block: unknown): void {
  const last = content[content.length - 1];
  if (content.length > 0 && isPlainText(block) && isPlainText(last)) {
    content[content.length - 1] = { type: "text", text: last.text + block.text };
  } else {
    content.push(clone(block));
  }
}

function toolCallRecord(snapshot: SessionSnapshot, id: string): ToolCall {
  let record = snapshot.toolCalls[id];
  if (record === undefined) {
    record = { toolCallId: id };
    snapshot.toolCalls[id] = record;
  }
  return record;
}

/** Like `record[name] = value`, but a `__proto__` key from the wire stays a plain field. */
function setOwn(record: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
}

function field(change: Record<string, unknown>, name: string): unknown {
  if (!(name in change)) {
    throw new MirrorError(`${String(change["type"])} change without its "${name}" member`);
  }
  return change[name];
}

/** Apply one change in place. Values are copied in, so the caller may keep or forward it. */
export function applyChange(snapshot: SessionSnapshot, change: unknown): void {
  if (!isObject(change)) throw new MirrorError("a change must be an object");
  const type = change["type"];
  switch (type) {
    case "entry": {
      const index = field(change, "index");
      if (index !== snapshot.entries.length) {
        throw new MirrorError(
          `entry change for index ${String(index)} but the transcript has ` +
            `${snapshot.entries.length} entries: a change was missed or applied twice`,
        );
      }
      snapshot.entries.push(clone(field(change, "entry")) as SessionSnapshot["entries"][number]);
      return;
    }
    case "message_chunk": {
      const index = field(change, "index");
      const entry = typeof index === "number" ? snapshot.entries[index] : undefined;
      if (entry === undefined || entry.kind !== "message" || !Array.isArray(entry.content)) {
        throw new MirrorError(`message_chunk for entry ${String(index)}, which is not a message`);
      }
      appendBlock(entry.content, field(change, "content"));
      return;
    }
    case "message": {
      const index = field(change, "index");
      const entry = typeof index === "number" ? snapshot.entries[index] : undefined;
      if (entry === undefined || entry.kind !== "message") {
        throw new MirrorError(`message change for entry ${String(index)}, which is not a message`);
      }
      const record = entry as unknown as Record<string, unknown>;
      const set = field(change, "set");
      const unset = field(change, "unset");
      if (isObject(set)) for (const [name, value] of Object.entries(set)) setOwn(record, name, clone(value));
      if (Array.isArray(unset)) for (const name of unset) delete record[String(name)];
      return;
    }
    case "tool_call": {
      const record = toolCallRecord(snapshot, String(field(change, "toolCallId")));
      const set = field(change, "set");
      const unset = field(change, "unset");
      if (isObject(set)) for (const [name, value] of Object.entries(set)) setOwn(record, name, clone(value));
      if (Array.isArray(unset)) for (const name of unset) delete record[String(name)];
      return;
    }
    case "tool_call_content": {
      const record = toolCallRecord(snapshot, String(field(change, "toolCallId")));
      const item = clone(field(change, "content"));
      // Absent or malformed (an agent sent a non-array): the chunk starts a fresh list.
      if (Array.isArray(record.content)) record.content.push(item);
      else record.content = [item];
      return;
    }
    default: {
      const target = typeof type === "string" ? REPLACEMENTS[type] : undefined;
      if (target === undefined) {
        throw new MirrorError(`unknown session change type: ${JSON.stringify(type)}`);
      }
      (snapshot as unknown as Record<string, unknown>)[target] = clone(field(change, target));
    }
  }
}

/** Apply a batch in order; on a MirrorError the snapshot holds every change before the bad one. */
export function applyChanges(snapshot: SessionSnapshot, changes: readonly unknown[]): void {
  for (const change of changes) applyChange(snapshot, change);
}
