-- `?` in the chat: its keys, in a float by the cursor that never takes the keyboard.
--
-- The list is read from the chat buffers' own mappings (every one the plugin sets has a
-- description starting "acp-editor: "), so it shows the keys as configured, including those of
-- other modules (the prompt's completion and history), and a key set to false is not listed.
-- The float closes when the cursor moves or a key is typed, as LSP hover does.

local M = {}

local PREFIX = "acp-editor: "
local MODES = { "n", "i" }

--- `{ lhs = {desc, modes} }` of one buffer's acp-editor mappings.
local function mappings(buf)
  local found = {}
  for _, mode in ipairs(MODES) do
    for _, m in ipairs(vim.api.nvim_buf_get_keymap(buf, mode)) do
      if m.desc and vim.startswith(m.desc, PREFIX) then
        local key = m.lhs .. "\0" .. m.desc
        found[key] = found[key] or { lhs = m.lhs, desc = m.desc:sub(#PREFIX + 1), modes = {} }
        table.insert(found[key].modes, mode)
      end
    end
  end
  return found
end

local function section(out, title, entries)
  if #entries == 0 then
    return
  end
  table.sort(entries, function(a, b)
    return a.lhs:lower() < b.lhs:lower()
  end)
  table.insert(out, title)
  for _, e in ipairs(entries) do
    local modes = table.concat(e.modes, "") == "i" and " (Insert mode)"
      or #e.modes > 1 and " (also in Insert mode)"
      or ""
    table.insert(out, ("  %-8s %s%s"):format(e.lhs, e.desc, modes))
  end
end

--- The help's lines for the chat's two buffers.
---@param transcript_buf integer
---@param prompt_buf integer
---@return string[]
function M.lines(transcript_buf, prompt_buf)
  local transcript, prompt = mappings(transcript_buf), mappings(prompt_buf)
  local both, only_transcript, only_prompt = {}, {}, {}
  for key, e in pairs(transcript) do
    local other = prompt[key]
    if other and table.concat(other.modes) == table.concat(e.modes) then
      table.insert(both, e)
    else
      table.insert(only_transcript, e)
    end
  end
  for key, e in pairs(prompt) do
    local other = transcript[key]
    if not (other and table.concat(other.modes) == table.concat(e.modes)) then
      table.insert(only_prompt, e)
    end
  end
  local out = {}
  section(out, "Transcript", only_transcript)
  section(out, "Prompt area", only_prompt)
  section(out, "Both", both)
  vim.list_extend(out, {
    "Commands: :AcpModel :AcpConfig :AcpMode :AcpTranscript",
    "          :AcpCancel :AcpNewSession   (:help acp_editor-chat)",
  })
  return out
end

--- Show the help by the cursor (the current window keeps the keyboard).
---@return integer? buf, integer? win of the float
function M.show()
  local chat = require("acp_editor.chat")
  if not (chat.buf and chat.prompt_buf) then
    return
  end
  local lines = M.lines(chat.buf, chat.prompt_buf)
  return vim.lsp.util.open_floating_preview(lines, "", {
    border = "rounded",
    title = " acp-editor chat keys ",
    title_pos = "center",
    focus = false,
    focusable = false,
  })
end

return M
