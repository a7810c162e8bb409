/**
 * The payload types of the acp-editor editor protocol, as docs/protocol.md declares them.
 *
 * Every payload type is generated from the document's ts blocks into wire.generated.ts
 * (`python scripts/protocol_types.py`; its `--check` runs in the repository's tests) and
 * re-exported here; this file adds only what is not a payload's shape. Types only: no runtime
 * code, so the webview bundle and the unit tests can import them freely. Payloads that come from
 * the agent keep an index signature: the server passes unknown fields, kinds and statuses on
 * verbatim and the UI must render what it does not know generically.
 */

export type * from "./wire.generated";
import type { RestoreCheckpointResult } from "./wire.generated";

/** A JSON value: what every agent payload is, whatever its declared shape. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The result of `acp/restoreCheckpoint` (and of the `acp.restoreCheckpoint` command). */
export type RestoreResult = RestoreCheckpointResult;
