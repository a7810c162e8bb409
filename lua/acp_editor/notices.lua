-- Knowing when the agent is done or needs you, while you work elsewhere.
--
-- Two `User` autocommands for your own hooks (a sound, a desktop notification, a lualine
-- refresh): `AcpTurnEnd` when a turn of yours ends, `AcpQuestion` when a permission request
-- waits. And a vim.notify when a turn ends while the chat is not in front (`notices.turn_end`:
-- "hidden", the default, when the chat is not shown in the current tab or Neovim lost the
-- focus; "always"; false). Questions need no notice of their own here: the permission module
-- announces every request with vim.notify already. A notice the agent sends (ACP `notice`, an
-- entry of its transcript) is said with vim.notify too, at its severity, as it arrives.

local store = require("acp_editor.store")

local M = {
  focused = true, ---@type boolean Neovim has the focus (FocusLost / FocusGained, when the terminal tells)
  seen = 0, ---@type integer the last permission request announced (its seq)
}

local function fire(pattern, data)
  vim.api.nvim_exec_autocmds("User", { pattern = pattern, modeline = false, data = data })
end

--- Whether the chat (transcript or prompt area) is shown in the current tab.
---@return boolean
function M.chat_visible()
  local chat = package.loaded["acp_editor.chat"]
  if not chat then
    return false
  end
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local buf = vim.api.nvim_win_get_buf(win)
    if vim.b[buf].acp_editor_transcript or buf == chat.prompt_buf then
      return true
    end
  end
  return false
end

--- The reply's first line, short enough for a notice.
local function gist(result)
  local reply = type(result.reply) == "string" and result.reply or ""
  local line = vim.trim(reply):match("^[^\n]*") or ""
  if vim.fn.strchars(line) > 80 then
    line = vim.fn.strcharpart(line, 0, 79) .. "…"
  end
  return line
end

local function notice(result)
  local how = store.config.notices.turn_end
  local away = not M.focused or not M.chat_visible()
  if not how or (how == "hidden" and not away) or result.stopReason == "cancelled" then
    return -- a cancel is yours: you know it ended
  end
  local said = gist(result)
  if result.stopReason == "end_turn" then
    store.report("acp-editor: the agent is done" .. (said ~= "" and (": " .. said) or ""))
  else
    local message = ("acp-editor: the agent stopped (%s)"):format(tostring(result.stopReason))
    store.report(message .. (said ~= "" and (": " .. said) or ""), vim.log.levels.WARN)
  end
end

--- store "turn": (sid) when a prompt starts, (sid, result, err) when its turn ends.
local function on_turn(sid, result, err)
  if result == nil and err == nil then
    return
  end
  fire("AcpTurnEnd", {
    sessionId = result and result.sessionId or sid,
    stopReason = result and result.stopReason or nil,
    error = err and (err.message or vim.inspect(err)) or nil,
  })
  if result then
    notice(result)
  end
end

local function on_permissions()
  local permissions = require("acp_editor.questions.permissions")
  for _, entry in ipairs(permissions.pending) do
    if entry.seq > M.seen then
      M.seen = entry.seq
      local sub = entry.params.subagent
      fire("AcpQuestion", {
        kind = "permission",
        sessionId = entry.params.sessionId,
        title = permissions.describe(entry.params),
        -- a subagent asks: its title (its session is sessionId, its parent's parentSessionId)
        subagent = type(sub) == "table" and (sub.title or "") or nil,
        parentSessionId = type(sub) == "table" and sub.parentSessionId or nil,
      })
    end
  end
end

M.LEVELS = { info = vim.log.levels.INFO, warning = vim.log.levels.WARN, error = vim.log.levels.ERROR }

--- store "session": (sid, changes). A notice that arrives live is said at its severity (one
--- in a snapshot was said when it came, or is history).
local function on_session(sid, changes)
  for _, change in ipairs(changes or {}) do
    local e = change.type == "entry" and change.entry or nil
    if type(e) == "table" and e.kind == "notice" then
      local words = tostring(e.title or "")
      if type(e.description) == "string" and e.description ~= "" then
        words = ("%s: %s"):format(words, e.description)
      end
      if store.parent_of(sid) then -- a subagent's: say whose
        words = ("%s: %s"):format(require("acp_editor.session.subagents").name(sid, true), words)
      end
      store.report("acp-editor: " .. words, M.LEVELS[e.severity] or vim.log.levels.INFO)
    end
  end
end

--- store "questions": (entry) when the agent asks a form or to open a page, () when one goes.
local function on_question(entry)
  if entry then
    fire("AcpQuestion", {
      kind = entry.params.mode == "url" and "url" or "form",
      sessionId = entry.params.sessionId,
      title = entry.params.message,
    })
  end
end

--- Listen to the store and to the focus (called once from setup).
function M.subscribe()
  store.on("turn", on_turn)
  store.on("permissions", on_permissions)
  store.on("questions", on_question)
  store.on("session", on_session)
  local group = vim.api.nvim_create_augroup("acp_editor_notices", { clear = true })
  vim.api.nvim_create_autocmd({ "FocusLost", "FocusGained" }, {
    group = group,
    callback = function(ev)
      M.focused = ev.event == "FocusGained"
    end,
  })
end

return M
