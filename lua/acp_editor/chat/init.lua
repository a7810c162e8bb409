-- The chat: a read-only transcript buffer per live session and one prompt buffer under it.
--
-- Each session the chat has shown keeps its own transcript buffer, redrawn from its mirror on
-- every change (in front or not), but only from the first line that differs, so a streamed
-- reply rewrites its own last lines and nothing else (folds the user opened stay open, the
-- cursor stays put). A window whose cursor was on the last line keeps following new text.
-- Switching sessions (acp_editor.session.live) puts the front session's buffer in the chat's
-- window, with the cursor and scroll it had there; the prompt area keeps one draft per session
-- (chat/prompt.lua). Nothing is drawn again on a switch, so it takes as long as showing a buffer.
-- A session's pending permissions are listed at the end of its own transcript and answered
-- there with single keys. A subagent's session has no transcript of its own here: it is drawn
-- in its parent's, under the tool call that started it, and a change of it redraws the parent.

local permissions = require("acp_editor.questions.permissions")
local render = require("acp_editor.chat.render")
local requests = require("acp_editor.session.requests")
local store = require("acp_editor.store")

---@class acp_editor.ChatView one session's transcript buffer
---@field buf integer
---@field session? string nil: the chat before any session
---@field lines string[] the lines last drawn
---@field folds string[] foldexpr values of the lines last drawn
---@field entry_at table<integer, integer> line → index of the session entry drawn there
---@field child_at table<integer, string> line → the subagent drawn there
---@field views table<integer, table> window → its winsaveview() when the buffer left it

local M = {
  ns = vim.api.nvim_create_namespace("acp_editor_chat"),
  ---@type table<string, acp_editor.ChatView> by session id ("" before any session)
  views = {},
  ---@type integer? the transcript buffer of the session in front
  buf = nil,
  ---@type integer?
  prompt_buf = nil,
  ---@type string[] the lines last drawn in front (the front view's)
  lines = {},
  ---@type string[] foldexpr values of the front view's lines
  folds = {},
  ---@type table<integer, integer> line → index of the session entry drawn there (chat/queue.lua)
  entry_at = {},
  ---@type table<integer, string> line → the subagent drawn there (its session id)
  child_at = {},
}

local function key(session_id)
  return session_id or ""
end

--- The view of `buf`, if it is a transcript buffer.
---@return acp_editor.ChatView?
local function view_of_buf(buf)
  for _, view in pairs(M.views) do
    if view.buf == buf then
      return view
    end
  end
end

--- foldexpr of the transcript windows (`v:lua.require'acp_editor.chat'.foldexpr()`): Neovim
--- evaluates it with the window's buffer current.
---@return string
function M.foldexpr()
  local view = view_of_buf(vim.api.nvim_get_current_buf())
  return view and view.folds[vim.v.lnum] or "0"
end

local function scratch(name, filetype)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].filetype = filetype
  vim.b[buf].acp_editor_chat = true
  pcall(vim.api.nvim_buf_set_name, buf, name)
  return buf
end

local function map(buf, modes, lhs, fn, desc)
  if lhs then
    vim.keymap.set(modes, lhs, fn, { buffer = buf, desc = "acp-editor: " .. desc, nowait = true })
  end
end

--- The keys both kinds of chat buffer have.
local function common_keys(buf, keys)
  map(buf, "n", keys.cancel, function()
    require("acp_editor.chat.queue").cancel()
  end, "cancel the turn")
  map(buf, "n", keys.close, function()
    M.close()
  end, "close the chat")
  map(buf, "n", keys.help, function()
    require("acp_editor.chat.help").show()
  end, "show these keys")
end

