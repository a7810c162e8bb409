-- The chat's prompt area beyond its text: what is attached to the next prompt (shown in the
-- window's bar above the text, removable before sending), `@`/`/` completion, the attach menu,
-- prompt history on ↑/↓, an earlier or waiting prompt being edited (chat/queue.lua), and sending
-- it all.
--
-- chat/init.lua owns the buffer and its window; it calls `attach` once for the buffer and `send`
-- on the send keys.

local attachments = require("acp_editor.chat.attachments")
local history = require("acp_editor.chat.history")
local requests = require("acp_editor.session.requests")
local sources = require("acp_editor.complete.sources")
local store = require("acp_editor.store")

---@class acp_editor.PromptEdit what the prompt area holds instead of a new prompt
---@field kind "queued"|"resend" a prompt waiting its turn, changed; an earlier one, sent again
---@field session_id? string queued: the session it waits in
---@field index? integer queued: its entry index (0-based, as the protocol counts)
---@field rest table[] the blocks it had after its text (what was attached), sent along as they are
---@field draft? string[] what the prompt area held before the edit, back once it is sent
---@field draft_attached? acp_editor.Attachment[]

local M = {
  ---@type acp_editor.Attachment[] attached to the next prompt, in order
  attached = {},
  ---@type acp_editor.PromptEdit?
  editing = nil,
  ---@type integer?
  buf = nil,
  ---@type integer? the last file buffer the user was in (the "current buffer" seen from the chat)
  last_file_buf = nil,
  ---@type table<string, acp_editor.PromptDraft> what the prompt area held for each session not in front
  drafts = {},
}

---@class acp_editor.PromptDraft a session's prompt area, put aside while another session is in front
---@field lines string[]
---@field cursor? integer[] the cursor in the prompt window
---@field attached acp_editor.Attachment[]
---@field editing? acp_editor.PromptEdit

local function is_file(buf)
  return buf and vim.api.nvim_buf_is_valid(buf) and attachments.buffer(buf) ~= nil
end

--- The buffer "current" means from the prompt: the current one if it is a file, else the
--- previous window's, else the last file buffer entered, else one shown in this tab.
---@return integer?
function M.current_file_buf()
  local candidates = { vim.api.nvim_get_current_buf() }
  local prev = vim.fn.win_getid(vim.fn.winnr("#"))
  if prev ~= 0 then
    table.insert(candidates, vim.api.nvim_win_get_buf(prev))
  end
  table.insert(candidates, M.last_file_buf)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    table.insert(candidates, vim.api.nvim_win_get_buf(win))
  end
  for _, buf in ipairs(candidates) do
    if is_file(buf) then
      return buf
    end
  end
end

--- What the prompt window's bar shows in `width` columns: the prompt being edited, if one is,
--- and the attachments, all of them when they fit, else the first ones that fit and how many
--- more (never cut off at either end).
---@param width? integer columns (nil: no limit)
---@return string
function M.bar(width)
  local parts = {}
  local edit = M.editing
  if edit then
    local kept = #edit.rest > 0 and (" (and %d attached as before)"):format(#edit.rest) or ""
    table.insert(
      parts,
      edit.kind == "queued" and ("Editing the waiting prompt%s: sending changes it"):format(kept)
        or ("Editing an earlier prompt%s: sending asks where it goes"):format(kept)
    )
  end
  local n = #M.attached
  if n == 0 then
    return table.concat(parts, " · ")
  end
  local labels = vim.tbl_map(function(a)
    return "[" .. a.label .. "]"
  end, M.attached)
  local before = #parts > 0 and (table.concat(parts, " · ") .. " · ") or ""
  local text
  for shown = n, 0, -1 do
    local more = shown < n and (shown > 0 and " " or "") .. ("+%d more"):format(n - shown) or ""
    text = before .. "Attached: " .. table.concat(labels, " ", 1, shown) .. more
    if not width or vim.api.nvim_strwidth(text) <= width then
      break
    end
  end
  return text
end

--- The prompt window's winbar, drawn for its width (a `%!` expression: Neovim evaluates it at
--- each redraw, so a resized window gets the attachments that fit it).
---@return string
function M.winbar()
  local win = vim.g.statusline_winid
  local width = win and vim.api.nvim_win_is_valid(win) and vim.api.nvim_win_get_width(win) or nil
  local text = M.bar(width)
  return text == "" and "" or ("%#AcpEditorAttached#" .. text:gsub("%%", "%%%%"))
end

