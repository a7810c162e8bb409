-- The requests that drive a session (prompt, cancel, a waiting prompt changed or withdrawn, new,
-- load, fork, delete, list, mode), and
-- what the agent said it can do, so views call one function each. A session the server answers
-- with becomes a mirror through acp_editor.session.sync.

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")
local reducer = require("acp_editor.session.reducer")
local store = require("acp_editor.store")
local sync = require("acp_editor.session.sync")

local M = {}
local method = protocol.method

--- Send a prompt (text or content blocks) to `session_id`, by default the current session
--- (created by the server if there is none).
---@param prompt string|table[]
---@param callback? fun(err: table?, result: table?)
---@param session_id? string
---@return integer? request_id
function M.prompt(prompt, callback, session_id)
  local sid = session_id or store.current_session
  local id
  id = client.request(method.PROMPT, { prompt = prompt, sessionId = sid }, function(err, result)
    for key, value in pairs(store.turns) do
      if value == id then
        store.turns[key] = nil
      end
    end
    if result and result.sessionId then
      if not session_id then
        store.set_current(result.sessionId)
      end
      require("acp_editor.questions.permissions").sweep(result.sessionId, true)
    end
    if err then
      local why = err.message or vim.inspect(err)
      -- A session whose worktree was discarded: the sidecar's own words say what to do.
      if not require("acp_editor.session.worktrees").discarded[sid or ""] then
        why = "the prompt failed: " .. why
      end
      store.report("acp-editor: " .. why, vim.log.levels.ERROR)
    end
    store.emit("turn", result and result.sessionId or sid, result, err)
    if callback then
      callback(err, result)
    end
  end)
  if id then
    store.turns[sid or ""] = id
    store.emit("turn", sid)
  end
  return id
end

--- Is a prompt of ours running in `session_id` (or, before the first prompt answered, at all)?
---@param session_id? string
---@return boolean
function M.busy(session_id)
  return store.turns[session_id or ""] ~= nil or (store.turns[""] ~= nil)
end

--- Cancel the current turn: acp/cancel when the session is known, else withdraw the prompt.
--- `drop_queued`: the prompts waiting after it (v1) are dropped too, instead of going next.
---@param callback? fun(err: table?, result: table?)
---@param drop_queued? boolean
function M.cancel(callback, drop_queued)
  local sid = store.current_session
  if sid then
    return client.request(method.CANCEL, { sessionId = sid, dropQueued = drop_queued or nil }, callback)
  end
  client.cancel_request(store.turns[""])
  if callback then
    callback(nil, {})
  end
end

--- acp/editPrompt: the prompt waiting its turn at entry `index` (0-based) says `prompt` instead.
---@param session_id string
---@param index integer
---@param prompt string|table[]
---@param callback? fun(err: table?, result: table?)
function M.edit_prompt(session_id, index, prompt, callback)
  client.request(method.EDIT_PROMPT, { sessionId = session_id, index = index, prompt = prompt }, callback)
end

--- acp/withdrawPrompt: the prompt waiting its turn at entry `index` (0-based) will not go.
---@param session_id string
---@param index integer
---@param callback? fun(err: table?, result: table?)
function M.withdraw_prompt(session_id, index, callback)
  client.request(method.WITHDRAW_PROMPT, { sessionId = session_id, index = index }, callback)
end

--- A session the sidecar opened (new, loaded, forked) becomes the current one (the server made
--- it so), its mirror in step.
---@param agent? string the agent it was asked of, when the snapshot does not say
local function opened(result, agent)
  local snap = result.snapshot or reducer.new(result.sessionId)
  snap.agent = snap.agent or agent
  sync.adopt(snap)
  store.set_current(result.sessionId)
end

--- acp/newSession, in the server's own agent or in the agent `agent` (an id of acp/agents);
--- `worktree`: in a git worktree of its own (the snapshot's `worktree` says where).
---@param callback? fun(err: table?, result: table?)
---@param agent? string
---@param worktree? boolean
function M.new_session(callback, agent, worktree)
  client.request(method.NEW_SESSION, { agent = agent, worktree = worktree or nil }, function(err, result)
    if result then
      opened(result, agent)
    end
    if callback then
      callback(err, result)
    end
  end)
end

---@param session_id string
---@param callback? fun(err: table?, result: table?)
function M.load(session_id, callback)
  local agent = store.agent_id(store.current_session) -- the current session's agent loads it
  client.request(method.LOAD_SESSION, { sessionId = session_id }, function(err, result)
    if result then
      opened(result, agent)
    elseif err then
      store.report("acp-editor: could not load the session: " .. (err.message or ""), vim.log.levels.ERROR)
    end
    if callback then
      callback(err, result)
    end
  end)
end

--- Whether the agent advertised `name` in sessionCapabilities (delete, fork, list...).
---@param name string
---@return boolean
function M.can(name)
  local caps = store.agent and store.agent.agentCapabilities
  return type(caps) == "table"
    and type(caps.sessionCapabilities) == "table"
    and type(caps.sessionCapabilities[name]) == "table"
end

---@return boolean
function M.can_logout()
  local caps = store.agent and store.agent.agentCapabilities
  return type(caps) == "table" and type(caps.auth) == "table" and type(caps.auth.logout) == "table"
end

--- acp/forkSession of the current session; the fork becomes current.
---@param callback fun(err: table?, result: table?)
function M.fork(callback)
  local agent = store.agent_id(store.current_session)
  client.request(method.FORK_SESSION, { sessionId = store.current_session }, function(err, result)
    if result then
      opened(result, agent)
    end
    callback(err, result)
  end)
end

---@param session_id string
---@param callback fun(err: table?, result: table?)
function M.delete(session_id, callback)
  client.request(method.DELETE_SESSION, { sessionId = session_id }, function(err, result)
    if result then
      store.forget(session_id)
    end
    callback(err, result)
  end)
end

---@param callback fun(err: table?, result: table?)
function M.list(callback)
  client.request(method.LIST_SESSIONS, {}, callback)
end

--- Whether the agent said it can list sessions (sessionCapabilities.list).
---@return boolean
function M.can_list()
  local caps = store.agent and store.agent.agentCapabilities
  return type(caps) == "table" and type(caps.sessionCapabilities) == "table" and caps.sessionCapabilities.list ~= nil
end

---@param mode_id string
---@param callback? fun(err: table?, result: table?)
---@return nil
function M.set_mode(mode_id, callback)
  local sid = store.current_session
  if not sid then
    return callback and callback({ message = "no session yet: send a prompt first" })
  end
  client.request(method.SET_MODE, { sessionId = sid, modeId = mode_id }, callback)
end

return M
