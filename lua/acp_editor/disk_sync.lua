-- Buffers acp-editor edited, whose file also changed on disk (the agent wrote it itself, or the
-- sidecar brought the disk in line with the agent's change). The buffer already holds that change,
-- merged with the user's unsaved text, so Neovim's warnings about the disk would only ask the user
-- to pick one side ("W12: file changed and the buffer was changed as well", "The file has been
-- changed since reading it!!! Do you really want to write to it?"), and the wrong answer loses
-- text. So until the user saves such a buffer:
--   * a disk check (:checktime, focus) keeps the buffer as it is, without asking;
--   * `:w` writes it over the disk without asking: the buffer is the newer of the two, the
--     agent's change included. The user's BufWritePre/Post hooks (formatters) still run.
-- After that save everything is as Neovim always does it.

local M = {
  ---@type table<integer, true>
  synced = {},
}

local function group_name(buf)
  return "acp_editor_disk_sync_" .. buf
end

---@param buf integer
function M.forget(buf)
  M.synced[buf] = nil
  pcall(vim.api.nvim_del_augroup_by_name, group_name(buf))
end

local function write(buf, ev)
  M.forget(buf) -- first: the write below must not come back here
  local target = vim.fn.fnamemodify(ev.file, ":p")
  local own = target == vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":p")
  if own and not vim.bo[buf].readonly then
    vim.cmd("write!")
  else
    vim.cmd.write(vim.fn.fnameescape(ev.file)) -- another file, or read-only: as Neovim would
  end
end

--- acp-editor changed `buf` (a workspace/applyEdit it applied).
---@param buf integer
function M.edited(buf)
  if M.synced[buf] or not vim.api.nvim_buf_is_loaded(buf) or vim.bo[buf].buftype ~= "" then
    return
  end
  M.synced[buf] = true
  local group = vim.api.nvim_create_augroup(group_name(buf), { clear = true })
  vim.api.nvim_create_autocmd("FileChangedShell", {
    group = group,
    buffer = buf,
    desc = "acp-editor: the buffer already holds the agent's change to the file",
    callback = function()
      vim.v.fcs_choice = ""
    end,
  })
  vim.api.nvim_create_autocmd("BufWriteCmd", {
    group = group,
    buffer = buf,
    nested = true, -- the write it does runs the user's BufWritePre/Post autocmds
    desc = "acp-editor: write over the agent's version on disk without asking",
    callback = function(ev)
      write(buf, ev)
    end,
  })
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = group,
    buffer = buf,
    callback = function()
      M.forget(buf)
    end,
  })
end

--- The buffers a WorkspaceEdit touches.
---@param edit table
---@return integer[]
function M.buffers(edit)
  local uris = vim.tbl_keys(edit.changes or {})
  for _, change in ipairs(edit.documentChanges or {}) do
    if change.textDocument then
      table.insert(uris, change.textDocument.uri)
    end
  end
  return vim.tbl_map(vim.uri_to_bufnr, uris)
end

return M
