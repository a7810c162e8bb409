-- The agent's changes to files: review hunks and groups (acp/reviewChanged) and proposed edits
-- (acp/diff).
--
-- The server owns the review state; this keeps the latest view of each hunk (by hunkId), of each
-- group of a bulk change (by groupId: a command that changed many files in one folder, reviewed
-- as one item) and of each proposed edit (by session, tool call and file), and turns decisions
-- into acp/reviewDecide. A group is announced once, when it first shows up pending; choosing
-- what to do with it is :AcpReviewGroups (acp_editor.review.groups).
-- A proposed edit is dropped once its tool call ends: by then it is either in the file (and
-- reviewed as hunks) or refused.

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")
local reducer = require("acp_editor.session.reducer")
local store = require("acp_editor.store")

---@class acp_editor.ReviewHunk
---@field hunkId string
---@field sessionId string
---@field toolCallId? string
---@field uri string
---@field path string
---@field state "pending"|"accepted"|"rejected"
---@field applied boolean
---@field oldLines string[]
---@field newLines string[]
---@field range? {start: {line: integer, character: integer}, ["end"]: {line: integer, character: integer}}
---@field message? string
---@field sessions? string[] every session it may be of, when that is not certain (sessionId among them)
---@field conflictsWith? string[] other sessions' pending hunks whose lines it changed again

---@class acp_editor.ReviewGroup
---@field groupId string
---@field sessionId string
---@field toolCallId? string
---@field uri string the folder that holds its files
---@field path string
---@field title string what a list shows, e.g. "40 new files in generated/"
---@field created integer
---@field deleted integer
---@field changed integer
---@field state "pending"|"accepted"|"rejected"
---@field message? string why the last decision could not be carried out in full
---@field sessions? string[] every session it may be of, when that is not certain

local M = {
  ---@type table<string, acp_editor.ReviewHunk>
  hunks = {},
  ---@type table<string, acp_editor.ReviewGroup>
  groups = {},
  ---@type table<string, true> groups the user was told about. Ids are the sidecar run's own
  --- (a new run counts from g1 again, and a group left pending comes back under a new id), so
  --- this is forgotten with the rest when the sidecar stops.
  announced = {},
  ---@type table<string, table> DiffParams by "session\0toolCall\0uri"
  diffs = {},
}

--- Tell the user, once, about groups that just showed up pending: a notification, never a
--- prompt (the keyboard stays theirs).
---@param groups acp_editor.ReviewGroup[]
local function announce(groups)
  local fresh = {}
  for _, group in ipairs(groups) do
    if group.state == "pending" and not M.announced[group.groupId] then
      M.announced[group.groupId] = true
      table.insert(fresh, group.title)
    end
  end
  if #fresh == 1 then
    store.report(("acp-editor: %s wait for review as one group: :AcpReviewGroups"):format(fresh[1]))
  elseif #fresh > 1 then
    store.report(
      ("acp-editor: %d groups of files wait for review (%s): :AcpReviewGroups"):format(
        #fresh,
        table.concat(fresh, "; ")
      )
    )
  end
end

local ANNOUNCE_AFTER_MS = 500
local timer = nil

--- Announce once review has been quiet a moment: a live look finds a burst while its command
--- still writes, and a notification cannot take back the count it said.
local function announce_soon()
  timer = timer or (vim.uv or vim.loop).new_timer()
  timer:stop()
  timer:start(
    ANNOUNCE_AFTER_MS,
    0,
    vim.schedule_wrap(function()
      local latest = vim.tbl_values(M.groups)
      table.sort(latest, function(a, b)
        return a.groupId < b.groupId
      end)
      announce(latest)
    end)
  )
end

--- acp/reviewChanged: each hunk and group carries its whole current view; keep the latest.
---@param params {hunks?: acp_editor.ReviewHunk[], groups?: acp_editor.ReviewGroup[]}
function M.on_changed(_, params)
  for _, hunk in ipairs(type(params.hunks) == "table" and params.hunks or {}) do
    M.hunks[hunk.hunkId] = hunk
  end
  local groups = type(params.groups) == "table" and params.groups or {}
  for _, group in ipairs(groups) do
    M.groups[group.groupId] = group
  end
  store.emit("review")
  if #groups > 0 then
    announce_soon()
  end
end

