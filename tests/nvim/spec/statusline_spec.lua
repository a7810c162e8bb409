-- acp_editor.statusline: the agent in a few words for a statusline, read from the store.

local t = require("spec")

local statusline, store, busy

local function front(snap)
  snap.sessionId = snap.sessionId or "s1"
  snap.entries, snap.toolCalls, snap.info = snap.entries or {}, {}, {}
  store.sessions[snap.sessionId] = snap
  store.track(snap.sessionId)
  store.current_session = snap.sessionId
end

t.describe("statusline", function()
  t.before_each(function()
    busy = false
    statusline = t.fresh("acp_editor.statusline", {
      ["acp_editor.sidecar.client"] = {},
      ["acp_editor.session.requests"] = {
        busy = function()
          return busy
        end,
      },
    })
    store = require("acp_editor.store")
    store.config = {}
    store.client_id = 1
    store.agent = { state = "running", agentInfo = { name = "demo", title = "Demo agent" } }
    store.agents.default = store.agent
  end)

  t.it("is empty while the sidecar does not run", function()
    store.client_id = nil
    t.eq(nil, statusline.status())
    t.eq("", statusline.statusline())
  end)

  t.it("says the agent is starting, failed or stopped", function()
    store.agent.state = "starting"
    t.eq("acp: starting", statusline.statusline())
    store.agent.state = "failed"
    t.eq("acp: failed", statusline.statusline())
    store.agent.state = "exited"
    t.eq("acp: stopped", statusline.statusline())
  end)

  t.it("says idle, working while a prompt runs, waiting when the agent needs the user", function()
    front({})
    t.eq("acp: idle", statusline.statusline())
    busy = true
    t.eq("acp: working", statusline.statusline())
    busy = false
    store.sessions.s1.runState = { state = "running" }
    t.eq("working", statusline.status().state)
    store.sessions.s1.runState = { state = "requires_action" }
    t.eq("acp: waiting for you", statusline.statusline())
  end)

  t.it("says waiting while a question of the session is pending", function()
    front({})
    package.loaded["acp_editor.questions.permissions"] = { pending = { { params = { sessionId = "s1" } } } }
    t.eq("waiting", statusline.status().state)
    package.loaded["acp_editor.questions.permissions"] = nil
    t.eq("idle", statusline.status().state)
  end)

  t.it("shows sign-in, mode, model, tokens and cost in that order", function()
    store.agent.auth = { state = "unauthenticated" }
    front({
      modes = { currentModeId = "ask", availableModes = {} },
      configOptions = {
        { id = "model", category = "model", currentValue = "f", options = { { value = "f", name = "Demo fast" } } },
      },
      usage = { used = 12300, size = 200000, cost = { amount = 0.42, currency = "USD" } },
    })
    local s = statusline.status()
    t.eq("Demo agent", s.agent)
    t.eq("acp: idle · not logged in · ask · Demo fast · 12.3k/200k (6%) · $0.42", statusline.statusline())
  end)

  t.it("counts the live sessions waiting, only while several are live", function()
    front({ sessionId = "s1", runState = { state = "requires_action" } })
    t.eq("acp: waiting for you", statusline.statusline(), "one session: no count")
    front({ sessionId = "s2" })
    t.eq("acp: idle · 1 session waiting", statusline.statusline())
    store.sessions.s2.runState = { state = "requires_action" }
    t.eq("acp: waiting for you · 2 sessions waiting", statusline.statusline())
    t.eq({ 2, 2 }, { statusline.status().sessions, statusline.status().waiting })
  end)

  t.it("redraws the statuslines only when the words changed", function()
    local scheduled, redraws = {}, 0
    store.config.schedule = function(fn)
      table.insert(scheduled, fn)
    end
    local redrawstatus = vim.cmd.redrawstatus
    vim.cmd.redrawstatus = function()
      redraws = redraws + 1
    end
    statusline.subscribe()
    front({})
    store.emit("session", "s1")
    store.emit("turn", "s1")
    t.eq(1, #scheduled, "events before the redraw ask for one")
    table.remove(scheduled)()
    t.eq(1, redraws)
    store.emit("session", "s1")
    table.remove(scheduled)()
    t.eq(1, redraws, "the same words: no redraw")
    vim.cmd.redrawstatus = redrawstatus
  end)
end)
