-- The agent's changes to files: review hunks (acp/reviewChanged) and proposed edits (acp/diff).
--
-- The server owns the review state; this keeps the latest view of each hunk (by hunkId) and of
-- each proposed edit (by session, tool call and file), and turns decisions into acp/reviewDecide.
-- A proposed edit is dropped once its tool call ends: by then it is either in the file (and
-- reviewed as hunks) or refused.

local client = require("acp_editor.client")
local protocol = require("acp_editor.protocol")
local session = require("acp_editor.session")
local state = require("acp_editor.state")

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

local M = {
  ---@type table<string, acp_editor.ReviewHunk>
  hunks = {},
  ---@type table<string, table> DiffParams by "session\0toolCall\0uri"
  diffs = {},
}

--- acp/reviewChanged: each hunk carries its whole current view; keep the latest.
function M.on_changed(_, params)
  for _, hunk in ipairs(params.hunks or {}) do
    M.hunks[hunk.hunkId] = hunk
  end
  state.emit("review")
end

--- acp/diff
function M.on_diff(_, params)
  M.diffs[table.concat({ params.sessionId, params.toolCallId, params.uri }, "\0")] = params
  state.emit("review")
end

--- Drop proposed edits whose tool call has ended (listener of the "session" event).
function M.prune(session_id)
  local snap = state.sessions[session_id]
  local dropped = false
  for key, diff in pairs(M.diffs) do
    local call = snap and diff.sessionId == session_id and snap.toolCalls[diff.toolCallId]
    if call and session.is_final(call.status) then
      M.diffs[key] = nil
      dropped = true
    end
  end
  if dropped then
    state.emit("review")
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

--- acp/reviewDecide.
---@param decision "accept"|"reject"
---@param selector {hunkIds?: string[], uri?: string, toolCallId?: string, all?: boolean}
---@param callback? fun(err: table?, result: table?)
function M.decide(decision, selector, callback)
  local params = vim.tbl_extend("force", { decision = decision }, selector)
  client.request(protocol.method.REVIEW_DECIDE, params, function(err, result)
    if err then
      state.report("acp-editor: review failed: " .. (err.message or ""), vim.log.levels.ERROR)
    else
      for _, r in ipairs(result and result.results or {}) do
        if r.error then
          state.report(("acp-editor: hunk %s stays pending: %s"):format(r.hunkId, r.error), vim.log.levels.WARN)
        end
      end
    end
    if callback then
      callback(err, result)
    end
  end)
end

--- Quickfix items: every pending hunk, then every proposed edit not yet written.
function M.quickfix_items()
  local items = {}
  for _, hunk in ipairs(M.pending()) do
    table.insert(items, {
      filename = hunk.path,
      lnum = hunk.range and hunk.range.start.line + 1 or 1,
      col = 1,
      type = "I",
      text = ("%s %s +%d -%d%s"):format(
        hunk.applied and "written, pending review" or "held until accepted",
        hunk.hunkId,
        #hunk.newLines,
        #hunk.oldLines,
        hunk.message and (": " .. hunk.message) or ""
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
        text = ("proposed by %s +%d -%d"):format(diff.toolCallId, #h.newLines, #h.oldLines),
        user_data = { toolCallId = diff.toolCallId },
      })
    end
  end
  return items
end

--- :AcpReview: the pending hunks and proposed edits in the quickfix list, kept current as
--- hunks are decided or added (until another quickfix list replaces it).
function M.to_quickfix(open)
  local items = M.quickfix_items()
  vim.fn.setqflist({}, " ", { title = "acp-editor review", items = items })
  M.qf_id = vim.fn.getqflist({ id = 0 }).id
  if open ~= false then
    if #items == 0 then
      state.report("acp-editor: nothing to review")
    else
      vim.cmd("botright copen")
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
  M.hunks, M.diffs = {}, {}
end

return M
