-- What the editor-context MCP server asks of Neovim (`acp/diagnostics`, `acp/selection`,
-- docs/protocol.md): the diagnostics every language server and linter set (vim.diagnostic), and
-- the selection, so an agent sees the errors and the code the user sees.

local M = {}

local SEVERITY = { "error", "warning", "information", "hint" } -- vim.diagnostic.severity order

local function path_of(buf)
  local name = vim.api.nvim_buf_get_name(buf)
  return name ~= "" and vim.bo[buf].buftype == "" and vim.fs.normalize(name) or nil
end

local function diagnostic(path, d)
  local item = {
    path = path,
    -- 0-based lines as in LSP; columns are Neovim's byte columns (ASCII lines agree with UTF-16).
    range = {
      start = { line = d.lnum, character = d.col },
      ["end"] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col },
    },
    severity = SEVERITY[d.severity] or "error",
    message = d.message,
  }
  if d.source and d.source ~= "acp" then
    item.source = d.source
  end
  if d.code ~= nil and d.code ~= "" then
    item.code = tostring(d.code)
  end
  return item
end

--- acp/diagnostics: of the buffer holding `params.path`, or of every loaded file buffer.
---@param params {path?: string}
---@return table
function M.diagnostics(_, params)
  local found = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    local path = vim.api.nvim_buf_is_loaded(buf) and path_of(buf)
    if path and (not params.path or path == vim.fs.normalize(params.path)) then
      for _, d in ipairs(vim.diagnostic.get(buf)) do
        if d.source ~= "acp" then -- acp-editor's own review hunks are not problems in the code
          table.insert(found, diagnostic(path, d))
        end
      end
    end
  end
  return { diagnostics = found }
end

--- acp/selection: the last visual selection in the current buffer, else the cursor.
---@return table|userdata vim.NIL when the buffer is no file
function M.selection()
  local buf = vim.api.nvim_get_current_buf()
  local path = path_of(buf)
  if not path then
    return vim.NIL
  end
  local from, to = vim.api.nvim_buf_get_mark(buf, "<"), vim.api.nvim_buf_get_mark(buf, ">")
  if from[1] == 0 or to[1] == 0 then
    local cursor = vim.api.nvim_win_get_cursor(0)
    local at = { line = cursor[1] - 1, character = cursor[2] }
    return { path = path, range = { start = at, ["end"] = at }, text = "" }
  end
  local lines = vim.api.nvim_buf_get_lines(buf, from[1] - 1, to[1], false)
  return {
    path = path,
    range = {
      start = { line = from[1] - 1, character = 0 },
      ["end"] = { line = to[1] - 1, character = #(lines[#lines] or "") },
    },
    text = table.concat(lines, "\n"),
  }
end

return M