--- A transcript buffer for `session_id`, with its keys.
---@return acp_editor.ChatView
local function new_view(session_id)
  local keys = store.config.keymaps.chat
  -- The first keeps the plain name; the others are named after their session.
  local taken = vim.fn.bufexists("acp-editor://chat") == 1
  local name = taken and ("acp-editor://chat/" .. (session_id or "new")) or "acp-editor://chat"
  -- Markdown, so treesitter and render-markdown.nvim draw it (b:acp_editor_chat tells it apart).
  local buf = scratch(name, "markdown")
  pcall(vim.treesitter.start, buf, "markdown") -- the parser ships with Neovim 0.11
  vim.bo[buf].modifiable = false
  vim.b[buf].acp_editor_transcript = true
  local view = { buf = buf, session = session_id, lines = {}, folds = {}, entry_at = {}, child_at = {}, views = {} }
  -- The keys answer the oldest question of the session this buffer shows.
  local function answer(kind)
    return function()
      permissions.answer_oldest(kind, view.session)
    end
  end
  map(buf, "n", keys.allow, answer("allow_once"), "allow")
  map(buf, "n", keys.allow_always, answer("allow_always"), "always allow")
  map(buf, "n", keys.reject, answer("reject_once"), "reject")
  map(buf, "n", keys.reject_always, answer("reject_always"), "always reject")
  map(buf, "n", keys.choose, function()
    M.choose(view.session)
  end, "choose an answer")
  map(buf, "n", keys.yank_code, function()
    require("acp_editor.chat.code_blocks").yank()
  end, "yank the code block under the cursor")
  map(buf, "n", keys.edit_prompt, function()
    require("acp_editor.chat.queue").edit()
  end, "edit your prompt under the cursor (a waiting one in place, an earlier one to send again)")
  map(buf, "n", keys.remove_prompt, function()
    require("acp_editor.chat.queue").remove()
  end, "remove the waiting prompt under the cursor")
  map(buf, "n", keys.cancel_subagent, function()
    M.cancel_subagent(view)
  end, "stop the subagent under the cursor (the turn goes on)")
  common_keys(buf, keys)
  M.views[key(session_id)] = view
  return view
end

--- The front session's view: made (and drawn) the first time it is needed.
---@return acp_editor.ChatView
local function front_view()
  local sid = store.current_session
  local view = M.views[key(sid)]
  if not view or not vim.api.nvim_buf_is_valid(view.buf) then
    if sid and M.views[""] and vim.api.nvim_buf_is_valid(M.views[""].buf) then
      -- The chat opened before the first session: that buffer becomes the session's.
      view, M.views[""] = M.views[""], nil
      view.session = sid
      M.views[sid] = view
    else
      view = new_view(sid)
    end
    M.draw(view)
  end
  M.buf, M.lines, M.folds, M.entry_at, M.child_at = view.buf, view.lines, view.folds, view.entry_at, view.child_at
  return view
end

local function prompt_buffer()
  if M.prompt_buf and vim.api.nvim_buf_is_valid(M.prompt_buf) then
    return M.prompt_buf
  end
  local keys = store.config.keymaps.chat
  M.prompt_buf = scratch("acp-editor://prompt", "markdown")
  local buf = M.prompt_buf
  map(buf, "i", keys.cancel, function()
    require("acp_editor.chat.queue").cancel()
  end, "cancel the turn")
  common_keys(buf, keys)
  map(buf, "n", keys.send, function()
    M.send()
  end, "send the prompt")
  map(buf, { "n", "i" }, keys.send_insert, function()
    M.send()
  end, "send the prompt")
  require("acp_editor.chat.prompt").attach(buf) -- attachments, completion, history
  return buf
end

local function buffers()
  local prompt_buf = prompt_buffer()
  return front_view().buf, prompt_buf
end

--- Open the oldest pending request's picker (again, after it was dismissed with dismiss = "keep").
---@param session_id? string the session whose request (default: the one in front)
function M.choose(session_id)
  local entry = permissions.oldest(session_id or store.current_session)
  if not entry then
    return store.report("acp-editor: no permission request is pending")
  end
  permissions.picking = nil -- a picker left open elsewhere no longer counts
  permissions.pump(entry)
end

local function window_of(buf)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return win
    end
  end
end

--- A window of this tab showing a transcript (of any session).
local function transcript_win()
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.b[vim.api.nvim_win_get_buf(win)].acp_editor_transcript then
      return win
    end
  end
end

local function transcript_window(win)
  local opts = store.config.chat
  if opts.position == "right" or opts.position == "left" then
    vim.api.nvim_win_set_width(win, opts.width)
  elseif opts.position == "bottom" then
    vim.api.nvim_win_set_height(win, opts.height)
  end
  local wo = vim.wo[win]
  wo.wrap, wo.linebreak, wo.number, wo.relativenumber, wo.signcolumn = true, true, false, false, "no"
  wo.foldmethod, wo.foldexpr, wo.foldtext, wo.foldlevel = "expr", "v:lua.require'acp_editor.chat'.foldexpr()", "", 0
  wo.winfixwidth = opts.position ~= "bottom"
end

