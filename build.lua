-- lazy.nvim runs this file after installing or updating the plugin: it builds the private
-- sidecar (see lua/acp_editor/sidecar/install.lua). Other plugin managers: run :AcpInstall once.

local root = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h")
if not vim.tbl_contains(vim.api.nvim_list_runtime_paths(), root) then
  vim.opt.rtp:prepend(root)
end
local ok, message = require("acp_editor.sidecar.install").run({
  report = function(msg)
    print("acp-editor: " .. msg) -- lazy.nvim shows a build's output in its window
  end,
})
if not ok then
  error("acp-editor: " .. message, 0)
end
print("acp-editor: " .. message)
