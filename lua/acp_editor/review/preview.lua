-- Inline previews of the agent's edits, drawn with extmarks in the real buffer.
--
-- Three kinds of change, from acp_editor.review:
--   held      a review hunk not written yet (before-write): the buffer has the old lines, which
--             are highlighted as removed; the new lines are virtual lines below them;
--   applied   a review hunk already written (after-write): the buffer has the new lines,
--             highlighted as added; the old lines are virtual lines above them;
--   proposed  an acp/diff from a tool call still running (drawn like held, and only where the
--             buffer still has the lines the diff was made against).
-- Each change has one anchor extmark spanning its lines, so it moves with the user's edits;
-- keymaps look the change up through it. Accept/reject send acp/reviewDecide (hunks) or answer
-- the tool call's pending permission (proposed edits).

local permissions = require("acp_editor.questions.permissions")
local review = require("acp_editor.review")
local store = require("acp_editor.store")

---@class acp_editor.PreviewItem
---@field kind "held"|"applied"|"proposed"
---@field mark integer the anchor extmark id
---@field hunkId? string
---@field toolCallId? string
---@field sessionId? string
---@field uri string
---@field old string[]
---@field new string[]
---@field at_end? boolean an insertion after the buffer's last line

local M = {
  ns = vim.api.nvim_create_namespace("acp_editor_preview"),
  ---@type table<integer, acp_editor.PreviewItem[]>
  items = {},
}

local function virt(lines, sign, hl)
  local out = {}
  for _, line in ipairs(lines) do
    table.insert(out, { { sign .. " " .. line, hl } })
  end
  return out
end