--- Show `view` in the transcript window `win`, where it was left in that window (cursor and
--- scroll; at the end when it was following the end).
local function show(win, view)
  local old = view_of_buf(vim.api.nvim_win_get_buf(win))
  if old == view then
    return
  end
  if old then
    local saved = vim.api.nvim_win_call(win, vim.fn.winsaveview)
    saved.at_tail = saved.lnum >= vim.api.nvim_buf_line_count(old.buf)
    old.views[win] = saved
  end
  vim.api.nvim_win_set_buf(win, view.buf)
  local saved = view.views[win]
  if saved and not saved.at_tail then
    vim.api.nvim_win_call(win, function()
      vim.fn.winrestview(saved)
    end)
  else
    vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(view.buf), 0 })
  end
end

--- Open (or focus) the chat: the transcript, and the prompt area under it, where the cursor
--- lands. Whichever of the two windows is missing is made again.
---@return integer prompt_win the prompt area's window
function M.open()
  local buf, prompt_buf = buffers()
  local win, prompt_win = transcript_win(), window_of(prompt_buf)
  if win then
    show(win, M.views[key(store.current_session)])
  else
    if prompt_win then
      vim.api.nvim_set_current_win(prompt_win)
      vim.cmd("aboveleft split")
    else
      local position = store.config.chat.position
      local split = { right = "botright vsplit", left = "topleft vsplit", bottom = "botright split", tab = "tabnew" }
      vim.cmd(split[position])
    end
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, buf)
    transcript_window(win)
    vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(buf), 0 })
  end
  if not prompt_win then
    vim.api.nvim_set_current_win(win)
    vim.cmd("belowright split")
    prompt_win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(prompt_win, prompt_buf)
    vim.wo[prompt_win].number = false
  end
  vim.api.nvim_win_set_height(prompt_win, store.config.chat.prompt_height)
  vim.wo[prompt_win].winfixheight = true
  vim.api.nvim_set_current_win(prompt_win)
  return prompt_win
end

function M.close()
  local wins = { M.prompt_buf and window_of(M.prompt_buf), transcript_win() }
  for _, win in pairs(wins) do
    if win and #vim.api.nvim_tabpage_list_wins(0) > 1 then
      vim.api.nvim_win_close(win, false)
    end
  end
end

--- Send what the prompt area holds with its attachments, and empty it.
function M.send()
  local _, prompt_buf = buffers()
  require("acp_editor.chat.prompt").send(prompt_buf)
end

--- Draw one session's transcript in its buffer (only the lines that changed).
---@param view acp_editor.ChatView
function M.draw(view)
  local buf = view.buf
  if not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  local sid = view.session
  local live = require("acp_editor.session.live")
  local ids = live.ids()
  local subagents = require("acp_editor.session.subagents")
  local drawn = render.render(sid and store.sessions[sid] or nil, {
    agent = store.agent_of(sid),
    agent_name = live.agent_name(sid),
    busy = requests.busy(sid),
    waiting = sid ~= nil and live.asks(sid),
    plan_at = sid and store.plan_at[sid] or nil,
    -- This session's pending requests: the keys answer the oldest one first.
    permissions = permissions.of_session(sid),
    keys = store.config.keymaps.chat,
    session = #ids > 1 and ("session %d of %d"):format(math.max(1, vim.fn.index(ids, sid) + 1), #ids) or nil,
    sessions = store.sessions,
    asks = function(child)
      return live.asks(child, true)
    end,
    name_of = subagents.name,
  })
  local first = 1
  while first <= #drawn.lines and drawn.lines[first] == view.lines[first] do
    first = first + 1
  end
  local count = vim.api.nvim_buf_line_count(buf)
  local tails = {}
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    tails[win] = vim.api.nvim_win_get_cursor(win)[1] >= count
  end
  view.folds, view.entry_at, view.child_at = drawn.folds, drawn.entry_at, drawn.child_at
  if first <= #drawn.lines or #drawn.lines ~= #view.lines then
    vim.bo[buf].modifiable = true
    vim.api.nvim_buf_set_lines(buf, first - 1, -1, false, vim.list_slice(drawn.lines, first))
    vim.bo[buf].modifiable = false
  end
  view.lines = drawn.lines
  vim.api.nvim_buf_clear_namespace(buf, M.ns, 0, -1)
  for _, hl in ipairs(drawn.hls) do
    vim.api.nvim_buf_set_extmark(buf, M.ns, hl[1], 0, { line_hl_group = hl[2] })
  end
  for win, at_tail in pairs(tails) do
    if at_tail then
      vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(buf), 0 })
    end
  end
  if buf == M.buf then
    M.lines, M.folds, M.entry_at, M.child_at = view.lines, view.folds, view.entry_at, view.child_at
  end
