-- Following the agent (acp/follow): show where it works without taking the user's focus.
--
-- The location opens in a window other than the current one (the user is usually typing in
-- the chat or prompt): a window already showing the file, else the window used last time, else
-- another ordinary window (never the user's only one), else a new split made without entering
-- it. When the current window shows the file, only the agent's mark is drawn there: the user's
-- cursor is theirs. The agent's cursor is an extmark (sign + tag) in the target buffer, so it
-- stays visible when the user scrolls away. The server already rate-limits and orders the
-- jumps; this module only draws them, and tells the server when the user turns following off.
--
-- The server follows only the session in front, unless every session is followed (the option
-- `follow.all_sessions`, `:AcpFollow all`: acp/setFollow's allSessions). Then each session has
-- its own mark, and that of a session in the background names its agent and session
-- (`demo · fix the test: read`), so the user knows whose cursor it is; the one in front's reads
-- as it always did. A subagent's work (`subagent` in acp/follow) is followed as its parent's: the
-- parent's mark moves, and names the subagent (`agent › Explore hello.py: read`).

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")
local store = require("acp_editor.store")

local M = {
  ns = vim.api.nvim_create_namespace("acp_editor_follow"),
  ---@type integer? the window the last jump went to
  win = nil,
  ---@type table<string, acp_editor.FollowMark> each followed session's cursor, by session id
  --- ("" for a jump naming no session)
  marks = {},
}

---@class acp_editor.FollowMark
---@field buf integer
---@field line integer 0-based
---@field reason? string
---@field agent? string the agent id the jump named
---@field subagent? string the title of the subagent whose work it is (nil: the session's own)
---@field id? integer the extmark drawn

--- Characters of a session's title in a background mark's tag.
local TITLE_CHARS = 24

--- A window the user edits files in: not floating, not a scratch/chat/quickfix buffer.
local function ordinary(win)
  if not vim.api.nvim_win_is_valid(win) or vim.api.nvim_win_get_config(win).relative ~= "" then
    return false
  end
  local buf = vim.api.nvim_win_get_buf(win)
  return vim.bo[buf].buftype == "" and not vim.b[buf].acp_editor_chat
end

---@param buf integer the buffer to show
---@return integer win
function M.target_window(buf)
  local current = vim.api.nvim_get_current_win()
  local wins = vim.api.nvim_tabpage_list_wins(0)
  for _, win in ipairs(wins) do
    if win ~= current and vim.api.nvim_win_get_buf(win) == buf and ordinary(win) then
      return win
    end
  end
  -- The user is looking at the file: the agent's mark shows there; no second window of it.
  if vim.api.nvim_win_get_buf(current) == buf and ordinary(current) then
    return current
  end
  if
    M.win
    and M.win ~= current
    and vim.api.nvim_win_is_valid(M.win)
    and ordinary(M.win)
    and vim.api.nvim_win_get_tabpage(M.win) == vim.api.nvim_get_current_tabpage()
  then
    return M.win
  end
  -- Another editing window may be taken, but never the user's only one: its file stays shown.
  local others = vim.tbl_filter(function(win)
    return win ~= current and ordinary(win)
  end, wins)
  local editing = #others + (ordinary(current) and 1 or 0)
  if #others > 0 and editing > 1 then
    return others[1]
  end
  -- Nothing to reuse: split, without entering the new window, the user's only editing window
  -- (else the current one). A chat sidebar splits the other way so the file gets the width.
  local beside = others[1] or current
  local vertical = not vim.b[vim.api.nvim_win_get_buf(beside)].acp_editor_chat
  local floating = vim.api.nvim_win_get_config(beside).relative ~= ""
  return vim.api.nvim_open_win(buf, false, {
    split = vertical and (others[1] and "below" or "left") or "above",
    win = floating and -1 or beside, -- a float cannot be split: split the whole screen then
  })
end

---@param uri string
---@return integer buf
local function load(uri)
  local buf = vim.uri_to_bufnr(uri)
  if not vim.api.nvim_buf_is_loaded(buf) then
    vim.fn.bufload(buf)
  end
  vim.bo[buf].buflisted = true
  return buf
end

--- Whether `key` is a session other than the one in front (its mark then says whose it is).
local function background(key)
  return key ~= "" and store.current_session ~= nil and key ~= store.current_session
end

--- The sign and tag of a mark: `A>` and ` agent: read` for the session in front; the agent's
--- initial and ` demo · fix the test: read` for one in the background.
---@param key string
---@param mark acp_editor.FollowMark
---@return string sign
---@return string tag
function M.label(key, mark)
  local reason = mark.reason or "here"
  if mark.subagent then -- whose work it is: the subagent's, under its parent's agent
    reason = ("%s: %s"):format(mark.subagent, reason)
  end
  if not background(key) then
    return "A>", ((mark.subagent and " agent › %s" or " agent: %s")):format(reason)
  end
  local live = require("acp_editor.session.live")
  local agent = live.agent_label(mark.agent or store.agent_id(key))
  local title = live.title(store.sessions[key])
  if vim.fn.strchars(title) > TITLE_CHARS then
    title = vim.fn.strcharpart(title, 0, TITLE_CHARS - 1) .. "…"
  end
  return vim.fn.strcharpart(agent, 0, 1) .. ">",
    (" %s · %s%s %s"):format(agent, title, mark.subagent and " ›" or ":", reason)
end

--- Remove the extmark of `key`'s mark, keeping where it is (the line follows the user's edits).
local function undraw(mark)
  if mark.id and vim.api.nvim_buf_is_valid(mark.buf) then
    local pos = vim.api.nvim_buf_get_extmark_by_id(mark.buf, M.ns, mark.id, {})
    if pos[1] then
      mark.line = pos[1]
    end
    vim.api.nvim_buf_del_extmark(mark.buf, M.ns, mark.id)
  end
  mark.id = nil
end

---@param key string
local function draw(key)
  local mark = M.marks[key]
  undraw(mark)
  if not store.config.follow_mark or not vim.api.nvim_buf_is_valid(mark.buf) then
    return
  end
  local sign, tag = M.label(key, mark)
  local line = math.min(mark.line, vim.api.nvim_buf_line_count(mark.buf) - 1)
  mark.id = vim.api.nvim_buf_set_extmark(mark.buf, M.ns, line, 0, {
    sign_text = sign,
    sign_hl_group = "AcpEditorAgentCursor",
    virt_text = { { tag, "AcpEditorAgentCursor" } },
    virt_text_pos = "eol",
    priority = 200,
  })
end

--- Remove the marks of every session but `keep` (nil: all of them).
---@param keep? string
local function clear_others(keep)
  for key, mark in pairs(M.marks) do
    if key ~= keep then
      undraw(mark)
      M.marks[key] = nil
    end
  end
end

--- The session a jump is followed as: its own, or a subagent's top parent's (which the server
--- follows it as too).
---@param params table FollowParams
---@return string
function M.followed_as(params)
  local sid = params.sessionId
  local sub = params.subagent
  if sid and type(sub) == "table" and type(sub.parentSessionId) == "string" then
    store.set_parent(sid, sub.parentSessionId)
  end
  return store.root_of(sid) or ""
end

--- The subagent a jump names, in a few words (its title, else "subagent"); nil for a session's own.
local function subagent_of(params)
  local sub = params.subagent
  if type(sub) ~= "table" then
    return nil
  end
  local title = type(sub.title) == "string" and vim.trim(sub.title) ~= "" and sub.title or "subagent"
  if vim.fn.strchars(title) > TITLE_CHARS then
    title = vim.fn.strcharpart(title, 0, TITLE_CHARS - 1) .. "…"
  end
  return title
end

---@param params {sessionId?: string, agent?: string, reason?: string, subagent?: table}
local function draw_mark(buf, line, params)
  local key = M.followed_as(params)
  if not store.follow_all then
    clear_others(key) -- one session followed: one mark, as the server sends one session's jumps
  end
  local mark = M.marks[key] or {}
  undraw(mark)
  mark.buf, mark.line, mark.reason, mark.agent = buf, line, params.reason, params.agent
  mark.subagent = subagent_of(params)
  M.marks[key] = mark
  draw(key)
end

--- Another session came to the front: the marks say again whose they are.
function M.redraw()
  for key in pairs(M.marks) do
    draw(key)
  end
end

--- acp/follow
---@param params table
function M.on_follow(_, params)
  if not store.follow or not params.uri then
    return
  end
  local ok, err = pcall(M.show, params)
  if not ok then
    store.report("acp-editor: could not follow the agent: " .. tostring(err), vim.log.levels.WARN)
  end
end

--- Show `params.uri` at `params.range` in another window; focus stays where it is.
---@param params {uri: string, range?: table, reason?: string, sessionId?: string, agent?: string}
function M.show(params)
  local current = vim.api.nvim_get_current_win()
  local buf = load(params.uri)
  local win = M.target_window(buf)
  local count = vim.api.nvim_buf_line_count(buf)
  local line = params.range and math.min(params.range.start.line, count - 1) or 0
  if win == current then -- the user's own window: the mark shows where, the cursor stays theirs
    draw_mark(buf, line, params)
    store.emit("follow", params)
    return
  end
  if vim.api.nvim_win_get_buf(win) ~= buf then
    vim.api.nvim_win_set_buf(win, buf)
  end
  M.win = win
  if params.range then
    local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1] or ""
    -- LSP columns count UTF-16 code units; the cursor wants bytes.
    local ok, col = pcall(vim.str_byteindex, text, "utf-16", params.range.start.character, false)
    vim.api.nvim_win_set_cursor(win, { line + 1, ok and col or 0 })
    vim.api.nvim_win_call(win, function()
      vim.cmd("normal! zz")
    end)
  end
  draw_mark(buf, line, params)
  if vim.api.nvim_get_current_win() ~= current and vim.api.nvim_win_is_valid(current) then
    vim.api.nvim_set_current_win(current) -- belt and braces: nothing above should move focus
  end
  store.emit("follow", params)
end

--- Remove the agents' cursors (follow turned off, or the sidecar stopped: no agent is there).
function M.clear()
  clear_others(nil)
end

--- What the server said it follows (acp/setFollow's answer wins over what was asked).
local function answered(_, result)
  if result then
    store.follow = result.enabled
    if type(result.allSessions) == "boolean" then
      store.follow_all = result.allSessions
    end
    if not store.follow_all then
      clear_others(store.current_session)
    end
    store.emit("follow")
  end
end

--- Turn follow-along on or off (nil: toggle), on the server too. `all_sessions`: follow every
--- live session (true) or only the one in front (false); nil: as it was.
---@param enabled? boolean
---@param all_sessions? boolean
function M.set(enabled, all_sessions)
  if enabled == nil then
    enabled = not store.follow
  end
  store.follow = enabled
  if all_sessions ~= nil then
    store.follow_all = all_sessions
  end
  if not enabled then
    M.clear()
  end
  client.request(protocol.method.SET_FOLLOW, { enabled = enabled, allSessions = all_sessions }, answered)
  local which = ""
  if enabled and all_sessions ~= nil then
    which = all_sessions and " (every session)" or " (the session in front)"
  end
  store.report(("acp-editor: follow %s%s"):format(enabled and "on" or "off", which))
end

--- A sidecar just started: it follows only the session in front until told otherwise.
function M.started()
  if store.follow_all then
    client.request(protocol.method.SET_FOLLOW, { enabled = store.follow, allSessions = true }, answered)
  end
end

return M
