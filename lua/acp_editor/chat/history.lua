-- Prompt history in the prompt area: ↑ on its first line shows the workspace's previous prompt,
-- ↓ on its last line the next one, and past the newest what the user was typing comes back.
--
-- The prompts are the sidecar's (`acp/promptHistory`: every prompt of this workspace, by any
-- editor and any run, oldest first), asked afresh each time a walk starts, so a prompt sent from
-- another editor a minute ago is there too. Edits made to a recalled prompt are dropped when the
-- walk moves on; the text typed before the walk started (the draft) is kept until it ends.
-- A recalled prompt is not typed text: a recalled `/cmd` opens no completion menu (which would
-- take the next ↑), and emptying the prompt area ends the walk (↑ then starts from the newest).

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")

local M = {
  ---@type string[]? the prompts of the walk under way, oldest first
  prompts = nil,
  ---@type integer? which of them is shown; #prompts + 1: the draft
  index = nil,
  ---@type string[]? the lines the user had typed when the walk started
  draft = nil,
  ---@type integer steps asked for while the history was on its way
  pending = 0,
  ---@type {buf: integer, tick: integer}? the prompt buffer as a step left it
  shown = nil,
}

local function show(buf, lines, at_end)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  M.shown = { buf = buf, tick = vim.api.nvim_buf_get_changedtick(buf) }
  local win = vim.fn.bufwinid(buf)
  if win ~= -1 then
    -- Going back, the cursor lands on the first line (↑ again goes further back); going forward,
    -- on the last (↓ again goes further forward).
    local row = at_end and #lines or 1
    vim.api.nvim_win_set_cursor(win, { row, #lines[row] })
  end
end

local function move(buf, delta)
  local prompts = M.prompts or {}
  local target = math.max(1, math.min(#prompts + 1, M.index + delta))
  if target == M.index then
    return
  end
  M.index = target
  if target == #prompts + 1 then
    show(buf, M.draft, true)
    M.reset()
  else
    show(buf, vim.split(prompts[target], "\n", { plain = true }), delta > 0)
  end
end

--- Step through the history: -1 older, +1 newer. The first step of a walk asks the sidecar for
--- the history and moves when it answers (steps pressed meanwhile add up).
---@param buf integer the prompt buffer
---@param delta integer
function M.step(buf, delta)
  M.on_change(buf) -- emptied just before (keys typed ahead run before TextChangedI)
  if M.index then
    return move(buf, delta)
  end
  if delta > 0 then
    return -- not walking: nothing is newer than the draft
  end
  M.pending = M.pending + delta
  if M.pending ~= delta then
    return -- the history is on its way
  end
  client.request(protocol.method.PROMPT_HISTORY, {}, function(err, result)
    local steps = M.pending
    M.pending = 0
    if err or type(result) ~= "table" or type(result.prompts) ~= "table" or #result.prompts == 0 then
      return
    end
    if not vim.api.nvim_buf_is_valid(buf) then
      return
    end
    M.prompts = result.prompts
    M.draft = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    M.index = #M.prompts + 1
    move(buf, steps)
  end)
end

--- End the walk (the prompt was sent, the draft is back, or the prompt area was emptied).
function M.reset()
  M.prompts, M.index, M.draft = nil, nil, nil
end

--- Whether `buf` holds a recalled prompt as the walk put it there, untouched since: not typed,
--- so nothing is completed.
---@param buf integer
---@return boolean
function M.recalled(buf)
  local shown = M.shown
  return shown ~= nil and shown.buf == buf and shown.tick == vim.api.nvim_buf_get_changedtick(buf)
end

--- The prompt buffer's text changed: emptied during a walk, the walk is over.
---@param buf integer
function M.on_change(buf)
  if M.index and not M.recalled(buf) then
    local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    if #lines == 1 and lines[1] == "" then
      M.reset()
    end
  end
end

--- Whether ↑/↓ at the cursor walk the history rather than move the cursor: on the prompt's
--- first line (↑) or last line (↓), and never while the completion menu is open.
---@param delta integer
---@return boolean
function M.at_edge(delta)
  if require("acp_editor.complete").menu_visible() then
    return false
  end
  local row = vim.api.nvim_win_get_cursor(0)[1]
  return delta < 0 and row == 1 or delta > 0 and row == vim.api.nvim_buf_line_count(0)
end

return M
