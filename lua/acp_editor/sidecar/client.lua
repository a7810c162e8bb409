-- The link to the sidecar: Neovim's own LSP client, started with vim.lsp.start.
--
-- No JSON-RPC lives in Lua: requests go through `client:request`, server messages arrive in the
-- `handlers` table (see acp_editor.sidecar.handlers). This module builds the command line and the
-- initializationOptions, keeps every file buffer attached (the server reads unsaved text from
-- them and edits them with workspace/applyEdit, which is what makes agent edits undoable), and
-- wraps requests so callers always get `(err, result)`.

local protocol = require("acp_editor.protocol")
local store = require("acp_editor.store")

local M = {}

M.NAME = "acp-editor"

--- `acp-editor --stdio [server_args] [-- agent cmd]`; without a configured agent the sidecar
--- picks its default preset (or the demo agent).
---@param cfg acp_editor.Config
---@param agent_name? string
---@return string[] cmd
---@return table<string, string>? env
function M.command(cfg, agent_name)
  local cmd = vim.list_extend(vim.list_extend({}, cfg.server_cmd), { "--stdio" })
  vim.list_extend(cmd, cfg.server_args)
  local spec = cfg.agents[agent_name or cfg.default_agent or ""]
  if spec and spec.mode then -- the session mode new sessions start in (who answers questions)
    vim.list_extend(cmd, { "--mode", spec.mode })
  end
  if spec and spec.protocol_version then -- 2: the ACP v2 draft, for agents that speak it
    vim.list_extend(cmd, { "--protocol-version", tostring(spec.protocol_version) })
  end
  if spec then
    table.insert(cmd, "--")
    vim.list_extend(cmd, spec.cmd)
  elseif cfg.registry_agent then -- the sidecar looks it up in the ACP registry
    vim.list_extend(cmd, { "--agent", cfg.registry_agent })
  end
  return cmd, spec and spec.env or nil
end

--- The plugin's other `agents` (all but the one the sidecar runs after `--`), for sessions of
--- several agents at once (`:AcpNewSession {name}`): initializationOptions.acp.agents.
---@param cfg acp_editor.Config
---@param agent_name? string the one started
---@return table? nil when there are none (an empty table would go out as a list)
function M.more_agents(cfg, agent_name)
  local started = agent_name or cfg.default_agent
  local out = nil
  for name, spec in pairs(cfg.agents) do
    if name ~= started then
      out = out or {}
      out[name] = { command = spec.cmd, env = spec.env, mode = spec.mode }
    end
  end
  return out
end

---@param cfg acp_editor.Config
---@param agent_name? string the agent the sidecar runs after `--`
---@return table
function M.init_options(cfg, agent_name)
  local acp = {
    features = vim.deepcopy(protocol.features),
    savesAfterApply = cfg.saves_after_apply,
    follow = cfg.follow.enabled, -- allSessions has no option: acp/setFollow once started
  }
  acp.review = cfg.review
  acp.editorContext = cfg.editor_context
  if #cfg.mcp_servers > 0 then -- an empty table would go out as an object
    acp.mcpServers = cfg.mcp_servers
  end
  acp.agents = M.more_agents(cfg, agent_name)
  return { acp = acp }
end

---@param cfg acp_editor.Config
---@return string
function M.root_dir(cfg)
  if type(cfg.root_dir) == "function" then
    return cfg.root_dir()
  end
  return cfg.root_dir or vim.fs.root(0, { ".git" }) or vim.fn.getcwd()
end

---@return vim.lsp.Client?
function M.get()
  return store.client_id and vim.lsp.get_client_by_id(store.client_id) or nil
end

--- A buffer the server should see: a real file, not a scratch, help or terminal buffer.
---@param buf integer
---@return boolean
function M.attachable(buf)
  return vim.api.nvim_buf_is_loaded(buf)
    and vim.bo[buf].buftype == ""
    and vim.api.nvim_buf_get_name(buf) ~= ""
    and not vim.api.nvim_buf_get_name(buf):match("^%a[%w+.-]*://")
end

---@param buf integer
function M.attach(buf)
  local client = M.get()
  if client and M.attachable(buf) and not client.attached_buffers[buf] then
    vim.lsp.buf_attach_client(buf, client.id)
  end
end

local function attach_all()
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    M.attach(buf)
  end
  local group = vim.api.nvim_create_augroup("acp_editor_attach", { clear = true })
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile", "BufFilePost" }, {
    group = group,
    callback = function(ev)
      M.attach(ev.buf)
    end,
  })
end

--- Start the sidecar (or return the running one).
---@param cfg acp_editor.Config
---@param handlers table<string, function>
---@param agent_name? string
---@return integer? client_id
---@return string? err
function M.start(cfg, handlers, agent_name)
  local running = M.get()
  if running and not running:is_stopped() then
    return running.id
  end
  local cmd, env = M.command(cfg, agent_name)
  if vim.fn.executable(cmd[1]) ~= 1 then
    return nil,
      ("%s is not executable: run :AcpInstall (lazy.nvim's build step does it), or set server_cmd"):format(cmd[1])
  end
  local root = M.root_dir(cfg)
  local id = vim.lsp.start({
    name = M.NAME,
    cmd = cmd,
    cmd_env = env,
    root_dir = root,
    init_options = M.init_options(cfg, agent_name),
    handlers = handlers,
    -- didChange at once, not after Neovim's usual 150 ms: the server reads the buffer right after
    -- its own workspace/applyEdit (to place review hunks), and must see the edit it just made.
    flags = { debounce_text_changes = 0 },
    on_exit = function(code, signal)
      vim.schedule(function()
        store.reset()
        store.emit("stopped", code, signal)
      end)
    end,
  }, {
    attach = false,
    reuse_client = function()
      return false
    end,
  })
  if not id then
    return nil, "vim.lsp.start did not start the sidecar (see :LspLog)"
  end
  store.client_id = id
  attach_all()
  return id
end

--- Send an `acp/...` request; `callback(err, result)` runs on the main loop.
---@param method string
---@param params? table
---@param callback? fun(err: table?, result: any)
---@return integer? request_id
function M.request(method, params, callback)
  local client = M.get()
  callback = callback or function() end
  if not client then
    callback({ code = protocol.errors.AGENT_UNAVAILABLE, message = "acp-editor is not running" })
    return nil
  end
  -- An empty Lua table would be encoded as `[]`; the server wants an object.
  if params == nil or vim.tbl_isempty(params) then
    params = vim.empty_dict()
  end
  local ok, id = client:request(method, params, function(err, result)
    callback(err, result)
  end)
  if not ok then
    callback({ code = protocol.errors.INTERNAL, message = "the request could not be sent" })
    return nil
  end
  return id
end

--- Withdraw a request we sent ($/cancelRequest): for acp/prompt this cancels the turn.
---@param id? integer
function M.cancel_request(id)
  local client = M.get()
  if client and id then
    client:cancel_request(id)
  end
end

---@param timeout_ms? integer
---@return boolean stopped
function M.stop(timeout_ms)
  local client = M.get()
  pcall(vim.api.nvim_del_augroup_by_name, "acp_editor_attach")
  if not client then
    return true
  end
  client:stop()
  return vim.wait(timeout_ms or 3000, function()
    return client:is_stopped()
  end, 20)
end

return M