local function lines_match(buf, start, expected)
  if #expected == 0 then
    return start <= vim.api.nvim_buf_line_count(buf)
  end
  local got = vim.api.nvim_buf_get_lines(buf, start, start + #expected, false)
  return vim.deep_equal(got, expected)
end

---@param buf integer
---@param item acp_editor.PreviewItem
---@param start integer 0-based first line of the change in the buffer
local function draw(buf, item, start)
  local count = vim.api.nvim_buf_line_count(buf)
  local here = item.kind == "applied" and item.new or item.old -- lines the buffer holds
  local there = item.kind == "applied" and item.old or item.new -- lines shown virtually
  local hl = item.kind == "applied" and "AcpEditorAdded" or "AcpEditorRemoved"
  for i = 0, #here - 1 do
    vim.api.nvim_buf_set_extmark(buf, M.ns, start + i, 0, {
      line_hl_group = hl,
      sign_text = item.kind == "applied" and "+" or "-",
      sign_hl_group = hl,
    })
  end
  -- The anchor spans the buffer's lines of the change (one line for a pure insertion), so
  -- it moves with the user's edits and `position` can find the change again.
  local row = math.min(start, count - 1)
  item.at_end = #here == 0 and start >= count -- an insertion after the last line
  local keys = store.config.keymaps.preview
  local hunk = item.hunkId and review.hunks[item.hunkId]
  local conflict = hunk and review.conflict_note(hunk)
  local hint = ("%s by %s%s%s"):format(
    item.kind == "applied" and "edit" or "proposal",
    review.origin(hunk or item),
    conflict and (" · " .. conflict) or "",
    keys.accept and (" · %s accept · %s reject"):format(keys.accept, keys.reject or "-") or ""
  )
  item.mark = vim.api.nvim_buf_set_extmark(buf, M.ns, row, 0, {
    end_row = math.max(math.min(start + #here, count), row + 1),
    right_gravity = false,
    end_right_gravity = true,
    virt_text = { { " " .. hint, "AcpEditorHint" } },
    virt_text_pos = "eol",
  })
  if #there == 0 then
    return
  end
  -- Old lines of an applied hunk go above its new lines; new lines of a proposal go below the
  -- lines they replace, or at the insertion point (below the last line at the end of the file).
  local removed = item.kind == "applied"
  local above, at
  if removed then
    above, at = true, row
  elseif #here > 0 then
    above, at = false, start + #here - 1
  elseif start < count then
    above, at = true, start
  else
    above, at = false, count - 1
  end
  vim.api.nvim_buf_set_extmark(buf, M.ns, at, 0, {
    virt_lines = virt(there, removed and "-" or "+", removed and "AcpEditorRemovedVirt" or "AcpEditorAddedVirt"),
    virt_lines_above = above,
  })
end

--- Where a change's `lines` (those the buffer should hold) are now, 0-based: at `hint` when they
--- are there, else the nearest place they are found. The server's range can be null (its copy
--- of the text did not have them yet) or stale (only the hunks that changed are sent again,
--- and the user may have typed since), so it is only a hint. Lines that cannot be checked (a
--- pure insertion) trust the hint; nil when the lines are gone.
local function place(buf, hint, lines)
  local count = vim.api.nvim_buf_line_count(buf)
  if #lines == 0 then
    return hint and math.min(hint, count) or nil
  end
  if hint and lines_match(buf, hint, lines) then
    return hint
  end
  local text = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local best
  for start = 0, #text - #lines do
    if text[start + 1] == lines[1] and vim.deep_equal(vim.list_slice(text, start + 1, start + #lines), lines) then
      if not best or math.abs(start - (hint or 0)) < math.abs(best - (hint or 0)) then
        best = start
      end
    end
  end
  return best
end

--- The changes to draw in `buf`, with where each starts.
local function collect(buf)
  local uri = vim.uri_from_bufnr(buf)
  local out = {}
  local reviewed_calls = {}
  for _, hunk in ipairs(review.pending(uri)) do
    local start = place(buf, hunk.range and hunk.range.start.line, hunk.applied and hunk.newLines or hunk.oldLines)
    if start then
      reviewed_calls[hunk.toolCallId or ""] = true
      local item = {
        kind = hunk.applied and "applied" or "held",
        hunkId = hunk.hunkId,
        toolCallId = hunk.toolCallId,
        sessionId = hunk.sessionId,
        uri = uri,
        old = hunk.oldLines,
        new = hunk.newLines,
      }
      table.insert(out, { item = item, start = start })
    end
  end
  for _, diff in ipairs(review.proposed(uri)) do
    if not reviewed_calls[diff.toolCallId] then
      for _, h in ipairs(diff.hunks or {}) do
        -- A proposal is against the text the agent saw: drawn only where the buffer still has it.
        if lines_match(buf, h.range.start.line, h.oldLines) then
          local item = {
            kind = "proposed",
            toolCallId = diff.toolCallId,
            sessionId = diff.sessionId,
            uri = uri,
            old = h.oldLines,
            new = h.newLines,
          }
          table.insert(out, { item = item, start = h.range.start.line })
        end
      end
    end
  end
  return out
end

--- Redraw the previews of one buffer, and set or remove its keymaps.
---@param buf integer
function M.render(buf)
  if not vim.api.nvim_buf_is_loaded(buf) then
    return
  end
  vim.api.nvim_buf_clear_namespace(buf, M.ns, 0, -1)
  local items = {}
  for _, c in ipairs(collect(buf)) do
    draw(buf, c.item, c.start)
    table.insert(items, c.item)
  end
  M.items[buf] = items
  require("acp_editor.review.keymaps").sync(buf, #items > 0)
end

--- Redraw every loaded file buffer (listener of the "review" event).
function M.render_all()
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].buftype == "" then
      M.render(buf)
    end
  end
end

--- Where an item is now (0-based start row, end row exclusive), following the user's edits.
---@param buf integer
---@param item acp_editor.PreviewItem
---@return integer? start
---@return integer? stop
function M.position(buf, item)
  local mark = vim.api.nvim_buf_get_extmark_by_id(buf, M.ns, item.mark, { details = true })
  if not mark[1] then
    return nil
  end
  local start, details = mark[1], mark[3]
  return start, math.max(details.end_row or start + 1, start + 1)
end

--- The change under the cursor, else the next one below, else the last one.
---@param buf integer
---@param row integer 0-based
---@return acp_editor.PreviewItem?
function M.item_at(buf, row)
  local best, after
  for _, item in ipairs(M.items[buf] or {}) do
    local start, stop = M.position(buf, item)
    if start and row >= start and row < stop then
      return item
    end
    if start and start > row and (not after or start < after) then
      best, after = item, start
    end
  end
  return best or (M.items[buf] or {})[#(M.items[buf] or {})]
end

--- Accept or reject one change (the one under the cursor by default).
---@param decision "accept"|"reject"
---@param callback? fun(err: table?, result: table?)
---@param buf? integer
---@param row? integer 0-based
---@return boolean decided
function M.decide(decision, buf, row, callback)
  buf = buf or vim.api.nvim_get_current_buf()
  row = row or (vim.api.nvim_win_get_cursor(0)[1] - 1)
  local item = M.item_at(buf, row)
  if not item then
    store.report("acp-editor: no agent change in this buffer")
    return false
  end
  if item.hunkId then
    review.decide(decision, { hunkIds = { item.hunkId } }, callback)
    return true
  end
  -- A proposal is decided by the permission its tool call is waiting for.
  for _, entry in ipairs(permissions.pending) do
    if (entry.params.toolCall or {}).toolCallId == item.toolCallId then
      local option = permissions.option_of_kind(entry.params, decision == "accept" and "allow_once" or "reject_once")
      if option then
        return permissions.answer(entry, option.optionId)
      end
    end
  end
  store.report("acp-editor: the agent has not asked about this edit yet")
  return false
end

function M.reset()
  for buf in pairs(M.items) do
    if vim.api.nvim_buf_is_valid(buf) then
      vim.api.nvim_buf_clear_namespace(buf, M.ns, 0, -1)
      require("acp_editor.review.keymaps").sync(buf, false)
    end
  end
  M.items = {}
end

return M
