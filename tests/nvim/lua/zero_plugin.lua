-- Test-side helpers for driving Neovim's built-in LSP client against acp-editor, with no plugin.
--
-- Loaded with dofile() into a fresh `nvim --clean` by tests/nvim/conftest.py. Nothing here changes
-- what Neovim does with the server's messages: the recorders note each request the server sends
-- and then call Neovim's own default handler unchanged. The only stand-in is vim.ui.select, which
-- plays the user picking an option (that is what a user's picker plugin would replace anyway).

local M = {
  client_id = nil, ---@type integer?
  seen = {}, ---@type table<string, table[]> server requests by method, with Neovim's answers
  selects = {}, ---@type table[] every vim.ui.select call
  commands = {}, ---@type table[] answers to workspace/executeCommand sent by code actions
}

-- The helpers both test files share, from the file beside this one.
local shared = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "nvim_state.lua")
M.settle, M.errors, M.windows, M.buffer, M.undo =
  shared.settle, shared.errors, shared.windows, shared.buffer, shared.undo

--- Make vim.ui.select answer like a user picking `title` (see nvim_state.lua).
function M.answer_with(title, delay_ms)
  shared.answer_with(M.selects, title, delay_ms)
end

local RECORDED = { "window/showDocument", "window/showMessageRequest", "workspace/applyEdit" }

--- Note every `method` request from the server, then let the default handler answer it.
local function record(method)
  local default = assert(vim.lsp.handlers[method], "no default handler for " .. method)
  M.seen[method] = {}
  vim.lsp.handlers[method] = function(err, params, ctx)
    -- answered stays false while the handler waits, or when it raised (Neovim then reports the
    -- error to the user and answers the server with an error).
    local entry = { params = vim.deepcopy(params), answered = false }
    table.insert(M.seen[method], entry)
    -- The default handler may yield (showMessageRequest waits for vim.ui.select): calling it
    -- from here keeps it in the same coroutine.
    local result, error = default(err, params, ctx)
    entry.answered, entry.result, entry.error = true, result, error
    return result, error
  end
end

--- Start the server exactly as a user's config would, and wait until it is initialized.
--- @param cmd string[]
--- @param root string
function M.start(cmd, root, timeout_ms)
  for _, method in ipairs(RECORDED) do
    record(method)
  end
  local id = vim.lsp.start({ name = "acp-editor", cmd = cmd, root_dir = root })
  if not id then
    return { error = "vim.lsp.start returned no client id" }
  end
  M.client_id = id
  local ready = vim.wait(timeout_ms, function()
    local client = vim.lsp.get_client_by_id(id)
    return client ~= nil and client.initialized == true
  end, 10)
  local client = vim.lsp.get_client_by_id(id)
  local provider = client and client.server_capabilities.executeCommandProvider
  return {
    id = id,
    initialized = ready,
    commands = type(provider) == "table" and provider.commands or {},
  }
end

--- Run `acp.prompt` through the client's standard command path and wait for the turn to end.
function M.prompt(text, timeout_ms)
  local client = vim.lsp.get_client_by_id(M.client_id)
  if not client then
    return { finished = false, error = { message = "the LSP client is gone" } }
  end
  local done, result, err = false, nil, nil
  client:exec_cmd(
    { title = "ACP prompt", command = "acp.prompt", arguments = { text } },
    { bufnr = vim.api.nvim_get_current_buf() },
    function(e, r)
      done, err, result = true, e, r
    end
  )
  local finished = vim.wait(timeout_ms, function()
    return done
  end, 10)
  return {
    finished = finished,
    result = result,
    error = err and { code = err.code, message = err.message } or nil,
  }
end

--- Wait until `expr` (a Lua expression, evaluated with the helpers as `H`) is truthy.
function M.wait_until(expr, timeout_ms)
  local fn = assert(loadstring("local H = ...; return " .. expr))
  return vim.wait(timeout_ms, function()
    local good, value = pcall(fn, M)
    return good and value and true or false
  end, 10)
end

--- The review diagnostics (source "acp") Neovim holds for `buf` in the client's push namespace,
--- sorted by line: positions as vim.diagnostic has them (0-based), and the LSP fields the server
--- sent (`data` is what comes back to the server in a code action request's context).
function M.review_diagnostics(buf)
  local ns = vim.lsp.diagnostic.get_namespace(M.client_id, false)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf, { namespace = ns })) do
    if d.source == "acp" then
      local sent = d.user_data and d.user_data.lsp or {}
      table.insert(out, {
        lnum = d.lnum,
        end_lnum = d.end_lnum,
        severity = d.severity,
        source = d.source,
        code = d.code,
        message = d.message,
        data = sent.data,
      })
    end
  end
  table.sort(out, function(a, b)
    return a.lnum < b.lnum
  end)
  return out
end

--- Wait until `buf` has exactly `count` review diagnostics (or `timeout_ms` passed).
function M.wait_review_diagnostics(buf, count, timeout_ms)
  local ok = vim.wait(timeout_ms, function()
    return #M.review_diagnostics(buf) == count
  end, 10)
  return { ok = ok, diagnostics = M.review_diagnostics(buf) }
end

--- Note each answer to a workspace/executeCommand request that has no handler of its own (the
--- ones code actions send), then let the default handler (which does nothing) see it.
local function record_commands()
  if M.commands_recorded then
    return
  end
  M.commands_recorded = true
  local method = "workspace/executeCommand"
  local default = vim.lsp.handlers[method]
  vim.lsp.handlers[method] = function(err, result, ctx)
    table.insert(M.commands, {
      command = ctx.params and ctx.params.command,
      arguments = ctx.params and vim.deepcopy(ctx.params.arguments),
      result = vim.deepcopy(result),
      error = err and { code = err.code, message = err.message } or nil,
    })
    if default then
      return default(err, result, ctx)
    end
  end
end

--- Put the cursor on line `lnum` (1-based) of `buf` and run the code action titled `title` the way
--- a user's mapping would: `vim.lsp.buf.code_action` with a filter and `apply = true`, which runs a
--- single remaining action without asking (its command goes to the server as
--- workspace/executeCommand). Returns every action the server offered there, and the answer to
--- the command once it came.
function M.code_action(buf, lnum, title, timeout_ms)
  record_commands()
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    return { error = "no window shows buffer " .. buf }
  end
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_win_set_cursor(win, { lnum, 0 })
  local before = #M.commands
  local offered = {}
  vim.lsp.buf.code_action({
    apply = true,
    filter = function(action)
      table.insert(offered, vim.deepcopy(action))
      return action.title == title
    end,
  })
  local finished = vim.wait(timeout_ms, function()
    return #M.commands > before
  end, 10)
  return { finished = finished, offered = offered, command = M.commands[before + 1] }
end

--- Stop the client the way `:lsp stop` does and wait until Neovim has let go of it.
function M.stop(timeout_ms)
  local id = M.client_id
  if not id then
    return true
  end
  local client = vim.lsp.get_client_by_id(id)
  if client then
    client:stop()
  end
  return vim.wait(timeout_ms, function()
    return vim.lsp.get_client_by_id(id) == nil
  end, 10)
end

return M
