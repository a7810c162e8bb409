-- What a prompt carries besides its text: context the user attached to it, and the ACP content
-- blocks each piece becomes. The list itself belongs to the prompt area (acp_editor.chat.prompt);
-- this module only says what an attachment is and how it goes to the agent.
--
-- Blocks are chosen from what the agent advertised (`promptCapabilities`, ACP v1; v2's
-- `capabilities.session.prompt`), so no agent is sent a block type it did not accept:
-- * a file (the current buffer, a file chosen with `@` or by path): a `resource_link` always
--   (every agent must accept those); with `embeddedContext`, also an embedded `resource` with the
--   buffer's text when the file is open (unsaved edits included: the agent could not read those);
-- * selected lines (:'<,'>AcpPrompt): an embedded `resource` whose URI names the lines (`#L3-L5`)
--   with `embeddedContext`, else a text block that names the file and lines;
-- * the diagnostics of a buffer: a text block, taken when the prompt is sent;
-- * a URL: a `resource_link`;
-- * an image file: an `image` block (base64), offered only to agents with `image`.

local store = require("acp_editor.store")

local M = {}

---@class acp_editor.Selection
---@field buf integer
---@field first integer 1-based first line
---@field last integer 1-based last line

---@class acp_editor.Attachment
---@field kind "file"|"selection"|"diagnostics"|"url"|"image"
---@field label string what the prompt area shows
---@field path? string the file's absolute path (file, diagnostics, image)
---@field uri? string its URI (file, image), or the URL
---@field buf? integer the buffer (diagnostics; a selection's)
---@field selection? acp_editor.Selection
---@field mime? string an image's MIME type

--- Whether the agent takes `name` ("image", "audio", "embeddedContext") in a prompt.
---@param name string
---@return boolean
function M.can(name)
  local caps = store.agent and store.agent.agentCapabilities
  if type(caps) ~= "table" then
    return false
  end
  local v1 = caps.promptCapabilities
  if type(v1) == "table" and v1[name] == true then
    return true
  end
  local session = caps.session -- ACP v2: a capability is an object when present
  local v2 = type(session) == "table" and session.prompt
  return type(v2) == "table" and type(v2[name]) == "table"
end

local function shown(path)
  return vim.fn.fnamemodify(path, ":~:.")
end

--- The loaded buffer of `path` (names compared whole: bufnr() would match patterns).
local function loaded_buffer(path)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.api.nvim_buf_get_name(buf) == path then
      return buf
    end
  end
end

local function buffer_text(buf)
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
  return vim.bo[buf].eol and text .. "\n" or text
end

local function text_mime(buf)
  local ft = vim.bo[buf].filetype
  return (ft == "" or ft == "text") and "text/plain" or ("text/x-" .. ft)
end

--- A file, by path (absolute or relative to the working directory).
---@param path string
---@return acp_editor.Attachment
function M.file(path)
  path = vim.fs.normalize(vim.fn.fnamemodify(path, ":p"))
  return { kind = "file", path = path, uri = vim.uri_from_fname(path), label = shown(path) }
end

--- A buffer's file; nil (and why) for a buffer that is not a file.
---@param buf integer
---@return acp_editor.Attachment?, string?
function M.buffer(buf)
  local name = vim.api.nvim_buf_get_name(buf)
  if name == "" or vim.bo[buf].buftype ~= "" or name:match("^%a[%w+.-]*://") then
    return nil, "this buffer is not a file"
  end
  return M.file(name)
end

--- Selected lines of a buffer.
---@param sel acp_editor.Selection
---@return acp_editor.Attachment
function M.selection(sel)
  local name = vim.api.nvim_buf_get_name(sel.buf)
  local where = name ~= "" and shown(name) or "[No Name]"
  return { kind = "selection", selection = sel, buf = sel.buf, label = ("%s:%d-%d"):format(where, sel.first, sel.last) }
end

--- The diagnostics of a buffer (read when the prompt is sent, so they are current).
---@param buf integer
---@return acp_editor.Attachment
function M.diagnostics(buf)
  local name = vim.api.nvim_buf_get_name(buf)
  return {
    kind = "diagnostics",
    buf = buf,
    path = name,
    label = "diagnostics of " .. (name ~= "" and shown(name) or "[No Name]"),
  }
end

--- A web page (or any URI); "example.com/x" is taken as https.
---@param url string
---@return acp_editor.Attachment
function M.url(url)
  url = vim.trim(url)
  if not url:match("^%a[%w+.-]*:") then
    url = "https://" .. url
  end
  return { kind = "url", uri = url, label = url }
end

M.image_types = { png = "image/png", jpg = "image/jpeg", jpeg = "image/jpeg", gif = "image/gif", webp = "image/webp" }

--- An image file; nil (and why) when it is missing or not an image.
---@param path string
---@return acp_editor.Attachment?, string?
function M.image(path)
  path = vim.fs.normalize(vim.fn.fnamemodify(vim.fn.expand(path), ":p"))
  local mime = M.image_types[(path:match("%.(%w+)$") or ""):lower()]
  if not mime then
    return nil, "not an image (png, jpeg, gif or webp): " .. path
  end
  if vim.fn.filereadable(path) ~= 1 then
    return nil, "no such file: " .. path
  end
  return { kind = "image", path = path, uri = vim.uri_from_fname(path), mime = mime, label = "image " .. shown(path) }
end

--- The selected lines as one content block.
---@param sel acp_editor.Selection
---@return table block
function M.block(sel)
  local lines = vim.api.nvim_buf_get_lines(sel.buf, sel.first - 1, sel.last, false)
  local text = table.concat(lines, "\n") .. "\n"
  local name = vim.api.nvim_buf_get_name(sel.buf)
  local span = sel.first == sel.last and ("L%d"):format(sel.first) or ("L%d-L%d"):format(sel.first, sel.last)
  if M.can("embeddedContext") and name ~= "" then
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

local severities = { "error", "warning", "information", "hint" }

--- A buffer's diagnostics as text, one per line: `path:line:col: severity: message [source code]`.
---@param a acp_editor.Attachment
---@return string
function M.diagnostics_text(a)
  local buf = a.buf and vim.api.nvim_buf_is_valid(a.buf) and a.buf or loaded_buffer(a.path)
  local where = a.path ~= "" and shown(a.path) or "[No Name]"
  local found = buf and vim.diagnostic.get(buf) or {}
  table.sort(found, function(x, y)
    return x.lnum < y.lnum or (x.lnum == y.lnum and x.col < y.col)
  end)
  local out = { ("Diagnostics of %s (%d):"):format(where, #found) }
  for _, d in ipairs(found) do
    local tag = d.source and (d.code and (" [%s %s]"):format(d.source, d.code) or (" [%s]"):format(d.source)) or ""
    local message = d.message:gsub("\n", " ")
    table.insert(
      out,
      ("%s:%d:%d: %s: %s%s"):format(where, d.lnum + 1, d.col + 1, severities[d.severity] or "?", message, tag)
    )
  end
  return table.concat(out, "\n") .. "\n"
end

local function read_binary(path)
  local f = io.open(path, "rb")
  if not f then
    return nil
  end
  local data = f:read("*a")
  f:close()
  return data
end

--- The content blocks one attachment becomes (none when it cannot be read any more).
---@param a acp_editor.Attachment
---@return table[]
function M.blocks(a)
  if a.kind == "file" then
    local blocks = { { type = "resource_link", uri = a.uri, name = vim.fs.basename(a.path) } }
    local buf = M.can("embeddedContext") and loaded_buffer(a.path)
    if buf then
      table.insert(
        blocks,
        { type = "resource", resource = { uri = a.uri, text = buffer_text(buf), mimeType = text_mime(buf) } }
      )
    end
    return blocks
  elseif a.kind == "selection" then
    return vim.api.nvim_buf_is_valid(a.selection.buf) and { M.block(a.selection) } or {}
  elseif a.kind == "diagnostics" then
    return { { type = "text", text = M.diagnostics_text(a) } }
  elseif a.kind == "url" then
    return { { type = "resource_link", uri = a.uri, name = a.uri } }
  elseif a.kind == "image" then
    local data = M.can("image") and read_binary(a.path) -- the agent may have changed since
    return data and { { type = "image", mimeType = a.mime, data = vim.base64.encode(data), uri = a.uri } } or {}
  end
  return {}
end

--- The prompt to send: the text alone, or the text's block followed by the selection's and each
--- attachment's blocks.
---@param text string
---@param sel? acp_editor.Selection
---@param attached? acp_editor.Attachment[]
---@return string|table[]
function M.prompt(text, sel, attached)
  if not sel and (not attached or #attached == 0) then
    return text
  end
  local blocks = text ~= "" and { { type = "text", text = text } } or {}
  if sel then
    table.insert(blocks, M.block(sel))
  end
  for _, a in ipairs(attached or {}) do
    vim.list_extend(blocks, M.blocks(a))
  end
  return blocks
end

--- Two attachments that say the same thing (attaching it twice adds nothing).
---@param a acp_editor.Attachment
---@param b acp_editor.Attachment
---@return boolean
function M.same(a, b)
  return a.kind == b.kind and a.label == b.label
end

return M
