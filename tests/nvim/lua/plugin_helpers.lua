-- Test-side helpers for the acp-editor Neovim plugin (nvim/), loaded with dofile() into a fresh
-- `nvim --clean` whose runtimepath has the plugin prepended (tests/nvim/plugin_driver.py).
--
-- Nothing here replaces plugin code. The stand-ins are the ones a user's setup provides anyway:
-- vim.ui.select (a picker plugin) plays the user choosing; the rest only waits and reads state.

local M = {
  selects = {}, ---@type table[] every vim.ui.select call
  turns = {}, ---@type table[] prompts sent with prompt_async, and their results
}

-- The helpers both test files share, from the file beside this one.
local shared = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "nvim_state.lua")
M.settle, M.errors, M.windows, M.buffer, M.undo =
  shared.settle, shared.errors, shared.windows, shared.buffer, shared.undo

--- Make vim.ui.select answer like a user picking `title` (see nvim_state.lua).
function M.answer_with(title, delay_ms)
  shared.answer_with(M.selects, title, delay_ms)
end

--- Play a user answering a sequence of vim.ui.select / vim.ui.input calls, in order: each step
--- is `{ select = title }` or `{ input = text }` (`vim.NIL`: dismissed). vim.ui.open is the
--- browser: it records the URL instead of starting one (nothing can be opened here).
function M.answer_script(steps)
  M.asked, M.opened = {}, {}
  local queue = vim.deepcopy(steps)
  local function next_step(kind, prompt)
    local step = table.remove(queue, 1) or {}
    table.insert(M.asked, { kind = kind, prompt = prompt, expected = vim.tbl_keys(step)[1] })
    return step[kind]
  end
  vim.ui.select = function(items, opts, on_choice)
    local titles = {}
    for i, item in ipairs(items) do
      titles[i] = opts.format_item and opts.format_item(item) or tostring(item)
    end
    local want = next_step("select", opts.prompt)
    M.asked[#M.asked].titles = titles
    local index = (want ~= nil and want ~= vim.NIL) and vim.fn.index(titles, want) + 1 or 0
    vim.schedule(function()
      on_choice(index > 0 and items[index] or nil, index > 0 and index or nil)
    end)
  end
  vim.ui.input = function(opts, on_confirm)
    local text = next_step("input", opts.prompt)
    M.asked[#M.asked].default = opts.default
    vim.schedule(function()
      on_confirm(text ~= vim.NIL and text or nil)
    end)
  end
  vim.ui.open = function(url)
    table.insert(M.opened, url)
  end
end

local function acp()
  return require("acp_editor")
end

local function store()
  return require("acp_editor.store")
end

--- setup() with `opts`, start the sidecar (as :AcpStart does; setup() alone starts nothing) and
--- wait until it is initialized and the agent is ready. What the plugin tells the user goes to
--- `M.notes` (its `notify` option is meant for this).
function M.start(opts, timeout_ms)
  opts.notify = M.record_notify
  acp().setup(opts)
  acp().start()
  local ok = vim.wait(timeout_ms, function()
    local client = require("acp_editor.sidecar.client").get()
    return client ~= nil and client.initialized and store().agent ~= nil and store().agent.state == "ready"
  end, 10)
  local client = require("acp_editor.sidecar.client").get()
  return {
    ok = ok,
    client_id = client and client.id,
    agent = store().agent,
    cmd = client and client.config.cmd,
    init_options = client and client.config.init_options,
  }
end

--- Send a prompt through the plugin's API and return at once; `turn_result(n)` tells the end.
function M.prompt_async(prompt, session_id)
  local turn = { done = false }
  table.insert(M.turns, turn)
  acp().prompt(prompt, function(err, result)
    turn.done, turn.err, turn.result = true, err and { code = err.code, message = err.message } or nil, result
  end, session_id)
  return #M.turns
end

function M.wait_turn(n, timeout_ms)
  local turn = M.turns[n]
  local finished = vim.wait(timeout_ms, function()
    return turn.done
  end, 10)
  return { finished = finished, result = turn.result, error = turn.err }
end

--- Wait until `expr` (a Lua expression, evaluated with the helpers as `H`) is truthy.
function M.wait_until(expr, timeout_ms)
  local fn = assert(loadstring("local H = ...; return " .. expr))
  local ok = vim.wait(timeout_ms, function()
    local good, value = pcall(fn, M)
    return good and value and true or false
  end, 10)
  return ok
end

--- The extmarks a namespace of the plugin holds in `buf`, with the details tests look at.
function M.extmarks(buf, ns_name)
  local ns = vim.api.nvim_get_namespaces()[ns_name]
  local out = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
    local d = m[4]
    local virt_lines = {}
    for _, vl in ipairs(d.virt_lines or {}) do
      table.insert(virt_lines, vl[1][1])
    end
    table.insert(out, {
      row = m[2],
      end_row = d.end_row,
      line_hl = d.line_hl_group,
      sign = d.sign_text and vim.trim(d.sign_text) or nil,
      virt_text = d.virt_text and d.virt_text[1][1] or nil,
      virt_lines = virt_lines,
      virt_lines_above = d.virt_lines_above,
    })
  end
  return out
end

--- Pending review hunks and groups, and proposed edits.
function M.review()
  local review = require("acp_editor.review")
  return { pending = review.pending(), groups = review.pending_groups(), proposed = review.proposed() }
end

--- The current quickfix list: its title, and each item's file name and text.
function M.quickfix()
  local list = vim.fn.getqflist({ title = 1, items = 1 })
  local items = vim.tbl_map(function(item)
    return { file = vim.api.nvim_buf_get_name(item.bufnr), text = item.text }
  end, list.items)
  return { title = list.title, items = items }
end

--- The chat transcript's lines, and the fold level Neovim computed for each.
function M.chat()
  local chat = require("acp_editor.chat")
  if not chat.buf then
    return { lines = {}, folds = {} }
  end
  local win = vim.fn.bufwinid(chat.buf)
  local folds = {}
  if win ~= -1 then
    vim.api.nvim_win_call(win, function()
      for l = 1, vim.api.nvim_buf_line_count(chat.buf) do
        folds[l] = { level = vim.fn.foldlevel(l), closed = vim.fn.foldclosed(l) }
      end
    end)
  end
  return { lines = vim.api.nvim_buf_get_lines(chat.buf, 0, -1, false), folds = folds, win = win }
end

--- Note the transcript's text after every redraw of the chat (to see a reply arrive in pieces).
M.chat_frames = {}
function M.record_chat_frames()
  local chat = require("acp_editor.chat")
  local redraw = chat.redraw
  chat.redraw = function(...)
    redraw(...)
    if chat.buf then
      table.insert(M.chat_frames, table.concat(vim.api.nvim_buf_get_lines(chat.buf, 0, -1, false), "\n"))
    end
  end
end

--- The session mirror of the current session, and the server's own snapshot of it.
function M.mirror_and_snapshot(timeout_ms)
  local sid = store().current_session
  local got
  require("acp_editor.sidecar.client").request("acp/snapshot", { sessionId = sid }, function(err, result)
    got = { err = err, result = result }
  end)
  vim.wait(timeout_ms, function()
    return got ~= nil
  end, 10)
  return {
    mirror = store().sessions[sid],
    snapshot = got and got.result and got.result.sessions[1],
    err = got and got.err,
  }
end

--- Messages shown to the user (notify is the plugin's injected one: recorded here).
M.notes = {}
function M.record_notify(msg, level)
  table.insert(M.notes, { msg = msg, level = level })
end

--- Stop the sidecar the way :AcpStop does and wait until Neovim has let go of it.
function M.stop(timeout_ms)
  local client = require("acp_editor.sidecar.client").get()
  if not client then
    return true
  end
  local id = client.id
  client:stop()
  return vim.wait(timeout_ms, function()
    return vim.lsp.get_client_by_id(id) == nil
  end, 10)
end

return M
