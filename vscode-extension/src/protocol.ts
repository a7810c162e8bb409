/**
 * The acp-editor editor protocol in TypeScript: a mirror of docs/protocol.md (the source of truth).
 *
 * tests/unit/protocol/test_protocol_mirror.py parses this file and fails when it drifts from the
 * document, so keep its line format. Between `// <name>` and `// </name>` every line that is not
 * blank or a comment is exactly one entry:
 *   messages:  `export const NAME = new RequestType<P, R, void>("acp/x");`
 *              or `export const NAME = new NotificationType<P>("acp/x");`
 *              (NAME is the method's name in UPPER_SNAKE_CASE)
 *   table:     `  "acp/x": { direction: "editor → server", kind: "request" },`
 *   features, zero_plugin_commands, permission_kinds:  `  "name",`
 * Every other module takes method, feature and command names from here, never from literals.
 * Only `vscode-languageserver-protocol` is imported, so this loads under plain `node --test`.
 */

import { NotificationType, RequestType } from "vscode-languageserver-protocol";
import type * as w from "./wire";

// <messages>
export const NEW_SESSION = new RequestType<w.NewSessionParams, w.NewSessionResult, void>("acp/newSession");
export const PROMPT = new RequestType<w.PromptParams, w.PromptResult, void>("acp/prompt");
export const CANCEL = new RequestType<w.CancelParams, w.CancelResult, void>("acp/cancel");
export const SNAPSHOT = new RequestType<w.SnapshotParams, w.SnapshotResult, void>("acp/snapshot");
export const SET_MODE = new RequestType<w.SetModeParams, w.SetModeResult, void>("acp/setMode");
export const SET_CONFIG_OPTION = new RequestType<w.SetConfigOptionParams, w.SetConfigOptionResult, void>("acp/setConfigOption");
export const LIST_SESSIONS = new RequestType<w.ListSessionsParams, w.ListSessionsResult, void>("acp/listSessions");
export const LOAD_SESSION = new RequestType<w.LoadSessionParams, w.LoadSessionResult, void>("acp/loadSession");
export const SET_FOLLOW = new RequestType<w.SetFollowParams, w.SetFollowResult, void>("acp/setFollow");
export const SESSION_CHANGED = new NotificationType<w.SessionChangedParams>("acp/sessionChanged");
export const AGENT_STATUS = new NotificationType<w.AgentStatusParams>("acp/agentStatus");
export const FOLLOW = new NotificationType<w.FollowParams>("acp/follow");
export const DIFF = new NotificationType<w.DiffParams>("acp/diff");
export const TERMINAL_OUTPUT = new NotificationType<w.TerminalOutputParams>("acp/terminalOutput");
export const TERMINAL_EXIT = new NotificationType<w.TerminalExitParams>("acp/terminalExit");
export const REQUEST_PERMISSION = new RequestType<w.RequestPermissionParams, w.RequestPermissionResult, void>("acp/requestPermission");
export const CHOOSE_AUTH_METHOD = new RequestType<w.ChooseAuthMethodParams, w.ChooseAuthMethodResult, void>("acp/chooseAuthMethod");
export const ELICIT = new RequestType<w.ElicitParams, w.ElicitResult, void>("acp/elicit");
export const DIAGNOSTICS = new RequestType<w.DiagnosticsParams, w.DiagnosticsResult, void>("acp/diagnostics");
export const SELECTION = new RequestType<w.SelectionParams, w.SelectionResult, void>("acp/selection");
export const REVIEW_CHANGED = new NotificationType<w.ReviewChangedParams>("acp/reviewChanged");
export const REVIEW_DECIDE = new RequestType<w.ReviewDecideParams, w.ReviewDecideResult, void>("acp/reviewDecide");
export const REVIEW_GROUP_FILES = new RequestType<w.ReviewGroupFilesParams, w.ReviewGroupFilesResult, void>("acp/reviewGroupFiles");
export const RESTORE_CHECKPOINT = new RequestType<w.RestoreCheckpointParams, w.RestoreResult, void>("acp/restoreCheckpoint");
export const DELETE_SESSION = new RequestType<w.DeleteSessionParams, w.DeleteSessionResult, void>("acp/deleteSession");
export const FORK_SESSION = new RequestType<w.ForkSessionParams, w.NewSessionResult, void>("acp/forkSession");
export const LOGOUT = new RequestType<w.LogoutParams, w.LogoutResult, void>("acp/logout");
// </messages>

export type Direction = "editor → server" | "server → editor";
export type Kind = "request" | "notification";