--- acp/diff
---@param params table
function M.on_diff(_, params)
  M.diffs[table.concat({ params.sessionId, params.toolCallId, params.uri }, "\0")] = params
  store.emit("review")
  -- A change found on disk a moment after its tool call ended (the file watch tells late) is
  -- no proposal any more: it goes now, not at the next session change, which may never come.
  M.prune(params.sessionId)
end

--- Drop proposed edits whose tool call has ended (listener of the "session" event).
---@param session_id string
function M.prune(session_id)
  local snap = store.sessions[session_id]
  local dropped = false
  for key, diff in pairs(M.diffs) do
    local call = snap and diff.sessionId == session_id and snap.toolCalls[diff.toolCallId]
    if call and reducer.is_final(call.status) then
      M.diffs[key] = nil
      dropped = true
    end
  end
  if dropped then
    store.emit("review")
  end
end

--- Pending hunks, optionally of one file, in file order.
---@param uri? string
---@return acp_editor.ReviewHunk[]
function M.pending(uri)
  local out = {}
  for _, hunk in pairs(M.hunks) do
    if hunk.state == "pending" and (uri == nil or hunk.uri == uri) then
      table.insert(out, hunk)
    end
  end
  table.sort(out, function(a, b)
    if a.path ~= b.path then
      return a.path < b.path
    end
    local la = a.range and a.range.start.line or math.huge
    local lb = b.range and b.range.start.line or math.huge
    return la < lb
  end)
  return out
end

--- Pending groups, by folder.
---@return acp_editor.ReviewGroup[]
function M.pending_groups()
  local out = {}
  for _, group in pairs(M.groups) do
    if group.state == "pending" then
      table.insert(out, group)
    end
  end
  table.sort(out, function(a, b)
    if a.path ~= b.path then
      return a.path < b.path
    end
    return a.groupId < b.groupId
  end)
  return out
end

--- Proposed edits (acp/diff) still open, optionally of one file.
---@param uri? string
---@return table[]
function M.proposed(uri)
  local out = {}
  for _, diff in pairs(M.diffs) do
    if uri == nil or diff.uri == uri then
      table.insert(out, diff)
    end
  end
  return out
end

--- What a decision's result is about, for a message: a hunk, or a group by its title.
---@param r {hunkId?: string, groupId?: string}
local function subject(r)
  if r.groupId then
    local group = M.groups[r.groupId]
    return group and group.title or ("group " .. r.groupId)
  end
  return "hunk " .. tostring(r.hunkId)
end

--- acp/reviewDecide. `all` and `toolCallId` take groups too; `uri` takes hunks only.
---@param decision "accept"|"reject"
---@param selector {hunkIds?: string[], groupIds?: string[], uri?: string, toolCallId?: string, all?: boolean}
---@param callback? fun(err: table?, result: table?)
function M.decide(decision, selector, callback)
  local params = vim.tbl_extend("force", { decision = decision }, selector)
  client.request(protocol.method.REVIEW_DECIDE, params, function(err, result)
    if err then
      store.report("acp-editor: review failed: " .. (err.message or ""), vim.log.levels.ERROR)
    else
      for _, r in ipairs(result and result.results or {}) do
        if type(r.error) == "string" then
          store.report(("acp-editor: %s stays pending: %s"):format(subject(r), r.error), vim.log.levels.WARN)
        end
      end
    end
    if callback then
      callback(err, result)
    end
  end)
end

--- Who made a hunk or group, in words: its session's agent (and the session's title while
--- several are live); for a change of unsure origin (`sessions`), every session it may be of:
--- `Claude Code: fix the test or Codex: add docs (not sure which)`.
---@param item {sessionId?: string, sessions?: string[]}
---@return string
function M.origin(item)
  local live = require("acp_editor.session.live")
  local names, seen = {}, {}
  for _, sid in ipairs(type(item.sessions) == "table" and item.sessions or {}) do
    local name = live.owner(sid)
    if not seen[name] then
      seen[name] = true
      table.insert(names, name)
    end
  end
  if #names < 2 then
    return live.owner(item.sessionId)
  end
  return table.concat(names, " or ") .. " (not sure which)"
end

