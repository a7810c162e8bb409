-- What a prompt carries besides its text: context the user attached to it (today the lines they
-- selected, from :'<,'>AcpPrompt).
--
-- The selection goes as an ACP `resource` block (embedded text with its file's URI and the lines
-- in the URI fragment, `#L3-L5`) when the agent declared `promptCapabilities.embeddedContext`,
-- else as a plain text block that names the file and lines, which every agent accepts.

local store = require("acp_editor.store")

local M = {}

---@class acp_editor.Selection
---@field buf integer
---@field first integer 1-based first line
---@field last integer 1-based last line

local function embedded_context_supported()
  local caps = store.agent and store.agent.agentCapabilities
  local prompt = type(caps) == "table" and caps.promptCapabilities
  return type(prompt) == "table" and prompt.embeddedContext == true
end

--- The selected lines as one content block.
---@param sel acp_editor.Selection
---@return table block
function M.block(sel)
  local lines = vim.api.nvim_buf_get_lines(sel.buf, sel.first - 1, sel.last, false)
  local text = table.concat(lines, "\n") .. "\n"
  local name = vim.api.nvim_buf_get_name(sel.buf)
  local span = sel.first == sel.last and ("L%d"):format(sel.first) or ("L%d-L%d"):format(sel.first, sel.last)
  if embedded_context_supported() and name ~= "" then
    return {
      type = "resource",
      resource = { uri = vim.uri_from_fname(name) .. "#" .. span, text = text, mimeType = "text/plain" },
    }
  end
  local where = name ~= "" and vim.fn.fnamemodify(name, ":~:.") or "[No Name]"
  local fence = "```"
  return {
    type = "text",
    text = ("%s, lines %d-%d:\n%s%s\n%s%s\n"):format(
      where,
      sel.first,
      sel.last,
      fence,
      vim.bo[sel.buf].filetype,
      text,
      fence
    ),
  }
end

--- The prompt to send: the text alone, or [text, selection] blocks.
---@param text string
---@param sel? acp_editor.Selection
---@return string|table[]
function M.prompt(text, sel)
  if not sel then
    return text
  end
  return { { type = "text", text = text }, M.block(sel) }
end

return M
