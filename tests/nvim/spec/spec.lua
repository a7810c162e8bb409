-- The specs' few words: describe/it to name what a module does, before_each to start each spec
-- afresh, and asserts that say what differed. No busted or plenary (they install with git clone,
-- which cannot be done here): tests/nvim/spec/run.lua runs the specs this module collected.
--
--   local t = require("spec")
--   t.describe("reducer", function()
--     t.it("appends an entry", function()
--       t.eq(1, #snap.entries)
--     end)
--   end)

local M = {
  ---@type {name: string, fn: fun(), before: fun()[]}[] the specs collected, in order
  specs = {},
  ---@type integer asserts made by the spec that runs
  asserts = 0,
}

local path = {} ---@type string[] the describe blocks the definitions are inside
local befores = { {} } ---@type fun()[][] the before_each functions of the file, then of each block

--- Forget the specs of the file before (run.lua, before each file).
function M.reset()
  M.specs, path, befores = {}, {}, { {} }
end

--- A group of specs: `name` prefixes theirs.
---@param name string
---@param fn fun()
function M.describe(name, fn)
  table.insert(path, name)
  table.insert(befores, {})
  fn()
  table.remove(befores)
  table.remove(path)
end

--- Run `fn` before each spec of the describe block it is in (outer blocks' first).
---@param fn fun()
function M.before_each(fn)
  table.insert(befores[#befores], fn)
end

--- One spec: `fn` must assert something (a spec that asserts nothing fails).
---@param name string
---@param fn fun()
function M.it(name, fn)
  local before = {}
  for _, list in ipairs(befores) do
    vim.list_extend(before, list)
  end
  table.insert(
    M.specs,
    { name = table.concat(vim.list_extend(vim.list_slice(path), { name }), " › "), fn = fn, before = before }
  )
end

local function fail(message)
  error(message, 3) -- the caller of the assert: the spec's line
end

--- `actual` equals `expected` (tables compared deeply).
---@param expected any
---@param actual any
---@param what? string what is compared, for the message
function M.eq(expected, actual, what)
  M.asserts = M.asserts + 1
  if not vim.deep_equal(expected, actual) then
    fail(("%sexpected %s, got %s"):format(what and (what .. ": ") or "", vim.inspect(expected), vim.inspect(actual)))
  end
end

--- `value` is neither nil nor false.
---@param value any
---@param what? string
function M.ok(value, what)
  M.asserts = M.asserts + 1
  if not value then
    fail(("%sexpected a true value, got %s"):format(what and (what .. ": ") or "", vim.inspect(value)))
  end
end

--- `text` is a string matching the Lua pattern `pattern`.
---@param pattern string
---@param text any
function M.matches(pattern, text)
  M.asserts = M.asserts + 1
  if type(text) ~= "string" or not text:find(pattern) then
    fail(("expected a string matching %q, got %s"):format(pattern, vim.inspect(text)))
  end
end

--- `list` is empty; else each of its items is named, one a line.
---@param list any[]
---@param what string what the items are
function M.none(list, what)
  M.asserts = M.asserts + 1
  if #list > 0 then
    fail(("%s (%d):\n  %s"):format(what, #list, table.concat(vim.tbl_map(tostring, list), "\n  ")))
  end
end

--- A module loaded afresh, with `stubs` standing in for the modules it requires (by name); every
--- other acp_editor module it needs is loaded afresh too, so no spec sees another's state.
---@param name string
---@param stubs? table<string, table>
---@return table
function M.fresh(name, stubs)
  for loaded in pairs(package.loaded) do
    if loaded:match("^acp_editor") then
      package.loaded[loaded] = nil
    end
  end
  for stub_name, stub in pairs(stubs or {}) do
    package.loaded[stub_name] = stub
  end
  return require(name)
end

return M
