-- acp_editor.session.reducer: the mirror of a session, built from acp/sessionChanged's changes
-- (docs/protocol.md's `Change`).

local t = require("spec")

local reducer, snap

local function user(text)
  return { kind = "message", role = "user", content = { { type = "text", text = text } } }
end

t.describe("reducer", function()
  t.before_each(function()
    reducer = t.fresh("acp_editor.session.reducer")
    snap = reducer.new("s1", 2)
  end)

  t.it("starts a session empty", function()
    t.eq({ sessionId = "s1", protocolVersion = 2, entries = {}, toolCalls = {}, info = {} }, snap)
    t.eq(1, reducer.new("s2").protocolVersion, "the protocol version when none is given")
  end)

  t.it("appends an entry at the index that follows the last", function()
    t.eq(true, (reducer.apply(snap, { type = "entry", index = 0, entry = user("hi") })))
    t.eq({ user("hi") }, snap.entries)
  end)

  t.it("refuses an entry that skips or repeats an index: a change was missed", function()
    local ok, err = reducer.apply(snap, { type = "entry", index = 1, entry = user("hi") })
    t.eq(false, ok)
    t.matches("entry at index 1, but the mirror has 0 entries", err)
    reducer.apply(snap, { type = "entry", index = 0, entry = user("a") })
    t.eq(false, (reducer.apply(snap, { type = "entry", index = 0, entry = user("b") })))
    t.eq(1, #snap.entries)
  end)

  t.it("copies what it keeps: the change's tables stay the caller's", function()
    local entry = user("hi")
    reducer.apply(snap, { type = "entry", index = 0, entry = entry })
    entry.content[1].text = "changed"
    t.eq("hi", snap.entries[1].content[1].text)
  end)

  t.it("merges a plain text chunk into the plain text before it", function()
    reducer.apply(snap, { type = "entry", index = 0, entry = user("Look") })
    t.ok(reducer.apply(snap, { type = "message_chunk", index = 0, content = { type = "text", text = "ing" } }))
    t.eq({ { type = "text", text = "Looking" } }, snap.entries[1].content)
  end)

  t.it("keeps a chunk with annotations as a block of its own", function()
    reducer.apply(snap, { type = "entry", index = 0, entry = user("a") })
    local marked = { type = "text", text = "b", annotations = { priority = 1 } }
    reducer.apply(snap, { type = "message_chunk", index = 0, content = marked })
    reducer.apply(snap, { type = "message_chunk", index = 0, content = { type = "text", text = "c" } })
    t.eq({ { type = "text", text = "a" }, marked, { type = "text", text = "c" } }, snap.entries[1].content)
  end)

  t.it("refuses a chunk for an entry it does not have", function()
    local ok, err = reducer.apply(snap, { type = "message_chunk", index = 3, content = { type = "text", text = "x" } })
    t.eq(false, ok)
    t.matches("message_chunk for entry 3", err)
  end)

  t.it("sets and unsets fields of a message (v2)", function()
    local waiting = user("later")
    waiting.queued = true
    reducer.apply(snap, { type = "entry", index = 0, entry = waiting })
    t.ok(reducer.apply(snap, { type = "message", index = 0, set = { messageId = "m1" }, unset = { "queued" } }))
    t.eq("m1", snap.entries[1].messageId)
    t.eq(nil, snap.entries[1].queued)
    t.eq(false, (reducer.apply(snap, { type = "message", index = 5, set = {} })))
  end)

  t.it("creates a tool call on its first change and patches it after", function()
    reducer.apply(snap, { type = "tool_call", toolCallId = "t1", set = { title = "Read", status = "pending" } })
    reducer.apply(snap, { type = "tool_call", toolCallId = "t1", set = { status = "completed" }, unset = { "title" } })
    t.eq({ toolCallId = "t1", status = "completed" }, snap.toolCalls.t1)
  end)

  t.it("appends a tool call's content", function()
    reducer.apply(snap, { type = "tool_call_content", toolCallId = "t1", content = { type = "diff", path = "a" } })
    reducer.apply(snap, { type = "tool_call_content", toolCallId = "t1", content = { type = "diff", path = "b" } })
    t.eq(
      { "a", "b" },
      vim.tbl_map(function(c)
        return c.path
      end, snap.toolCalls.t1.content)
    )
  end)

  t.it("replaces whole fields: plan, commands, modes, usage, run state ...", function()
    local changes = {
      { type = "plan", plan = { entries = { { content = "step" } } } },
      { type = "commands", availableCommands = { { name = "web" } } },
      { type = "modes", modes = { currentModeId = "ask", availableModes = {} } },
      { type = "config_options", configOptions = { { id = "model" } } },
      { type = "usage", usage = { used = 10 } },
      { type = "info", info = { title = "T" } },
      { type = "run_state", runState = { state = "running" } },
      { type = "subagents", subagents = { c1 = {} } },
      { type = "plans", plans = { p1 = {} } },
    }
    t.eq(true, (reducer.apply_all(snap, changes)))
    t.eq("step", snap.plan.entries[1].content)
    t.eq("web", snap.availableCommands[1].name)
    t.eq("ask", snap.modes.currentModeId)
    t.eq("model", snap.configOptions[1].id)
    t.eq(10, snap.usage.used)
    t.eq("T", snap.info.title)
    t.eq("running", snap.runState.state)
    t.eq({ c1 = {} }, snap.subagents)
    t.eq({ p1 = {} }, snap.plans)
  end)

  t.it("refuses a change type it does not know", function()
    local ok, err = reducer.apply(snap, { type = "weather" })
    t.eq(false, ok)
    t.matches('unknown change type "weather"', err)
  end)

  t.it("applies a list up to the first change that fails", function()
    local ok, err = reducer.apply_all(snap, {
      { type = "entry", index = 0, entry = user("a") },
      { type = "entry", index = 5, entry = user("b") },
      { type = "entry", index = 1, entry = user("c") },
    })
    t.eq(false, ok)
    t.matches("index 5", err)
    t.eq(1, #snap.entries)
  end)

  t.it("tells plain text blocks from others", function()
    t.eq(true, reducer.is_plain_text({ type = "text", text = "x" }))
    t.eq(false, reducer.is_plain_text({ type = "text", text = "x", _meta = {} }))
    t.eq(false, reducer.is_plain_text({ type = "image", data = "" }))
    t.eq(false, reducer.is_plain_text("text"))
  end)

  t.it("shows content as text, naming what is not text", function()
    local text = reducer.text_of({
      { type = "text", text = "see " },
      { type = "resource_link", name = "a.py", uri = "file:///a.py" },
      { type = "resource", resource = { uri = "file:///b.py" } },
      { type = "image" },
      vim.NIL,
    })
    t.eq("see [a.py](file:///a.py)[context file:///b.py][image][null]", text)
    t.eq("", reducer.text_of(nil))
  end)

  t.it("knows the end states of a tool call", function()
    t.eq({ true, true, true, false, false }, {
      reducer.is_final("completed"),
      reducer.is_final("failed"),
      reducer.is_final("cancelled"),
      reducer.is_final("in_progress"),
      reducer.is_final(nil),
    })
  end)
end)
