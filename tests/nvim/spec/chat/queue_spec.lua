-- acp_editor.chat.queue: prompts waiting their turn (v1: the sidecar's queue) changed, removed,
-- sent again, and what a cancel asks about them. The requests, the chat and the prompt area are
-- stand-ins that record what they were asked.

local t = require("spec")

local queue, store, sent, notes, chat, edited, choices

local function message(text, fields)
  return vim.tbl_extend(
    "force",
    { kind = "message", role = "user", content = { { type = "text", text = text } } },
    fields or {}
  )
end

local function session(version, entries)
  store.sessions.s1 = { sessionId = "s1", protocolVersion = version, entries = entries, toolCalls = {}, info = {} }
  store.current_session = "s1"
  return store.sessions.s1
end

--- vim.ui.select answering with the choice at `pick` (nil: dismissed), recording what it offered.
local function answer(pick)
  vim.ui.select = function(items, _, on_choice)
    choices = items
    on_choice(pick and items[pick] or nil)
  end
end

t.describe("queue", function()
  t.before_each(function()
    sent, notes, edited, choices = {}, {}, nil, nil
    local function record(name)
      return function(...)
        table.insert(sent, { name, ... })
      end
    end
    local requests = {
      cancel = record("cancel"),
      withdraw_prompt = record("withdraw_prompt"),
      edit_prompt = record("edit_prompt"),
      prompt = record("prompt"),
      fork = record("fork"),
      new_session = record("new_session"),
      can = function(name)
        return name == "fork"
      end,
    }
    chat = { entry_at = {}, open = function() end }
    local prompt = {
      edit = function(buf, text, edit)
        edited = { buf = buf, text = text, edit = edit }
      end,
    }
    queue = t.fresh("acp_editor.chat.queue", {
      ["acp_editor.session.requests"] = requests,
      ["acp_editor.chat"] = chat,
      ["acp_editor.chat.prompt"] = prompt,
    })
    store = require("acp_editor.store")
    store.config = {
      notify = function(msg)
        table.insert(notes, msg)
      end,
    }
  end)

  t.it("counts the prompts waiting in the sidecar's queue (v1 only)", function()
    local entries = { message("a"), message("b", { queued = true }), message("c", { queued = true }) }
    table.insert(entries, { kind = "message", role = "agent", queued = true, content = {} })
    t.eq(2, queue.waiting(session(1, entries)))
    t.eq(0, queue.waiting(session(2, entries)), "a v2 agent's own queue")
    t.eq(0, queue.waiting(nil))
  end)

  t.it("puts a waiting prompt's text in the prompt area, its attachments kept", function()
    local link = { type = "resource_link", uri = "file:///a.py", name = "a.py" }
    local embedded = { type = "resource", resource = { uri = "file:///a.py", text = "x" } }
    local e = message("fix it", { queued = true })
    vim.list_extend(e.content, { link, embedded })
    session(1, { message("first"), e })
    chat.entry_at[1] = 2 -- the cursor's line (1) shows entry 2
    chat.prompt_buf = 7
    queue.edit()
    t.eq({
      buf = 7,
      text = "fix it",
      edit = { kind = "queued", session_id = "s1", index = 1, rest = { link, embedded } },
    }, edited)
  end)

  t.it("edits an earlier prompt to send again, leaving out file text that may be stale", function()
    local link = { type = "resource_link", uri = "file:///a.py", name = "a.py" }
    local e = message("explain")
    vim.list_extend(e.content, { link, { type = "resource", resource = { uri = "file:///a.py", text = "x" } } })
    session(1, { e })
    chat.entry_at[1] = 1
    queue.edit()
    t.eq({ kind = "resend", rest = { link } }, edited.edit)
  end)

  t.it("says so when no prompt of the user's is under the cursor, or the agent queues", function()
    session(1, { { kind = "message", role = "agent", content = {} } })
    chat.entry_at[1] = 1
    queue.edit()
    t.eq(nil, edited)
    t.matches("no prompt of yours under the cursor", notes[1])
    session(2, { message("later", { queued = true }) })
    queue.edit()
    queue.remove()
    t.matches("this agent queues prompts itself: a waiting one cannot be changed", notes[2])
    t.matches("cannot be removed", notes[3])
    t.eq({}, sent)
  end)

  t.it("withdraws the waiting prompt under the cursor by its 0-based index", function()
    session(1, { message("a"), message("b", { queued = true }) })
    chat.entry_at[1] = 2
    queue.remove()
    t.eq("withdraw_prompt", sent[1][1])
    t.eq({ "s1", 1 }, { sent[1][2], sent[1][3] })
    sent[1][4]({ message = "gone" }) -- the sidecar answers with an error
    t.matches("the prompt could not be removed: gone", notes[1])
  end)

  t.it("brings a changed prompt's text back when it went meanwhile", function()
    local buf = vim.api.nvim_create_buf(false, true)
    chat.prompt_buf = buf
    queue.change({ session_id = "s1", index = 3 }, "new text", "new\ntext")
    t.eq({ "edit_prompt", "s1", 3, "new text" }, vim.list_slice(sent[1], 1, 4))
    sent[1][5]({ message = "not waiting" })
    t.eq({ "new", "text" }, vim.api.nvim_buf_get_lines(buf, 0, -1, false))
    t.matches("could not be changed", notes[1])
  end)

  t.it("asks where an earlier prompt goes again: here, a fork, a new session", function()
    session(1, {})
    local went = 0
    answer(2)
    queue.resend("again", function()
      went = went + 1
    end)
    t.eq({ "In this session", "In a fork of the session", "In a new session" }, choices)
    t.eq(1, went)
    t.eq("fork", sent[1][1])
    sent[1][2](nil, { sessionId = "s9" }) -- forked: the prompt goes to the new session
    t.eq({ "prompt", "again", nil, "s9" }, { sent[2][1], sent[2][2], sent[2][3], sent[2][4] })
  end)

  t.it("sends nothing when the question is dismissed", function()
    session(1, {})
    answer(nil)
    local went = false
    queue.resend("again", function()
      went = true
    end)
    t.eq(false, went)
    t.eq({}, sent)
  end)

  t.it("cancels at once when nothing waits, and asks first when prompts do", function()
    session(1, { message("a") })
    queue.cancel()
    t.eq({ "cancel" }, sent[1])
    session(1, { message("a"), message("b", { queued = true }), message("c", { queued = true }) })
    answer(2)
    queue.cancel()
    t.eq({ "Keep the 2 waiting prompts", "Drop them" }, choices)
    t.eq(true, sent[2][3], "drop the waiting prompts")
    answer(nil)
    queue.cancel()
    t.eq(2, #sent, "dismissed: nothing cancelled")
  end)
end)
