-- The agent in a few words for a statusline (lualine, heirline, or a plain 'statusline'): what
-- the session in front does now (working, waiting for you, idle), its mode and model, what it
-- used when the agent reports it, "not logged in" when the agent says you must sign in
-- (:AcpSignIn), and, while several sessions are live, how many of them wait for you (a question
-- in the background counts there, not in the front session's state).
--
-- Cheap on every redraw: `status()` reads a few fields the store already holds (no request, no
-- formatting of the transcript), and returns nil before the sidecar runs without loading
-- anything. A statusline is drawn again only when Neovim redraws; so the store's events that
-- change the words ask for a `:redrawstatus` (only when they did change, not on every streamed
-- chunk).

local store = require("acp_editor.store")
local summary = require("acp_editor.session.summary")

local M = {
  last = "", ---@type string the words last drawn
}

M.LABELS = {
  starting = "starting",
  working = "working",
  waiting = "waiting for you",
  idle = "idle",
  failed = "failed",
  exited = "stopped",
}

---@class acp_editor.Status
---@field state "starting"|"working"|"waiting"|"idle"|"failed"|"exited"
---@field label string the state in words ("waiting for you")
---@field agent string the agent's name (its title or name, else the id it goes by)
---@field auth? string "not logged in" when the agent says the user must sign in (AgentStatus.auth)
---@field mode? string the current mode's id
---@field model? string the current model's name
---@field tokens? string `12.3k/200k (6%)`: tokens used of the context window, when reported
---@field cost? string `$0.42`, when reported
---@field sessions integer live sessions
---@field waiting integer live sessions waiting for you (a question, or the agent says so)

local function state(snap, live)
  local agent = store.agent
  if not agent or agent.state == "starting" then
    return "starting"
  elseif agent.state == "failed" or agent.state == "exited" then
    return agent.state
  end
  local sid = store.current_session
  local run = snap and type(snap.runState) == "table" and snap.runState.state or nil
  if live.asks(sid) or run == "requires_action" then
    return "waiting"
  end
  local requests = package.loaded["acp_editor.session.requests"]
  if (requests and requests.busy(sid)) or run == "running" then
    return "working"
  end
  return "idle"
end

--- The agent's state, mode, model and usage; nil while the sidecar does not run.
---@return acp_editor.Status?
function M.status()
  if not store.client_id then
    return nil
  end
  local live = require("acp_editor.session.live")
  local snap = store.current()
  local s = state(snap, live)
  local usage = summary.usage(snap)
  return {
    state = s,
    label = M.LABELS[s],
    agent = live.agent_name(store.current_session),
    auth = summary.auth(store.agent) and "not logged in" or nil,
    mode = summary.mode(snap),
    model = summary.model(snap),
    tokens = usage and summary.tokens(usage),
    cost = usage and usage.cost,
    sessions = #live.ids(),
    waiting = live.waiting_count(),
  }
end

--- `acp: working · ask · Demo fast · 12.3k/200k (6%) · $0.42`, `acp: idle · not logged in` when
--- the agent needs you to sign in, and `· 2 sessions waiting` while several sessions are live
--- and some wait for you; "" while the sidecar does not run.
---@return string
function M.statusline()
  local s = M.status()
  if not s then
    return ""
  end
  local parts = { "acp: " .. s.label }
  for _, key in ipairs({ "auth", "mode", "model", "tokens", "cost" }) do
    if s[key] then
      table.insert(parts, s[key])
    end
  end
  if s.sessions > 1 and s.waiting > 0 then
    table.insert(parts, s.waiting == 1 and "1 session waiting" or ("%d sessions waiting"):format(s.waiting))
  end
  return table.concat(parts, " · ")
end

--- Redraw the statuslines when the words changed (called once from setup).
function M.subscribe()
  local pending = false
  local function soon()
    if pending then
      return
    end
    pending = true
    store.config.schedule(function()
      pending = false
      local now = M.statusline()
      if now ~= M.last then
        M.last = now
        vim.cmd.redrawstatus({ bang = true })
      end
    end)
  end
  for _, event in ipairs({ "session", "agent", "current", "permissions", "questions", "turn", "stopped" }) do
    store.on(event, soon)
  end
end

return M
