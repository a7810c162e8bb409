-- What lazy.nvim does with the spec `{ "owner/acp-editor", opts = {} }` after cloning the
-- repository into its plugin folder (lazy.nvim itself cannot be installed offline): put the
-- folder on the runtimepath, run its build.lua, generate help tags for its doc/, source its
-- plugin/ files, call setup(opts). Then what a new user does: :help, :checkhealth, a prompt.
-- Results go to the JSON file named by $ACP_TEST_RESULTS.

local dir = vim.env.ACP_TEST_PLUGIN_DIR
local results = {}

-- Everything in a pcall: an error must end in the results file, never in a prompt that waits.
local ok, err = pcall(function()
  vim.opt.rtp:prepend(dir)
  local built, build_err = pcall(vim.cmd.source, vim.fn.fnameescape(dir .. "/build.lua"))
  results.build = { ok = built, err = build_err and tostring(build_err) or nil }
  vim.cmd.helptags(vim.fn.fnameescape(dir .. "/doc"))
  vim.cmd.runtime("plugin/acp_editor.lua")
  require("acp_editor").setup({})

  results.help = pcall(vim.cmd.help, "acp_editor")
  vim.cmd.only()
  results.started_at_setup = require("acp_editor.sidecar.client").get() ~= nil

  vim.cmd("checkhealth acp_editor")
  results.health = vim.api.nvim_buf_get_lines(0, 0, -1, false)

  local turn = {}
  require("acp_editor").prompt("hello", function(err, result)
    turn.err, turn.result = err and (err.message or vim.inspect(err)) or nil, result
  end)
  vim.wait(30000, function()
    return turn.err ~= nil or turn.result ~= nil
  end, 50)
  results.turn = turn
  local client = require("acp_editor.sidecar.client").get()
  results.cmd = client and client.config.cmd or nil
end)
results.error = not ok and tostring(err) or nil

local fh = assert(io.open(vim.env.ACP_TEST_RESULTS, "w"))
fh:write(vim.json.encode(results))
fh:close()
pcall(function()
  require("acp_editor").stop(5000)
end)
vim.cmd("qall!")
