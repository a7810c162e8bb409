-- The live sessions side by side: what the switcher (:AcpSessions, :AcpSwitch), the statusline
-- and the background-question notices say about each, and bringing one to the front.
--
-- Every live session keeps its mirror in the store whether it is in front or not (acp_editor.
-- session.sync applies every acp/sessionChanged); switching only changes which one is in front:
-- the store's `current_session` at once (the chat shows that session's buffers in the same
-- tick), and `acp/selectSession` so the server agrees (prompts without a session, follow-along).
-- The agents sessions can run in come from `acp/agents`, asked once and again on each :AcpNewSession
-- completion or picker.

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")
local store = require("acp_editor.store")

local M = {
  ---@type table[]? AgentInfo[] of the last acp/agents answer
  agents = nil,
}

local TITLE_CHARS = 40

--- The session's short title: its first prompt's first line, or "new session".
---@param snap? table
---@return string
function M.title(snap)
  if snap and store.parent_of(snap.sessionId) then -- a subagent: as its parent's agent calls it
    return require("acp_editor.session.subagents").title(snap.sessionId) or "subagent"
  end
  for _, e in ipairs(snap and snap.entries or {}) do
    if e.kind == "message" and e.role == "user" then
      local line = require("acp_editor.session.prompt_items").title(e.content or {})
      if line ~= "" then
        if vim.fn.strchars(line) > TITLE_CHARS then
          line = vim.fn.strcharpart(line, 0, TITLE_CHARS - 1) .. "…"
        end
        return line
      end
    end
  end
  return "new session"
end

--- The name the user knows an agent by: the plugin's `default_agent` for the server's own.
---@param id string
---@return string
function M.agent_label(id)
  if id == "default" and store.config and store.config.default_agent then
    return store.config.default_agent
  end
  return id
end

--- The agent of `session_id` in words: its own title or name, else its id.
---@param session_id? string
---@return string
function M.agent_name(session_id)
  local status = store.agent_of(session_id)
  local info = status and status.agentInfo or {}
  return info.title or info.name or M.agent_label(store.agent_id(session_id))
end

--- The agent of `session_id` as a notice names it: its name, and the id it goes by while
--- several agents run (two of one program differ only there).
---@param session_id? string
---@return string
function M.who(session_id)
  local name = M.agent_name(session_id)
  local label = M.agent_label(store.agent_id(session_id))
  if #vim.tbl_keys(store.agents) > 1 and label ~= name then
    name = ("%s (%s)"):format(name, label)
  end
  return name
end

--- Who made a change of `session_id`, for review: the agent's name, and the session's title
--- while several sessions are live; "an earlier session" for one that is not live (a hunk kept
--- from before a restart).
---@param session_id? string
---@return string
function M.owner(session_id)
  if not (session_id and store.sessions[session_id]) then
    return "an earlier session"
  end
  local name = M.who(session_id)
  if #M.ids() > 1 then
    name = ("%s: %s"):format(name, M.title(store.sessions[session_id]))
  end
  return name
end

--- Whether `session_id` has a question for the user: a permission request or a form / web page
--- of that session or of one of its subagents still pending (a question naming no session
--- counts for the one in front). `only`: of that session itself, not of its subagents.
---@param session_id? string
---@param only? boolean
---@return boolean
function M.asks(session_id, only)
  for _, name in ipairs({ "acp_editor.questions.permissions", "acp_editor.questions.elicit" }) do
    local module = package.loaded[name]
    for _, entry in ipairs(module and module.pending or {}) do
      local sid = entry.params and entry.params.sessionId
      if
        sid == session_id
        or (sid == nil and session_id == store.current_session)
        or (not only and sid ~= nil and store.root_of(sid) == session_id)
      then
        return true
      end
    end
  end
  return false
end

--- What a session does now: "waiting" (for you: a question, or the agent says it needs you),
--- "running" (a turn runs) or "idle".
---@param session_id string
---@return "waiting"|"running"|"idle"
function M.state(session_id)
  local snap = store.sessions[session_id]
  local run = snap and type(snap.runState) == "table" and snap.runState.state or nil
  if run == "requires_action" or M.asks(session_id) then
    return "waiting"
  end
  if run == "running" or store.turns[session_id] ~= nil then
    return "running"
  end
  return "idle"
end

M.STATE_WORDS = { waiting = "waiting for you", running = "running", idle = "idle" }

