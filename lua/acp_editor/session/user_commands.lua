-- The user commands about sessions: the switcher (:AcpSessions, :AcpSwitch), new sessions (in a
-- worktree of their own with ++worktree), a worktree brought back or discarded, delete and fork.
-- acp_editor.commands re-exports them (plugin/acp_editor.lua calls that module).

local store = require("acp_editor.store")

local M = {}

local function ensure()
  return require("acp_editor.commands").ensure()
end

local function report_error(what)
  return require("acp_editor.commands").report_error(what)
end

local function requests()
  return require("acp_editor.session.requests")
end

--- :AcpSessions: the live sessions (title, agent, what each does), each with its live
--- subagents under it, to bring one to the front (a subagent: its parent, showing it); then,
--- when the agent can list them, its earlier sessions, to load one.
function M.sessions()
  if not ensure() then
    return
  end
  local live = require("acp_editor.session.live")
  local subagents = require("acp_editor.session.subagents")
  local function pick(earlier)
    local items = {}
    for _, sid in ipairs(live.ids()) do
      table.insert(items, { sessionId = sid, live = true })
      for _, record in ipairs(subagents.descendants(sid)) do
        if store.sessions[record.sessionId] then
          table.insert(items, { sessionId = record.sessionId, live = true, child = record })
        end
      end
    end
    for _, s in ipairs(earlier) do
      if not store.sessions[s.sessionId] then
        table.insert(items, { sessionId = s.sessionId, listed = s })
      end
    end
    if #items == 0 then
      return store.report("acp-editor: no session yet: send a prompt, or :AcpNewSession")
    end
    vim.ui.select(items, {
      prompt = "Sessions (live ones first: ▸ is in front):",
      kind = "acp_editor.session",
      format_item = function(item)
        if item.child then
          return live.describe_child(item.child)
        elseif item.live then
          return live.describe(item.sessionId)
        end
        local s = item.listed
        return ("  load: %s  %s  %s"):format(s.title or s.sessionId, s.updatedAt or "", s.cwd or "")
      end,
    }, function(choice)
      if choice and choice.live then
        live.select(choice.sessionId)
      elseif choice then
        requests().load(choice.sessionId)
      end
    end)
  end
  if not requests().can_list() then
    return pick({})
  end
  requests().list(function(err, result)
    if err then
      store.report("acp-editor: listing earlier sessions failed: " .. (err.message or ""), vim.log.levels.WARN)
    end
    pick(result and result.sessions or {})
  end)
end

--- :AcpSwitch {sessionId}: bring a live session to the front (its chat shows in the chat window).
---@param o vim.api.keyset.create_user_command.command_args
function M.switch(o)
  if not ensure() then
    return
  elseif o.args == "" then
    return M.sessions()
  end
  require("acp_editor.session.live").select(o.args)
end

---@param arglead? string
---@return string[]
function M.complete_sessions(arglead)
  return vim.tbl_filter(function(sid)
    return vim.startswith(sid, arglead or "")
  end, require("acp_editor.session.live").ids())
end

M.WORKTREE_FLAG = "++worktree"

--- :AcpNewSession [agent] [++worktree]: a new session, of the agent named (acp/agents; default:
--- the one the sidecar started with), in front; `++worktree`: in a git worktree of its own
--- (its changes come into your files only with :AcpBringBack).
---@param o? vim.api.keyset.create_user_command.command_args
function M.new_session(o)
  if not ensure() then
    return
  end
  local live = require("acp_editor.session.live")
  local name, worktree = "", false
  for _, arg in ipairs(o and o.fargs or {}) do
    if arg == M.WORKTREE_FLAG then
      worktree = true
    elseif name == "" then
      name = arg
    else
      return store.report("acp-editor: :AcpNewSession takes an agent and ++worktree", vim.log.levels.ERROR)
    end
  end
  requests().new_session(function(err, result)
    if err then
      local what = worktree and "starting a session in a worktree of its own" or "starting a session"
      return report_error(what)(err)
    end
    local label = name ~= "" and name or live.agent_label(store.agent_id(result.sessionId))
    local where = ""
    local folder = result.snapshot and result.snapshot.worktree
    if type(folder) == "string" then
      where = (" in its own worktree %s (your files change only with :AcpBringBack)"):format(
        vim.fn.fnamemodify(folder, ":~")
      )
    end
    store.report(("acp-editor: new session %s of %s%s, in front"):format(result.sessionId, label, where))
  end, live.agent_param(name), worktree)
end

---@param arglead? string
---@return string[]
function M.complete_agents(arglead)
  local live = require("acp_editor.session.live")
  if store.client_id then
    live.fetch_agents() -- for the next <Tab>: completion cannot wait for the answer
  end
  local choices = vim.list_extend(live.agent_ids(), { M.WORKTREE_FLAG })
  return vim.tbl_filter(function(id)
    return vim.startswith(id, arglead or "")
  end, choices)
end

--- :AcpBringBack [sessionId]: a worktree session's changes into your files, as its review.
---@param o? vim.api.keyset.create_user_command.command_args
function M.bring_back(o)
  if not ensure() then
    return
  end
  local worktrees = require("acp_editor.session.worktrees")
  worktrees.choose(o and o.args, "Bring back", worktrees.bring_back)
end

--- :AcpDiscardWorktree [sessionId]: delete a session's worktree, after asking (keep first).
---@param o? vim.api.keyset.create_user_command.command_args
function M.discard_worktree(o)
  if not ensure() then
    return
  end
  local worktrees = require("acp_editor.session.worktrees")
  worktrees.choose(o and o.args, "Discard", worktrees.discard)
end

---@param arglead? string
---@return string[]
function M.complete_worktrees(arglead)
  return vim.tbl_filter(function(sid)
    return vim.startswith(sid, arglead or "")
  end, require("acp_editor.session.worktrees").ids())
end

--- :AcpDeleteSession: the agent forgets the current session, after asking (keeping it first).
function M.delete_session()
  if not ensure() then
    return
  end
  local sid = store.current_session
  if not sid then
    return store.report("acp-editor: there is no session to delete", vim.log.levels.WARN)
  elseif not requests().can("delete") then
    return store.report("acp-editor: this agent cannot delete sessions", vim.log.levels.WARN)
  end
  local keep, delete = "Keep the session", "Delete"
  vim.ui.select({ keep, delete }, {
    prompt = ("Delete session %s? The agent forgets it: it can no longer be loaded. Files are not touched."):format(
      sid
    ),
    kind = "acp_editor.delete_session",
  }, function(choice)
    if choice == delete then
      requests().delete(sid, function(err)
        if err then
          return report_error("deleting the session")(err)
        end
        store.report(("acp-editor: session %s deleted"):format(sid))
      end)
    end
  end)
end

--- :AcpFork: a new session from the current one's context (agents that advertise fork).
function M.fork()
  if not ensure() then
    return
  elseif not requests().can("fork") then
    return store.report("acp-editor: this agent cannot fork sessions", vim.log.levels.WARN)
  end
  requests().fork(function(err, result)
    if err then
      return report_error("forking the session")(err)
    end
    store.report(("acp-editor: now in %s, a fork of the session"):format(result.sessionId))
  end)
end

return M
