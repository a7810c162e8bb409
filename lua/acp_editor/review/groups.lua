-- :AcpReviewGroups: the groups of bulk changes waiting for review (a command that changed many
-- files in one folder: a generator, a package install, a formatter run over a tree).
--
-- A group has no hunks to draw: it is decided as one item, so this lists the pending groups
-- with vim.ui.select, then offers what can be done with the chosen one: accept (every file
-- stays as it is), reject (every file goes back as it was: created ones are removed) or list
-- its files in the quickfix list (acp/reviewGroupFiles, asked only then: a group may hold tens
-- of thousands). The group list itself is acp_editor.review's, from acp/reviewChanged.

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")
local review = require("acp_editor.review")
local store = require("acp_editor.store")

local M = {}

M.ACCEPT, M.REJECT, M.LIST = "Accept", "Reject", "List files"

--- A group as the picker lists it; while several sessions are live, with who made it.
---@param group acp_editor.ReviewGroup
---@return string
function M.describe(group)
  local message = type(group.message) == "string" and group.message or nil
  local text = message and ("%s (%s)"):format(group.title, message) or group.title
  local live = require("acp_editor.session.live")
  if #live.ids() > 1 then
    text = ("%s · by %s"):format(text, review.origin(group))
  end
  return text
end

--- acp/reviewGroupFiles, then the files in a new quickfix list titled after the group.
---@param group acp_editor.ReviewGroup
---@param open? boolean open the quickfix window (default true)
function M.list_files(group, open)
  local params = { groupId = group.groupId }
  client.request(protocol.method.REVIEW_GROUP_FILES, params, function(err, result)
    if err then
      local why = err.message or vim.inspect(err)
      return store.report("acp-editor: listing the files of the group failed: " .. why, vim.log.levels.ERROR)
    end
    local items = {}
    for _, file in ipairs(result and result.files or {}) do
      table.insert(items, { filename = file.path, lnum = 1, col = 1, type = "I", text = file.change })
    end
    vim.fn.setqflist({}, " ", { title = group.title, items = items })
    if open ~= false then
      vim.cmd("botright copen")
    end
  end)
end

--- Accept or reject one group; says so once the server carried it out (a group it could not
--- put back in full stays pending, and acp_editor.review says why).
---@param group acp_editor.ReviewGroup
---@param decision "accept"|"reject"
function M.decide(group, decision)
  review.decide(decision, { groupIds = { group.groupId } }, function(err, result)
    if err then
      return
    end
    for _, r in ipairs(result and result.results or {}) do
      if r.groupId == group.groupId and r.state == decision .. "ed" then
        store.report(("acp-editor: %s %s"):format(group.title, r.state))
      end
    end
  end)
end

--- What to do with the chosen group.
---@param group acp_editor.ReviewGroup
function M.act(group)
  vim.ui.select({ M.ACCEPT, M.REJECT, M.LIST }, {
    prompt = ("%s: accept keeps every file as it is, reject puts every file back as it was"):format(M.describe(group)),
    kind = "acp_editor.review_group_action",
  }, function(choice)
    if choice == M.ACCEPT then
      M.decide(group, "accept")
    elseif choice == M.REJECT then
      M.decide(group, "reject")
    elseif choice == M.LIST then
      M.list_files(group)
    end
  end)
end

--- :AcpReviewGroups
function M.pick()
  local pending = review.pending_groups()
  if #pending == 0 then
    return store.report("acp-editor: no group of files waits for review")
  end
  vim.ui.select(pending, {
    prompt = "Groups of files waiting for review:",
    kind = "acp_editor.review_group",
    format_item = M.describe,
  }, function(group)
    if group then
      M.act(group)
    end
  end)
end

return M
