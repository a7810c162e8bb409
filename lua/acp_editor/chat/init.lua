-- The chat: a read-only transcript buffer and a prompt buffer under it.
--
-- The transcript is redrawn from the session mirror on every change, but only from the first
-- line that differs, so a streamed reply rewrites its own last lines and nothing else (folds the
-- user opened stay open, the cursor stays put). A window whose cursor was on the last line keeps
-- following new text. Pending permissions are listed at the end and answered with single keys.

local permissions = require("acp_editor.questions.permissions")
local render = require("acp_editor.chat.render")
local requests = require("acp_editor.session.requests")
local store = require("acp_editor.store")

local M = {
  ns = vim.api.nvim_create_namespace("acp_editor_chat"),
  ---@type integer?
  buf = nil,
  ---@type integer?
  prompt_buf = nil,
  ---@type string[] the lines last drawn
  lines = {},
  ---@type string[] foldexpr values of the lines last drawn
  folds = {},
  ---@type table<integer, integer> line → index of the session entry drawn there (chat/queue.lua)
  entry_at = {},
}

--- foldexpr of the transcript window (`v:lua.require'acp_editor.chat'.foldexpr()`).
function M.foldexpr()
  return M.folds[vim.v.lnum] or "0"
end

local function scratch(name, filetype)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].filetype = filetype
  vim.b[buf].acp_editor_chat = true
  pcall(vim.api.nvim_buf_set_name, buf, name)
  return buf
end

local function map(buf, modes, lhs, fn, desc)
  if lhs then
    vim.keymap.set(modes, lhs, fn, { buffer = buf, desc = "acp-editor: " .. desc, nowait = true })
  end
end

local function buffers()
  if M.buf and vim.api.nvim_buf_is_valid(M.buf) then
    return M.buf, M.prompt_buf
  end
  local keys = store.config.keymaps.chat
  -- Markdown, so treesitter and render-markdown.nvim draw it (b:acp_editor_chat tells it apart).
  M.buf = scratch("acp-editor://chat", "markdown")
  pcall(vim.treesitter.start, M.buf, "markdown") -- the parser ships with Neovim 0.11
  vim.bo[M.buf].modifiable = false
  M.prompt_buf = scratch("acp-editor://prompt", "markdown")
  M.lines, M.folds, M.entry_at = {}, {}, {}
  map(M.buf, "n", keys.allow, function()
    permissions.answer_oldest("allow_once")
  end, "allow")
  map(M.buf, "n", keys.allow_always, function()
    permissions.answer_oldest("allow_always")
  end, "always allow")
  map(M.buf, "n", keys.reject, function()
    permissions.answer_oldest("reject_once")
  end, "reject")
  map(M.buf, "n", keys.reject_always, function()
    permissions.answer_oldest("reject_always")
  end, "always reject")
  map(M.buf, "n", keys.choose, function()
    M.choose()
  end, "choose an answer")
  map(M.buf, "n", keys.yank_code, function()
    require("acp_editor.chat.code_blocks").yank()
  end, "yank the code block under the cursor")
  map(M.buf, "n", keys.edit_prompt, function()
    require("acp_editor.chat.queue").edit()
  end, "edit your prompt under the cursor (a waiting one in place, an earlier one to send again)")
  map(M.buf, "n", keys.remove_prompt, function()
    require("acp_editor.chat.queue").remove()
  end, "remove the waiting prompt under the cursor")
  map(M.prompt_buf, "i", keys.cancel, function()
    require("acp_editor.chat.queue").cancel()
  end, "cancel the turn")
  for _, buf in ipairs({ M.buf, M.prompt_buf }) do
    map(buf, "n", keys.cancel, function()
      require("acp_editor.chat.queue").cancel()
    end, "cancel the turn")
    map(buf, "n", keys.close, function()
      M.close()
    end, "close the chat")
    map(buf, "n", keys.help, function()
      require("acp_editor.chat.help").show()
    end, "show these keys")
  end
  map(M.prompt_buf, "n", keys.send, function()
    M.send()
  end, "send the prompt")
  map(M.prompt_buf, { "n", "i" }, keys.send_insert, function()
    M.send()
  end, "send the prompt")
  require("acp_editor.chat.prompt").attach(M.prompt_buf) -- attachments, completion, history
  M.redraw()
  return M.buf, M.prompt_buf
end

