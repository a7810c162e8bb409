-- Your prompts in the transcript, acted on: one waiting its turn is changed or removed, an
-- earlier one is edited and sent again, and a cancel asks what becomes of those that wait.
--
-- For a v1 agent the sidecar queues a prompt sent while a turn runs (a `queued` user message,
-- `acp/editPrompt`, `acp/withdrawPrompt`); a v2 agent queues prompts itself, and those cannot be
-- changed. ACP has no way to cut a session's history at an earlier prompt: sending one again is
-- a new turn (in this session, a fork of it, or a new session), never a rewrite of the past.
--
-- The prompt area does the editing (chat/prompt.lua's `edit`); this module finds the prompt
-- under the cursor and sends what the user decided.

local requests = require("acp_editor.session.requests")
local store = require("acp_editor.store")

local M = {}

local function report(message, level)
  store.report("acp-editor: " .. message, level or vim.log.levels.WARN)
end

local function v2(snap)
  return (snap.protocolVersion or 1) >= 2
end

--- The prompts of `snap` that wait in the sidecar's queue (v1; a v2 agent's own queue is its).
---@param snap? acp_editor.SessionSnapshot
---@return integer
function M.waiting(snap)
  local count = 0
  if snap and not v2(snap) then
    for _, e in ipairs(snap.entries) do
      if e.kind == "message" and e.role == "user" and e.queued then
        count = count + 1
      end
    end
  end
  return count
end

--- The user message drawn at the transcript's cursor: the session, the entry's 1-based index
--- and the entry.
local function prompt_at_cursor()
  local chat = require("acp_editor.chat")
  local snap = store.current()
  local i = chat.entry_at[vim.api.nvim_win_get_cursor(0)[1]]
  local e = snap and i and snap.entries[i]
  if e and e.kind == "message" and e.role == "user" then
    return snap, i, e
  end
end

--- A prompt's content split into what was typed (its first block, when that is text) and the
--- rest (what was attached). `fresh`: the rest is sent as it was (a waiting prompt); else the
--- text of files embedded back then is left out, as it may be stale (links and images stay).
---@return string, table[]
local function split(content, fresh)
  local text, rest = "", {}
  for i, block in ipairs(content or {}) do
    if i == 1 and type(block) == "table" and block.type == "text" then
      text = block.text or ""
    elseif type(block) == "table" and (fresh or block.type ~= "resource") then
      table.insert(rest, block)
    end
  end
  return text, rest
end

--- The edit key: a waiting prompt's text into the prompt area, to change it; an earlier one's,
--- to edit and send again.
function M.edit()
  local snap, i, e = prompt_at_cursor()
  if not snap then
    return report("no prompt of yours under the cursor")
  elseif e.queued and v2(snap) then
    return report("this agent queues prompts itself: a waiting one cannot be changed")
  end
  local text, rest = split(e.content, e.queued)
  local chat = require("acp_editor.chat")
  chat.open()
  local edit = e.queued and { kind = "queued", session_id = snap.sessionId, index = i - 1, rest = rest }
    or { kind = "resend", rest = rest }
  require("acp_editor.chat.prompt").edit(chat.prompt_buf, text, edit)
end

--- The remove key: the waiting prompt under the cursor will not go (it stays, marked).
function M.remove()
  local snap, i, e = prompt_at_cursor()
  if not snap or not e.queued then
    return report("no prompt waiting its turn under the cursor")
  elseif v2(snap) then
    return report("this agent queues prompts itself: a waiting one cannot be removed")
  end
  requests.withdraw_prompt(snap.sessionId, i - 1, function(err)
    if err then
      report("the prompt could not be removed: " .. (err.message or vim.inspect(err)))
    end
  end)
end

--- Send the changed text of a waiting prompt; when it has gone meanwhile, the text comes back
--- to the prompt area (unless something else is typed there), to send as a new prompt.
---@param edit acp_editor.PromptEdit
---@param prompt string|table[]
---@param text string
function M.change(edit, prompt, text)
  requests.edit_prompt(edit.session_id, edit.index, prompt, function(err)
    if not err then
      return
    end
    local buf = require("acp_editor.chat").prompt_buf
    if
      buf
      and vim.api.nvim_buf_is_valid(buf)
      and vim.trim(table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false))) == ""
    then
      vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, "\n", { plain = true }))
    end
    report("the waiting prompt could not be changed (it went to the agent, or was removed): " .. (err.message or ""))
  end)
end

local HERE, FORK, NEW = "In this session", "In a fork of the session", "In a new session"

--- Ask where an edited earlier prompt goes, then send it there; `sent` runs once it is decided.
---@param prompt string|table[]
---@param sent fun()
function M.resend(prompt, sent)
  local choices = { HERE }
  if store.current_session and requests.can("fork") then
    table.insert(choices, FORK)
  end
  table.insert(choices, NEW)
  vim.ui.select(choices, {
    prompt = "Send it again where? (the session's history is kept as it is)",
    kind = "acp_editor.resend",
  }, function(choice)
    if not choice then
      return -- the text stays in the prompt area
    end
    sent()
    local function there(what)
      return function(err, result)
        if err or not result then
          return report(("%s failed: %s"):format(what, err and err.message or "no session"), vim.log.levels.ERROR)
        end
        requests.prompt(prompt, nil, result.sessionId)
      end
    end
    if choice == FORK then
      requests.fork(there("forking the session"))
    elseif choice == NEW then
      requests.new_session(there("starting a session"))
    else
      requests.prompt(prompt)
    end
  end)
end

--- Cancel the turn; when prompts wait after it, first ask whether they still go (keeping them
--- comes first) or are dropped. Dismissing the question cancels nothing.
---@param callback? fun(err: table?, result: table?)
function M.cancel(callback)
  local count = M.waiting(store.current())
  if count == 0 then
    return requests.cancel(callback)
  end
  local keep = count == 1 and "Keep the waiting prompt" or ("Keep the %d waiting prompts"):format(count)
  local drop = count == 1 and "Drop it" or "Drop them"
  vim.ui.select({ keep, drop }, {
    prompt = "Cancel the turn. What waits after it goes next, unless you drop it:",
    kind = "acp_editor.cancel",
  }, function(choice)
    if choice then
      requests.cancel(callback, choice == drop)
    end
  end)
end

return M
