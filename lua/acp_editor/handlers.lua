-- The `handlers` table given to vim.lsp.start: one entry per server→editor message of
-- docs/protocol.md, each handing the message to the module that owns it.
--
-- Notification handlers run on the main loop (Neovim schedules them). Request handlers run in
-- the coroutine Neovim gives each server request; permission and auth handlers suspend in it
-- until the user answers (see acp_editor.asyncreq). A handler that raises would make Neovim
-- answer the server with an error and show it; `guard` turns that into one clear message and,
-- for requests, a proper JSON-RPC error.

local follow = require("acp_editor.follow")
local permissions = require("acp_editor.permissions")
local protocol = require("acp_editor.protocol")
local review = require("acp_editor.review")
local sessions = require("acp_editor.sessions")
local state = require("acp_editor.state")
local terminals = require("acp_editor.terminals")

local M = {}
local method = protocol.method

local function guard(name, fn, is_request)
  return function(err, params, ctx)
    local results = { pcall(fn, err, params or {}, ctx) }
    if results[1] then
      return unpack(results, 2)
    end
    state.report(("acp-editor: handling %s failed: %s"):format(name, results[2]), vim.log.levels.ERROR)
    if is_request then
      return nil, { code = protocol.errors.INTERNAL, message = tostring(results[2]) }
    end
  end
end

--- After workspace/applyEdit, write the buffers it changed (only with saves_after_apply: the
--- server then leaves the disk to us).
local function apply_edit_and_save(err, params, ctx)
  local default = vim.lsp.handlers["workspace/applyEdit"]
  local result, rerr = default(err, params, ctx)
  if result and result.applied and params and params.edit then
    local uris = vim.tbl_keys(params.edit.changes or {})
    for _, change in ipairs(params.edit.documentChanges or {}) do
      if change.textDocument then
        table.insert(uris, change.textDocument.uri)
      end
    end
    for _, uri in ipairs(uris) do
      local buf = vim.uri_to_bufnr(uri)
      if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].modified then
        vim.api.nvim_buf_call(buf, function()
          vim.cmd("silent noautocmd update")
        end)
      end
    end
  end
  return result, rerr
end

---@param cfg acp_editor.Config
---@return table<string, function>
function M.build(cfg)
  local h = {
    [method.SESSION_CHANGED] = guard("acp/sessionChanged", sessions.on_changed),
    [method.AGENT_STATUS] = guard("acp/agentStatus", sessions.on_agent_status),
    [method.FOLLOW] = guard("acp/follow", follow.on_follow),
    [method.DIFF] = guard("acp/diff", review.on_diff),
    [method.TERMINAL_OUTPUT] = guard("acp/terminalOutput", terminals.on_output),
    [method.TERMINAL_EXIT] = guard("acp/terminalExit", terminals.on_exit),
    [method.REVIEW_CHANGED] = guard("acp/reviewChanged", review.on_changed),
    [method.REQUEST_PERMISSION] = guard("acp/requestPermission", permissions.handle, true),
    [method.CHOOSE_AUTH_METHOD] = guard("acp/chooseAuthMethod", permissions.choose_auth, true),
    [protocol.CANCEL_REQUEST] = guard("$/cancelRequest", permissions.cancel_request),
  }
  if cfg.saves_after_apply then
    h["workspace/applyEdit"] = apply_edit_and_save
  end
  return h
end

return M
