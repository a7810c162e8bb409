-- The output of commands the agent runs (acp/terminalOutput, acp/terminalExit), live, each in
-- a scratch buffer `acp-editor://terminal/<id>`.
--
-- Output arrives in arbitrary pieces: a piece may end mid-line, so the buffer's last line stays
-- open until a newline comes. Windows whose cursor sat on the last line keep following the tail,
-- like `tail -f`; a window the user scrolled up is left alone.

local store = require("acp_editor.store")

---@class acp_editor.Terminal
---@field id string
---@field sessionId string
---@field buf integer
---@field exitStatus? {exitCode: integer?, signal: string?}

local M = {
  ---@type table<string, acp_editor.Terminal>
  terminals = {},
  ---@type string? the terminal that printed last
  latest = nil,
}

local function buffer_for(params)
  local term = M.terminals[params.terminalId]
  if term and vim.api.nvim_buf_is_valid(term.buf) then
    return term
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = "acp_editor_terminal"
  pcall(vim.api.nvim_buf_set_name, buf, "acp-editor://terminal/" .. params.terminalId)
  term = { id = params.terminalId, sessionId = params.sessionId, buf = buf }
  M.terminals[params.terminalId] = term
  return term
end

--- Strip what a plain buffer cannot show: carriage returns and ANSI escape sequences.
local function clean(data)
  return (data:gsub("\27%[[%d;?]*[%a@]", ""):gsub("\27%][^\7]*\7", ""):gsub("\r", ""))
end

local function append(buf, data)
  local pieces = vim.split(clean(data), "\n", { plain = true })
  local count = vim.api.nvim_buf_line_count(buf)
  local tails = {}
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    tails[win] = vim.api.nvim_win_get_cursor(win)[1] >= count
  end
  local last = vim.api.nvim_buf_get_lines(buf, count - 1, count, false)[1] or ""
  pieces[1] = last .. pieces[1]
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, count - 1, count, false, pieces)
  vim.bo[buf].modifiable = false
  local new_count = vim.api.nvim_buf_line_count(buf)
  for win, at_tail in pairs(tails) do
    if at_tail then
      vim.api.nvim_win_set_cursor(win, { new_count, 0 })
    end
  end
end

--- acp/terminalOutput
---@param params table
function M.on_output(_, params)
  local term = buffer_for(params)
  append(term.buf, params.data or "")
  M.latest = term.id
  store.emit("terminal", term.id)
end

--- acp/terminalExit
---@param params table
function M.on_exit(_, params)
  local term = buffer_for(params)
  term.exitStatus = params.exitStatus
  local status = params.exitStatus or {}
  local text = ("exit code %s"):format(tostring(status.exitCode))
  if status.signal then
    text = ("killed by %s"):format(status.signal)
  end
  local last = vim.api.nvim_buf_get_lines(term.buf, -2, -1, false)[1]
  append(term.buf, (last == "" and "" or "\n") .. ("[%s]\n"):format(text))
  store.emit("terminal", term.id)
end

--- The text a terminal has printed so far.
---@param id string
---@return string?
function M.text(id)
  local term = M.terminals[id]
  return term and table.concat(vim.api.nvim_buf_get_lines(term.buf, 0, -1, false), "\n") or nil
end

--- :AcpTerminal [id]: show a terminal's buffer in a split (the latest one by default).
---@param id? string
---@return integer? buf
function M.open(id)
  id = (id and id ~= "") and id or M.latest
  local term = id and M.terminals[id]
  if not term then
    store.report("acp-editor: the agent has not run a command yet")
    return nil
  end
  vim.cmd("botright split")
  vim.api.nvim_win_set_buf(0, term.buf)
  vim.api.nvim_win_set_cursor(0, { vim.api.nvim_buf_line_count(term.buf), 0 })
  return term.buf
end

function M.ids()
  return vim.tbl_keys(M.terminals)
end

return M
