/**
 * The acp-editor editor protocol in TypeScript: a mirror of docs/protocol.md (the source of truth).
 *
 * The document's tables (every message as a typed RequestType/NotificationType, their directions,
 * features, zero-plugin commands, permission kinds, review modes) are generated into
 * protocol.generated.ts by scripts/protocol_tables.py and re-exported here; what follows is what
 * the document does not tabulate, and this extension's own names. Every other module takes
 * method, feature and command names from here, never from literals.
 * Only `vscode-languageserver-protocol` is imported, so this loads under plain `node --test`.
 */

export * from "./protocol.generated";

/** JSON-RPC error codes of the document's "Errors" table. */
export const ERROR_AGENT_UNAVAILABLE = -32050;
export const ERROR_REQUEST_CANCELLED = -32800;

/** This extension's VS Code commands (package.json `contributes.commands`; a unit test checks
 *  the two lists agree). Integration tests drive the extension through these. */
export const COMMANDS = {
  prompt: "acp-editor.prompt",
  cancel: "acp-editor.cancel",
  newSession: "acp-editor.newSession",
  newSessionWithAgent: "acp-editor.newSessionWithAgent",
  switchSession: "acp-editor.switchSession",
  newSessionInWorktree: "acp-editor.newSessionInWorktree",
  bringBack: "acp-editor.bringBack",
  discardWorktree: "acp-editor.discardWorktree",
  loadSession: "acp-editor.loadSession",
  setMode: "acp-editor.setMode",
  toggleFollow: "acp-editor.toggleFollow",
  followAllSessions: "acp-editor.followAllSessions",
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
  revealHunk: "acp-editor.revealHunk",
  attachSelection: "acp-editor.attachSelection",
  attachFile: "acp-editor.attachFile",
  restart: "acp-editor.restart",
  showLog: "acp-editor.showLog",
  focusChat: "acp-editor.focusChat",
  chooseRegistryAgent: "acp-editor.chooseRegistryAgent",
  forkSession: "acp-editor.forkSession",
  deleteSession: "acp-editor.deleteSession",
  logout: "acp-editor.logout",
  signIn: "acp-editor.signIn",
  setConfigOption: "acp-editor.setConfigOption",
  undoTurn: "acp-editor.undoTurn",
  sendSelection: "acp-editor.sendSelection",
  openTranscript: "acp-editor.openTranscript",
} as const;

/** The sidecar's zero-plugin command (in ZERO_PLUGIN_COMMANDS) answering the current session's
 *  live Markdown transcript: `{sessionId, path, uri}`. */
export const TRANSCRIPT_COMMAND = "acp.transcript";

/** The chat view's id (package.json `contributes.views`). */
export const CHAT_VIEW = "acp-editor.chat";
/** The scheme of the read-only documents holding proposed text for diff editors. */
export const PROPOSED_SCHEME = "acp-proposed";
