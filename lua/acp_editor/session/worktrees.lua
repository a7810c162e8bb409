-- Sessions in a git worktree of their own (docs/protocol.md, "Sessions in a worktree of their
-- own"): the agent works in a copy of the repository, so nothing it changes reaches your files
-- until :AcpBringBack brings it in as that session's review (drawn and decided like any other
-- change); :AcpDiscardWorktree deletes the copy after asking (what was not brought back is lost,
-- so keeping it is what the question offers first).
--
-- A live session's worktree is its mirror's `worktree` (acp/newSession's snapshot says it). A
-- worktree outlives the sidecar, so both commands also take the id of a session of an earlier
-- run, which the sidecar finds by that id.

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")
local store = require("acp_editor.store")

local M = {}

M.KEEP, M.DISCARD = "Keep the worktree", "Discard"

--- Files named in one notice, at most (a bring-back of a whole folder names the first ones).
local LISTED = 6

--- Whether `session_id` is a live session working in a worktree of its own.
---@param session_id? string
---@return boolean
function M.has(session_id)
  local snap = session_id and store.sessions[session_id]
  return type(snap) == "table" and type(snap.worktree) == "string"
end

--- The live sessions in a worktree of their own, in the order they opened.
---@return string[]
function M.ids()
  return vim.tbl_filter(M.has, require("acp_editor.session.live").ids())
end

--- The session a command means: the one named; else the one in front when it has a worktree;
--- else the only live one that has; with several, the user picks one (vim.ui.select).
---@param named? string
---@param verb string what the command does, for the picker's prompt ("Bring back")
---@param callback fun(session_id: string)
function M.choose(named, verb, callback)
  if named and named ~= "" then
    return callback(named)
  elseif M.has(store.current_session) then
    return callback(store.current_session)
  end
  local ids = M.ids()
  if #ids == 0 then
    return store.report(
      "acp-editor: no live session works in a worktree of its own (:AcpNewSession ++worktree starts one;"
        .. " for a session of an earlier run, give its id)",
      vim.log.levels.WARN
    )
  elseif #ids == 1 then
    return callback(ids[1])
  end
  vim.ui.select(ids, {
    prompt = verb .. ": which session's worktree?",
    kind = "acp_editor.worktree",
    format_item = require("acp_editor.session.live").describe,
  }, function(choice)
    if choice then
      callback(choice)
    end
  end)
end

--- A path as the user reads it: relative to the current directory, else under ~.
local function shown(path)
  return vim.fn.fnamemodify(path, ":~:.")
end

--- A session for a notice: its id, and its title while it is live.
local function named(session_id)
  local snap = store.sessions[session_id]
  if not snap then
    return "session " .. session_id
  end
  return ("session %s (%s)"):format(session_id, require("acp_editor.session.live").title(snap))
end

--- What a bring-back did, in words: the files now in review, and those left as the user has
--- them with why (one line each).
---@param result {sessionId: string, brought: string[], left: {path: string, reason: string}[]}
---@return string message
---@return integer level WARN when files were left
function M.describe_result(result)
  local brought, left = result.brought or {}, result.left or {}
  local who = named(result.sessionId)
  local lines = {}
  if #brought == 0 and #left == 0 then
    return ("acp-editor: %s changed nothing new in its worktree"):format(who), vim.log.levels.INFO
  end
  if #brought > 0 then
    local names = vim.tbl_map(shown, vim.list_slice(brought, 1, LISTED))
    if #brought > LISTED then
      table.insert(names, ("and %d more"):format(#brought - LISTED))
    end
    local files = #brought == 1 and "1 file" or ("%d files"):format(#brought)
    table.insert(
      lines,
      ("acp-editor: %s of %s in review (%s): decide them like any change, :AcpReview lists them"):format(
        files,
        who,
        table.concat(names, ", ")
      )
    )
  else
    table.insert(lines, ("acp-editor: nothing of %s could come back as it is"):format(who))
  end
  if #left > 0 then
    table.insert(lines, ("%d left as you have them:"):format(#left))
    for _, item in ipairs(left) do
      table.insert(lines, ("  %s: %s"):format(shown(item.path), item.reason))
    end
  end
  return table.concat(lines, "\n"), #left > 0 and vim.log.levels.WARN or vim.log.levels.INFO
end

--- acp/bringBack: the session's changes (since it started, or since the last bring-back) come
--- into your files as its review; the hunks arrive with acp/reviewChanged as any review does.
---@param session_id string
---@param callback? fun(err: table?, result: table?)
function M.bring_back(session_id, callback)
  client.request(protocol.method.BRING_BACK, { sessionId = session_id }, function(err, result)
    if err then
      local why = err.message or vim.inspect(err)
      store.report(("acp-editor: bringing back %s failed: %s"):format(named(session_id), why), vim.log.levels.ERROR)
    elseif result then
      store.report(M.describe_result(result))
    end
    if callback then
      callback(err, result)
    end
  end)
end

--- acp/discardWorktree after asking, keeping it first: what the session changed there and was
--- not brought back is lost. The session itself stays open.
---@param session_id string
---@param callback? fun(err: table?, result: table?)
function M.discard(session_id, callback)
  local question = (
    "Discard the worktree of %s? What it changed there and was not brought back"
    .. " (:AcpBringBack) is lost. Your own files and repository are not touched."
  ):format(named(session_id))
  vim.ui.select({ M.KEEP, M.DISCARD }, { prompt = question, kind = "acp_editor.discard_worktree" }, function(choice)
    if choice ~= M.DISCARD then
      return callback and callback(nil, { sessionId = session_id, discarded = false })
    end
    client.request(protocol.method.DISCARD_WORKTREE, { sessionId = session_id }, function(err, result)
      if err then
        local why = err.message or vim.inspect(err)
        store.report(("acp-editor: discarding the worktree failed: %s"):format(why), vim.log.levels.ERROR)
      elseif result and result.discarded then
        local snap = store.sessions[session_id]
        if snap then
          snap.worktree = nil -- the sidecar's snapshot no longer names it
          store.emit("session", session_id, {})
        end
        store.report(("acp-editor: the worktree of %s is discarded"):format(named(session_id)))
      end
      if callback then
        callback(err, result)
      end
    end)
  end)
end

return M
