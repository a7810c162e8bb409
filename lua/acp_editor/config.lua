-- Options: defaults, validation, and the one resolved table every module reads.
--
-- Validation fails early with a message naming the bad field (`agents.claude.cmd: expected
-- table, got string`), because a typo in a plugin spec otherwise surfaces much later as an
-- obscure error from the server process.

---@class acp_editor.AgentSpec
---@field cmd string[] the agent's command line (`{ "npx", "@agentclientprotocol/claude-agent-acp" }`)
---@field env? table<string, string> extra environment for the agent (passed through the sidecar)
---@field mode? string the session mode new sessions start in
---@field protocol_version? integer 2 offers the ACP v2 draft (for agents that speak it); default 1

---@class acp_editor.AutoApproveRule
---@field kind string the tool call's kind (`read`, `edit`, `execute`, ...) or `*` for any
---@field option string the permission option kind to choose (`allow_once`, `reject_once`, ...)

---@class acp_editor.ChatOptions
---@field position "right"|"left"|"bottom"|"tab"
---@field width integer columns of a side chat
---@field height integer lines of a bottom chat
---@field prompt_height integer lines of the prompt area under the transcript

---@class acp_editor.FollowOptions
---@field enabled boolean start with follow-along on
--- follow every live session's agent, not only the session in front's (a background session's
--- mark then names its agent and session)
---@field all_sessions boolean

---@class acp_editor.Notices
--- a vim.notify when a turn of yours ends: "hidden" while the chat is not shown in the current
--- tab (or Neovim lost the focus), "always", or false
---@field turn_end "hidden"|"always"|false

---@class acp_editor.Keymaps
---@field chat table<string, string|false> keys in the chat transcript and prompt buffers
---@field preview table<string, string|false> keys in buffers that show agent edits inline
---@field prompt table<string, string|false> keys in the chat's prompt buffer (attachments, history)

---@class acp_editor.Config
--- how to run the sidecar (default: the private one :AcpInstall built, else `acp-editor` on PATH)
---@field server_cmd string[]
---@field server_cmd_default? boolean server_cmd was not set by the user
---@field server_args string[] extra sidecar arguments, before `--` (e.g. `--log-file`)
---@field agents table<string, acp_editor.AgentSpec>
---@field editor_context boolean give sessions the `editor` MCP server (buffers, diagnostics, review)
---@field mcp_servers table[] your own MCP servers for every session (`{ name, command, args, env }`)
---@field default_agent? string a key of `agents`; nil: the sidecar's own default preset
---@field registry_agent? string an ACP registry agent id, run when no key of `agents` is chosen (:AcpAgents picks one)
---@field autostart boolean start the sidecar in setup() (default: on the first command or prompt)
---@field root_dir? string|fun(): string the workspace root (default: git root or cwd)
--- follow-along: `true`/`false` (on or off from the start) or `{ enabled, all_sessions }`;
--- resolved to the table
---@field follow acp_editor.FollowOptions
---@field follow_mark boolean mark the agent's cursor with a sign and a virtual-text tag
---@field review? "after-write"|"before-write"|"off" nil: the sidecar's `--review`
---@field saves_after_apply boolean Neovim saves the buffers the server edits (else the server writes the file)
---@field auto_approve acp_editor.AutoApproveRule[] answered without asking (off by default)
--- how questions are shown: a window that does not take the keyboard, a picker plugin's
--- vim.ui.select ("auto": the picker when a plugin replaced vim.ui.select, else the window), or
--- the chat only
---@field permission_ui "auto"|"window"|"select"|"chat"
---@field dismiss "reject"|"keep" what closing a picker plugin's vim.ui.select without a choice means
---@field chat acp_editor.ChatOptions
---@field notices acp_editor.Notices
---@field keymaps acp_editor.Keymaps
---@field schedule fun(fn: function) injected for tests (default vim.schedule)
---@field notify fun(msg: string, level?: integer) injected for tests (default vim.notify)
--- nil: vim.ui.select, looked up at each call, so a picker plugin that replaces it later wins
---@field ui_select? fun(items: any[], opts: table, on_choice: fun(item: any?, idx: integer?))
--- injected for the health check (default vim.system)
---@field system fun(cmd: string[], opts: table, on_exit?: function): vim.SystemObj

local M = {}

