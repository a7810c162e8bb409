-- Keeping the store's session mirrors in step with the server, and its record of the agent.
--
-- acp/sessionChanged is applied to the mirror (acp_editor.session.reducer); when a change cannot
-- apply (one was missed, or the plugin connected late) the session is fetched whole with
-- acp/snapshot. A snapshot the server sends with an answer (new, load, fork) replaces the mirror
-- the same way. Every acp/sessionChanged names the session's agent, so a mirror first met there
-- knows it at once (it is not a change: taken from each notification, as the server's snapshot
-- has it); so does `worktree`, the folder a session in a worktree of its own works in (absent:
-- none, or no more once it is discarded). A subagent's session (schema 1.25) is a session of
-- its own whose notifications name its parent (`parentSessionId`): its mirror is kept like any
-- other, never brought to the front, and the store learns whose it is (`store.parents`), as
-- it does from each parent's `subagents`. acp/agentStatus is kept per agent (`store.agents`, by
-- its `agent` id); the store's `agent` is the status of the agent of the session in front, and
-- before any session the server's own (whose id is not always "default": a preset's name, "demo"
-- for the built-in agent): the first agent to report is the one the server starts at once.

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")
local reducer = require("acp_editor.session.reducer")
local store = require("acp_editor.store")

local M = {}
local method = protocol.method

--- The children a session's `subagents` names are its subagents' sessions.
local function learn_children(snap)
  if type(snap.subagents) == "table" then
    for child in pairs(snap.subagents) do
      store.set_parent(child, snap.sessionId)
    end
  end
end

--- Replace (or create) a mirror from a SessionSnapshot the server sent.
---@param snapshot acp_editor.SessionSnapshot
function M.adopt(snapshot)
  store.sessions[snapshot.sessionId] = snapshot
  store.track(snapshot.sessionId)
  snapshot.entries = snapshot.entries or {}
  snapshot.toolCalls = snapshot.toolCalls or {}
  snapshot.info = snapshot.info or {}
  store.set_parent(snapshot.sessionId, snapshot.parentSessionId)
  learn_children(snapshot)
  store.emit("session", snapshot.sessionId, {})
end

--- Fetch the session whole (after a missed change).
---@param session_id string
function M.resync(session_id)
  client.request(method.SNAPSHOT, { sessionId = session_id }, function(err, result)
    if err or not result then
      local why = err and err.message or "no result"
      store.report("acp-editor: could not fetch the session: " .. why, vim.log.levels.WARN)
      return
    end
    for _, snap in ipairs(result.sessions or {}) do
      M.adopt(snap)
    end
  end)
end

--- acp/sessionChanged
---@param params {sessionId: string, agent?: string, parentSessionId?: string, changes: table[]}
function M.on_changed(_, params)
  local sid = params.sessionId
  local snap = store.sessions[sid]
  if type(params.parentSessionId) == "string" then
    store.set_parent(sid, params.parentSessionId)
  end
  if not snap then
    local status = store.agents[params.agent] or store.agent -- the session's agent speaks its version
    snap = reducer.new(sid, status and status.protocolVersion)
    snap.agent = params.agent
    store.sessions[sid] = snap
    store.track(sid)
    if not store.current_session and not store.parent_of(sid) then
      store.set_current(sid)
    end
  elseif type(params.agent) == "string" then
    snap.agent = params.agent
  end
  snap.worktree = type(params.worktree) == "string" and params.worktree or nil
  snap.parentSessionId = store.parent_of(sid) -- not a change: each notification names it
  local ok, err = reducer.apply_all(snap, params.changes or {})
  for _, change in ipairs(params.changes or {}) do
    if change.type == "plan" or change.type == "plans" then
      store.plan_at[sid] = #snap.entries -- the plan belongs to the turn it came in
    elseif change.type == "subagents" then
      learn_children(snap)
    end
  end
  if not ok then
    local message = ("acp-editor: the session view is out of date (%s), fetching it again"):format(err)
    store.report(message, vim.log.levels.DEBUG)
    return M.resync(sid)
  end
  store.emit("session", sid, params.changes or {})
end

--- acp/agentStatus
---@param params table an AgentStatus
function M.on_agent_status(_, params)
  local id = type(params.agent) == "string" and params.agent or "default"
  store.agents[id] = params
  store.own_agent = store.own_agent or id
  if id == store.agent_id(store.current_session) or not store.agent then
    store.agent = params
  end
  store.emit("agent", id)
end

return M
