-- The editor-side mirror of one session: starts empty, applies the changes of acp/sessionChanged.
--
-- Pure (no Neovim API beyond vim.deepcopy): the rules are docs/protocol.md's `Change` type, the
-- same ones the sidecar applies to its own snapshot, so a mirror that saw every change equals
-- `acp/snapshot`'s session. A change that cannot apply (an entry index that skips or repeats)
-- means a change was missed: `apply` says so and the caller fetches a fresh snapshot.

---@class acp_editor.Entry
---@field kind "message"|"toolCall"|"update"
---@field role? "user"|"agent"|"thought"
---@field messageId? string
---@field content? table[]
---@field toolCallId? string
---@field update? table
---@field queued? boolean v2: sent while the agent worked, not taken up yet
---@field dropped? boolean v2: the agent's work ended before it took this queued prompt up
---@field waitedUntil? integer a prompt that waited: how many entries there were when it went or was
--- dropped (it reads after them)

---@class acp_editor.SessionSnapshot
---@field sessionId string
---@field agent? string the id of the agent it runs in (each acp/sessionChanged names it)
---@field worktree? string the folder it works in, when in a worktree of its own
---@field protocolVersion integer
---@field entries acp_editor.Entry[]
---@field toolCalls table<string, table>
---@field plan? {entries: table[]}
---@field availableCommands? table[]
---@field modes? {currentModeId: string, availableModes: table[]}
---@field configOptions? table[]
---@field usage? table
---@field info table
---@field plans? table<string, table> v2: every plan by planId (`plan` is the one updated last)
---@field runState? {state: string, stopReason?: string} running, idle or requires_action
---@field subagents? table<string, table> child sessions by session id (`subagent_update`)

local M = {}

--- Change types that replace one snapshot field, and the field each one carries.
local REPLACEMENTS = {
  plan = "plan",
  commands = "availableCommands",
  modes = "modes",
  config_options = "configOptions",
  usage = "usage",
  info = "info",
  plans = "plans",
  run_state = "runState",
  subagents = "subagents",
}

---@param session_id string
---@param protocol_version? integer
---@return acp_editor.SessionSnapshot
function M.new(session_id, protocol_version)
  return {
    sessionId = session_id,
    protocolVersion = protocol_version or 1,
    entries = {},
    toolCalls = {},
    info = {},
  }
end

--- `{type = "text", text = ...}` and nothing else: only such blocks merge (annotations or _meta
--- belong to one block and would be lost or smeared by merging).
---@param block any
---@return boolean
function M.is_plain_text(block)
  if type(block) ~= "table" or block.type ~= "text" or type(block.text) ~= "string" then
    return false
  end
  local count = 0
  for _ in pairs(block) do
    count = count + 1
  end
  return count == 2
end

local appliers = {}

function appliers.entry(snap, change)
  if change.index ~= #snap.entries then
    return false, ("entry at index %s, but the mirror has %d entries"):format(change.index, #snap.entries)
  end
  table.insert(snap.entries, vim.deepcopy(change.entry))
  return true
end

function appliers.message_chunk(snap, change)
  local entry = snap.entries[change.index + 1] -- the protocol's indexes are 0-based
  if not entry or type(entry.content) ~= "table" then
    return false, ("message_chunk for entry %s, which the mirror does not have"):format(change.index)
  end
  local content, block = entry.content, change.content
  local last = content[#content]
  if M.is_plain_text(block) and M.is_plain_text(last) then
    content[#content] = { type = "text", text = last.text .. block.text }
  else
    table.insert(content, vim.deepcopy(block))
  end
  return true
end

--- A change's `set` and `unset` applied to one record (a message entry, a tool call).
local function patch(target, change)
  for field, value in pairs(change.set or {}) do
    target[field] = vim.deepcopy(value)
  end
  for _, field in ipairs(change.unset or {}) do
    target[field] = nil
  end
  return true
end

--- v2: fields of a message entry (content replaced whole; the agent's messageId on our prompt).
function appliers.message(snap, change)
  local entry = snap.entries[change.index + 1]
  if not entry or entry.kind ~= "message" then
    return false, ("message change for entry %s, which the mirror does not have"):format(change.index)
  end
  return patch(entry, change)
end

local function record(snap, id)
  snap.toolCalls[id] = snap.toolCalls[id] or { toolCallId = id }
  return snap.toolCalls[id]
end

function appliers.tool_call(snap, change)
  return patch(record(snap, change.toolCallId), change)
end

function appliers.tool_call_content(snap, change)
  local call = record(snap, change.toolCallId)
  if type(call.content) ~= "table" then
    call.content = {}
  end
  table.insert(call.content, vim.deepcopy(change.content))
  return true
end

--- Apply one change in place.
---@param snap acp_editor.SessionSnapshot
---@param change table
---@return boolean ok
---@return string? err why it could not apply (the mirror is then out of date)
function M.apply(snap, change)
  local apply = appliers[change.type]
  if apply then
    return apply(snap, change)
  end
  local field = REPLACEMENTS[change.type]
  if not field then
    return false, ("unknown change type %s"):format(vim.inspect(change.type))
  end
  snap[field] = vim.deepcopy(change[field])
  return true
end

--- Apply a list of changes; stops at the first that fails.
---@param snap acp_editor.SessionSnapshot
---@param changes table[]
---@return boolean ok
---@return string? err
function M.apply_all(snap, changes)
  for _, change in ipairs(changes) do
    local ok, err = M.apply(snap, change)
    if not ok then
      return false, err
    end
  end
  return true
end

--- The text of a message's content blocks, for showing (non-text blocks are named, not dropped).
---@param content table[]
---@return string
function M.text_of(content)
  local parts = {}
  for _, block in ipairs(content or {}) do
    if type(block) ~= "table" then
      table.insert(parts, "[null]") -- a null in an array arrives as vim.NIL
    elseif block.type == "text" then
      table.insert(parts, block.text)
    elseif block.type == "resource_link" then
      table.insert(parts, ("[%s](%s)"):format(block.name or block.uri or "link", block.uri or ""))
    elseif block.type == "resource" and type(block.resource) == "table" then
      table.insert(parts, ("[context %s]"):format(block.resource.uri or "?"))
    else
      table.insert(parts, ("[%s]"):format(tostring(block.type)))
    end
  end
  return table.concat(parts, "")
end

--- Tool calls that have not reached an end state.
local FINAL = { completed = true, failed = true, cancelled = true }
---@param status? string
---@return boolean
function M.is_final(status)
  return FINAL[status] == true
end

return M