--- The live sessions, in the order they opened (subagents' sessions are not among them: each
--- is shown in its parent's transcript).
---@return string[]
function M.ids()
  return vim.tbl_filter(function(sid)
    return store.sessions[sid] ~= nil and not store.parent_of(sid)
  end, store.order)
end

--- How many live sessions wait for the user.
---@return integer
function M.waiting_count()
  local n = 0
  for _, sid in ipairs(M.ids()) do
    if M.state(sid) == "waiting" then
      n = n + 1
    end
  end
  return n
end

--- One line of the switcher: `▸ fix the test · demo · waiting for you · s2`, and `· worktree`
--- for a session working in a worktree of its own (`· worktree discarded` once it is gone: its
--- prompts are refused).
---@param session_id string
---@return string
function M.describe(session_id)
  local front = session_id == store.current_session and "▸ " or "  "
  local snap = store.sessions[session_id]
  local parts = {
    M.title(snap),
    M.agent_label(store.agent_id(session_id)),
    M.STATE_WORDS[M.state(session_id)],
    session_id,
  }
  if snap and type(snap.worktree) == "string" then
    table.insert(parts, "worktree")
  elseif require("acp_editor.session.worktrees").discarded[session_id] then
    table.insert(parts, "worktree discarded")
  end
  return front .. table.concat(parts, " · ")
end

--- One switcher line for a subagent, under its parent's:
--- `    ↳ Explore hello.py · subagent · running · s7`.
---@param record table the parent's record of the child (with `depth`)
---@return string
function M.describe_child(record)
  local subagents = require("acp_editor.session.subagents")
  local parts = {
    subagents.title(record.sessionId) or "untitled",
    "subagent",
    subagents.state(record) or "?",
    record.sessionId,
  }
  return ("  %s↳ %s"):format(("  "):rep(record.depth or 1), table.concat(parts, " · "))
end

--- Bring `session_id` to the front: its chat is shown at once, and the server is told
--- (acp/selectSession). A subagent's brings its parent, with the subagent's lines in view.
---@param session_id string
---@param callback? fun(err: table?, result: table?)
---@return boolean switched false when it is not a live session
function M.select(session_id, callback)
  if not store.sessions[session_id] then
    store.report(("acp-editor: no live session %s (:AcpSessions lists them)"):format(session_id), vim.log.levels.WARN)
    return false
  end
  local child = store.parent_of(session_id) and session_id or nil
  session_id = store.root_of(session_id) -- a subagent is shown in its parent's transcript
  store.set_current(session_id)
  if child then
    local chat = require("acp_editor.chat")
    chat.open()
    chat.reveal(child)
  end
  client.request(protocol.method.SELECT_SESSION, { sessionId = session_id }, function(err, result)
    if err then
      store.report("acp-editor: the sidecar did not switch sessions: " .. (err.message or ""), vim.log.levels.WARN)
    end
    if callback then
      callback(err, result)
    end
  end)
  return true
end

--- acp/agents: the agents sessions may run in (kept in `M.agents`).
---@param callback? fun(agents: table[])
function M.fetch_agents(callback)
  client.request(protocol.method.AGENTS, {}, function(err, result)
    if not err and result and type(result.agents) == "table" then
      M.agents = result.agents
      for _, info in ipairs(result.agents) do
        if type(info) == "table" and info.default == true and type(info.id) == "string" then
          store.own_agent = info.id -- the server's own, as it says
        end
      end
      store.agent = store.agent_of(store.current_session)
    end
    if callback then
      callback(M.agents or {})
    end
  end)
end

--- The agent ids the user can name (for :AcpNewSession): those of acp/agents as last known,
--- the agents seen running, and the plugin's own `agents`.
---@return string[]
function M.agent_ids()
  local seen, out = {}, {}
  local function add(id)
    if type(id) == "string" and not seen[id] then
      seen[id] = true
      table.insert(out, id)
    end
  end
  for _, info in ipairs(M.agents or {}) do
    add(M.agent_label(info.id))
  end
  for id in pairs(store.agents) do
    add(M.agent_label(id))
  end
  for id in pairs(store.config and store.config.agents or {}) do
    add(id)
  end
  table.sort(out)
  return out
end

--- The id to send for an agent the user named: the plugin's `default_agent` is the server's own.
---@param name? string
---@return string?
function M.agent_param(name)
  if name == nil or name == "" or name == "default" then
    return nil
  end
  if store.config and name == store.config.default_agent then
    return nil
  end
  return name
end

function M.reset()
  M.agents = nil
end

return M
