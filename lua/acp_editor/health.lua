-- :checkhealth acp_editor
--
-- Checks what a first run needs, in the order it fails: Neovim's version, the sidecar on PATH
-- (and that its Python entry point actually runs), the agent commands, and, when the sidecar
-- is running, that it initialized and what state the agent is in.

local M = {}

local health = vim.health

local function config()
  local store = require("acp_editor.store")
  if store.config then
    return store.config, true
  end
  return require("acp_editor.config").resolve({ autostart = false }), false
end

local function check_version()
  if vim.fn.has("nvim-0.11") == 1 then
    local v = vim.version()
    health.ok(("Neovim %d.%d.%d"):format(v.major, v.minor, v.patch))
  else
    health.error("Neovim 0.11 or newer is needed (vim.lsp.start with the 0.11 client API)")
  end
end

---@param cfg acp_editor.Config
local function check_sidecar(cfg)
  local install = require("acp_editor.sidecar.install")
  local exe = cfg.server_cmd[1]
  if vim.fn.executable(exe) ~= 1 then
    local _, no_python = install.find_python()
    health.error(("the sidecar `%s` was not found"):format(exe), {
      "Build the plugin's own sidecar: `:AcpInstall` (lazy.nvim's build step runs it for you)",
      "or point `server_cmd` at an `acp-editor` you installed in setup()",
      no_python,
    })
    return false
  end
  local which = "set by server_cmd"
  if cfg.server_cmd_default then
    which = install.private_sidecar() == exe and "the plugin's own, built by :AcpInstall"
      or "from PATH (:AcpInstall builds the plugin's own)"
  end
  health.ok(("sidecar: %s (%s)"):format(vim.fn.exepath(exe), which))
  local cmd = vim.list_extend(vim.list_extend({}, cfg.server_cmd), { "--version" })
  local ok, result = pcall(function()
    return cfg.system(cmd, { text = true }):wait(15000)
  end)
  if ok and result and result.code == 0 then
    health.ok(("the sidecar runs: %s"):format(vim.trim(result.stdout or "")))
    return true
  end
  local why = tostring(result) -- pcall's error, when vim.system itself failed
  if ok and result then
    why = result.stderr ~= "" and result.stderr or ("exit code " .. tostring(result.code))
  end
  health.error(("`%s --version` failed: %s"):format(table.concat(cfg.server_cmd, " "), vim.trim(why)))
  return false
end

---@param cfg acp_editor.Config
local function check_agents(cfg)
  if vim.tbl_isempty(cfg.agents) then
    health.info("no agents configured: the sidecar uses its default preset (agents.toml) or its demo agent")
    return
  end
  for name, spec in pairs(cfg.agents) do
    local exe = spec.cmd[1]
    local mark = name == cfg.default_agent and " (default)" or ""
    if vim.fn.executable(exe) == 1 then
      health.ok(("agent %s%s: `%s` found"):format(name, mark, exe))
    else
      local report = name == cfg.default_agent and health.error or health.warn
      local advice = { "Install the agent or fix agents." .. name .. ".cmd" }
      report(("agent %s%s: `%s` not found"):format(name, mark, exe), advice)
    end
  end
end

local function check_chat()
  local ok, loaded = pcall(vim.treesitter.language.add, "markdown")
  if ok and loaded then
    health.ok("the chat is Markdown drawn by treesitter (render-markdown.nvim draws it too)")
  else
    health.info("no markdown treesitter parser: the chat is drawn with Vim's Markdown syntax")
  end
end

local function check_running()
  local store = require("acp_editor.store")
  local client = require("acp_editor.sidecar.client").get()
  if not client then
    health.info("the sidecar is not running (it starts with the first :Acp command or prompt)")
    return
  end
  if client.initialized then
    health.ok(("the sidecar is running (LSP client %d) and initialized"):format(client.id))
  else
    health.warn("the sidecar is running but has not finished initializing")
  end
  local agent = store.agent
  local name = require("acp_editor.session.live").agent_name(store.current_session)
  if not agent then
    health.info("no agent status yet")
  elseif agent.state == "ready" then
    local version = (agent.agentInfo or {}).version
    health.ok(("the agent is ready: %s%s"):format(name, version and (" " .. version) or ""))
  elseif agent.state == "failed" then
    health.error("the agent failed: " .. (agent.message or "?"), agent.stderrTail and { agent.stderrTail } or nil)
  else
    health.info(("the agent %s is %s"):format(name, tostring(agent.state)))
  end
  M.check_auth(store)
end

--- Whether each agent says you are signed in (AgentStatus.auth), when it says.
---@param store acp_editor.Store
function M.check_auth(store)
  local ids = vim.tbl_keys(store.agents)
  table.sort(ids)
  for _, id in ipairs(ids) do
    local status = store.agents[id]
    local auth = type(status.auth) == "table" and status.auth or nil
    local info = status.agentInfo or {}
    local name = info.title or info.name or id
    if auth and auth.state == "unauthenticated" then
      health.warn(("%s: not logged in: :AcpSignIn"):format(name), {
        ("Run :AcpSignIn%s and choose how (a terminal way opens a terminal to type in)"):format(
          id == store.agent_id(store.current_session) and "" or (" " .. id)
        ),
      })
    elseif auth and auth.state == "authenticated" then
      local label = type(auth.label) == "string" and (": " .. auth.label) or ""
      health.ok(("%s: signed in%s"):format(name, label))
    elseif auth and auth.state == "not_required" then
      health.ok(("%s: no sign-in needed"):format(name))
    end
  end
end

function M.check()
  health.start("acp-editor")
  check_version()
  local cfg, configured = config()
  if not configured then
    health.info("setup() has not run: checking the default options")
  end
  check_sidecar(cfg)
  check_chat()
  health.start("acp-editor: agents")
  check_agents(cfg)
  health.start("acp-editor: sidecar")
  check_running()
end

return M
