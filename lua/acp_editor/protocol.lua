-- The acp-editor editor protocol in Lua: a mirror of docs/protocol.md (the source of truth).
--
-- tests/unit/protocol/test_protocol_mirror.py parses this file and fails when it drifts from the
-- document, so keep its simple format: between `-- <name>` and `-- </name>` every line that is not
-- blank or a comment is exactly one entry, written as
--   messages:  `  NAME = { method = "acp/x", direction = "editor → server", kind = "request" },`
--              (NAME is the method's name in UPPER_SNAKE_CASE)
--   features, commands, permission_kinds:  `  "name",`
-- Every other module takes method names from here, never from string literals.

---@alias acp_editor.Direction "editor → server"|"server → editor"
---@alias acp_editor.Kind "request"|"notification"

---@class acp_editor.Message
---@field method string
---@field direction acp_editor.Direction
---@field kind acp_editor.Kind

local M = {}

---@type table<string, acp_editor.Message>
M.messages = {
  -- <messages>
  NEW_SESSION = { method = "acp/newSession", direction = "editor → server", kind = "request" },
  PROMPT = { method = "acp/prompt", direction = "editor → server", kind = "request" },
  CANCEL = { method = "acp/cancel", direction = "editor → server", kind = "request" },
  SNAPSHOT = { method = "acp/snapshot", direction = "editor → server", kind = "request" },
  SET_MODE = { method = "acp/setMode", direction = "editor → server", kind = "request" },
  SET_CONFIG_OPTION = { method = "acp/setConfigOption", direction = "editor → server", kind = "request" },
  LIST_SESSIONS = { method = "acp/listSessions", direction = "editor → server", kind = "request" },
  LOAD_SESSION = { method = "acp/loadSession", direction = "editor → server", kind = "request" },
  SET_FOLLOW = { method = "acp/setFollow", direction = "editor → server", kind = "request" },
  SESSION_CHANGED = { method = "acp/sessionChanged", direction = "server → editor", kind = "notification" },
  AGENT_STATUS = { method = "acp/agentStatus", direction = "server → editor", kind = "notification" },
  FOLLOW = { method = "acp/follow", direction = "server → editor", kind = "notification" },
  DIFF = { method = "acp/diff", direction = "server → editor", kind = "notification" },
  TERMINAL_OUTPUT = { method = "acp/terminalOutput", direction = "server → editor", kind = "notification" },
  TERMINAL_EXIT = { method = "acp/terminalExit", direction = "server → editor", kind = "notification" },
  REQUEST_PERMISSION = { method = "acp/requestPermission", direction = "server → editor", kind = "request" },
  CHOOSE_AUTH_METHOD = { method = "acp/chooseAuthMethod", direction = "server → editor", kind = "request" },
  ELICIT = { method = "acp/elicit", direction = "server → editor", kind = "request" },
  REVIEW_CHANGED = { method = "acp/reviewChanged", direction = "server → editor", kind = "notification" },
  REVIEW_DECIDE = { method = "acp/reviewDecide", direction = "editor → server", kind = "request" },
  REVIEW_GROUP_FILES = { method = "acp/reviewGroupFiles", direction = "editor → server", kind = "request" },
  RESTORE_CHECKPOINT = { method = "acp/restoreCheckpoint", direction = "editor → server", kind = "request" },
  DELETE_SESSION = { method = "acp/deleteSession", direction = "editor → server", kind = "request" },
  FORK_SESSION = { method = "acp/forkSession", direction = "editor → server", kind = "request" },
  LOGOUT = { method = "acp/logout", direction = "editor → server", kind = "request" },
  DIAGNOSTICS = { method = "acp/diagnostics", direction = "server → editor", kind = "request" },
  SELECTION = { method = "acp/selection", direction = "server → editor", kind = "request" },
  -- </messages>
}

--- The rich features, in the order of the document's table; the plugin declares all of them.
---@type string[]
M.features = {
  -- <features>
  "stream",
  "follow",
  "permissions",
  "diffs",
  "terminals",
  "auth",
  "review",
  "elicit",
  "context",
  -- </features>
}

--- The zero-plugin commands (workspace/executeCommand); the plugin itself uses the acp/... requests.
---@type string[]
M.commands = {
  -- <commands>
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
  -- </commands>
}

--- The permission option kinds ACP defines; a kind starting with `_` is custom, shown generically.
---@type string[]
M.permission_kinds = {
  -- <permission_kinds>
  "allow_once",
  "allow_always",
  "reject_once",
  "reject_always",
  -- </permission_kinds>
}

M.review_modes = { "after-write", "before-write", "off" }

--- JSON-RPC error codes of the protocol's "Errors" table.
M.errors = {
  INVALID_PARAMS = -32602,
  AGENT_UNAVAILABLE = -32050,
  INTERNAL = -32603,
  REQUEST_CANCELLED = -32800,
}

--- The standard LSP notification the server uses to withdraw a request it sent.
M.CANCEL_REQUEST = "$/cancelRequest"

--- method name by constant: `protocol.method.PROMPT == "acp/prompt"`.
---@type table<string, string>
M.method = {}
for name, message in pairs(M.messages) do
  M.method[name] = message.method
end

return M
