-- The acp-editor editor protocol in Lua: a mirror of docs/protocol.md (the source of truth).
--
-- The document's tables (messages with direction and kind, features, zero-plugin commands,
-- permission kinds, review modes) are generated into protocol_names.lua by
-- scripts/protocol_tables.py and re-exported here; what follows is what the document does not
-- tabulate. Every other module takes method names from here, never from string literals.

local names = require("acp_editor.protocol_names")

local M = {
  messages = names.messages,
  features = names.features,
  commands = names.commands,
  permission_kinds = names.permission_kinds,
  review_modes = names.review_modes,
}

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
