-- acp-editor for Neovim: watch and steer an ACP coding agent, through the acp-editor sidecar.
--
-- This module only wires: it resolves the options, connects the views to the store, and starts
-- the sidecar with Neovim's built-in LSP client. The rest lives in folders by room: sidecar/ (the
-- link to the sidecar), session/ (session mirrors and the requests that drive them), chat/,
-- review/ (the agent's changes in your buffers), questions/ (permission, sign-in and form
-- questions); and beside them follow, terminals, editor_context and disk_sync. See :help acp_editor.

local store = require("acp_editor.store")

local M = {}

local subscribed = false

local function highlights()
  local links = {
    AcpEditorHeader = "Title",
    AcpEditorUser = "Function",
    AcpEditorAgent = "Identifier",
    AcpEditorThought = "Comment",
    AcpEditorToolCall = "Special",
    AcpEditorPlan = "Title",
    AcpEditorPermission = "WarningMsg",
    AcpEditorUnknown = "NonText",
    AcpEditorHint = "Comment",
    AcpEditorAgentCursor = "Search",
    AcpEditorAdded = "DiffAdd",
    AcpEditorRemoved = "DiffDelete",
    AcpEditorAddedVirt = "DiffAdd",
    AcpEditorRemovedVirt = "DiffDelete",
    AcpEditorStatus_pending = "Comment",
    AcpEditorStatus_in_progress = "DiagnosticWarn",
    AcpEditorStatus_completed = "DiagnosticOk",
    AcpEditorStatus_failed = "DiagnosticError",
    AcpEditorStatus_cancelled = "DiagnosticHint",
    AcpEditorStatus_custom = "DiagnosticInfo",
    AcpEditorNotice_info = "DiagnosticInfo",
    AcpEditorNotice_warning = "DiagnosticWarn",
    AcpEditorNotice_error = "DiagnosticError",
    AcpEditorNoticeText = "Normal",
    AcpEditorCompaction = "Comment",
    AcpEditorSession = "Special",
  }
  for group, link in pairs(links) do
    vim.api.nvim_set_hl(0, group, { link = link, default = true })
  end
end

--- Connect the views to the store, once.
local function subscribe()
  if subscribed then
    return
  end
  subscribed = true
  local permissions = require("acp_editor.questions.permissions")
  local preview = require("acp_editor.review.preview")
  local review = require("acp_editor.review")
  require("acp_editor.chat").subscribe()
  require("acp_editor.statusline").subscribe()
  require("acp_editor.notices").subscribe()
  store.on("session", function(sid)
    permissions.sweep(sid)
    review.prune(sid)
  end)
  store.on("current", permissions.on_switch)
  store.on("current", function()
    require("acp_editor.follow").redraw() -- a mark in the background says whose it is
  end)
  -- Hunks name their session's agent, and the session while several are live.
  store.on("current", function()
    store.config.schedule(preview.render_all) -- after the switch itself, which stays instant
  end)
  store.on("agent", function()
    local live = require("acp_editor.session.live")
    if live.agents == nil and store.agent and store.agent.state == "ready" then
      live.agents = {} -- asked once (:AcpNewSession's completion asks again)
      live.fetch_agents()
    end
  end)
  store.on("review", preview.render_all)
  store.on("review", review.refresh_quickfix)
  store.on("stopped", function()
    permissions.reset()
    require("acp_editor.questions.elicit").reset()
    require("acp_editor.questions.sign_in").reset()
    review.reset()
    preview.reset()
    require("acp_editor.follow").clear()
    require("acp_editor.session.live").reset()
    require("acp_editor.session.worktrees").reset()
  end)
  -- A buffer opened after the previews were drawn gets its own.
  vim.api.nvim_create_autocmd("BufWinEnter", {
    group = vim.api.nvim_create_augroup("acp_editor_preview", { clear = true }),
    callback = function(ev)
      if vim.bo[ev.buf].buftype == "" then
        preview.render(ev.buf)
      end
    end,
  })
end

--- Configure the plugin. The sidecar starts with the first command or prompt (or here, with
--- `autostart = true`), never just because Neovim started.
---@param opts? table see :help acp_editor-options
function M.setup(opts)
  store.config = require("acp_editor.config").resolve(opts)
  store.follow = store.config.follow.enabled
  store.follow_all = store.config.follow.all_sessions
  highlights()
  subscribe()
  if store.config.autostart then
    M.start()
  end
end

--- Whether setup() ran; commands call setup({}) themselves when it did not.
---@return boolean
function M.configured()
  return store.config ~= nil
end

--- Start the sidecar (no-op when running).
---@param agent_name? string a key of `agents` (default: `default_agent`)
---@return integer? client_id
function M.start(agent_name)
  if not store.config then
    M.setup({ autostart = false })
  end
  local client = require("acp_editor.sidecar.client")
  local running = store.client_id
  local id, err = client.start(store.config, require("acp_editor.sidecar.handlers").build(store.config), agent_name)
  if not id then
    store.report("acp-editor: " .. err, vim.log.levels.ERROR)
  elseif id ~= running then
    require("acp_editor.follow").started()
  end
  return id
end

--- Stop the sidecar (and the agent with it).
---@param timeout_ms? integer
---@return boolean stopped
function M.stop(timeout_ms)
  return require("acp_editor.sidecar.client").stop(timeout_ms)
end

--- Send a prompt (text or ACP content blocks); `callback(err, {sessionId, stopReason})` when
--- the turn ends. `session_id` defaults to the current session.
---@param prompt string|table[]
---@param callback? fun(err: table?, result: table?)
---@param session_id? string
---@return integer? request_id
function M.prompt(prompt, callback, session_id)
  M.start()
  return require("acp_editor.session.requests").prompt(prompt, callback, session_id)
end

--- The agent in a few words for a statusline: `acp: working · ask · Demo fast · 12.3k/200k (6%)`,
--- "" while the sidecar does not run. Cheap enough for every redraw (see :help acp_editor-statusline).
---@return string
function M.statusline()
  return require("acp_editor.statusline").statusline()
end

--- The same as a table (state, label, agent, mode, model, tokens, cost), nil while not running.
---@return acp_editor.Status?
function M.status()
  return require("acp_editor.statusline").status()
end

--- The plugin's state, read-only by convention (for statuslines and tests).
---@return acp_editor.Store
function M.state()
  return store
end

return M
