-- Keymaps of buffers that show agent edits, and the side-by-side diff on demand.
--
-- The keymaps are buffer-local and exist only while the buffer has something to decide, so
-- they never shadow the user's own mappings elsewhere.

local store = require("acp_editor.store")

local M = {
  ---@type table<integer, string[]> the lhs we mapped, per buffer
  mapped = {},
}

local function preview()
  return require("acp_editor.review.preview")
end

local ACTIONS = {
  accept = {
    "Accept the agent's change here",
    function()
      preview().decide("accept")
    end,
  },
  reject = {
    "Reject the agent's change here",
    function()
      preview().decide("reject")
    end,
  },
  accept_file = {
    "Accept every agent change in this file",
    function()
      M.decide_file("accept")
    end,
  },
  reject_file = {
    "Reject every agent change in this file",
    function()
      M.decide_file("reject")
    end,
  },
  diff = {
    "Side-by-side diff of the agent's changes",
    function()
      M.diff()
    end,
  },
  next = {
    "Next agent change",
    function()
      M.jump(1)
    end,
  },
  prev = {
    "Previous agent change",
    function()
      M.jump(-1)
    end,
  },
}

--- Run an action by name (the <Plug> mappings of plugin/acp_editor.lua).
---@param action string
function M.run(action)
  ACTIONS[action][2]()
end

--- Map (on) or unmap (off) the preview keys in `buf`.
---@param buf integer
---@param on boolean
function M.sync(buf, on)
  if on and not M.mapped[buf] then
    M.mapped[buf] = {}
    for action, lhs in pairs(store.config.keymaps.preview) do
      if lhs and ACTIONS[action] then
        vim.keymap.set("n", lhs, ACTIONS[action][2], { buffer = buf, desc = "acp-editor: " .. ACTIONS[action][1] })
        table.insert(M.mapped[buf], lhs)
      end
    end
  elseif not on and M.mapped[buf] then
    for _, lhs in ipairs(M.mapped[buf]) do
      pcall(vim.keymap.del, "n", lhs, { buffer = buf })
    end
    M.mapped[buf] = nil
  end
end

---@param decision "accept"|"reject"
---@param buf? integer
function M.decide_file(decision, buf)
  buf = buf or vim.api.nvim_get_current_buf()
  require("acp_editor.review").decide(decision, { uri = vim.uri_from_bufnr(buf) })
end

--- Move the cursor to the next (1) or previous (-1) change.
---@param dir 1|-1
function M.jump(dir)
  local buf = vim.api.nvim_get_current_buf()
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local starts = {}
  for _, item in ipairs(preview().items[buf] or {}) do
    local start = preview().position(buf, item)
    if start then
      table.insert(starts, start)
    end
  end
  table.sort(starts)
  if dir < 0 then
    starts = vim.fn.reverse(starts)
  end
  for _, start in ipairs(starts) do
    if (dir > 0 and start > row) or (dir < 0 and start < row) then
      return vim.api.nvim_win_set_cursor(0, { start + 1, 0 })
    end
  end
end

--- The buffer's text with some of its changes swapped: `applied` ones back to their old lines
--- (the text before the agent) or `held`/`proposed` ones to their new lines (after the agent).
local function swapped(buf, kinds)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local items = {}
  for _, item in ipairs(preview().items[buf] or {}) do
    local start = preview().position(buf, item)
    if start and kinds[item.kind] then
      table.insert(items, { item = item, start = start })
    end
  end
  table.sort(items, function(a, b)
    return a.start > b.start -- bottom-up: a swap never moves the lines of the ones still to do
  end)
  for _, it in ipairs(items) do
    local here = it.item.kind == "applied" and it.item.new or it.item.old
    local there = it.item.kind == "applied" and it.item.old or it.item.new
    local start = it.item.at_end and #lines or it.start
    for _ = 1, #here do
      table.remove(lines, start + 1)
    end
    for i, line in ipairs(there) do
      table.insert(lines, start + i, line)
    end
  end
  return lines, #items
end

local function scratch(lines, name, filetype)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = filetype
  pcall(vim.api.nvim_buf_set_name, buf, name)
  return buf
end

--- A new tab: the text before the agent on the left, after it on the right (`:diffthis`).
---@param buf? integer
---@return {left: integer, right: integer}? bufs
function M.diff(buf)
  buf = buf or vim.api.nvim_get_current_buf()
  local before, reverted = swapped(buf, { applied = true })
  local after, proposed = swapped(buf, { held = true, proposed = true })
  if reverted + proposed == 0 then
    store.report("acp-editor: no agent change in this buffer")
    return
  end
  local ft, name = vim.bo[buf].filetype, vim.api.nvim_buf_get_name(buf)
  local left = reverted > 0 and scratch(before, "acp-editor://before/" .. name, ft) or buf
  local right = proposed > 0 and scratch(after, "acp-editor://after/" .. name, ft) or buf
  vim.cmd("tab split")
  vim.api.nvim_win_set_buf(0, left)
  vim.cmd("diffthis")
  vim.cmd("vertical rightbelow split")
  vim.api.nvim_win_set_buf(0, right)
  vim.cmd("diffthis")
  return { left = left, right = right }
end

return M
