-- Answering a server→client request later, without blocking the UI.
--
-- How Neovim 0.11 runs a request handler (runtime lua/vim/lsp/rpc.lua, Client:handle_body): each
-- incoming request is handled inside `vim.schedule(coroutine.wrap(function() ... end))`, and what
-- the handler finally returns (`result, err`) is sent as the response. So a handler may
-- `coroutine.yield()` and be resumed later from any callback with the answer: that is exactly how
-- Neovim's own window/showMessageRequest handler waits for vim.ui.select. `suspend` below does
-- that; the resumption is always scheduled, so it can never run before the yield.
--
-- The handler is not told the request's JSON-RPC id, which the server's `$/cancelRequest` names.
-- `request_id` reads it from the handler's caller (the coroutine body in rpc.lua, which holds the
-- decoded message as its upvalue `decoded`). That is an implementation detail of 0.11, so it is
-- best effort: when it cannot be found the caller falls back to matching by session and tool call.

local M = {}

---@class acp_editor.Suspended
---@field co thread
---@field done boolean
local Suspended = {}
Suspended.__index = Suspended

--- Resume the waiting handler with the response (once; later calls are ignored).
---@param result any
---@param err? table lsp.ResponseError
function Suspended:resume(result, err)
  if self.done then
    return false
  end
  self.done = true
  vim.schedule(function()
    local ok, msg = coroutine.resume(self.co, result, err)
    if not ok then
      vim.notify("acp-editor: answering the server failed: " .. tostring(msg), vim.log.levels.ERROR)
    end
  end)
  return true
end

--- The handler's coroutine, or nil when the handler was not called in one (then it must answer
--- synchronously).
---@return acp_editor.Suspended?
function M.current()
  local co, is_main = coroutine.running()
  if not co or is_main then
    return nil
  end
  return setmetatable({ co = co, done = false }, Suspended)
end

--- Yield the handler's coroutine until `suspended:resume` is called; returns what the handler
--- should return (`result, err`).
function M.wait()
  return coroutine.yield()
end

--- The JSON-RPC id of the server request being handled (see the header), or nil.
---@param method string the request's method, to be sure the right message was found
---@return string|integer|nil
function M.request_id(method)
  for level = 2, 12 do
    local info = debug.getinfo(level, "f")
    if not info then
      return nil
    end
    for i = 1, 16 do
      local name, value = debug.getupvalue(info.func, i)
      if not name then
        break
      end
      if name == "decoded" and type(value) == "table" and value.method == method and value.id ~= nil then
        return value.id
      end
    end
  end
  return nil
end

return M