end

--- The stop key: the subagent drawn under the cursor stops (`acp/cancel` of its session), the
--- turn goes on.
---@param view acp_editor.ChatView
function M.cancel_subagent(view)
  local child = view.child_at[vim.api.nvim_win_get_cursor(0)[1]]
  if not child then
    return store.report("acp-editor: no subagent under the cursor")
  end
  require("acp_editor.session.subagents").cancel(child)
end

--- Bring a subagent's lines into view in its parent's transcript (the switcher's choice).
---@param child string its session id
function M.reveal(child)
  local view = M.views[key(store.root_of(child))]
  if not view then
    return
  end
  M.draw(view)
  for line = 1, #view.lines do
    if view.child_at[line] == child then
      for _, win in ipairs(vim.fn.win_findbuf(view.buf)) do
        vim.api.nvim_win_set_cursor(win, { line, 0 })
      end
      return
    end
  end
end

--- Redraw the transcripts: those of `session_ids` (a set), or all of them.
---@param session_ids? table<string, true>
function M.redraw(session_ids)
  for k, view in pairs(M.views) do
    if not session_ids or session_ids[k] then
      M.draw(view)
    end
  end
end

--- Another session came to the front: its transcript goes into the chat's windows (made and
--- drawn if the chat never showed it), and the prompt area swaps drafts. At once, not
--- scheduled: what the user sees after :AcpSwitch is the session they chose.
---@param session_id? string
---@param previous? string
function M.switch(session_id, previous)
  if not (M.prompt_buf and vim.api.nvim_buf_is_valid(M.prompt_buf)) then
    return -- the chat was never opened: it shows the front session when it is
  end
  if previous == nil and M.views[""] then
    -- The chat before the first session: its buffer (and draft) become that session's.
    previous = session_id
  end
  local view = front_view()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.b[vim.api.nvim_win_get_buf(win)].acp_editor_transcript then
      show(win, view)
    end
  end
  require("acp_editor.chat.prompt").switch(M.prompt_buf, key(previous), key(session_id))
end

--- The sidecar stopped and its sessions with it: the transcript in front stays (as the chat
--- before any session, which the next session takes over), the others' buffers go.
function M.forget_sessions()
  local front = M.buf and view_of_buf(M.buf)
  for k, view in pairs(M.views) do
    if view ~= front then
      M.views[k] = nil
      if vim.api.nvim_buf_is_valid(view.buf) and #vim.fn.win_findbuf(view.buf) == 0 then
        vim.api.nvim_buf_delete(view.buf, { force = true })
      end
    end
  end
  if front then
    M.views = { [""] = front }
    front.session = nil
  end
  local prompt = package.loaded["acp_editor.chat.prompt"]
  if prompt then
    prompt.drafts = {}
  end
end

--- Listen to the store (called once from setup).
function M.subscribe()
  local pending, dirty = false, {}
  -- Many changes can arrive in one tick; draw once for all of them, each session's own.
  local function soon(sessions)
    if dirty ~= true then
      if sessions then
        for k in pairs(sessions) do
          dirty[k] = true
        end
      else
        dirty = true
      end
    end
    if not pending then
      pending = true
      store.config.schedule(function()
        local which = dirty ~= true and dirty or nil
        pending, dirty = false, {}
        M.redraw(which)
      end)
    end
  end
  local count = 0
  store.on("session", function(sid)
    -- Every header counts the sessions ("session 2 of 3"): a new one changes them all.
    local n = #require("acp_editor.session.live").ids()
    if n ~= count then
      count = n
      return soon()
    end
    -- A subagent is drawn in its parent's transcript (and the parent's in its own parent's).
    local which = { [key(sid)] = true }
    local parent = store.parent_of(sid)
    while parent and not which[parent] do
      which[parent] = true
      parent = store.parent_of(parent)
    end
    soon(which)
  end)
  store.on("turn", function(sid)
    soon({ [key(sid)] = true, [""] = true })
  end)
  for _, event in ipairs({ "agent", "permissions" }) do
    store.on(event, function()
      soon()
    end)
  end
  store.on("current", M.switch)
  store.on("stopped", function()
    M.forget_sessions()
    soon()
  end)
end

return M
