-- Runs Lua specs headless: `nvim --headless --clean -l tests/nvim/spec/run.lua FILE_spec.lua...`
-- (tests/nvim/test_lua_specs.py runs each spec file so, in a Neovim of its own). Prints each
-- failure with its message and traceback, then `N passed, N failed`, and exits non-zero when a
-- spec failed, a file defined none, or one asserted nothing.

local here = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h")
local root = vim.fn.fnamemodify(here, ":h:h:h")
vim.opt.runtimepath:prepend(root) -- require("acp_editor...") finds lua/
package.path = here .. "/?.lua;" .. package.path -- require("spec")

local t = require("spec")
local passed, failed = 0, 0

local function failure(name, message)
  failed = failed + 1
  io.stdout:write(("FAIL %s\n  %s\n"):format(name, (message:gsub("\n", "\n  "))))
end

for _, file in ipairs(_G.arg) do
  t.reset()
  local ok, err = xpcall(dofile, debug.traceback, file)
  if not ok then
    failure(file, "the file did not load: " .. err)
  elseif #t.specs == 0 then
    failure(file, "the file defines no spec")
  end
  for _, spec in ipairs(t.specs) do
    local name = ("%s: %s"):format(vim.fn.fnamemodify(file, ":t"), spec.name)
    t.asserts = 0
    local ran, why = xpcall(function()
      for _, before in ipairs(spec.before) do
        before()
      end
      spec.fn()
    end, debug.traceback)
    if not ran then
      failure(name, tostring(why))
    elseif t.asserts == 0 then
      failure(name, "the spec asserted nothing")
    else
      passed = passed + 1
    end
  end
end

io.stdout:write(("%d passed, %d failed\n"):format(passed, failed))
io.stdout:flush()
os.exit(failed == 0 and passed > 0 and 0 or 1)