--- How a pending hunk meets other sessions' pending hunks over the same lines, in words, or
--- nil: it changed theirs again (`conflictsWith`: it must be rejected first, or with them), or
--- another session's hunk changed it again (that one goes first).
---@param hunk acp_editor.ReviewHunk
---@return string?
function M.conflict_note(hunk)
  local live = require("acp_editor.session.live")
  local function owners(hunks)
    local names, seen = {}, {}
    for _, other in ipairs(hunks) do
      local name = live.owner(other.sessionId)
      if not seen[name] then
        seen[name] = true
        table.insert(names, name)
      end
    end
    return table.concat(names, ", ")
  end
  local over = {}
  for _, id in ipairs(type(hunk.conflictsWith) == "table" and hunk.conflictsWith or {}) do
    local other = M.hunks[id]
    if other and other.state == "pending" then
      table.insert(over, other)
    end
  end
  if #over > 0 then
    return ("conflicts with a pending change of %s (to reject that one, reject this one first)"):format(owners(over))
  end
  local under = {}
  for _, other in pairs(M.hunks) do
    if
      other.state == "pending"
      and vim.tbl_contains(type(other.conflictsWith) == "table" and other.conflictsWith or {}, hunk.hunkId)
    then
      table.insert(under, other)
    end
  end
  if #under > 0 then
    return ("changed again by %s, still pending (reject that change before this one)"):format(owners(under))
  end
  return nil
end

--- Quickfix items: every pending hunk, then every proposed edit not yet written, each with
--- who made it (the agent, and the session while several are live).
---@return table[]
function M.quickfix_items()
  local live = require("acp_editor.session.live")
  local items = {}
  for _, hunk in ipairs(M.pending()) do
    local conflict = M.conflict_note(hunk)
    table.insert(items, {
      filename = hunk.path,
      lnum = hunk.range and hunk.range.start.line + 1 or 1,
      col = 1,
      type = "I",
      text = ("[%s] %s %s +%d -%d%s%s"):format(
        M.origin(hunk),
        hunk.applied and "written, pending review" or "held until accepted",
        hunk.hunkId,
        #hunk.newLines,
        #hunk.oldLines,
        hunk.message and (": " .. hunk.message) or "",
        conflict and (" · " .. conflict) or ""
      ),
      user_data = { hunkId = hunk.hunkId },
    })
  end
  for _, diff in ipairs(M.proposed()) do
    for _, h in ipairs(diff.hunks or {}) do
      table.insert(items, {
        filename = diff.path,
        lnum = h.range.start.line + 1,
        col = 1,
        type = "I",
        text = ("[%s] proposed by %s +%d -%d"):format(
          live.owner(diff.sessionId),
          diff.toolCallId,
          #h.newLines,
          #h.oldLines
        ),
        user_data = { toolCallId = diff.toolCallId },
      })
    end
  end
  return items
end

--- "N groups of files wait ...", or nil when none does (groups have no lines to list here).
---@return string?
function M.groups_note()
  local count = #M.pending_groups()
  if count == 0 then
    return nil
  end
  local what = count == 1 and "1 group of files waits" or ("%d groups of files wait"):format(count)
  return what .. " for review as a whole: :AcpReviewGroups"
end

--- :AcpReview: the pending hunks and proposed edits in the quickfix list, kept current as
--- hunks are decided or added (until another quickfix list replaces it). Pending groups are
--- named in a message.
---@param open? boolean false: fill the list only
---@return table[] items
function M.to_quickfix(open)
  local items = M.quickfix_items()
  vim.fn.setqflist({}, " ", { title = "acp-editor review", items = items })
  M.qf_id = vim.fn.getqflist({ id = 0 }).id
  if open ~= false then
    local groups = M.groups_note()
    if #items == 0 then
      store.report("acp-editor: " .. (groups and ("no hunks to review; " .. groups) or "nothing to review"))
    else
      vim.cmd("botright copen")
      if groups then
        store.report("acp-editor: also " .. groups)
      end
    end
  end
  return items
end

--- The review changed: the quickfix list :AcpReview made follows, if it still exists.
function M.refresh_quickfix()
  if not M.qf_id or vim.fn.getqflist({ id = M.qf_id }).id ~= M.qf_id then
    M.qf_id = nil
    return
  end
  local idx = vim.fn.getqflist({ id = M.qf_id, idx = 0 }).idx
  local items = M.quickfix_items()
  vim.fn.setqflist({}, "r", { id = M.qf_id, items = items, idx = math.max(1, math.min(idx, #items)) })
end

function M.reset()
  M.hunks, M.groups, M.announced, M.diffs = {}, {}, {}, {}
end

return M
