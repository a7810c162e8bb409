-- Subagents (ACP schema 1.25): child sessions a session's agent starts, as claude-agent-acp's
-- Task tool does. The parent's mirror describes each child (`subagents`, by its session id:
-- title, description, state, capabilities, and `toolCallId`, the parent's tool call that
-- started it); the child's own traffic (tool calls, questions, messages) is a session of its
-- own, whose mirror names its parent (acp_editor.session.sync). This module reads both, in
-- words the chat, the switcher, questions and follow-along share, and cancels one child alone
-- (`acp/cancel` of its session, when the agent says it can: `capabilities.cancel`).

local store = require("acp_editor.store")

local M = {}

--- The parent's record of `child` (nil when no parent describes it).
---@param child string
---@return table?
function M.record(child)
  local parent = store.parent_of(child)
  local snap = parent and store.sessions[parent]
  local records = snap and type(snap.subagents) == "table" and snap.subagents or nil
  local record = records and records[child]
  return type(record) == "table" and record or nil
end

--- A child's title as its parent's agent gave it, else nil.
---@param child string
---@return string?
function M.title(child)
  local record = M.record(child)
  local title = record and record.title
  return type(title) == "string" and vim.trim(title) ~= "" and title or nil
end

--- How a message names the child: `subagent “Explore hello.py”` (capitalised: `Subagent …`),
--- or `a subagent` when it has no title.
---@param child string
---@param capital? boolean
---@return string
function M.name(child, capital)
  local title = M.title(child)
  local text = title and ("subagent “%s”"):format(title) or "a subagent"
  return capital and (text:gsub("^%l", string.upper)) or text
end

--- The children `parent`'s agent started, in the order its transcript shows them (by the
--- position of the tool call that started each, then by id).
---@param parent string
---@return table[] records
function M.children(parent)
  local snap = store.sessions[parent]
  local out = {}
  for id, record in pairs(snap and type(snap.subagents) == "table" and snap.subagents or {}) do
    if type(record) == "table" then
      table.insert(out, vim.tbl_extend("keep", record, { sessionId = id }))
    end
  end
  local at = {}
  for i, e in ipairs(snap and snap.entries or {}) do
    if e.kind == "toolCall" then
      at[e.toolCallId] = i
    end
  end
  table.sort(out, function(a, b)
    local pa, pb = at[a.toolCallId] or math.huge, at[b.toolCallId] or math.huge
    if pa ~= pb then
      return pa < pb
    end
    return a.sessionId < b.sessionId
  end)
  return out
end

--- The live children of every session whose transcript is `parent`'s (its own and theirs).
---@param parent string
---@return table[] records, each with `depth` (1: a child of `parent`)
function M.descendants(parent)
  local out = {}
  local function walk(sid, depth, seen)
    for _, record in ipairs(M.children(sid)) do
      if not seen[record.sessionId] then
        seen[record.sessionId] = true
        table.insert(out, vim.tbl_extend("force", record, { depth = depth }))
        walk(record.sessionId, depth + 1, seen)
      end
    end
  end
  walk(parent, 1, { [parent] = true })
  return out
end

--- The error's message of a failed child's state (an ACP Error object, or a string).
local function error_message(err)
  if type(err) == "table" and type(err.message) == "string" then
    return err.message
  elseif type(err) == "string" then
    return err
  end
end

--- What a child does now, in words: "waiting for you" (its question waits, or the agent says
--- it needs you), "running", "failed: <the error's message>", "idle · <stop reason>", or the
--- state the agent named (a future one); nil when the agent has not said.
--- Pure: `child` is the child's own mirror (its run state says when its question waits),
--- `asks` whether a question of its is pending here.
---@param record table the parent's record of the child
---@param child? table
---@param asks? boolean
---@return string?
---@return "waiting"|"running"|"failed"|"idle"|"other"|nil kind
function M.describe_state(record, child, asks)
  local run = child and type(child.runState) == "table" and child.runState.state or nil
  local state = type(record.state) == "table" and record.state or {}
  local what = state.state
  if asks or run == "requires_action" or what == "requires_action" then
    return "waiting for you", "waiting"
  elseif what == "running" or (what == nil and run == "running") then
    return "running", "running"
  elseif what == "idle" then
    local message = error_message(state.error)
    if state.stopReason == "error" or message then
      return "failed: " .. (message or "an error"), "failed"
    end
    return state.stopReason and ("idle · " .. tostring(state.stopReason)) or "idle", "idle"
  elseif type(what) == "string" then
    return what, "other"
  end
end

--- What a child does now (see describe_state), from the store.
---@param record table
---@return string?
---@return string? kind
function M.state(record)
  local live = require("acp_editor.session.live")
  return M.describe_state(record, store.sessions[record.sessionId], live.asks(record.sessionId, true))
end

--- The tokens a child used, as its idle state reports them: `1.2k tokens`, else nil.
---@param record table
---@return string?
function M.tokens(record)
  local usage = type(record.state) == "table" and record.state.usage or nil
  if type(usage) == "table" and type(usage.totalTokens) == "number" then
    return require("acp_editor.session.summary").count(usage.totalTokens) .. " tokens"
  end
end

--- Whether the agent can stop this child alone (`capabilities.cancel`).
---@param record table
---@return boolean
function M.can_cancel(record)
  return type(record.capabilities) == "table" and record.capabilities.cancel ~= nil
end

--- The live children of the session in front (and theirs), for `:AcpCancel`'s completion.
---@return string[]
function M.ids()
  local front = store.current_session
  if not front then
    return {}
  end
  return vim.tbl_map(function(r)
    return r.sessionId
  end, M.descendants(front))
end

--- A child named by its session id (or its title, when that is unique) among those of the
--- session in front.
---@param name string
---@return table? record
function M.find(name)
  local front = store.current_session
  local found = {}
  for _, record in ipairs(front and M.descendants(front) or {}) do
    if record.sessionId == name then
      return record
    elseif record.title == name then
      table.insert(found, record)
    end
  end
  return #found == 1 and found[1] or nil
end

--- Stop one child (`acp/cancel` of its session): the parent's turn goes on.
---@param child string
---@param callback? fun(err: table?)
function M.cancel(child, callback)
  local record = M.record(child)
  callback = callback or function() end
  if not record then
    store.report(("acp-editor: no subagent %s in this session"):format(child), vim.log.levels.WARN)
    return callback({ message = "no such subagent" })
  elseif not M.can_cancel(record) then
    store.report(
      ("acp-editor: the agent cannot stop %s alone (:AcpCancel with no argument cancels the whole turn)"):format(
        M.name(child)
      ),
      vim.log.levels.WARN
    )
    return callback({ message = "cannot be cancelled alone" })
  end
  local protocol = require("acp_editor.protocol")
  require("acp_editor.sidecar.client").request(protocol.method.CANCEL, { sessionId = child }, function(err)
    if err then
      store.report(
        ("acp-editor: cancelling %s failed: %s"):format(M.name(child), err.message or vim.inspect(err)),
        vim.log.levels.ERROR
      )
    else
      store.report(("acp-editor: %s cancelled; the turn goes on"):format(M.name(child, true)))
    end
    callback(err)
  end)
end

return M
