-- Permission requests (acp/requestPermission); signing in is questions/sign_in.lua's.
--
-- A request never blocks Neovim: its handler suspends (acp_editor.sidecar.asyncreq) and is answered
-- later, from a floating window that does not take the keyboard (acp_editor.questions.window), from a
-- picker plugin's vim.ui.select, from the chat buffer, or by an auto-approve rule. Requests
-- queue up: one question shown at a time, oldest first, all of them listed in the chat.
-- Neovim's own vim.ui.select is never used for them: it takes over the screen and the keyboard,
-- and whatever the user was typing went into it. A picker plugin's (telescope, fzf-lua, snacks
-- replace vim.ui.select) is, since the user chose it.
-- Only the session in front asks like that: a request of a session in the background is
-- announced (vim.notify, naming the agent and the session and how to get there) and waits,
-- listed in that session's chat, until the user brings the session to the front
-- (:AcpSwitch); then it is shown like any other.
-- A request goes away when it is answered, when the server withdraws it ($/cancelRequest), when
-- its tool call is cancelled, or when its session's turn ends (nobody is waiting any more).
-- A subagent's question (its session is the subagent's, `subagent` names it) belongs to its
-- parent's place: asked while the parent is in front, listed in the parent's chat, and it says
-- which subagent asks.

local asyncreq = require("acp_editor.sidecar.asyncreq")
local protocol = require("acp_editor.protocol")
local store = require("acp_editor.store")
local window = require("acp_editor.questions.window")

---@class acp_editor.Permission
---@field seq integer order of arrival
---@field request_id? string|integer the server's JSON-RPC id, when it could be learnt
---@field params table RequestPermissionParams
---@field waiting acp_editor.Suspended
---@field answer? string|vim.NIL the optionId sent (vim.NIL: dismissed)
---@field withdrawn? boolean
---@field dismissed? boolean the picker was closed without a choice (dismiss = "keep")

local M = {
  ---@type acp_editor.Permission[] oldest first
  pending = {},
  ---@type acp_editor.Permission? the one a picker is open for
  picking = nil,
  ---@type table[] answered/withdrawn requests, newest last (for the chat and for tests)
  history = {},
}
local seq = 0

--- A short line saying what the agent wants to do. An ACP v2 agent's own words (`title`,
--- `description`) go first, the tool call's title after them (unless it only repeats the title:
--- the call the server made up for a command).
---@param params table
---@return string
function M.describe(params)
  local call = params.toolCall or {}
  local what = call.title or call.kind or "a tool call"
  if type(params.title) == "string" and params.title ~= "" then
    local words = { params.title }
    if type(params.description) == "string" and params.description ~= "" then
      table.insert(words, params.description)
    end
    if what ~= params.title then
      table.insert(words, what)
    end
    what = table.concat(words, " — ")
  end
  if params.command then
    what = ("%s: %s"):format(what, params.command)
  end
  for _, diff in ipairs(params.diffs or {}) do
    local file = vim.fn.fnamemodify(diff.path or "", ":~:.")
    what = ("%s (%s +%d -%d)"):format(what, file, diff.added or 0, diff.removed or 0)
  end
  return what
end

--- Who asks: "The agent", or the subagent that does (`Subagent “Explore hello.py”`).
---@param params table
---@return string
function M.asker(params)
  local sub = params.subagent
  if type(sub) ~= "table" then
    return "The agent"
  end
  local title = type(sub.title) == "string" and vim.trim(sub.title) ~= "" and sub.title or nil
  return title and ("Subagent “%s”"):format(title) or "A subagent"
end

--- The question in one line, naming who asks: `The agent asks: Edit hello.py (...)`.
---@param params table
---@return string
function M.question(params)
  return ("%s asks: %s"):format(M.asker(params), M.describe(params))
end

---@param params table
---@param kind string
---@return table? option the first option of `kind` (allow_once, reject_once, ...)
function M.option_of_kind(params, kind)
  for _, option in ipairs(params.options or {}) do
    if option.kind == kind then
      return option
    end
  end
end

--- The session whose place a request takes: its own, or a subagent's top parent's.
---@param params table
---@return string?
function M.place(params)
  local sid = params.sessionId
  local sub = params.subagent
  if sid and type(sub) == "table" and type(sub.parentSessionId) == "string" then
    store.set_parent(sid, sub.parentSessionId)
  end
  return store.root_of(sid)
end

