-- acp_editor.chat.history: ↑/↓ in the prompt area walk the workspace's earlier prompts (the
-- sidecar's acp/promptHistory, here a stand-in client that answers when told to).

local t = require("spec")

local history, asked, buf, menu_open

local function lines()
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

--- The sidecar answers the pending acp/promptHistory with `prompts`.
local function answer(prompts)
  local request = table.remove(asked, 1)
  request.callback(nil, { prompts = prompts })
end

t.describe("history", function()
  t.before_each(function()
    asked, menu_open = {}, false
    local client = {
      request = function(method, params, callback)
        table.insert(asked, { method = method, params = params, callback = callback })
        return #asked
      end,
    }
    history = t.fresh("acp_editor.chat.history", {
      ["acp_editor.sidecar.client"] = client,
      ["acp_editor.complete"] = {
        menu_visible = function()
          return menu_open
        end,
      },
    })
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_win_set_buf(0, buf)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "my draft" })
  end)

  t.it("asks the sidecar on the first ↑ and shows the newest prompt", function()
    history.step(buf, -1)
    t.eq("acp/promptHistory", asked[1].method)
    t.eq({ "my draft" }, lines(), "nothing changes before the answer")
    answer({ "oldest", "newest\nsecond line" })
    t.eq({ "newest", "second line" }, lines())
    t.eq(1, vim.api.nvim_win_get_cursor(0)[1], "going back, the cursor is on the first line")
  end)

  t.it("adds up the steps pressed while the history is on its way", function()
    history.step(buf, -1)
    history.step(buf, -1)
    t.eq(1, #asked, "asked once")
    answer({ "one", "two", "three" })
    t.eq({ "two" }, lines())
  end)

  t.it("walks back and forth and brings the draft back past the newest", function()
    history.step(buf, -1)
    answer({ "one", "two" })
    history.step(buf, -1)
    t.eq({ "one" }, lines())
    history.step(buf, -1)
    t.eq({ "one" }, lines(), "the oldest stays")
    history.step(buf, 1)
    t.eq({ "two" }, lines())
    history.step(buf, 1)
    t.eq({ "my draft" }, lines())
    t.eq(nil, history.index, "the walk ended")
  end)

  t.it("does nothing on ↓ when no walk is under way", function()
    history.step(buf, 1)
    t.eq(0, #asked)
    t.eq({ "my draft" }, lines())
  end)

  t.it("ignores an empty or failed answer", function()
    history.step(buf, -1)
    answer({})
    t.eq({ "my draft" }, lines())
    t.eq(nil, history.index)
    history.step(buf, -1)
    table.remove(asked, 1).callback({ message = "no" }, nil)
    t.eq({ "my draft" }, lines())
    t.eq(0, history.pending)
  end)

  t.it("tells a recalled prompt from one the user typed", function()
    history.step(buf, -1)
    answer({ "/review" })
    t.eq(true, history.recalled(buf))
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "/review now" })
    t.eq(false, history.recalled(buf))
  end)

  t.it("ends the walk when the prompt area is emptied, and starts again from the newest", function()
    history.step(buf, -1)
    answer({ "one", "two" })
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "" })
    history.on_change(buf)
    t.eq(nil, history.prompts)
    history.step(buf, -1)
    t.eq(1, #asked, "a new walk asks again")
  end)

  t.it("walks only from the prompt's first line up and last line down, menu closed", function()
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "a", "b", "c" })
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    t.eq({ true, false }, { history.at_edge(-1), history.at_edge(1) })
    vim.api.nvim_win_set_cursor(0, { 3, 0 })
    t.eq({ false, true }, { history.at_edge(-1), history.at_edge(1) })
    menu_open = true
    t.eq(false, history.at_edge(1), "the completion menu takes ↓")
  end)
end)
