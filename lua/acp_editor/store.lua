-- The store: what the plugin knows, in one place, and who wants to hear when it changes (the
-- VS Code extension's core/store.ts is the same thing). `require("acp_editor").state()` returns it.
--
-- The sidecar owns the real state; this is the editor's mirror of it. Modules never call each
-- other to say "redraw": they update the store and `emit` an event, and the views that care
-- (chat, previews, quickfix) subscribe. That keeps the handlers of server messages tiny and lets
-- a test drive one view without the others.

---@class acp_editor.Store
---@field config acp_editor.Config
---@field client_id? integer the LSP client of the sidecar
---@field agent? table the last acp/agentStatus
---@field sessions table<string, table> session mirrors by id (see acp_editor.session.reducer)
---@field current_session? string the session prompts go to
---@field turns table<string, integer> sessions with a prompt of ours in flight → request id
---@field plan_at table<string, integer> session → how many entries it had when its plan last changed
---@field follow boolean follow-along on (the server's setting, as last known)
---@field listeners table<string, fun(...)[]>
local M = {
  config = nil,
  client_id = nil,
  agent = nil,
  sessions = {},
  current_session = nil,
  turns = {},
  plan_at = {},
  follow = true,
  listeners = {},
}

--- Events: "agent", "session" (id, changes), "permissions", "review", "diff", "terminal" (id),
--- "follow", "turn" (id, result?), "stopped".
---@param event string
---@param fn fun(...)
---@return fun() unsubscribe
function M.on(event, fn)
  M.listeners[event] = M.listeners[event] or {}
  table.insert(M.listeners[event], fn)
  return function()
    for i, f in ipairs(M.listeners[event] or {}) do
      if f == fn then
        table.remove(M.listeners[event], i)
        return
      end
    end
  end
end

--- Call every listener of `event`. A failing view must not stop the others (nor the handler of
--- the server message that caused it), so errors are reported and swallowed here, once.
function M.emit(event, ...)
  for _, fn in ipairs(vim.list_slice(M.listeners[event] or {})) do
    local ok, err = pcall(fn, ...)
    if not ok then
      M.report(("acp-editor: %s view failed: %s"):format(event, err), vim.log.levels.ERROR)
    end
  end
end

function M.report(message, level)
  local notify = M.config and M.config.notify or vim.notify
  notify(message, level or vim.log.levels.INFO)
end

--- The session mirror prompts go to (nil before the first prompt or new session).
---@return table?
function M.current()
  return M.current_session and M.sessions[M.current_session] or nil
end

--- Forget everything about a sidecar that stopped (its sessions ended with it).
function M.reset()
  M.client_id, M.agent, M.current_session = nil, nil, nil
  M.sessions, M.turns, M.plan_at = {}, {}, {}
end

return M
