-- What the chat's prompt completes, whatever draws the menu (Neovim's own completion, nvim-cmp or
-- blink.cmp): `@` followed by a file name (the sidecar's `acp/findFiles`: open buffers first, then
-- the workspace's files, ignored ones left out) and `/` at the start of the prompt (the agent's
-- slash commands, from the session mirror's `availableCommands`).

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")
local store = require("acp_editor.store")

local M = {
  --- What choosing a file does (the prompt area attaches it).
  ---@type fun(file: acp_editor.FileItem)
  on_file = function() end,
}

---@class acp_editor.CompletionContext
---@field kind "file"|"command"
---@field start integer 0-based byte column of the `@` or `/`
---@field query string what follows it, up to the cursor

--- What the text before the cursor asks to complete, if anything: an `@` at the start of a word,
--- or a `/` at the very start of the prompt.
---@param line string the cursor's line
---@param col integer 0-based byte column of the cursor
---@param row integer 1-based line number
---@return acp_editor.CompletionContext?
function M.context(line, col, row)
  local before = line:sub(1, col)
  if row == 1 then
    local query = before:match("^/(%S*)$")
    if query then
      return { kind = "command", start = 0, query = query }
    end
  end
  local at, query = before:match("()@(%S*)$")
  if at and (at == 1 or before:sub(at - 1, at - 1):match("%s")) then
    return { kind = "file", start = at - 1, query = query }
  end
end

--- The context at the current window's cursor.
---@return acp_editor.CompletionContext?
function M.at_cursor()
  local pos = vim.api.nvim_win_get_cursor(0)
  return M.context(vim.api.nvim_get_current_line(), pos[2], pos[1])
end

---@class acp_editor.CommandItem
---@field name string
---@field description string
---@field hint? string the input hint of a command that takes an argument

--- The current session's slash commands whose name starts with `query` (case ignored), in the
--- agent's order; malformed entries are skipped.
---@param query string
---@return acp_editor.CommandItem[]
function M.commands(query)
  local session = store.current()
  local available = session and session.availableCommands
  local out = {}
  if type(available) ~= "table" then
    return out
  end
  query = query:lower()
  for _, cmd in ipairs(available) do
    if type(cmd) == "table" and type(cmd.name) == "string" and cmd.name:lower():sub(1, #query) == query then
      local input = type(cmd.input) == "table" and cmd.input or {}
      table.insert(out, {
        name = cmd.name,
        description = type(cmd.description) == "string" and cmd.description or "",
        hint = type(input.hint) == "string" and input.hint or nil,
      })
    end
  end
  return out
end

---@class acp_editor.FileItem
---@field uri string
---@field path string relative to its workspace folder
---@field open boolean an open buffer
---@field fname string the absolute path

--- Ask the sidecar for the files matching `query`; `callback(files, complete)` on the main loop
--- (`complete` false: the workspace is still being listed, ask again).
---@param query string
---@param callback fun(files: acp_editor.FileItem[], complete: boolean)
function M.files(query, callback)
  client.request(protocol.method.FIND_FILES, { query = query }, function(err, result)
    if err or type(result) ~= "table" or type(result.files) ~= "table" then
      return callback({}, true)
    end
    local files = {}
    for _, f in ipairs(result.files) do
      if type(f) == "table" and type(f.uri) == "string" and type(f.path) == "string" then
        table.insert(files, { uri = f.uri, path = f.path, open = f.open == true, fname = vim.uri_to_fname(f.uri) })
      end
    end
    callback(files, result.complete ~= false)
  end)
end

local KIND_FILE, KIND_KEYWORD = 17, 14 -- LSP CompletionItemKind

--- The files or commands of `ctx` as LSP CompletionItems (for nvim-cmp and blink.cmp), each
--- replacing the `@query` or `/query` before the cursor, in the order given.
---@param ctx acp_editor.CompletionContext
---@param line string the cursor's line
---@param row integer 1-based
---@param col integer 0-based byte column of the cursor
---@param list (acp_editor.FileItem|acp_editor.CommandItem)[]
---@return table[]
function M.lsp_items(ctx, line, row, col, list)
  local range = {
    start = { line = row - 1, character = vim.str_utfindex(line, "utf-16", ctx.start) },
    ["end"] = { line = row - 1, character = vim.str_utfindex(line, "utf-16", col) },
  }
  local items = {}
  for i, entry in ipairs(list) do
    local text = ctx.kind == "file" and ("@" .. entry.path) or ("/" .. entry.name)
    local item = {
      label = ctx.kind == "file" and entry.path or text,
      filterText = text,
      sortText = ("%05d"):format(i),
      textEdit = { newText = text, range = range },
      kind = ctx.kind == "file" and KIND_FILE or KIND_KEYWORD,
    }
    if ctx.kind == "file" then
      item.detail = entry.open and "buffer" or nil
      item.data = { acp_editor = { file = entry } }
    else
      item.detail = M.short(entry.description, 48)
      item.documentation = entry.description .. (entry.hint and ("\n\ninput: " .. entry.hint) or "")
    end
    table.insert(items, item)
  end
  return items
end

--- Ask for the items of the context at (line, row, col): `callback(items, complete)`.
---@param line string
---@param row integer 1-based
---@param col integer 0-based byte column
---@param callback fun(items: table[], complete: boolean)
function M.lsp_complete(line, row, col, callback)
  local ctx = M.context(line, col, row)
  if not ctx then
    return callback({}, true)
  end
  if ctx.kind == "command" then
    return callback(M.lsp_items(ctx, line, row, col, M.commands(ctx.query)), true)
  end
  M.files(ctx.query, function(files, complete)
    callback(M.lsp_items(ctx, line, row, col, files), complete)
  end)
end

--- A completion item chosen in a plugin's menu: a file is attached.
---@param item table an item of lsp_items
function M.chosen(item)
  local data = type(item) == "table" and type(item.data) == "table" and item.data.acp_editor
  if type(data) == "table" and type(data.file) == "table" then
    M.on_file(data.file)
  end
end

--- One line of a description for a menu.
---@param text string
---@param width integer
---@return string
function M.short(text, width)
  text = (text:gsub("%s+", " "))
  return #text > width and (text:sub(1, width - 1) .. "…") or text
end

return M
