-- Fenced code blocks in the chat's Markdown: found in lines, closed when a message left one
-- open, and yanked from under the cursor.
--
-- The fence rules are CommonMark's, as far as the chat needs them: a fence is three or more
-- backticks or tildes indented by at most three spaces; it closes at a line of the same
-- character, at least as long, with nothing after it. A code block's lines lose the
-- indentation of its opening fence (as Markdown renders them). Finding blocks is a scan of
-- lines, so the key works without a treesitter parser.

local M = {}

---@class acp_editor.CodeBlock
---@field first integer 1-based line of the opening fence
---@field last integer 1-based line of the closing fence (the last line when it never closed)
---@field closed boolean
---@field lang string the info string's first word ("" without one)
---@field indent integer spaces before the opening fence
---@field fence string the fence's characters (``` or ~~~~ ...)

--- The fence a line opens, if it is one: indent, fence, info string.
local function opening(line)
  local indent, fence, info = line:match("^( *)(```+)([^`]*)$")
  if not indent then
    indent, fence, info = line:match("^( *)(~~~+)(.*)$")
  end
  if indent and #indent <= 3 then
    return #indent, fence, vim.trim(info)
  end
end

local function closes(line, block)
  local char = block.fence:sub(1, 1) -- ` and ~ are not magic in patterns
  local indent, fence, rest = line:match("^( *)(" .. char:rep(3) .. "+)(.*)$")
  return indent ~= nil and #indent <= 3 and #fence >= #block.fence and rest:match("^%s*$") ~= nil
end

--- Every fenced code block of `lines`, in order.
---@param lines string[]
---@return acp_editor.CodeBlock[]
function M.find(lines)
  local blocks, open = {}, nil
  for i, line in ipairs(lines) do
    if open then
      if closes(line, open) then
        open.last, open.closed = i, true
        open = nil
      end
    else
      local indent, fence, info = opening(line)
      if indent then
        open = { first = i, last = #lines, closed = false, lang = info:match("^(%S*)"), indent = indent, fence = fence }
        table.insert(blocks, open)
      end
    end
  end
  return blocks
end

--- The line that closes the block `lines` leave open (nil when they leave none open): what the
--- chat adds after a message or tool output, so an unclosed fence cannot turn the rest of the
--- transcript into code.
---@param lines string[]
---@return string?
function M.closing(lines)
  local blocks = M.find(lines)
  local last = blocks[#blocks]
  if last and not last.closed then
    return (" "):rep(last.indent) .. last.fence
  end
end

--- A backtick fence longer than any run of backticks in `text` (at least three), so the text
--- cannot close it.
---@param text string
---@return string
function M.fence_for(text)
  local longest = 2
  for run in text:gmatch("`+") do
    longest = math.max(longest, #run)
  end
  return ("`"):rep(longest + 1)
end

--- The block around 1-based line `lnum`, fences included.
---@param lines string[]
---@param lnum integer
---@return acp_editor.CodeBlock?
function M.at(lines, lnum)
  for _, block in ipairs(M.find(lines)) do
    if block.first <= lnum and lnum <= block.last then
      return block
    elseif block.first > lnum then
      return nil
    end
  end
end

--- A block's code: the lines between its fences, without the fence's indentation.
---@param lines string[]
---@param block acp_editor.CodeBlock
---@return string[]
function M.code(lines, block)
  local last = block.closed and block.last - 1 or block.last
  local out = {}
  for i = block.first + 1, last do
    local line = lines[i]
    local spaces = #line:match("^ *")
    table.insert(out, line:sub(math.min(spaces, block.indent) + 1))
  end
  return out
end

--- Yank the code block under the cursor of the current window into `register` (default: the
--- one given with `"x` before the key, else the unnamed one), linewise, and flash it.
---@param register? string
---@return boolean yanked
function M.yank(register)
  local buf = vim.api.nvim_get_current_buf()
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local block = M.at(lines, vim.api.nvim_win_get_cursor(0)[1])
  local notify = require("acp_editor.store").report
  if not block then
    notify("acp-editor: no code block under the cursor")
    return false
  end
  local code = M.code(lines, block)
  register = register or vim.v.register
  vim.fn.setreg(register, code, "l")
  local ns = vim.api.nvim_create_namespace("acp_editor_yank")
  local last = block.closed and block.last - 1 or block.last
  if last > block.first then
    vim.hl.range(buf, ns, "IncSearch", { block.first, 0 }, { last - 1, -1 }, { timeout = 200 })
  end
  local what = block.lang ~= "" and block.lang .. " " or ""
  notify(("acp-editor: yanked %d line(s) of %scode"):format(#code, what))
  return true
end

return M