/** Every message with its direction, as the document's **Direction** lines say. */
export const MESSAGES: Readonly<Record<string, { direction: Direction; kind: Kind }>> = {
  // <table>
  "acp/newSession": { direction: "editor → server", kind: "request" },
  "acp/prompt": { direction: "editor → server", kind: "request" },
  "acp/cancel": { direction: "editor → server", kind: "request" },
  "acp/snapshot": { direction: "editor → server", kind: "request" },
  "acp/setMode": { direction: "editor → server", kind: "request" },
  "acp/setConfigOption": { direction: "editor → server", kind: "request" },
  "acp/listSessions": { direction: "editor → server", kind: "request" },
  "acp/loadSession": { direction: "editor → server", kind: "request" },
  "acp/setFollow": { direction: "editor → server", kind: "request" },
  "acp/sessionChanged": { direction: "server → editor", kind: "notification" },
  "acp/agentStatus": { direction: "server → editor", kind: "notification" },
  "acp/follow": { direction: "server → editor", kind: "notification" },
  "acp/diff": { direction: "server → editor", kind: "notification" },
  "acp/terminalOutput": { direction: "server → editor", kind: "notification" },
  "acp/terminalExit": { direction: "server → editor", kind: "notification" },
  "acp/requestPermission": { direction: "server → editor", kind: "request" },
  "acp/chooseAuthMethod": { direction: "server → editor", kind: "request" },
  "acp/elicit": { direction: "server → editor", kind: "request" },
  "acp/reviewChanged": { direction: "server → editor", kind: "notification" },
  "acp/reviewDecide": { direction: "editor → server", kind: "request" },
  "acp/reviewGroupFiles": { direction: "editor → server", kind: "request" },
  "acp/restoreCheckpoint": { direction: "editor → server", kind: "request" },
  "acp/deleteSession": { direction: "editor → server", kind: "request" },
  "acp/forkSession": { direction: "editor → server", kind: "request" },
  "acp/logout": { direction: "editor → server", kind: "request" },
  "acp/diagnostics": { direction: "server → editor", kind: "request" },
  "acp/selection": { direction: "server → editor", kind: "request" },
  // </table>
};

/** The rich features, in the order of the document's table; this extension declares them all. */
export const FEATURES: readonly string[] = [
  // <features>
  "stream",
  "follow",
  "permissions",
  "diffs",
  "terminals",
  "auth",
  "review",
  "elicit",
  "context",
  // </features>
];

/** The zero-plugin commands (`workspace/executeCommand`). The extension itself sends the acp/...
 *  requests instead; these are listed so the drift test covers the whole document. */
export const ZERO_PLUGIN_COMMANDS: readonly string[] = [
  // <zero_plugin_commands>
  "acp.prompt",
  "acp.promptAsync",
  "acp.transcript",
  "acp.cancel",
  "acp.newSession",
  "acp.setMode",
  "acp.follow",
  "acp.status",
  "acp.restoreCheckpoint",
  "acp.acceptHunk",
  "acp.rejectHunk",
  "acp.acceptFile",
  "acp.rejectFile",
  "acp.acceptAll",
  "acp.rejectAll",
  "acp.acceptGroup",
  "acp.rejectGroup",
  "acp.groupFiles",
  "acp.takeAgentVersion",
  "acp.keepMine",
  "acp.deleteSession",
  "acp.forkSession",
  "acp.logout",
  // </zero_plugin_commands>
];

/** The permission option kinds the document names; any other kind is shown generically. */
export const PERMISSION_KINDS: readonly string[] = [
  // <permission_kinds>
  "allow_once",
  "allow_always",
  "reject_once",
  "reject_always",
  // </permission_kinds>
];

export const REVIEW_MODES = ["after-write", "before-write", "off"] as const;

/** JSON-RPC error codes of the document's "Errors" table. */
export const ERROR_AGENT_UNAVAILABLE = -32050;
export const ERROR_REQUEST_CANCELLED = -32800;

/** This extension's VS Code commands (package.json `contributes.commands`; a unit test checks
 *  the two lists agree). Integration tests drive the extension through these. */
export const COMMANDS = {
  prompt: "acp-editor.prompt",
  cancel: "acp-editor.cancel",
  newSession: "acp-editor.newSession",
  loadSession: "acp-editor.loadSession",
  setMode: "acp-editor.setMode",
  toggleFollow: "acp-editor.toggleFollow",
  showDiff: "acp-editor.showDiff",
  acceptHunk: "acp-editor.acceptHunk",
  rejectHunk: "acp-editor.rejectHunk",
  acceptToolCall: "acp-editor.acceptToolCall",
  rejectToolCall: "acp-editor.rejectToolCall",
  acceptFile: "acp-editor.acceptFile",
  rejectFile: "acp-editor.rejectFile",
  acceptAll: "acp-editor.acceptAll",
  rejectAll: "acp-editor.rejectAll",
  acceptGroup: "acp-editor.acceptGroup",
  rejectGroup: "acp-editor.rejectGroup",
  showGroupFiles: "acp-editor.showGroupFiles",
  attachSelection: "acp-editor.attachSelection",
  attachFile: "acp-editor.attachFile",
  restart: "acp-editor.restart",
  showLog: "acp-editor.showLog",
  focusChat: "acp-editor.focusChat",
  chooseRegistryAgent: "acp-editor.chooseRegistryAgent",
  forkSession: "acp-editor.forkSession",
  deleteSession: "acp-editor.deleteSession",
  logout: "acp-editor.logout",
  undoTurn: "acp-editor.undoTurn",
} as const;

/** The chat view's id (package.json `contributes.views`). */
export const CHAT_VIEW = "acp-editor.chat";
/** The scheme of the read-only documents holding proposed text for diff editors. */
export const PROPOSED_SCHEME = "acp-proposed";