--- Open the oldest pending request's picker (again, after it was dismissed with dismiss = "keep").
function M.choose()
  local entry = permissions.pending[1]
  if not entry then
    return store.report("acp-editor: no permission request is pending")
  end
  permissions.picking = nil -- a picker left open elsewhere no longer counts
  permissions.pump(entry)
end

local function window_of(buf)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return win
    end
  end
end

local function transcript_window(win)
  local opts = store.config.chat
  if opts.position == "right" or opts.position == "left" then
    vim.api.nvim_win_set_width(win, opts.width)
  elseif opts.position == "bottom" then
    vim.api.nvim_win_set_height(win, opts.height)
  end
  local wo = vim.wo[win]
  wo.wrap, wo.linebreak, wo.number, wo.relativenumber, wo.signcolumn = true, true, false, false, "no"
  wo.foldmethod, wo.foldexpr, wo.foldtext, wo.foldlevel = "expr", "v:lua.require'acp_editor.chat'.foldexpr()", "", 0
  wo.winfixwidth = opts.position ~= "bottom"
end

--- Open (or focus) the chat: the transcript, and the prompt area under it, where the cursor
--- lands. Whichever of the two windows is missing is made again.
function M.open()
  local buf, prompt_buf = buffers()
  local win, prompt_win = window_of(buf), window_of(prompt_buf)
  if not win then
    if prompt_win then
      vim.api.nvim_set_current_win(prompt_win)
      vim.cmd("aboveleft split")
    else
      local position = store.config.chat.position
      local split = { right = "botright vsplit", left = "topleft vsplit", bottom = "botright split", tab = "tabnew" }
      vim.cmd(split[position])
    end
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, buf)
    transcript_window(win)
    vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(buf), 0 })
  end
  if not prompt_win then
    vim.api.nvim_set_current_win(win)
    vim.cmd("belowright split")
    prompt_win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(prompt_win, prompt_buf)
    vim.wo[prompt_win].number = false
  end
  vim.api.nvim_win_set_height(prompt_win, store.config.chat.prompt_height)
  vim.wo[prompt_win].winfixheight = true
  vim.api.nvim_set_current_win(prompt_win)
  return prompt_win
end

function M.close()
  for _, buf in ipairs({ M.prompt_buf, M.buf }) do
    local win = buf and window_of(buf)
    if win and #vim.api.nvim_tabpage_list_wins(0) > 1 then
      vim.api.nvim_win_close(win, false)
    end
  end
end

--- Send what the prompt area holds with its attachments, and empty it.
function M.send()
  local _, prompt_buf = buffers()
  require("acp_editor.chat.prompt").send(prompt_buf)
end

--- Redraw the transcript from the current session (only the lines that changed).
function M.redraw()
  local buf = M.buf
  if not buf or not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  local sid = store.current_session
  local drawn = render.render(store.current(), {
    agent = store.agent,
    busy = requests.busy(sid),
    plan_at = sid and store.plan_at[sid] or nil,
    -- Every pending request, whatever its session: the keys answer the oldest one first.
    permissions = permissions.pending,
    keys = store.config.keymaps.chat,
  })
  local first = 1
  while first <= #drawn.lines and drawn.lines[first] == M.lines[first] do
    first = first + 1
  end
  local count = vim.api.nvim_buf_line_count(buf)
  local tails = {}
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    tails[win] = vim.api.nvim_win_get_cursor(win)[1] >= count
  end
  M.folds, M.entry_at = drawn.folds, drawn.entry_at
  if first <= #drawn.lines or #drawn.lines ~= #M.lines then
    vim.bo[buf].modifiable = true
    vim.api.nvim_buf_set_lines(buf, first - 1, -1, false, vim.list_slice(drawn.lines, first))
    vim.bo[buf].modifiable = false
  end
  M.lines = drawn.lines
  vim.api.nvim_buf_clear_namespace(buf, M.ns, 0, -1)
  for _, hl in ipairs(drawn.hls) do
    vim.api.nvim_buf_set_extmark(buf, M.ns, hl[1], 0, { line_hl_group = hl[2] })
  end
  for win, at_tail in pairs(tails) do
    if at_tail then
      vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(buf), 0 })
    end
  end
end

--- Listen to the store (called once from setup).
function M.subscribe()
  local pending = false
  -- Many changes can arrive in one tick; draw once for all of them.
  local function soon()
    if not pending then
      pending = true
      store.config.schedule(function()
        pending = false
        M.redraw()
      end)
    end
  end
  for _, event in ipairs({ "session", "agent", "permissions", "turn", "stopped" }) do
    store.on(event, soon)
  end
end

return M
