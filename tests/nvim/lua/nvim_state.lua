-- What both Neovim test helpers (zero_plugin.lua, plugin_helpers.lua) read from Neovim or play
-- as the user: windows, buffers and undo, messages, a picker answer. Loaded with dofile() by them.

local M = {}

--- Let the event loop run for `ms` (scheduled callbacks, LSP messages). Only for a window in
--- which something must NOT happen; whatever a test expects to come, it waits for (wait_until).
function M.settle(ms)
  vim.wait(ms, function()
    return false
  end, 10)
end

--- Make vim.ui.select answer like a user picking the item shown as `title` (nil: pressing Esc),
--- recording each question in `selects`. The answer comes later on the event loop, as with a
--- real picker: after `delay_ms` (a person reading the question) or on the next turn.
--- @param selects table[]
--- @param title string?
--- @param delay_ms integer?
function M.answer_with(selects, title, delay_ms)
  vim.ui.select = function(items, opts, on_choice)
    local titles = {}
    for i, item in ipairs(items) do
      titles[i] = opts.format_item and opts.format_item(item) or tostring(item)
    end
    local index = title and vim.fn.index(titles, title) + 1 or 0
    table.insert(selects, {
      prompt = opts.prompt,
      kind = opts.kind,
      titles = titles,
      items = vim.deepcopy(items),
      chose = index > 0 and titles[index] or vim.NIL,
    })
    vim.defer_fn(function()
      if index > 0 then
        on_choice(items[index], index)
      else
        on_choice(nil, nil)
      end
    end, delay_ms or 0)
  end
end

--- Errors Neovim showed the user (what `:messages` holds, and v:errmsg).
function M.errors()
  local messages = vim.api.nvim_exec2("messages", { output = true }).output
  return { messages = messages, errmsg = vim.v.errmsg }
end

--- Every window of the current tab: its buffer's file, cursor, and whether it has focus.
function M.windows()
  local current = vim.api.nvim_get_current_win()
  local out = {}
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local buf = vim.api.nvim_win_get_buf(win)
    table.insert(out, {
      win = win,
      buf = buf,
      name = vim.api.nvim_buf_get_name(buf),
      cursor = vim.api.nvim_win_get_cursor(win),
      current = win == current,
    })
  end
  return out
end

--- The buffer's lines, undo position and modified flag.
function M.buffer(buf)
  local tree = vim.api.nvim_buf_call(buf, vim.fn.undotree)
  return {
    lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false),
    seq_last = tree.seq_last,
    seq_cur = tree.seq_cur,
    modified = vim.bo[buf].modified,
    eol = vim.bo[buf].eol,
  }
end

--- One `:undo` in the buffer, as the user would type it.
function M.undo(buf)
  vim.api.nvim_buf_call(buf, function()
    vim.cmd.undo()
  end)
  return M.buffer(buf)
end

return M
