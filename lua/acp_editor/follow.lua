-- Following the agent (acp/follow): show where it works without taking the user's focus.
--
-- The location opens in a window other than the current one (the user is usually typing in
-- the chat or prompt): a window already showing the file, else the window used last time, else
-- another ordinary window (never the user's only one), else a new split made without entering
-- it. When the current window shows the file, only the agent's mark is drawn there: the user's
-- cursor is theirs. The agent's cursor is an extmark (sign + tag) in the target buffer, so it
-- stays visible when the user scrolls away. The server already rate-limits and orders the
-- jumps; this module only draws them, and tells the server when the user turns following off.

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")
local store = require("acp_editor.store")

local M = {
  ns = vim.api.nvim_create_namespace("acp_editor_follow"),
  ---@type integer? the window the last jump went to
  win = nil,
  ---@type {buf: integer, line: integer, uri: string}? where the agent's cursor is drawn
  mark = nil,
}

--- A window the user edits files in: not floating, not a scratch/chat/quickfix buffer.
local function ordinary(win)
  if not vim.api.nvim_win_is_valid(win) or vim.api.nvim_win_get_config(win).relative ~= "" then
    return false
  end
  local buf = vim.api.nvim_win_get_buf(win)
  return vim.bo[buf].buftype == "" and not vim.b[buf].acp_editor_chat
end

---@param buf integer the buffer to show
---@return integer win
function M.target_window(buf)
  local current = vim.api.nvim_get_current_win()
  local wins = vim.api.nvim_tabpage_list_wins(0)
  for _, win in ipairs(wins) do
    if win ~= current and vim.api.nvim_win_get_buf(win) == buf and ordinary(win) then
      return win
    end
  end
  -- The user is looking at the file: the agent's mark shows there; no second window of it.
  if vim.api.nvim_win_get_buf(current) == buf and ordinary(current) then
    return current
  end
  if
    M.win
    and M.win ~= current
    and vim.api.nvim_win_is_valid(M.win)
    and ordinary(M.win)
    and vim.api.nvim_win_get_tabpage(M.win) == vim.api.nvim_get_current_tabpage()
  then
    return M.win
  end
  -- Another editing window may be taken, but never the user's only one: its file stays shown.
  local others = vim.tbl_filter(function(win)
    return win ~= current and ordinary(win)
  end, wins)
  local editing = #others + (ordinary(current) and 1 or 0)
  if #others > 0 and editing > 1 then
    return others[1]
  end
  -- Nothing to reuse: split, without entering the new window, the user's only editing window
  -- (else the current one). A chat sidebar splits the other way so the file gets the width.
  local beside = others[1] or current
  local vertical = not vim.b[vim.api.nvim_win_get_buf(beside)].acp_editor_chat
  local floating = vim.api.nvim_win_get_config(beside).relative ~= ""
  return vim.api.nvim_open_win(buf, false, {
    split = vertical and (others[1] and "below" or "left") or "above",
    win = floating and -1 or beside, -- a float cannot be split: split the whole screen then
  })
end

---@param uri string
---@return integer buf
local function load(uri)
  local buf = vim.uri_to_bufnr(uri)
  if not vim.api.nvim_buf_is_loaded(buf) then
    vim.fn.bufload(buf)
  end
  vim.bo[buf].buflisted = true
  return buf
end

local function draw_mark(buf, line, reason)
  if M.mark and vim.api.nvim_buf_is_valid(M.mark.buf) then
    vim.api.nvim_buf_clear_namespace(M.mark.buf, M.ns, 0, -1)
  end
  M.mark = { buf = buf, line = line }
  if not store.config.follow_mark then
    return
  end
  vim.api.nvim_buf_set_extmark(buf, M.ns, line, 0, {
    sign_text = "A>",
    sign_hl_group = "AcpEditorAgentCursor",
    virt_text = { { (" agent: %s"):format(reason or "here"), "AcpEditorAgentCursor" } },
    virt_text_pos = "eol",
    priority = 200,
  })
end

--- acp/follow
function M.on_follow(_, params)
  if not store.follow or not params.uri then
    return
  end
  local ok, err = pcall(M.show, params)
  if not ok then
    store.report("acp-editor: could not follow the agent: " .. tostring(err), vim.log.levels.WARN)
  end
end

--- Show `params.uri` at `params.range` in another window; focus stays where it is.
---@param params {uri: string, range?: table, reason?: string}
function M.show(params)
  local current = vim.api.nvim_get_current_win()
  local buf = load(params.uri)
  local win = M.target_window(buf)
  local count = vim.api.nvim_buf_line_count(buf)
  local line = params.range and math.min(params.range.start.line, count - 1) or 0
  if win == current then -- the user's own window: the mark shows where, the cursor stays theirs
    draw_mark(buf, line, params.reason)
    store.emit("follow", params)
    return
  end
  if vim.api.nvim_win_get_buf(win) ~= buf then
    vim.api.nvim_win_set_buf(win, buf)
  end
  M.win = win
  if params.range then
    local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1] or ""
    -- LSP columns count UTF-16 code units; the cursor wants bytes.
    local ok, col = pcall(vim.str_byteindex, text, "utf-16", params.range.start.character, false)
    vim.api.nvim_win_set_cursor(win, { line + 1, ok and col or 0 })
    vim.api.nvim_win_call(win, function()
      vim.cmd("normal! zz")
    end)
  end
  draw_mark(buf, line, params.reason)
  if vim.api.nvim_get_current_win() ~= current and vim.api.nvim_win_is_valid(current) then
    vim.api.nvim_set_current_win(current) -- belt and braces: nothing above should move focus
  end
  store.emit("follow", params)
end

--- Remove the agent's cursor (follow turned off, or the sidecar stopped: no agent is there).
function M.clear()
  if M.mark and vim.api.nvim_buf_is_valid(M.mark.buf) then
    vim.api.nvim_buf_clear_namespace(M.mark.buf, M.ns, 0, -1)
  end
  M.mark = nil
end

--- Turn follow-along on or off (nil: toggle), on the server too.
function M.set(enabled)
  if enabled == nil then
    enabled = not store.follow
  end
  store.follow = enabled
  if not enabled then
    M.clear()
  end
  client.request(protocol.method.SET_FOLLOW, { enabled = enabled }, function(_, result)
    if result then
      store.follow = result.enabled -- the server's answer wins
      store.emit("follow")
    end
  end)
  store.report(("acp-editor: follow %s"):format(enabled and "on" or "off"))
end

return M
