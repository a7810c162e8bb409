-- Sessions in a git worktree of their own (docs/protocol.md, "Sessions in a worktree of their
-- own"): the agent works in a copy of the repository, so nothing it changes reaches your files
-- until :AcpBringBack brings it in as that session's review (drawn and decided like any other
-- change); :AcpDiscardWorktree deletes the copy after asking (what was not brought back is lost,
-- so keeping it is what the question offers first, and the question says which files: a dry
-- run of acp/discardWorktree lists them).
--
-- A live session's worktree is its mirror's `worktree` (acp/newSession's snapshot and every
-- acp/sessionChanged say it). A worktree outlives the sidecar, so both commands also take the id
-- of a session of an earlier run, which the sidecar finds by that id. A session whose worktree
-- was discarded stays open, but the sidecar refuses its prompts: the switcher marks it.

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")
local store = require("acp_editor.store")

local M = {
  ---@type table<string, true> the live sessions whose worktree was discarded in this run
  discarded = {},
}

M.KEEP, M.DISCARD = "Keep the worktree", "Discard"

--- Files named in one notice, at most (a bring-back of a whole folder names the first ones).
local LISTED = 6
--- Files the discard question names, at most (more: only how many).
local NAMED_LOST = 5

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

--- The discard question: how many files would be lost, named when they are few.
---@param session_id string
---@param lost string[] what a dry run said the session changed and did not bring back
---@return string
function M.question(session_id, lost)
  local what
  if #lost == 0 then
    what = "Nothing it changed there is left to bring back."
  else
    local files = #lost == 1 and "1 changed file" or ("%d changed files"):format(#lost)
    what = ("%s not brought back (:AcpBringBack) would be lost"):format(files)
    if #lost <= NAMED_LOST then
      what = what .. ": " .. table.concat(vim.tbl_map(shown, lost), ", ")
    end
    what = what .. "."
  end
  return ("Discard the worktree of %s? %s Your own files and repository are not touched."):format(
    named(session_id),
    what
  )
end

local function failed(err)
  local why = err.message or vim.inspect(err)
  store.report(("acp-editor: discarding the worktree failed: %s"):format(why), vim.log.levels.ERROR)
end

--- The worktree is gone: the mirror no longer names it, the switcher marks the session.
local function gone(session_id, result)
  local snap = store.sessions[session_id]
  if snap then
    M.discarded[session_id] = true
    snap.worktree = nil -- the sidecar's snapshot no longer names it
    store.emit("session", session_id, {})
  end
  local lost = result.lost or {}
  local note = #lost == 0 and ""
    or (#lost == 1 and " (1 changed file lost)" or (" (%d changed files lost)"):format(#lost))
  store.report(("acp-editor: the worktree of %s is discarded%s"):format(named(session_id), note))
end

--- acp/discardWorktree after asking, keeping it first: what the session changed there and was
--- not brought back is lost, and the question says how many files (a dry run first). The
--- session itself stays open (its prompts are refused).
---@param session_id string
---@param callback? fun(err: table?, result: table?)
function M.discard(session_id, callback)
  callback = callback or function() end
  local method = protocol.method.DISCARD_WORKTREE
  client.request(method, { sessionId = session_id, dryRun = true }, function(dry_err, dry)
    if dry_err or not dry then
      failed(dry_err or { message = "no answer" })
      return callback(dry_err, dry)
    end
    local question = M.question(session_id, type(dry.lost) == "table" and dry.lost or {})
    local opts = { prompt = question, kind = "acp_editor.discard_worktree" }
    local select = store.config.ui_select or vim.ui.select
    select({ M.KEEP, M.DISCARD }, opts, function(choice)
      if choice ~= M.DISCARD then
        return callback(nil, { sessionId = session_id, discarded = false, lost = {} })
      end
      client.request(method, { sessionId = session_id }, function(err, result)
        if err then
          failed(err)
        elseif result and result.discarded then
          gone(session_id, result)
        end
        callback(err, result)
      end)
    end)
  end)
end

--- The sidecar stopped: its sessions went with it.
function M.reset()
  M.discarded = {}
end

return M