---@return acp_editor.Config
function M.defaults()
  return {
    server_cmd = require("acp_editor.sidecar.install").default_server_cmd(),
    server_args = {},
    agents = {},
    default_agent = nil,
    autostart = false,
    root_dir = nil,
    follow = { enabled = true, all_sessions = false },
    follow_mark = true,
    review = nil,
    saves_after_apply = false,
    auto_approve = {},
    editor_context = true,
    mcp_servers = {},
    permission_ui = "auto",
    dismiss = "reject",
    chat = { position = "right", width = 64, height = 16, prompt_height = 5 },
    notices = { turn_end = "hidden" },
    keymaps = {
      chat = {
        send = "<CR>", -- normal mode, prompt buffer
        send_insert = "<C-s>", -- insert mode, prompt buffer
        cancel = "<C-c>", -- normal and insert mode
        allow = "a", -- transcript: answer the oldest pending permission
        allow_always = "A",
        reject = "r",
        reject_always = "R",
        choose = "p", -- transcript: open the picker for it
        yank_code = "gy", -- transcript: yank the code block under the cursor
        edit_prompt = "e", -- transcript: your prompt under the cursor to the prompt area (to change or send again)
        remove_prompt = "x", -- transcript: the waiting prompt under the cursor will not go
        cancel_subagent = "X", -- transcript: the subagent under the cursor stops (the turn goes on)
        close = "q",
        help = "?", -- the chat's keys, in a float
      },
      preview = {
        accept = "<leader>aa",
        reject = "<leader>ar",
        accept_file = "<leader>aA",
        reject_file = "<leader>aR",
        diff = "<leader>ad",
        next = "<leader>an", -- not ]a / [a: Neovim 0.11 maps those (the argument list)
        prev = "<leader>ap",
      },
      prompt = {
        attach = "<C-t>", -- normal and insert mode: attach a buffer, file, URL, diagnostics, image (or remove one)
        history_prev = "<Up>", -- on the prompt's first line: the previous prompt of this workspace
        history_next = "<Down>", -- on its last line: the next one, then back to what you were typing
      },
    },
    schedule = vim.schedule,
    notify = vim.notify,
    ui_select = nil,
    system = vim.system,
  }
end

local function fail(path, message)
  error(("acp_editor.setup: %s: %s"):format(path, message), 0)
end

--- vim.validate with the full option path in the message, re-raised as a setup error.
local function check(path, value, expected, optional)
  local ok, err = pcall(vim.validate, path, value, expected, optional)
  if not ok then
    error("acp_editor.setup: " .. tostring(err), 0)
  end
end

local function check_list_of_strings(path, value, non_empty)
  check(path, value, "table")
  if non_empty and #value == 0 then
    fail(path, "expected a non-empty list of strings")
  end
  for i, item in ipairs(value) do
    check(("%s[%d]"):format(path, i), item, "string")
  end
end

local function one_of(path, value, choices, optional)
  if value == nil and optional then
    return
  end
  if not vim.tbl_contains(choices, value) then
    fail(path, ("expected one of %s, got %s"):format(table.concat(choices, ", "), vim.inspect(value)))
  end
end

--- Reject unknown keys: a misspelt option would otherwise be silently ignored.
local function known_keys(path, value, defaults)
  for key in pairs(value) do
    if defaults[key] == nil and not M.optional_keys[key] then
      fail(path == "" and key or (path .. "." .. key), "unknown option")
    end
  end
end

M.optional_keys = { default_agent = true, registry_agent = true, root_dir = true, review = true, ui_select = true }

