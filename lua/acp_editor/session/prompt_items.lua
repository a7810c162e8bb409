-- A prompt as people read it: the text the user typed, and each attachment as an item of its own
-- (a file by its path, a page by its address, an attached text by its first line), never its
-- blocks run together. The same reading as the sidecar's transcript (acp_editor/protocol/
-- prompt.py): the kinds, labels and details match; paths are shown relative to the working
-- directory instead of as URIs, so `gf` opens them.
--
-- Pure (no buffers or windows): the chat (chat/render.lua) and the session titles (live.lua)
-- read prompts here.

local M = {}

M.LABEL_MAX = 60

---@class acp_editor.PromptItem
---@field kind string "file", "link", "text", "image", else the block's type
---@field label string
---@field detail? string how much it holds: "3 lines", "image/png, 70 B"

local function text_of(block)
  return type(block) == "table" and block.type == "text" and type(block.text) == "string" and block.text or nil
end

--- What the user typed: the prompt's first block when it is text (what follows is attached).
---@param blocks table[]
---@return string
function M.typed(blocks)
  return vim.trim(text_of(blocks and blocks[1]) or "")
end

local function short(line)
  line = vim.trim((line:gsub("%s+", " ")))
  if vim.fn.strchars(line) > M.LABEL_MAX then
    line = vim.trim(vim.fn.strcharpart(line, 0, M.LABEL_MAX - 1)) .. "…"
  end
  return line
end

local function lines(text)
  local count = #vim.split(text:gsub("\n$", ""), "\n", { plain = true })
  return count == 1 and "1 line" or (count .. " lines")
end

--- A file URI as a path from the working directory (a selection keeps its lines: `#L3-L5`);
--- another URI as it is.
---@param uri string
---@return string
function M.path(uri)
  local base, fragment = uri:match("^([^#]*)#?(.*)$")
  if not base:match("^file:") then
    return uri
  end
  local ok, name = pcall(vim.uri_to_fname, base)
  local shown = ok and vim.fn.fnamemodify(name, ":~:.") or base
  return fragment ~= "" and (shown .. "#" .. fragment) or shown
end

local function size(data)
  if type(data) ~= "string" then
    return nil
  end
  local n = math.floor(#data * 3 / 4) - (data:match("(=*)$") and #data:match("(=*)$") or 0)
  return n < 1024 and (n .. " B") or (("%d KB"):format(math.floor(n / 1024 + 0.5)))
end

local function item(block, linked)
  if type(block) ~= "table" then
    return { kind = "content", label = "content" }
  end
  local text = text_of(block)
  if text then
    local first = ""
    for _, l in ipairs(vim.split(text, "\n", { plain = true })) do
      if vim.trim(l) ~= "" then
        first = l
        break
      end
    end
    return {
      kind = "text",
      label = "“" .. (first ~= "" and short(first) or "(empty text)") .. "”",
      detail = lines(text),
    }
  elseif block.type == "resource_link" and type(block.uri) == "string" then
    if block.uri:match("^file:") then
      return { kind = "file", label = M.path(block.uri) }
    end
    local name = type(block.name) == "string" and block.name ~= "" and block.name or block.uri
    return { kind = "link", label = name }
  elseif block.type == "resource" then
    local r = type(block.resource) == "table" and block.resource or {}
    local uri = type(r.uri) == "string" and r.uri or nil
    if uri and linked[uri] then
      return nil -- a linked file's text sent along: the link says it
    end
    local detail = type(r.text) == "string" and lines(r.text) or (type(r.mimeType) == "string" and r.mimeType or nil)
    return { kind = "file", label = uri and M.path(uri) or "resource", detail = detail }
  elseif block.type == "image" then
    local parts = { type(block.mimeType) == "string" and block.mimeType or "image", size(block.data) }
    local label = type(block.uri) == "string" and M.path(block.uri) or "image"
    return { kind = "image", label = label, detail = table.concat(parts, ", ") }
  end
  local kind = tostring(block.type or "content")
  return { kind = kind, label = kind }
end

--- Everything attached to a prompt (all but the typed text), one item each; a file sent both as
--- a link and with its text is one item.
---@param blocks table[]
---@return acp_editor.PromptItem[]
function M.attached(blocks)
  local rest = {}
  for i, block in ipairs(blocks or {}) do
    if not (i == 1 and text_of(block)) then
      table.insert(rest, block)
    end
  end
  local linked = {}
  for _, block in ipairs(rest) do
    if type(block) == "table" and block.type == "resource_link" and type(block.uri) == "string" then
      linked[block.uri] = true
    end
  end
  local out = {}
  for _, block in ipairs(rest) do
    local it = item(block, linked)
    if it then
      table.insert(out, it)
    end
  end
  return out
end

--- One item as a line of the chat: `- file hello.py (3 lines)`.
---@param it acp_editor.PromptItem
---@return string
function M.line(it)
  local label = it.label == it.kind and "" or (" " .. it.label)
  return "- " .. it.kind .. label .. (it.detail and (" (" .. it.detail .. ")") or "")
end

--- A session's title from a prompt: the typed text's first line, else the first file or image
--- attached (by its path, never its URI), else "".
---@param blocks table[]
---@return string
function M.title(blocks)
  local line = M.typed(blocks):match("^[^\n]*") or ""
  if line == "" then
    for _, it in ipairs(M.attached(blocks)) do
      if it.kind == "file" or it.kind == "image" then
        return it.label
      end
    end
  end
  return line
end

return M
