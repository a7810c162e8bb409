-- What each user command does (plugin/acp_editor.lua only declares them, loading this lazily).
-- Every command works without an explicit setup(): it then runs setup({}) with the defaults.
-- The commands about sessions (switching, new, worktrees, delete, fork) are in
-- acp_editor.session.user_commands, re-exported here.

local store = require("acp_editor.store")

local M = {}

--- Set up with the defaults if setup() was not called, and start the sidecar; false when it
--- cannot start.
local function ensure()
  local acp = require("acp_editor")
  if not acp.configured() then
    acp.setup({})
  end
  return acp.start() ~= nil
end
M.ensure = ensure

local function requests()
  return require("acp_editor.session.requests")
end

local function report_error(what)
  return function(err)
    if err then
      store.report(("acp-editor: %s failed: %s"):format(what, err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
  end
end
M.report_error = report_error

function M.chat()
  if ensure() then
    require("acp_editor.chat").open()
  end
end

--- :[range]AcpPrompt {text}: with a range, the selected lines go along as context.
---@param o vim.api.keyset.create_user_command.command_args
function M.prompt(o)
  if not ensure() then
    return
  end
  local sel = o.range > 0 and { buf = vim.api.nvim_get_current_buf(), first = o.line1, last = o.line2 } or nil
  local function send(text)
    if text and vim.trim(text) ~= "" then
      requests().prompt(require("acp_editor.chat.attachments").prompt(text, sel))
    end
  end
  if o.args ~= "" then
    return send(o.args)
  end
  vim.ui.input({ prompt = "Ask the agent: " }, send)
end

--- :AcpCancel [subagent]: when prompts wait after the turn, asks whether they still go. With a
--- subagent of the session in front (its session id, or its title), stops it alone.
---@param o? vim.api.keyset.create_user_command.command_args
function M.cancel(o)
  if not ensure() then
    return
  end
  local name = o and o.args or ""
  if name == "" then
    return require("acp_editor.chat.queue").cancel(report_error("cancel"))
  end
  local subagents = require("acp_editor.session.subagents")
  local record = subagents.find(name)
  if not record then
    local ids = table.concat(subagents.ids(), ", ")
    return store.report(
      ("acp-editor: no subagent %s in the session in front (%s)"):format(name, ids ~= "" and ids or "it has none"),
      vim.log.levels.ERROR
    )
  end
  subagents.cancel(record.sessionId)
end

--- :AcpSignIn [agent]: sign in to the agent now (the current session's, or the one named).
---@param o? vim.api.keyset.create_user_command.command_args
function M.sign_in(o)
  if ensure() then
    local live = require("acp_editor.session.live")
    require("acp_editor.questions.sign_in").sign_in(live.agent_param(o and o.args or ""))
  end
end

--- :AcpFollow [on|off|all|front]: on, off (none: toggle); `all` follows every live session,
--- `front` only the session in front (both turn it on).
---@param o vim.api.keyset.create_user_command.command_args
function M.follow(o)
  if not ensure() then
    return
  end
  local arg = o.args
  local choices = { [""] = {}, on = { true }, off = { false }, all = { true, true }, front = { true, false } }
  local chosen = choices[arg]
  if not chosen then
    return store.report("acp-editor: :AcpFollow takes on, off, all, front or nothing (toggle)", vim.log.levels.ERROR)
  end
  require("acp_editor.follow").set(chosen[1], chosen[2])
end

local function modes()
  local snap = store.current()
  if snap and type(snap.modes) == "table" then
    return snap.modes.availableModes or {}
  end
  -- ACP v2 has no modes: they are the values of the config option of category "mode".
  for _, option in ipairs(snap and snap.configOptions or {}) do
    if type(option) == "table" and option.category == "mode" then
      return vim.tbl_map(function(v)
        return { id = v.value, name = v.name, description = v.description }
      end, option.options or {})
    end
  end
  return {}
end

---@param o vim.api.keyset.create_user_command.command_args
function M.mode(o)
  if not ensure() then
    return
  end
  if o.args ~= "" then
    return requests().set_mode(o.args, report_error("setting the mode"))
  end
  local available = modes()
  if #available == 0 then
    return store.report("acp-editor: the agent offers no modes (or no session yet: send a prompt first)")
  end
  vim.ui.select(available, {
    prompt = "Agent mode:",
    kind = "acp_editor.mode",
    format_item = function(m)
      return m.description and ("%s: %s"):format(m.name or m.id, m.description) or (m.name or m.id)
    end,
  }, function(choice)
    if choice then
      requests().set_mode(choice.id, report_error("setting the mode"))
    end
  end)
end

--- :AcpModel [value]: the session's model (the agent's config option of category "model").
---@param o vim.api.keyset.create_user_command.command_args
function M.model(o)
  if ensure() then
    require("acp_editor.session.config_options").model(o.args ~= "" and o.args or nil)
  end
end

--- :AcpConfig [option [value]]: any of the session's config options.
---@param o vim.api.keyset.create_user_command.command_args
function M.config(o)
  if ensure() then
    local name, value = unpack(o.fargs)
    require("acp_editor.session.config_options").config(name, value)
  end
end

--- :AcpAttach: the prompt's attach menu from any buffer (the current one is what it offers
--- first); the chat opens so that what is attached shows above its prompt.
function M.attach()
  if ensure() then
    local prompt = require("acp_editor.chat.prompt")
    require("acp_editor.chat").open()
    prompt.menu()
  end
end

--- :AcpTranscript: the session's live Markdown transcript, read-only.
function M.transcript()
  if ensure() then
    require("acp_editor.chat.transcript").open()
  end
end

function M.complete_mode()
  return vim.tbl_map(function(m)
    return m.id
  end, modes())
end

--- The last checkpointed turn of the current session (its user messages carry `turn`).
local function last_turn()
  local snap = store.current()
  local last = nil
  for _, e in ipairs(snap and snap.entries or {}) do
    if e.kind == "message" and e.role == "user" and type(e.turn) == "number" then
      last = e.turn
    end
  end
  return last
end

--- :AcpUndo [turn]: put every file back as before that turn (default: the last), after asking.
--- A current session whose transcript shows no checkpointed turn (after a restart of the
--- sidecar: a new one, or none yet) is not named: the server then undoes a turn of the session
--- of the workspace's last turn, which may be the run before's (its checkpoints outlive it).
---@param o vim.api.keyset.create_user_command.command_args
function M.undo(o)
  if not ensure() then
    return
  end
  local shown = last_turn()
  local turn = o.args ~= "" and tonumber(o.args) or shown
  local what = turn and ("turn %d"):format(turn) or "the last turn"
  local keep, undo = "Keep the files as they are", "Undo " .. what
  vim.ui.select({ keep, undo }, {
    prompt = ("Undo %s? Its files go back to how they were before it (unsaved edits are kept):"):format(what),
    kind = "acp_editor.undo",
  }, function(choice)
    if choice ~= undo then
      return
    end
    local params = { turn = turn, sessionId = shown and store.current_session or nil }
    local method = require("acp_editor.protocol").method.RESTORE_CHECKPOINT
    require("acp_editor.sidecar.client").request(method, params, function(err, result)
      if err then
        return report_error("undoing the turn")(err)
      end
      local count = result and result.restored and #result.restored or 0
      local number = result and result.turn or turn
      local message = ("acp-editor: turn %s undone, %d file(s) restored"):format(number, count)
      local shared = result and type(result.shared) == "table" and result.shared or {}
      if #shared > 0 then
        local names = vim.tbl_map(function(path)
          return vim.fn.fnamemodify(path, ":~:.")
        end, shared)
        message = ("%s; another session changed %s too (put back all the same)"):format(
          message,
          table.concat(names, ", ")
        )
      end
      store.report(message, #shared > 0 and vim.log.levels.WARN or vim.log.levels.INFO)
    end)
  end)
end

--- :AcpReview: pending hunks in the quickfix list; :AcpReview accept|reject decides all of them
--- (every pending hunk and group).
---@param o vim.api.keyset.create_user_command.command_args
function M.review(o)
  if not ensure() then
    return
  end
  local review = require("acp_editor.review")
  if o.args == "accept" or o.args == "reject" then
    return review.decide(o.args, { all = true })
  elseif o.args ~= "" then
    return store.report("acp-editor: :AcpReview takes accept, reject or nothing", vim.log.levels.ERROR)
  end
  review.to_quickfix(true)
end

--- :AcpReviewGroups: choose a pending group of a bulk change, then accept, reject or list it.
function M.review_groups()
  if ensure() then
    require("acp_editor.review.groups").pick()
  end
end

--- :AcpLogout: after asking (staying logged in first).
function M.logout()
  if not ensure() then
    return
  elseif not requests().can_logout() then
    return store.report("acp-editor: this agent cannot log out", vim.log.levels.WARN)
  end
  local stay, out = "Stay logged in", "Log out"
  vim.ui.select({ stay, out }, {
    prompt = "Log out of the agent? New sessions will need you to log in again.",
    kind = "acp_editor.logout",
  }, function(choice)
    if choice == out then
      require("acp_editor.sidecar.client").request(require("acp_editor.protocol").method.LOGOUT, {}, function(err)
        if err then
          return report_error("logging out")(err)
        end
        store.report("acp-editor: logged out")
      end)
    end
  end)
end

function M.answer()
  if ensure() then
    require("acp_editor.questions.elicit").answer()
  end
end

function M.permission()
  if ensure() then
    require("acp_editor.chat").choose()
  end
end

---@param o vim.api.keyset.create_user_command.command_args
function M.terminal(o)
  if ensure() then
    require("acp_editor.terminals").open(o.args)
  end
end

function M.diff()
  if ensure() then
    require("acp_editor.review.keymaps").diff()
  end
end

---@param o vim.api.keyset.create_user_command.command_args
function M.start(o)
  local acp = require("acp_editor")
  if not acp.configured() then
    acp.setup({ autostart = false })
  end
  acp.start(o.args ~= "" and o.args or nil)
end

function M.stop()
  require("acp_editor").stop()
end

--- :AcpAgents: pick an agent of the ACP registry (listed by the sidecar) and restart with it.
function M.agents()
  local acp = require("acp_editor")
  if not acp.configured() then
    acp.setup({})
  end
  local cfg = store.config
  local cmd = vim.list_extend(vim.list_extend({}, cfg.server_cmd), { "agents", "--json" })
  vim.notify("acp-editor: reading the ACP registry...", vim.log.levels.INFO)
  cfg.system(cmd, { text = true }, function(result)
    vim.schedule(function()
      local ok, listing = pcall(vim.json.decode, result.stdout or "")
      if result.code ~= 0 or not ok or type(listing) ~= "table" then
        local why = vim.trim(result.stderr or "")
        return store.report("acp-editor: the registry could not be read: " .. why, vim.log.levels.ERROR)
      end
      if listing.stale ~= vim.NIL and listing.stale then
        store.report("acp-editor: " .. listing.stale, vim.log.levels.WARN)
      end
      vim.ui.select(listing.agents or {}, {
        prompt = "Agent from the ACP registry:",
        kind = "acp_editor.registry",
        format_item = function(a)
          return ("%s %s (%s) — %s"):format(a.name, a.version, a.runs, a.description)
        end,
      }, function(choice)
        if not choice then
          return
        end
        cfg.registry_agent, cfg.default_agent = choice.id, nil
        acp.stop()
        acp.start()
        store.report(("acp-editor: now running %s from the ACP registry"):format(choice.name))
      end)
    end)
  end)
end

--- :AcpInstall [python]: build the private sidecar (what lazy.nvim's build step does).
---@param o vim.api.keyset.create_user_command.command_args
function M.install(o)
  local install = require("acp_editor.sidecar.install")
  vim.notify("acp-editor: building the sidecar's environment (this takes a minute)...", vim.log.levels.INFO)
  local ok, message = install.run({ python = o.args ~= "" and o.args or nil })
  vim.notify("acp-editor: " .. message, ok and vim.log.levels.INFO or vim.log.levels.ERROR)
  if ok then
    if store.config and store.config.server_cmd_default then
      store.config.server_cmd = install.default_server_cmd() -- the next start uses it
    end
  end
end

for name, fn in pairs(require("acp_editor.session.user_commands")) do
  M[name] = fn
end

return M
