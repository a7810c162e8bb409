-- :AcpTranscript: the current session's conversation as a Markdown file, kept up to date by the
-- sidecar (its zero-plugin command `acp.transcript`, docs/protocol.md), to read, search, share
-- or keep.
--
-- The sidecar shows the file itself (window/showDocument, in the current window), so the chat's
-- windows are left first: the file opens beside the chat, never in its place. When that
-- showDocument fails (Neovim 0.11's handler does on an empty line) or comes late, the file is
-- opened here; a late one then finds it shown and only focuses it. The file is read-only, and
-- the sidecar rewrites it shortly after each change (a new file renamed over the old one): a
-- watch on its folder reloads the buffer (:checktime with 'autoread'), and a window whose
-- cursor was on the last line stays at the end.

local client = require("acp_editor.sidecar.client")
local store = require("acp_editor.store")

local M = {
  ---@type table<integer, uv.uv_fs_event_t> buffer → the watch that reloads it
  watches = {},
}

M.COMMAND = "acp.transcript" -- of protocol.commands (docs/protocol.md's zero-plugin commands)

local function ordinary(win)
  return vim.api.nvim_win_get_config(win).relative == "" and not vim.b[vim.api.nvim_win_get_buf(win)].acp_editor_chat
end

--- Make a window that is not the chat's current: another one of the tab, else a new split.
local function leave_chat()
  local current = vim.api.nvim_get_current_win()
  if ordinary(current) then
    return
  end
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if ordinary(win) then
      return vim.api.nvim_set_current_win(win)
    end
  end
  vim.cmd("topleft vnew")
end

local function reload(buf)
  if not vim.api.nvim_buf_is_loaded(buf) then
    return
  end
  local tails = {}
  local count = vim.api.nvim_buf_line_count(buf)
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    tails[win] = vim.api.nvim_win_get_cursor(win)[1] >= count
  end
  vim.cmd.checktime(buf)
  for win, at_tail in pairs(tails) do
    if at_tail and vim.api.nvim_win_is_valid(win) then
      vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(buf), 0 })
    end
  end
end

--- Reload `buf` whenever the sidecar rewrites `path`, until the buffer goes.
---@param buf integer
---@param path string
function M.watch(buf, path)
  vim.bo[buf].autoread = true
  if M.watches[buf] then
    return
  end
  local watch = assert(vim.uv.new_fs_event())
  local name, pending = vim.fs.basename(path), false
  watch:start(vim.fs.dirname(path), {}, function(err, filename)
    if err or filename ~= name or pending then
      return
    end
    pending = true
    vim.schedule(function()
      pending = false
      reload(buf)
    end)
  end)
  M.watches[buf] = watch
  vim.api.nvim_create_autocmd({ "BufUnload", "BufWipeout" }, {
    buffer = buf,
    once = true,
    callback = function()
      M.watches[buf] = nil
      if not watch:is_closing() then
        watch:close()
      end
    end,
  })
end

--- Open the current session's transcript (the sidecar starts a session when there is none).
---@param callback? fun(err: table?, buf: integer?)
function M.open(callback)
  leave_chat()
  local params = { command = M.COMMAND, arguments = {} }
  client.request(vim.lsp.protocol.Methods.workspace_executeCommand, params, function(err, result)
    if err or type(result) ~= "table" or type(result.path) ~= "string" then
      local why = err and (err.message or vim.inspect(err)) or "no file in the answer"
      store.report("acp-editor: the transcript could not be opened: " .. why, vim.log.levels.ERROR)
      return callback and callback(err or { message = why })
    end
    local buf = vim.fn.bufadd(result.path)
    if vim.fn.bufwinid(buf) == -1 then
      leave_chat()
      vim.cmd.edit(vim.fn.fnameescape(result.path))
    end
    M.watch(buf, result.path)
    if callback then
      callback(nil, buf)
    end
  end)
end

return M
