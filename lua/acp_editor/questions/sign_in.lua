-- Signing in to the agent (docs/protocol.md, "Signing in").
--
-- When the agent needs you to sign in (a prompt or a new session answered "authentication
-- required") or you ask (`:AcpSignIn`, acp/signIn), the sidecar asks which of the agent's ways
-- to use (acp/chooseAuthMethod): a vim.ui.select listing each by name with what choosing it
-- does, the agent signing you in itself or a terminal opening. A terminal way
-- (acp/signInTerminal: claude-agent-acp's "Claude Subscription" login) runs the agent's own
-- command in a `:terminal` split where you type (a code, a name, a browser's answer); the
-- request is answered with its exit code when it ends (null when the terminal is closed first,
-- its buffer or its last window, or the command cannot start), and the sidecar then runs what
-- needed it again, once: the waiting prompt goes on. The agent's word on whether you are
-- signed in (AgentStatus.auth) is in the statusline, the chat's header and :checkhealth.

local asyncreq = require("acp_editor.sidecar.asyncreq")
local protocol = require("acp_editor.protocol")
local store = require("acp_editor.store")

local M = {
  ---@type table<integer, table> terminal buffer → the sign-in running in it (job, params, answered)
  running = {},
}

local function select_fn()
  return store.config.ui_select or vim.ui.select
end

--- What an agent is called: its own title or name (from its status), else its id.
---@param agent? string
---@return string
function M.agent_name(agent)
  local status = agent and store.agents[agent] or store.agent
  local info = status and status.agentInfo or {}
  return info.title or info.name or agent or "the agent"
end

--- One sign-in method as the list shows it: its name, what choosing it does, its description.
---@param method table {id, name, description?, type?}
---@return string
function M.describe(method)
  local what
  if method.type == "terminal" then
    what = "opens a terminal where you sign in"
  elseif method.type == nil or method.type == "agent" then
    what = "the agent signs you in"
  else
    what = tostring(method.type)
  end
  local text = ("%s (%s)"):format(method.name or method.id, what)
  if type(method.description) == "string" and method.description ~= "" then
    text = ("%s: %s"):format(text, method.description)
  end
  return text
end

--- The acp/chooseAuthMethod handler: the methods in a vim.ui.select, answered later.
---@param params table
---@return table? result
---@return table? err
function M.choose(_, params)
  local waiting = asyncreq.current()
  if not waiting then
    return { methodId = vim.NIL }
  end
  store.config.schedule(function()
    select_fn()(params.methods or {}, {
      prompt = ("Sign in to %s with:"):format(M.agent_name(params.agent)),
      kind = "acp_editor.auth",
      format_item = M.describe,
    }, function(choice)
      waiting:resume({ methodId = choice and choice.id or vim.NIL })
    end)
  end)
  return asyncreq.wait()
end

--- Answer a terminal sign-in once (its exit code, or nil: it did not end by itself), and say
--- what happened.
local function finish(run, code, why)
  if run.answered then
    return
  end
  run.answered = true
  M.running[run.buf] = nil
  local what = ("signing in to %s (%s)"):format(run.params.agentName or M.agent_name(run.params.agent), run.params.name)
  if code == 0 then
    store.report(("acp-editor: %s: done (exit code 0)"):format(what))
  elseif code then
    store.report(
      ("acp-editor: %s ended with exit code %d: not signed in (its terminal says why)"):format(what, code),
      vim.log.levels.WARN
    )
  else
    store.report(("acp-editor: %s: %s: not signed in"):format(what, why), vim.log.levels.WARN)
  end
  run.waiting:resume({ exitCode = code or vim.NIL })
end

--- The environment for the job: the method's on top of Neovim's (jobstart merges them).
local function env_of(params)
  local env = {}
  for name, value in pairs(type(params.env) == "table" and params.env or {}) do
    if type(name) == "string" and type(value) == "string" then
      env[name] = value
    end
  end
  return next(env) and env or nil
end

--- Open the terminal split and start the command in it; the run, or nil and why not.
local function start(params, waiting)
  if type(params.command) ~= "table" or #params.command == 0 then
    return nil, "no command to run"
  end
  local cwd = type(params.cwd) == "string" and vim.fn.isdirectory(params.cwd) == 1 and params.cwd or nil
  vim.cmd("botright new")
  local buf, win = vim.api.nvim_get_current_buf(), vim.api.nvim_get_current_win()
  local run = { buf = buf, win = win, params = params, waiting = waiting, answered = false }
  local ok, job = pcall(vim.fn.jobstart, params.command, {
    term = true,
    env = env_of(params),
    cwd = cwd,
    on_exit = function(_, code)
      vim.schedule(function()
        finish(run, code)
      end)
    end,
  })
  if not ok or type(job) ~= "number" or job <= 0 then
    pcall(vim.api.nvim_win_close, win, true)
    pcall(vim.api.nvim_buf_delete, buf, { force = true })
    return nil, ("%s cannot start: %s"):format(params.command[1], ok and tostring(job) or job)
  end
  run.job = job
  M.running[buf] = run
  vim.b[buf].acp_editor_sign_in = params.methodId
  local agent = params.agentName or M.agent_name(params.agent)
  vim.wo[win].winbar = ("%%#AcpEditorHeader#Sign in to %s (%s): type here · closing this window gives up"):format(
    (agent:gsub("%%", "%%%%")),
    (tostring(params.name):gsub("%%", "%%%%"))
  )
  -- Closing the terminal (its buffer, or its last window) before the command ends gives up:
  -- the command stops and the answer is null.
  local function gave_up()
    if not run.answered then
      finish(run, nil, "the terminal was closed before the sign-in ended")
      pcall(vim.fn.jobstop, job)
    end
  end
  vim.api.nvim_create_autocmd({ "BufUnload", "BufWipeout" }, { buffer = buf, once = true, callback = gave_up })
  vim.api.nvim_create_autocmd("WinClosed", {
    callback = function(ev)
      if run.answered then
        return true -- done: this autocommand goes
      end
      local closing = tonumber(ev.match)
      local others = vim.tbl_filter(function(w)
        return w ~= closing
      end, vim.fn.win_findbuf(buf))
      if #others == 0 and vim.api.nvim_buf_is_valid(buf) and closing and vim.api.nvim_win_get_buf(closing) == buf then
        gave_up()
        return true
      end
    end,
  })
  vim.cmd("startinsert")
  -- Short: a message wider than the screen would wait for Enter, taking a key typed for the login.
  store.report(("acp-editor: sign in to %s (%s) in the terminal below"):format(agent, tostring(params.name)))
  return run
end

--- The acp/signInTerminal handler: runs in the coroutine Neovim gives the request and answers
--- `{exitCode}` when the command ends.
---@param params table
---@return table? result
---@return table? err
function M.terminal(_, params)
  local waiting = asyncreq.current()
  if not waiting then
    return { exitCode = vim.NIL }
  end
  store.config.schedule(function()
    local ok, run, why = pcall(start, params, waiting)
    if not ok or not run then
      local what = ok and why or tostring(run)
      finish({ buf = -1, params = params, waiting = waiting, answered = false }, nil, what)
    end
  end)
  return asyncreq.wait()
end

--- The sidecar is gone: a sign-in still running is nobody's any more (its terminal stays, to
--- read; the job goes on until the user closes it).
function M.reset()
  for _, run in pairs(M.running) do
    run.answered = true
  end
  M.running = {}
end

--- :AcpSignIn [agent]: sign in now (acp/signIn), as when the agent asks.
---@param agent? string an agent id (default: the current session's agent)
---@param callback? fun(err: table?, result: table?)
function M.sign_in(agent, callback)
  local params = { agent = agent }
  require("acp_editor.sidecar.client").request(protocol.method.SIGN_IN, params, function(err, result)
    if err then
      store.report("acp-editor: signing in failed: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    elseif result then
      store.report(("acp-editor: signed in to %s (%s)"):format(M.agent_name(result.agent), tostring(result.methodId)))
    end
    if callback then
      callback(err, result)
    end
  end)
end

return M