--- Whether a request belongs to the session in front (a request naming no session does, and
--- all do before any session is known; a subagent's does while its parent is in front).
---@param entry acp_editor.Permission
---@return boolean
function M.in_front(entry)
  local sid = M.place(entry.params)
  return sid == nil or store.current_session == nil or sid == store.current_session
end

--- The pending requests of `session_id` and its subagents (nil: of the session in front),
--- oldest first.
---@param session_id? string
---@return acp_editor.Permission[]
function M.of_session(session_id)
  return vim.tbl_filter(function(entry)
    local sid = M.place(entry.params)
    return sid == session_id or (sid == nil and session_id == store.current_session)
  end, M.pending)
end

--- The oldest pending request of `session_id`.
---@param session_id? string
---@return acp_editor.Permission?
function M.oldest(session_id)
  return M.of_session(session_id)[1]
end

local function auto_choice(params)
  local kind = (params.toolCall or {}).kind
  for _, rule in ipairs(store.config.auto_approve) do
    if rule.kind == "*" or rule.kind == kind then
      local option = M.option_of_kind(params, rule.option)
      if option then
        return option
      end
    end
  end
end

local function forget(entry, outcome)
  for i, p in ipairs(M.pending) do
    if p == entry then
      table.remove(M.pending, i)
      break
    end
  end
  if M.picking == entry then
    M.picking = nil -- a third-party picker cannot be closed from here; its late answer is ignored
    window.close()
  end
  M.remember(entry.params, outcome)
  store.emit("permissions")
end

--- Keep the latest answers (for the chat and tests), not all of them forever.
---@param params table
---@param outcome table
function M.remember(params, outcome)
  table.insert(M.history, { params = params, outcome = outcome })
  if #M.history > 50 then
    table.remove(M.history, 1)
  end
end

local function select_fn()
  return store.config.ui_select or vim.ui.select
end

--- Whether vim.ui.select is Neovim's own (modal: it takes the keyboard) or a picker plugin's.
local function builtin_select()
  local info = debug.getinfo(vim.ui.select, "S")
  return store.config.ui_select == nil and info ~= nil and info.source:match("vim/ui%.lua$") ~= nil
end

--- How questions are shown: "window", "select" or "chat" (only there).
---@return "window"|"select"|"chat"
function M.ui()
  local ui = store.config.permission_ui
  if ui == "auto" then
    return builtin_select() and "window" or "select"
  end
  return ui
end

local function on_choice(entry)
  return function(choice)
    if M.picking == entry then
      M.picking = nil
    end
    if entry.answer == nil and not entry.withdrawn then
      if choice then
        M.answer(entry, choice.optionId)
      elseif store.config.dismiss == "reject" then
        M.answer(entry, nil)
      else
        entry.dismissed = true -- stays pending, answerable from the chat or :AcpPermission
      end
    end
    store.config.schedule(function()
      M.pump()
    end)
  end
end

local function ask(entry, focus)
  if M.ui() == "select" then
    select_fn()(entry.params.options or {}, {
      prompt = M.question(entry.params),
      kind = "acp_editor.permission",
      format_item = function(option)
        return option.name or option.optionId
      end,
    }, on_choice(entry))
    return
  end
  -- The window: never dismissed by a stray key, so never a rejection the user did not mean.
  window.show(M.question(entry.params), entry.params.options or {}, function(option_id)
    M.answer(entry, option_id)
  end)
  if focus then
    window.focus()
  end
end

--- Show the oldest pending request not dismissed, unless one is shown already.
---@param entry? acp_editor.Permission this one (`:AcpPermission`), even if it was dismissed
function M.pump(entry)
  local explicit = entry ~= nil
  if explicit and M.picking == entry and window.shown() then
    window.focus()
    return
  end
  if M.picking or (not explicit and M.ui() == "chat") then
    return
  end
  if not entry then
    for _, p in ipairs(M.pending) do
      if not p.dismissed and M.in_front(p) then
        entry = p
        break
      end
    end
  end
  if not entry then
    return
  end
  M.picking = entry
  ask(entry, explicit)
end

--- Answer a pending request with `option_id` (nil: dismissed; the server then rejects).
---@param entry acp_editor.Permission
---@param option_id? string
---@return boolean answered false when it was no longer pending
function M.answer(entry, option_id)
  if entry.answer ~= nil or entry.withdrawn then
    return false
  end
  entry.answer = option_id or vim.NIL
  entry.waiting:resume({ optionId = entry.answer })
  forget(entry, { optionId = option_id })
  store.config.schedule(function()
    M.pump()
  end)
  return true
end

--- Answer the oldest pending request of a session (default: the one in front) with its first
--- option of `kind` (for chat keymaps).
---@param kind string
---@param session_id? string
---@return boolean
function M.answer_oldest(kind, session_id)
  local entry = M.oldest(session_id or store.current_session)
  if not entry then
    store.report("acp-editor: no permission request is pending in this session")
    return false
  end
  local option = M.option_of_kind(entry.params, kind)
  if not option then
    store.report(("acp-editor: this request has no %s option"):format(kind), vim.log.levels.WARN)
    return false
  end
  return M.answer(entry, option.optionId)
end

--- The request is void: answer the suspended handler with RequestCancelled (the server has
--- stopped waiting, so the answer is only there to end the coroutine) and drop it.
local function withdraw(entry, why, silent)
  if entry.answer ~= nil or entry.withdrawn then
    return
  end
  entry.withdrawn = true
  if not silent then
    entry.waiting:resume(nil, { code = protocol.errors.REQUEST_CANCELLED, message = why })
  end
  forget(entry, { withdrawn = why })
  store.config.schedule(function()
    M.pump()
  end)
end

--- `$/cancelRequest {id}` from the server. Without a known id, a single pending request is
--- the one (the other cases are caught by `sweep`).
---@param params? {id?: integer|string}
function M.cancel_request(_, params)
  local id = params and params.id
  for _, entry in ipairs(vim.list_slice(M.pending)) do
    if entry.request_id ~= nil and entry.request_id == id then
      return withdraw(entry, "withdrawn by the server")
    end
  end
  if #M.pending == 1 and M.pending[1].request_id == nil then
    withdraw(M.pending[1], "withdrawn by the server")
  end
end

--- Drop requests of `session_id` that nobody waits for: its turn ended, or the tool call they
--- are about was cancelled.
---@param turn_ended? boolean
---@param session_id string
function M.sweep(session_id, turn_ended)
  local snap = store.sessions[session_id]
  for _, entry in ipairs(vim.list_slice(M.pending)) do
    if entry.params.sessionId == session_id then
      local id = (entry.params.toolCall or {}).toolCallId
      local call = snap and id and snap.toolCalls[id]
      if turn_ended then
        withdraw(entry, "the turn ended")
      elseif call and call.status == "cancelled" then
        withdraw(entry, "the tool call was cancelled")
      end
    end
  end
end

--- A request of a session in the background: said, not shown (no window, no picker, the
--- cursor stays where it is); the user answers it in that session's chat.
---@param entry acp_editor.Permission
function M.announce(entry)
  local live = require("acp_editor.session.live")
  local sid = M.place(entry.params) or entry.params.sessionId
  local who = live.who(sid)
  if type(entry.params.subagent) == "table" then
    who = ("%s's %s"):format(who, (M.asker(entry.params):gsub("^%u", string.lower)))
  end
  store.report(
    ("acp-editor: %s asks in session %s (%s): %s — answer in its chat: :AcpSwitch %s"):format(
      who,
      sid,
      live.title(store.sessions[sid]),
      M.describe(entry.params),
      sid
    ),
    vim.log.levels.WARN
  )
end

--- Another session came to the front (listener of the store's "current"): a window showing a
--- question of another session closes (the question waits in that session's chat), and the
--- new front session's oldest question is shown. A picker plugin's cannot be closed from here.
function M.on_switch()
  if M.picking and not M.in_front(M.picking) and window.shown() then
    M.picking = nil
    window.close()
  end
  M.pump()
end

--- The acp/requestPermission handler (runs in the coroutine Neovim gives each server request).
---@param params table
---@param ctx lsp.HandlerContext
---@return table? result
---@return table? err
function M.handle(_, params, ctx)
  local auto = auto_choice(params)
  if auto then
    M.remember(params, { optionId = auto.optionId, auto = true })
    store.emit("permissions")
    return { optionId = auto.optionId }
  end
  local waiting = asyncreq.current()
  if not waiting then
    return { optionId = vim.NIL } -- cannot wait outside a coroutine: dismiss rather than block
  end
  seq = seq + 1
  local entry = { seq = seq, request_id = asyncreq.request_id(ctx.method), params = params, waiting = waiting }
  table.insert(M.pending, entry)
  store.emit("permissions")
  if M.in_front(entry) then
    -- Short enough for one line: a longer one waits for Enter, taking the next key typed.
    local said = type(params.subagent) == "table" and M.question(params)
      or ("permission needed: %s"):format(M.describe(params))
    store.report("acp-editor: " .. said)
  else
    M.announce(entry)
  end
  store.config.schedule(function()
    M.pump()
  end)
  return asyncreq.wait()
end

--- The sidecar is gone: nobody can be answered any more (the suspended handlers are dropped).
function M.reset()
  for _, entry in ipairs(vim.list_slice(M.pending)) do
    withdraw(entry, "the sidecar stopped", true)
  end
  M.picking = nil
  window.close()
end

return M
