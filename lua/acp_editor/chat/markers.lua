-- The transcript's entries that are neither your words, the agent's nor a tool call (ACP schema
-- 1.25), and the line that closes a turn:
--
-- * a notice (`kind = "notice"`): its title at its severity (AcpEditorNotice_info, _warning,
--   _error; another severity as info), its description under it (AcpEditorNoticeText);
-- * a compaction (a message of role "compaction"): what became of it (in progress, done,
--   failed with its error, cancelled) and, folded under it, the summary the agent kept;
-- * a message between sessions (role "session"): under a heading saying who wrote to whom
--   (`## Agent → subagent “Explore hello.py”`);
-- * the turn's end, when the agent reported more than its stop reason: the tokens it used
--   (a v1 turn's `runState.usage`), or the error it stopped with (stop reason "error").
--
-- Pure, like chat/render.lua: a Writer in, lines out.

local reducer = require("acp_editor.session.reducer")
local summary = require("acp_editor.session.summary")

local M = {}

M.SEVERITIES = {
  info = { "ℹ", "Info" },
  warning = { "⚠", "Warning" },
  error = { "✗", "Error" },
}

--- The highlight group of a notice of `severity` (another severity reads as info).
---@param severity? string
---@return string
function M.notice_hl(severity)
  return "AcpEditorNotice_" .. (M.SEVERITIES[severity] and severity or "info")
end

--- `⚠ Warning: Rate limit almost reached`, its description indented under it.
---@param w acp_editor.Writer
---@param e table a notice entry (severity, title, description)
function M.notice(w, e)
  local known = M.SEVERITIES[e.severity]
  local label = known and known[2] or ("Notice (%s)"):format(tostring(e.severity))
  w:blank()
  w:line(
    ("%s %s: %s"):format(known and known[1] or "•", label, tostring(e.title or "")),
    "0",
    M.notice_hl(e.severity)
  )
  if type(e.description) == "string" and e.description ~= "" then
    w:text(e.description, "  ", "0", "AcpEditorNoticeText")
  end
end

local COMPACTION = {
  in_progress = { "◐", "Compacting the conversation…", "AcpEditorCompaction" },
  completed = { "✓", "Conversation compacted", "AcpEditorCompaction" },
  failed = { "✗", "Compaction failed", "AcpEditorNotice_error" },
  cancelled = { "⊘", "Compaction cancelled", "AcpEditorCompaction" },
}

--- A context compaction: its status, the error when it failed, its summary folded under it.
---@param w acp_editor.Writer
---@param e table a compaction entry (status, content, error)
function M.compaction(w, e)
  local status = COMPACTION[e.status] or { "?", ("Compaction (%s)"):format(tostring(e.status)), "AcpEditorCompaction" }
  local text = reducer.text_of(e.content)
  local head = ("%s %s"):format(status[1], status[2])
  if type(e.error) == "string" and e.error ~= "" then
    head = ("%s: %s"):format(head, e.error)
  elseif e.error ~= nil and e.error ~= vim.NIL then
    head = ("%s: %s"):format(head, vim.json.encode(e.error))
  end
  if text ~= "" then
    head = head .. " · summary below"
  end
  w:blank()
  w:line(head, text ~= "" and ">1" or "0", status[3])
  if text ~= "" then
    w:markdown(text, "  ", "1", "AcpEditorThought")
  end
end

--- The heading of a message between sessions, seen from `snap`'s transcript: who wrote to
--- whom (`## Agent → subagent “X”`, `## Subagent “X” → agent`, `## Parent session → agent`).
---@param snap table the session whose transcript it is
---@param e table the message entry
---@param name_of fun(session_id: string): string how a subagent is named (`subagent “X”`)
---@return string
function M.session_heading(snap, e, name_of)
  local here = snap and snap.sessionId
  local function other(sid)
    if type(sid) ~= "string" then
      return nil
    elseif snap and sid == snap.parentSessionId then
      return "parent session"
    end
    return name_of(sid)
  end
  if e.senderSessionId == here and e.recipientSessionId ~= nil then
    return ("## Agent → %s"):format(other(e.recipientSessionId))
  elseif e.recipientSessionId == here and e.senderSessionId ~= nil then
    local from = other(e.senderSessionId)
    return ("## %s → agent"):format((from:gsub("^%l", string.upper)))
  end
  return "## Between sessions"
end

--- `12.3k tokens (900 in, 334 out)` of a PromptResponse's `usage`, nil without a total.
---@param usage table
---@return string?
function M.tokens(usage)
  if type(usage) ~= "table" or type(usage.totalTokens) ~= "number" then
    return nil
  end
  local parts = {}
  for _, field in ipairs({
    { "inputTokens", "in" },
    { "outputTokens", "out" },
    { "thoughtTokens", "thinking" },
    { "cachedReadTokens", "cached" },
  }) do
    local n = usage[field[1]]
    if type(n) == "number" and n > 0 then
      table.insert(parts, ("%s %s"):format(summary.count(n), field[2]))
    end
  end
  local text = summary.count(usage.totalTokens) .. " tokens"
  return #parts > 0 and ("%s (%s)"):format(text, table.concat(parts, ", ")) or text
end

--- The line after the last turn, when it ended and the agent said more than its stop reason:
--- `(turn ended: end_turn · 1.2k tokens (900 in, 300 out))`, or the error it failed with.
---@param w acp_editor.Writer
---@param snap? acp_editor.SessionSnapshot
function M.turn_end(w, snap)
  local run = snap and type(snap.runState) == "table" and snap.runState or nil
  if not run or run.state ~= "idle" then
    return
  end
  local err = type(run.error) == "table" and run.error or nil
  local tokens = M.tokens(run.usage)
  if run.stopReason == "error" or err then
    local message = err and (err.message or vim.json.encode(err)) or "no details"
    w:blank()
    w:line(("✗ The turn failed: %s"):format(message), "0", "AcpEditorNotice_error")
    if tokens then
      w:line(("(%s)"):format(tokens), "0", "AcpEditorHint")
    end
  elseif tokens then
    w:blank()
    w:line(("(turn ended: %s · %s)"):format(tostring(run.stopReason or "idle"), tokens), "0", "AcpEditorHint")
  end
end

return M
