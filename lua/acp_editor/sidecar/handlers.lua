-- The `handlers` table given to vim.lsp.start: one entry per server→editor message of
-- docs/protocol.md, each handing the message to the module that owns it.
--
-- Notification handlers run on the main loop (Neovim schedules them). Request handlers run in
-- the coroutine Neovim gives each server request; permission and auth handlers suspend in it
-- until the user answers (see acp_editor.sidecar.asyncreq). A handler that raises would make Neovim
-- answer the server with an error and show it; `guard` turns that into one clear message and,
-- for requests, a proper JSON-RPC error.

local disk_sync = require("acp_editor.disk_sync")
local editor_context = require("acp_editor.editor_context")
local elicit = require("acp_editor.questions.elicit")
local follow = require("acp_editor.follow")
local permissions = require("acp_editor.questions.permissions")
local protocol = require("acp_editor.protocol")
local review = require("acp_editor.review")
local sign_in = require("acp_editor.questions.sign_in")
local store = require("acp_editor.store")
local sync = require("acp_editor.session.sync")
local terminals = require("acp_editor.terminals")

local M = {}
local method = protocol.method

local function guard(name, fn, is_request)
  return function(err, params, ctx)
    local results = { pcall(fn, err, params or {}, ctx) }
    if results[1] then
      return unpack(results, 2)
    end
    store.report(("acp-editor: handling %s failed: %s"):format(name, results[2]), vim.log.levels.ERROR)
    if is_request then
      return nil, { code = protocol.errors.INTERNAL, message = tostring(results[2]) }
    end
  end
end

--- workspace/applyEdit: Neovim's own handler applies it (one undo step per edit); the buffers
--- it changed are then known to hold the agent's change (acp_editor.disk_sync), and with
--- saves_after_apply they are written at once (the server leaves the disk to us then).
---@param cfg acp_editor.Config
local function apply_edit(cfg)
  return function(err, params, ctx)
    local default = vim.lsp.handlers["workspace/applyEdit"]
    local result, rerr = default(err, params, ctx)
    if not (result and result.applied and params and params.edit) then
      return result, rerr
    end
    for _, buf in ipairs(disk_sync.buffers(params.edit)) do
      if vim.api.nvim_buf_is_loaded(buf) then
        if cfg.saves_after_apply and vim.bo[buf].modified then
          vim.api.nvim_buf_call(buf, function()
            vim.cmd("silent noautocmd update!") -- over an agent's own write to disk, too
          end)
        else
          disk_sync.edited(buf)
        end
      end
    end
    return result, rerr
  end
end

---@param cfg acp_editor.Config
---@return table<string, function>
function M.build(cfg)
  local h = {
    [method.SESSION_CHANGED] = guard(method.SESSION_CHANGED, sync.on_changed),
    [method.AGENT_STATUS] = guard(method.AGENT_STATUS, sync.on_agent_status),
    [method.FOLLOW] = guard(method.FOLLOW, follow.on_follow),
    [method.DIFF] = guard(method.DIFF, review.on_diff),
    [method.TERMINAL_OUTPUT] = guard(method.TERMINAL_OUTPUT, terminals.on_output),
    [method.TERMINAL_EXIT] = guard(method.TERMINAL_EXIT, terminals.on_exit),
    [method.REVIEW_CHANGED] = guard(method.REVIEW_CHANGED, review.on_changed),
    [method.REQUEST_PERMISSION] = guard(method.REQUEST_PERMISSION, permissions.handle, true),
    [method.CHOOSE_AUTH_METHOD] = guard(method.CHOOSE_AUTH_METHOD, sign_in.choose, true),
    [method.SIGN_IN_TERMINAL] = guard(method.SIGN_IN_TERMINAL, sign_in.terminal, true),
    [method.ELICIT] = guard(method.ELICIT, elicit.handle, true),
    [method.DIAGNOSTICS] = guard(method.DIAGNOSTICS, editor_context.diagnostics, true),
    [method.SELECTION] = guard(method.SELECTION, editor_context.selection, true),
    [protocol.CANCEL_REQUEST] = guard(protocol.CANCEL_REQUEST, function(err, params, ctx)
      permissions.cancel_request(err, params, ctx)
      elicit.cancel_request(err, params, ctx)
    end),
  }
  h["workspace/applyEdit"] = apply_edit(cfg)
  return h
end

return M