---@param cfg acp_editor.Config
local function validate(cfg)
  check("server_cmd", cfg.server_cmd, "table")
  check_list_of_strings("server_cmd", cfg.server_cmd, true)
  check_list_of_strings("server_args", cfg.server_args)
  check("agents", cfg.agents, "table")
  for name, spec in pairs(cfg.agents) do
    local path = "agents." .. tostring(name)
    check(path, spec, "table")
    known_keys(path, spec, { cmd = true, env = true, mode = true, protocol_version = true })
    check_list_of_strings(path .. ".cmd", spec.cmd, true)
    check(path .. ".mode", spec.mode, "string", true)
    one_of(path .. ".protocol_version", spec.protocol_version, { 1, 2 }, true)
    check(path .. ".env", spec.env, "table", true)
    for key, val in pairs(spec.env or {}) do
      check(("%s.env.%s"):format(path, key), val, "string")
    end
  end
  check("editor_context", cfg.editor_context, "boolean")
  check("mcp_servers", cfg.mcp_servers, "table")
  for i, server in ipairs(cfg.mcp_servers) do
    check(("mcp_servers[%d]"):format(i), server, "table")
    check(("mcp_servers[%d].name"):format(i), server.name, "string")
  end
  check("default_agent", cfg.default_agent, "string", true)
  check("registry_agent", cfg.registry_agent, "string", true)
  if cfg.default_agent and not cfg.agents[cfg.default_agent] then
    fail("default_agent", ("%q is not a key of agents"):format(cfg.default_agent))
  end
  for _, name in ipairs({ "autostart", "follow_mark", "saves_after_apply" }) do
    check(name, cfg[name], "boolean")
  end
  check("follow", cfg.follow, "table")
  for _, name in ipairs({ "enabled", "all_sessions" }) do
    check("follow." .. name, cfg.follow[name], "boolean")
  end
  check("root_dir", cfg.root_dir, { "string", "function" }, true)
  one_of("review", cfg.review, require("acp_editor.protocol").review_modes, true)
  one_of("dismiss", cfg.dismiss, { "reject", "keep" })
  one_of("permission_ui", cfg.permission_ui, { "auto", "window", "select", "chat" })
  check("auto_approve", cfg.auto_approve, "table")
  local kinds = require("acp_editor.protocol").permission_kinds
  for i, rule in ipairs(cfg.auto_approve) do
    local path = ("auto_approve[%d]"):format(i)
    check(path, rule, "table")
    check(path .. ".kind", rule.kind, "string")
    check(path .. ".option", rule.option, "string")
    if not vim.tbl_contains(kinds, rule.option) and not rule.option:match("^_") then
      fail(path .. ".option", ("expected one of %s, got %q"):format(table.concat(kinds, ", "), rule.option))
    end
  end
  check("chat", cfg.chat, "table")
  one_of("chat.position", cfg.chat.position, { "right", "left", "bottom", "tab" })
  for _, name in ipairs({ "width", "height", "prompt_height" }) do
    check("chat." .. name, cfg.chat[name], "number")
  end
  check("notices", cfg.notices, "table")
  local turn_end = cfg.notices.turn_end
  if turn_end ~= "hidden" and turn_end ~= "always" and turn_end ~= false then
    fail("notices.turn_end", ('expected "hidden", "always" or false, got %s'):format(vim.inspect(turn_end)))
  end
  check("keymaps", cfg.keymaps, "table")
  for group, maps in pairs(cfg.keymaps) do
    check("keymaps." .. group, maps, "table")
    for action, lhs in pairs(maps) do
      if lhs ~= false then
        check(("keymaps.%s.%s"):format(group, action), lhs, "string")
      end
    end
  end
  for _, name in ipairs({ "schedule", "notify", "system" }) do
    check(name, cfg[name], "function")
  end
  check("ui_select", cfg.ui_select, "function", true)
end

--- Merge the user's options over the defaults and validate the result.
---@param opts? table
---@return acp_editor.Config
function M.resolve(opts)
  opts = opts or {}
  check("opts", opts, "table")
  if type(opts.follow) == "boolean" then -- `follow = false`: the short form of { enabled = false }
    opts = vim.tbl_extend("force", opts, { follow = { enabled = opts.follow } })
  elseif opts.follow ~= nil and type(opts.follow) ~= "table" then
    fail("follow", ("expected boolean or table, got %s"):format(type(opts.follow)))
  end
  local defaults = M.defaults()
  known_keys("", opts, defaults)
  for _, group in ipairs({ "chat", "notices", "keymaps", "follow" }) do
    if type(opts[group]) == "table" then -- the inner keys too: `chat.widht` is a typo
      known_keys(group, opts[group], defaults[group])
    end
  end
  if type(opts.keymaps) == "table" then
    for group, maps in pairs(opts.keymaps) do
      if type(maps) == "table" then
        known_keys("keymaps." .. group, maps, defaults.keymaps[group])
      end
    end
  end
  -- Lists are replaced, not merged index by index (vim.tbl_deep_extend would splice them).
  local cfg = vim.tbl_deep_extend("force", defaults, opts)
  for _, list in ipairs({ "server_cmd", "server_args", "auto_approve", "mcp_servers" }) do
    if opts[list] ~= nil then
      cfg[list] = opts[list]
    end
  end
  validate(cfg)
  cfg.server_cmd_default = opts.server_cmd == nil
  return cfg
end

return M
