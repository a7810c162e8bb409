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
---@field agent? table the acp/agentStatus of the current session's agent (else the server's own)
---@field agents table<string, table> the last acp/agentStatus of each agent, by its id
---@field own_agent? string the id of the server's own agent ("default" for the command after
--- `--`, a preset's name, "demo" for the built-in one): the first to report, which acp/agents
--- confirms
---@field sessions table<string, table> session mirrors by id (see acp_editor.session.reducer)
---@field order string[] the live sessions' ids, in the order they opened (the switcher's order)
---@field current_session? string the session in front: prompts go to it, its chat is shown
---@field turns table<string, integer> sessions with a prompt of ours in flight → request id
---@field plan_at table<string, integer> session → how many entries it had when its plan last changed
---@field parents table<string, string> a subagent's session → the session whose agent started it
---@field follow boolean follow-along on (the server's setting, as last known)
---@field follow_all boolean every live session followed, not only the one in front (the same)
---@field listeners table<string, fun(...)[]>
local M = {
  config = nil,
  client_id = nil,
  agent = nil,
  agents = {},
  own_agent = nil,
  sessions = {},
  order = {},
  current_session = nil,
  turns = {},
  plan_at = {},
  parents = {},
  follow = true,
  follow_all = false,
  listeners = {},
}

--- Events: "agent" (agent id), "session" (id, changes), "current" (id, previous id): another
--- session came to the front, "permissions", "questions", "review", "diff", "terminal" (id),
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
---@param event string
---@param ... any what the listeners are called with
function M.emit(event, ...)
  for _, fn in ipairs(vim.list_slice(M.listeners[event] or {})) do
    local ok, err = pcall(fn, ...)
    if not ok then
      M.report(("acp-editor: %s view failed: %s"):format(event, err), vim.log.levels.ERROR)
    end
  end
end

---@param message string
---@param level? integer a vim.log.levels value
function M.report(message, level)
  local notify = M.config and M.config.notify or vim.notify
  notify(message, level or vim.log.levels.INFO)
end

--- The session mirror prompts go to (nil before the first prompt or new session).
---@return table?
function M.current()
  return M.current_session and M.sessions[M.current_session] or nil
end

--- The id of the agent `session_id` runs in (the server's own before there is a session, or
--- before the server said; "default" before any agent reported).
---@param session_id? string
---@return string
function M.agent_id(session_id)
  local snap = session_id and M.sessions[session_id]
  return snap and type(snap.agent) == "string" and snap.agent or M.own_agent or "default"
end

--- The last status of the agent `session_id` runs in (the server's own's when not known).
---@param session_id? string
---@return table?
function M.agent_of(session_id)
  return M.agents[M.agent_id(session_id)] or M.agents.default or M.agent
end

--- The session that started `session_id` (a subagent's), nil for a session of the user's.
---@param session_id? string
---@return string?
function M.parent_of(session_id)
  return session_id and M.parents[session_id] or nil
end

--- The top session of a subagent's line (a subagent may start its own): the one the user
--- prompted, whose place in front (chat, questions, follow-along) its subagents share.
---@param session_id? string
---@return string?
function M.root_of(session_id)
  local seen = {}
  while session_id and M.parents[session_id] and not seen[session_id] do
    seen[session_id] = true
    session_id = M.parents[session_id]
  end
  return session_id
end

--- Remember whose subagent `session_id` is (from acp/sessionChanged, a snapshot, a question).
---@param session_id string
---@param parent? string
function M.set_parent(session_id, parent)
  if type(parent) == "string" and parent ~= session_id then
    M.parents[session_id] = parent
  end
end

--- Remember a live session (mirrors are made in several places: a change, an answer, a snapshot).
---@param session_id string
function M.track(session_id)
  if not vim.tbl_contains(M.order, session_id) then
    table.insert(M.order, session_id)
  end
end

--- Bring `session_id` to the front (the plugin's record only: acp_editor.session.live tells the
--- server). The "current" event lets the chat show that session's transcript.
---@param session_id? string
function M.set_current(session_id)
  local previous = M.current_session
  M.current_session = session_id
  if session_id then
    M.track(session_id)
  end
  M.agent = M.agent_of(session_id)
  if previous ~= session_id then
    M.emit("current", session_id, previous)
  end
end

--- A session that ended (deleted): out of the switcher; the front goes to another live one.
---@param session_id string
function M.forget(session_id)
  M.sessions[session_id] = nil
  for i, sid in ipairs(M.order) do
    if sid == session_id then
      table.remove(M.order, i)
      break
    end
  end
  if M.current_session == session_id then
    M.set_current(nil)
  end
end

--- Forget everything about a sidecar that stopped (its sessions ended with it).
function M.reset()
  M.client_id, M.agent, M.current_session, M.own_agent = nil, nil, nil, nil
  M.sessions, M.turns, M.plan_at, M.agents, M.order, M.parents = {}, {}, {}, {}, {}, {}
end

return M
