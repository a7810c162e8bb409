-- Subagents in their parent's transcript: each child under the tool call that started it (the
-- agent's Task tool; `toolCallId` of the parent's record), or at the end when that call is not
-- known:
--
--     ◐ [think] Task: explore hello.py · in_progress
--       ↳ Subagent “Explore hello.py” · waiting for you · X stops it
--         Reads hello.py and makes one small edit
--         ✓ [read] Read hello.py · completed
--         ○ [edit] Edit hello.py · pending
--
-- Its state (running, idle with the stop reason, failed with the error's message, waiting for
-- you), its description, and its own tool calls, from the child's own mirror; its own
-- subagents under those, indented further. The lines are outside the tool call's fold, so a
-- folded Task call still shows its children. Each line names its child (`Writer.child`): the
-- chat's key stops the subagent under the cursor.
--
-- Pure but for the store's mirrors (`ctx.sessions`) and the subagents module's words.

local subagents = require("acp_editor.session.subagents")

local M = {}

local STATE_HL = {
  waiting = "AcpEditorPermission",
  running = "AcpEditorStatus_in_progress",
  failed = "AcpEditorStatus_failed",
  idle = "AcpEditorStatus_completed",
  other = "AcpEditorStatus_custom",
}

--- The records of `snap`'s children under tool call `tool_call_id` (nil: those under no
--- tool call of its transcript).
local function records(snap, tool_call_id)
  local drawn = {}
  for _, e in ipairs(snap.entries or {}) do
    if e.kind == "toolCall" then
      drawn[e.toolCallId] = true
    end
  end
  local out = {}
  for id, record in pairs(type(snap.subagents) == "table" and snap.subagents or {}) do
    if type(record) == "table" then
      local under = record.toolCallId
      if (tool_call_id and under == tool_call_id) or (not tool_call_id and not drawn[under or ""]) then
        table.insert(out, vim.tbl_extend("keep", record, { sessionId = id }))
      end
    end
  end
  table.sort(out, function(a, b)
    return a.sessionId < b.sessionId
  end)
  return out
end

--- One child, its own tool calls, and their children.
---@param ctx table render context: sessions, asks(child), call_line(call), keys
local function child(w, record, depth, ctx, seen)
  local id = record.sessionId
  if seen[id] then
    return
  end
  seen[id] = true
  local indent = ("  "):rep(depth)
  local mirror = ctx.sessions and ctx.sessions[id] or nil
  local words, kind = subagents.describe_state(record, mirror, ctx.asks and ctx.asks(id))
  local title = type(record.title) == "string" and vim.trim(record.title) ~= "" and record.title or nil
  local parts = { title and ("Subagent “%s”"):format(title) or "A subagent", words }
  local tokens = subagents.tokens(record)
  if tokens and kind ~= "running" then
    table.insert(parts, tokens)
  end
  local key = ctx.keys and ctx.keys.cancel_subagent
  if key and (kind == "running" or kind == "waiting") and subagents.can_cancel(record) then
    table.insert(parts, key .. " stops it")
  end
  local outer = w.child
  w.child = id
  w:line(("%s↳ %s"):format(indent, table.concat(parts, " · ")), "0", STATE_HL[kind] or "AcpEditorToolCall")
  if type(record.description) == "string" and record.description ~= "" then
    w:line(indent .. "  " .. record.description:gsub("\n", " "), "0", "Comment")
  end
  for _, e in ipairs(mirror and mirror.entries or {}) do
    if e.kind == "toolCall" then
      local call = mirror.toolCalls[e.toolCallId] or { toolCallId = e.toolCallId }
      local text, hl = ctx.call_line(call)
      w:line(indent .. "  " .. text, "0", hl)
      for _, grandchild in ipairs(records(mirror, e.toolCallId)) do
        child(w, grandchild, depth + 2, ctx, seen)
      end
    end
  end
  for _, grandchild in ipairs(mirror and records(mirror, nil) or {}) do
    child(w, grandchild, depth + 1, ctx, seen)
  end
  w.child = outer
end

--- The children that tool call `tool_call_id` of `snap` started, under it.
---@param w acp_editor.Writer
---@param snap acp_editor.SessionSnapshot
---@param tool_call_id string
---@param ctx acp_editor.RenderContext
function M.under(w, snap, tool_call_id, ctx)
  for _, record in ipairs(records(snap, tool_call_id)) do
    child(w, record, 1, ctx, {})
  end
end

--- The children under no tool call the transcript shows, in a section of their own.
---@param w acp_editor.Writer
---@param snap? acp_editor.SessionSnapshot
---@param ctx acp_editor.RenderContext
function M.unplaced(w, snap, ctx)
  local list = snap and records(snap, nil) or {}
  if #list == 0 then
    return
  end
  w:blank()
  w:line("## Subagents", "0", "AcpEditorHeader")
  for _, record in ipairs(list) do
    child(w, record, 1, ctx, {})
  end
end

return M
