-- Every public function of the plugin (`function M.name(...)` or `M.name = function(...)` in
-- lua/) says its types the LuaLS way: a `---@param` for each parameter, and a `---@return` when
-- it returns a value. lua-language-server cannot be installed here (see docs/architecture.md),
-- so this keeps the annotations from falling behind until it can check them.
--
-- A parameter named `_` (a handler's unused first argument) needs none. A `return f(...)` alone
-- does not count as returning a value: the plugin writes `return report("...")` to stop early,
-- and such a function returns nothing anyone uses.

local t = require("spec")

local root = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h:h:h:h")

--- The `---` lines right above row `row` (0-based).
local function doc_above(lines, row)
  local doc = {}
  for i = row, 1, -1 do
    local line = lines[i]
    if not line:match("^%s*%-%-%-") then
      break
    end
    table.insert(doc, 1, line)
  end
  return doc
end

--- Whether `body` has a `return` with a value (not a lone call) outside its nested functions.
local function returns_value(body)
  local found = false
  local function walk(node)
    for child in node:iter_children() do
      local kind = child:type()
      if kind == "return_statement" then
        local values = child:named_child(0)
        if values and not (values:named_child_count() == 1 and values:named_child(0):type() == "function_call") then
          found = true
        end
      elseif kind ~= "function_declaration" and kind ~= "function_definition" then
        walk(child)
      end
    end
  end
  walk(body)
  return found
end

--- The public functions of one file, each with what its annotations lack.
---@param file string
---@return string[]
local function missing(file)
  local src = table.concat(vim.fn.readfile(file), "\n")
  local lines = vim.split(src, "\n", { plain = true })
  local tree = vim.treesitter.get_string_parser(src, "lua"):parse()[1]
  local out = {}
  local function check(name, params, body, row)
    local doc = table.concat(doc_above(lines, row), "\n")
    local lacking = {}
    for param in params:iter_children() do
      local p = vim.treesitter.get_node_text(param, src)
      if param:named() and p ~= "self" and p ~= "_" and not doc:find("%-%-%-@param " .. vim.pesc(p) .. "[%s?]") then
        table.insert(lacking, "@param " .. p)
      end
    end
    if body and returns_value(body) and not doc:find("%-%-%-@return") then
      table.insert(lacking, "@return")
    end
    if #lacking > 0 then
      table.insert(out, ("%s:%d %s: %s"):format(file:sub(#root + 2), row + 1, name, table.concat(lacking, ", ")))
    end
  end
  for node in tree:root():iter_children() do
    local kind = node:type()
    if kind == "function_declaration" then
      local name = vim.treesitter.get_node_text(node:field("name")[1], src)
      if name:match("^M[.:]") then
        check(name, node:field("parameters")[1], node:field("body")[1], node:start())
      end
    elseif kind == "assignment_statement" then
      local target = node:named_child(0):named_child(0)
      local value = node:named_child(1) and node:named_child(1):named_child(0)
      local name = vim.treesitter.get_node_text(target, src)
      if name:match("^M%.") and value and value:type() == "function_definition" then
        check(name, value:field("parameters")[1], value:field("body")[1], node:start())
      end
    end
  end
  return out
end

t.describe("the plugin's public functions", function()
  local files = vim.fn.globpath(root .. "/lua", "**/*.lua", false, true)
  table.sort(files)

  t.it("are found", function()
    t.ok(#files > 40, "Lua files under lua/")
    local count = 0
    for _, file in ipairs(files) do
      for _ in table.concat(vim.fn.readfile(file), "\n"):gmatch("\nfunction M%.") do
        count = count + 1
      end
    end
    t.ok(count > 300, "public functions")
  end)

  t.it("are annotated: ---@param for each parameter, ---@return when they return a value", function()
    local all = {}
    for _, file in ipairs(files) do
      vim.list_extend(all, missing(file))
    end
    t.none(all, "public functions whose annotations lack something")
  end)

  t.it("are read right: an unannotated parameter and return are found", function()
    local tmp = vim.fn.tempname() .. ".lua"
    vim.fn.writefile({
      "local M = {}",
      "---@param a string",
      "function M.one(a, b)",
      "  local function inner() return 1 end",
      "  return report(a)",
      "end",
      "M.two = function(c)",
      "  if c then return c end",
      "end",
      "---@param d integer",
      "---@return integer",
      "function M.three(d) return d end",
      "return M",
    }, tmp)
    local got = vim.tbl_map(function(line)
      return line:match(":(%d+ .*)$")
    end, missing(tmp))
    t.eq({ "3 M.one: @param b", "7 M.two: @param c, @return" }, got)
  end)
end)