--- Draw the attachments in the bar of every window showing the prompt.
function M.redraw()
  local buf = M.buf
  if not buf or not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  local bar = M.bar() == "" and "" or "%!v:lua.require'acp_editor.chat.prompt'.winbar()"
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    vim.api.nvim_set_option_value("winbar", bar, { scope = "local", win = win })
  end
end

local function set_text(buf, lines)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  local win = vim.fn.bufwinid(buf)
  if win ~= -1 then
    vim.api.nvim_win_set_cursor(win, { #lines, #lines[#lines] })
  end
end

--- Put a prompt's text in the prompt area to edit (chat/queue.lua): what was typed there is
--- put aside, with its attachments, and comes back once the edited prompt is sent.
---@param buf integer the prompt buffer
---@param text string
---@param edit acp_editor.PromptEdit
function M.edit(buf, text, edit)
  local before = M.editing
  edit.draft = before and before.draft or vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  edit.draft_attached = before and before.draft_attached or M.attached
  M.editing, M.attached = edit, {}
  history.reset()
  set_text(buf, vim.split(text, "\n", { plain = true }))
  M.redraw()
end

--- The edit is over (sent, or its text emptied): what was typed before it comes back.
local function end_edit(buf)
  local edit = M.editing
  M.editing = nil
  M.attached = edit and edit.draft_attached or {}
  set_text(buf, edit and edit.draft or { "" })
  M.redraw()
end

--- Another session came to the front (chat/init.lua): the prompt area's text, cursor,
--- attachments and the prompt being edited are put aside for `from`, and `to`'s come back
--- (an empty prompt for a session never in front).
---@param buf integer the prompt buffer
---@param from string the session that was in front ("" before any)
---@param to string
function M.switch(buf, from, to)
  if from == to then
    return
  end
  local win = vim.fn.bufwinid(buf)
  M.drafts[from] = {
    lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false),
    cursor = win ~= -1 and vim.api.nvim_win_get_cursor(win) or nil,
    attached = M.attached,
    editing = M.editing,
  }
  local draft = M.drafts[to] or { lines = { "" }, attached = {} }
  M.drafts[to] = nil
  M.attached, M.editing = draft.attached, draft.editing
  history.reset()
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, draft.lines)
  if win ~= -1 then
    local cursor = draft.cursor or { #draft.lines, 0 }
    local last = vim.api.nvim_buf_line_count(buf)
    pcall(vim.api.nvim_win_set_cursor, win, { math.min(cursor[1], last), cursor[2] })
  end
  M.redraw()
end

--- Attach `a` to the next prompt (once).
---@param a acp_editor.Attachment
function M.add(a)
  for _, b in ipairs(M.attached) do
    if attachments.same(a, b) then
      return
    end
  end
  table.insert(M.attached, a)
  M.redraw()
end

---@param index integer
function M.remove(index)
  table.remove(M.attached, index)
  M.redraw()
end

local function report(err)
  store.report("acp-editor: " .. err, vim.log.levels.WARN)
end

local function ask(prompt, completion, then_)
  vim.ui.input({ prompt = prompt, completion = completion }, function(text)
    if text and vim.trim(text) ~= "" then
      then_(vim.trim(text))
    end
  end)
end

--- The lines of the last Visual selection in `buf` (its '< and '> marks), if any.
---@return integer?, integer?
local function selected_lines(buf)
  if not buf then
    return nil
  end
  local first = vim.api.nvim_buf_get_mark(buf, "<")[1]
  local last = vim.api.nvim_buf_get_mark(buf, ">")[1]
  if first > 0 and last >= first then
    return first, math.min(last, vim.api.nvim_buf_line_count(buf))
  end
end

--- The attach menu: the current buffer, its last selection, a file, diagnostics, a URL, an image
--- (for agents that take images), and a "Remove" entry for each attachment.
function M.menu()
  local choices = {}
  local function offer(title, run)
    table.insert(choices, { title = title, run = run })
  end
  local current = M.current_file_buf()
  if current then
    local a = assert(attachments.buffer(current))
    offer("Current buffer: " .. a.label, function()
      M.add(a)
    end)
  end
  local first, last = selected_lines(current)
  if first then
    local a = attachments.selection({ buf = current, first = first, last = last })
    offer("Selection: " .. a.label, function()
      M.add(a)
    end)
  end
  offer("A file…", function()
    ask("File to attach: ", "file", function(path)
      M.add(attachments.file(vim.fn.expand(path)))
    end)
  end)
  local seen = {}
  for _, buf in ipairs(vim.list_extend({ current }, vim.api.nvim_list_bufs())) do
    local count = is_file(buf) and #vim.diagnostic.get(buf) or 0
    if not seen[buf] and (buf == current or count > 0) then
      seen[buf] = true
      local d = attachments.diagnostics(buf)
      offer(("Diagnostics of %s (%d)"):format(vim.fn.fnamemodify(d.path, ":~:."), count), function()
        M.add(d)
      end)
    end
  end
  offer("A URL…", function()
    ask("URL to attach: ", nil, function(url)
      M.add(attachments.url(url))
    end)
  end)
  if attachments.can("image") then
    offer("An image…", function()
      ask("Image file: ", "file", function(path)
        local a, err = attachments.image(path)
        return a and M.add(a) or report(err)
      end)
    end)
  end
  for i, a in ipairs(M.attached) do
    offer("Remove: " .. a.label, function()
      M.remove(i)
    end)
  end
  vim.ui.select(choices, {
    prompt = "Attach to the prompt",
    kind = "acp_editor.attach",
    format_item = function(c)
      return c.title
    end,
  }, function(choice)
    if choice then
      choice.run()
    end
  end)
end

--- Send what the prompt area holds with its attachments, and empty both. Nothing is sent while
--- both are empty (an edit whose text was emptied ends there). An edited waiting prompt is
--- changed in place; an edited earlier prompt goes where the user then says (chat/queue.lua).
---@param buf integer
---@return integer|false|nil id the acp/prompt request's, when one went
function M.send(buf)
  local text = vim.trim(table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n"))
  local edit = M.editing
  if text == "" and #M.attached == 0 then
    return edit and end_edit(buf)
  end
  local prompt = attachments.prompt(text, nil, M.attached)
  if edit and #edit.rest > 0 then -- typed text first, then what it had, then what was added
    prompt = text ~= "" and { { type = "text", text = text } } or {}
    vim.list_extend(prompt, edit.rest)
    for _, a in ipairs(M.attached) do
      vim.list_extend(prompt, attachments.blocks(a))
    end
  end
  local function sent()
    history.reset()
    if M.editing then
      return end_edit(buf)
    end
    M.attached = {}
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, {})
    M.redraw()
  end
  if not edit then
    sent()
    return requests.prompt(prompt)
  elseif edit.kind == "queued" then
    sent()
    return require("acp_editor.chat.queue").change(edit, prompt, text)
  end
  require("acp_editor.chat.queue").resend(prompt, sent)
end

local function map(buf, modes, lhs, rhs, desc, expr)
  if lhs then
    vim.keymap.set(modes, lhs, rhs, { buffer = buf, desc = "acp-editor: " .. desc, nowait = true, expr = expr })
  end
end

--- ↑/↓ as keys: the history at the prompt's edges, the cursor (or the menu) elsewhere.
local function history_key(buf, lhs, delta)
  return function()
    if not history.at_edge(delta) then
      return lhs -- the key's own meaning (expr mappings replace its key codes)
    end
    vim.schedule(function()
      history.step(buf, delta)
    end)
    return ""
  end
end

--- Set up the prompt buffer (called once per buffer by chat/init.lua).
---@param buf integer
function M.attach(buf)
  M.buf = buf
  vim.b[buf].acp_editor_prompt = true
  local keys = store.config.keymaps.prompt or {}
  map(buf, { "n", "i" }, keys.attach, M.menu, "attach to the prompt")
  map(buf, { "n", "i" }, keys.history_prev, history_key(buf, keys.history_prev, -1), "previous prompt", true)
  map(buf, { "n", "i" }, keys.history_next, history_key(buf, keys.history_next, 1), "next prompt", true)
  sources.on_file = function(file)
    M.add(attachments.file(file.fname))
  end
  require("acp_editor.complete").attach(buf)
  vim.api.nvim_set_hl(0, "AcpEditorAttached", { default = true, link = "Special" })
  local group = vim.api.nvim_create_augroup("acp_editor_prompt", { clear = true })
  vim.api.nvim_create_autocmd("BufWinEnter", { group = group, buffer = buf, callback = M.redraw })
  vim.api.nvim_create_autocmd({ "TextChanged", "TextChangedI" }, {
    group = group,
    buffer = buf,
    callback = function()
      history.on_change(buf)
    end,
  })
  vim.api.nvim_create_autocmd("BufEnter", {
    group = group,
    callback = function(ev)
      if ev.buf ~= buf and is_file(ev.buf) then
        M.last_file_buf = ev.buf
      end
    end,
  })
  M.redraw()
end

return M
