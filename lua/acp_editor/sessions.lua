-- Sessions: keeping the mirrors up to date, and the requests that drive a session.
--
-- acp/sessionChanged is applied to the mirror (acp_editor.session); when a change cannot apply
-- (one was missed, or the plugin connected late) the session is fetched whole with acp/snapshot.
-- The prompt/cancel/mode/session requests live here so views only call one function each.

local client = require("acp_editor.client")
local protocol = require("acp_editor.protocol")
local session = require("acp_editor.session")
local state = require("acp_editor.state")

local M = {}
local method = protocol.method

--- Replace (or create) a mirror from a SessionSnapshot the server sent.
function M.adopt(snapshot)
  state.sessions[snapshot.sessionId] = snapshot
  snapshot.entries = snapshot.entries or {}
  snapshot.toolCalls = snapshot.toolCalls or {}
  snapshot.info = snapshot.info or {}
  state.emit("session", snapshot.sessionId, {})
end

--- Fetch the session whole (after a missed change).
function M.resync(session_id)
  client.request(method.SNAPSHOT, { sessionId = session_id }, function(err, result)
    if err or not result then
      local why = err and err.message or "no result"
      state.report("acp-editor: could not fetch the session: " .. why, vim.log.levels.WARN)
      return
    end
    for _, snap in ipairs(result.sessions or {}) do
      M.adopt(snap)
    end
  end)
end

--- acp/sessionChanged
function M.on_changed(_, params)
  local sid = params.sessionId
  local snap = state.sessions[sid]
  if not snap then
    snap = session.new(sid, state.agent and state.agent.protocolVersion)
    state.sessions[sid] = snap
    state.current_session = state.current_session or sid
  end
  local ok, err = session.apply_all(snap, params.changes or {})
  for _, change in ipairs(params.changes or {}) do
    if change.type == "plan" then
      state.plan_at[sid] = #snap.entries -- the plan belongs to the turn it came in
    end
  end
  if not ok then
    local message = ("acp-editor: the session view is out of date (%s), fetching it again"):format(err)
    state.report(message, vim.log.levels.DEBUG)
    return M.resync(sid)
  end
  state.emit("session", sid, params.changes or {})
end

--- acp/agentStatus
function M.on_agent_status(_, params)
  state.agent = params
  state.emit("agent")
end

--- Send a prompt (text or content blocks) to `session_id`, by default the current session
--- (created by the server if there is none).
---@param prompt string|table[]
---@param callback? fun(err: table?, result: table?)
---@param session_id? string
function M.prompt(prompt, callback, session_id)
  local sid = session_id or state.current_session
  local id
  id = client.request(method.PROMPT, { prompt = prompt, sessionId = sid }, function(err, result)
    for key, value in pairs(state.turns) do
      if value == id then
        state.turns[key] = nil
      end
    end
    if result and result.sessionId then
      state.current_session = session_id and state.current_session or result.sessionId
      require("acp_editor.permissions").sweep(result.sessionId, true)
    end
    if err then
      state.report("acp-editor: the prompt failed: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
    state.emit("turn", result and result.sessionId or sid, result, err)
    if callback then
      callback(err, result)
    end
  end)
  if id then
    state.turns[sid or ""] = id
    state.emit("turn", sid)
  end
  return id
end

--- Is a prompt of ours running in `session_id` (or, before the first prompt answered, at all)?
function M.busy(session_id)
  return state.turns[session_id or ""] ~= nil or (state.turns[""] ~= nil)
end

--- Cancel the current turn: acp/cancel when the session is known, else withdraw the prompt.
function M.cancel(callback)
  local sid = state.current_session
  if sid then
    return client.request(method.CANCEL, { sessionId = sid }, callback)
  end
  client.cancel_request(state.turns[""])
  if callback then
    callback(nil, {})
  end
end

function M.new_session(callback)
  client.request(method.NEW_SESSION, {}, function(err, result)
    if result then
      state.current_session = result.sessionId
      M.adopt(result.snapshot or session.new(result.sessionId))
    end
    if callback then
      callback(err, result)
    end
  end)
end

function M.load(session_id, callback)
  client.request(method.LOAD_SESSION, { sessionId = session_id }, function(err, result)
    if result then
      state.current_session = result.sessionId
      M.adopt(result.snapshot or session.new(result.sessionId))
    elseif err then
      state.report("acp-editor: could not load the session: " .. (err.message or ""), vim.log.levels.ERROR)
    end
    if callback then
      callback(err, result)
    end
  end)
end

--- Whether the agent advertised `name` in sessionCapabilities (delete, fork, list...).
function M.can(name)
  local caps = state.agent and state.agent.agentCapabilities
  return type(caps) == "table"
    and type(caps.sessionCapabilities) == "table"
    and type(caps.sessionCapabilities[name]) == "table"
end

function M.can_logout()
  local caps = state.agent and state.agent.agentCapabilities
  return type(caps) == "table" and type(caps.auth) == "table" and type(caps.auth.logout) == "table"
end

--- acp/forkSession of the current session; the fork becomes current.
function M.fork(callback)
  client.request(method.FORK_SESSION, { sessionId = state.current_session }, function(err, result)
    if result then
      state.current_session = result.sessionId
      M.adopt(result.snapshot or session.new(result.sessionId))
    end
    callback(err, result)
  end)
end

function M.delete(session_id, callback)
  client.request(method.DELETE_SESSION, { sessionId = session_id }, function(err, result)
    if result and state.current_session == session_id then
      state.current_session = nil
    end
    callback(err, result)
  end)
end

function M.list(callback)
  client.request(method.LIST_SESSIONS, {}, callback)
end

--- Whether the agent said it can list sessions (sessionCapabilities.list).
function M.can_list()
  local caps = state.agent and state.agent.agentCapabilities
  return type(caps) == "table" and type(caps.sessionCapabilities) == "table" and caps.sessionCapabilities.list ~= nil
end

function M.set_mode(mode_id, callback)
  local sid = state.current_session
  if not sid then
    return callback and callback({ message = "no session yet: send a prompt first" })
  end
  client.request(method.SET_MODE, { sessionId = sid, modeId = mode_id }, callback)
end

function M.set_follow(enabled, callback)
  client.request(method.SET_FOLLOW, { enabled = enabled }, function(err, result)
    if result then
      state.follow = result.enabled
      state.emit("follow")
    end
    if callback then
      callback(err, result)
    end
  end)
end

return M
