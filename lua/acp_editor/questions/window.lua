-- A permission request in a small floating window that never takes the keyboard: it opens in the
-- top-right corner without focus, so what you type keeps going where it went. You answer when
-- you choose to: `:AcpPermission` (or <Plug>(acp-editor-permission)) jumps into it, and a key
-- there answers; `q` goes back without answering. The window closes when the request is answered,
-- from here, the chat or anywhere else, or withdrawn.

local M = {
  ---@type integer? the window, while one is shown
  win = nil,
  ---@type integer?
  buf = nil,
  ---@type integer? the window to go back to after answering
  from = nil,
}

--- The key each option kind answers with; options of other kinds get 1, 2, ...
M.KEYS = { allow_once = "y", allow_always = "a", reject_once = "n", reject_always = "N" }

---@param options table[] PermissionOption[]
---@return { key: string, option: table }[]
function M.keyed(options)
  local used, keyed, n = {}, {}, 0
  for _, option in ipairs(options) do
    local key = M.KEYS[option.kind]
    if not key or used[key] then
      n = n + 1
      key = tostring(n)
    end
    used[key] = true
    table.insert(keyed, { key = key, option = option })
  end
  return keyed
end

local function lines_for(question, keyed)
  local lines = { " " .. question, "" }
  for _, k in ipairs(keyed) do
    table.insert(lines, ("  %s  %s"):format(k.key, k.option.name or k.option.optionId))
  end
  table.insert(lines, "")
  table.insert(lines, " :AcpPermission to answer here · q: later")
  return lines
end

function M.close()
  if M.win and vim.api.nvim_win_is_valid(M.win) then
    if vim.api.nvim_get_current_win() == M.win and M.from and vim.api.nvim_win_is_valid(M.from) then
      vim.api.nvim_set_current_win(M.from)
    end
    vim.api.nvim_win_close(M.win, true)
  end
  if M.buf and vim.api.nvim_buf_is_valid(M.buf) then
    vim.api.nvim_buf_delete(M.buf, { force = true })
  end
  M.win, M.buf, M.from = nil, nil, nil
end

local function leave()
  if M.from and vim.api.nvim_win_is_valid(M.from) then
    vim.api.nvim_set_current_win(M.from)
  end
end

--- Show a request; `answer(option_id)` is called with the option the user keys in.
---@param what string the question, one line: who asks and what for ("The agent asks: ...")
---@param options table[] its PermissionOptions
---@param answer fun(option_id: string)
function M.show(what, options, answer)
  M.close()
  local keyed = M.keyed(options)
  local lines = lines_for(what, keyed)
  local width = 20
  for _, line in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(line) + 1)
  end
  width = math.min(width, math.max(20, vim.o.columns - 4))
  M.buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(M.buf, 0, -1, false, lines)
  vim.bo[M.buf].modifiable = false
  vim.bo[M.buf].bufhidden = "wipe"
  vim.bo[M.buf].filetype = "acp_editor_permission"
  M.win = vim.api.nvim_open_win(M.buf, false, {
    relative = "editor",
    anchor = "NE",
    row = 1,
    col = vim.o.columns,
    width = width,
    height = #lines,
    style = "minimal",
    border = "rounded",
    title = " acp-editor: permission ",
    focusable = true,
    zindex = 60,
    noautocmd = true,
  })
  vim.wo[M.win].wrap = true
  -- A long question (an ACP v2 agent's own words, then the tool call's) wraps: as tall as its
  -- wrapped text, or the last lines (the keys) would be out of sight.
  local rows = vim.api.nvim_win_text_height(M.win, {}).all
  vim.api.nvim_win_set_height(M.win, math.max(1, math.min(rows, vim.o.lines - 4)))
  local buf = M.buf
  for _, k in ipairs(keyed) do
    vim.keymap.set("n", k.key, function()
      answer(k.option.optionId)
    end, { buffer = buf, nowait = true, desc = "acp-editor: " .. (k.option.name or k.option.optionId) })
  end
  for _, key in ipairs({ "q", "<Esc>" }) do
    vim.keymap.set("n", key, leave, { buffer = buf, nowait = true, desc = "acp-editor: answer later" })
  end
end

--- Jump into the window (to answer); false when none is shown.
---@return boolean
function M.focus()
  if not (M.win and vim.api.nvim_win_is_valid(M.win)) then
    return false
  end
  if vim.api.nvim_get_current_win() ~= M.win then
    M.from = vim.api.nvim_get_current_win()
  end
  vim.api.nvim_set_current_win(M.win)
  return true
end

---@return boolean
function M.shown()
  return M.win ~= nil and vim.api.nvim_win_is_valid(M.win)
end

return M
