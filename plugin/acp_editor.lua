-- acp-editor: user commands only. Nothing is loaded until one of them runs (the work is in
-- lua/acp_editor/commands.lua), so having the plugin installed costs nothing at startup.

if vim.g.loaded_acp_editor then
  return
end
vim.g.loaded_acp_editor = true

local function run(name)
  return function(o)
    require("acp_editor.commands")[name](o)
  end
end

local command = vim.api.nvim_create_user_command

command("AcpChat", run("chat"), { desc = "acp-editor: open the chat" })
command("AcpPrompt", run("prompt"), {
  nargs = "*",
  range = true,
  desc = "acp-editor: send a prompt (a range adds the lines as context)",
})
command("AcpCancel", run("cancel"), {
  nargs = "?",
  complete = function(arglead)
    return vim.tbl_filter(function(id)
      return vim.startswith(id, arglead or "")
    end, require("acp_editor.session.subagents").ids())
  end,
  desc = "acp-editor: cancel the agent's turn (or, named, one of its subagents alone)",
})
command("AcpFollow", run("follow"), {
  nargs = "?",
  complete = function()
    return { "on", "off", "all", "front" }
  end,
  desc = "acp-editor: follow the agent (toggle, on, off; all: every session, front: the one in front)",
})
command("AcpMode", run("mode"), {
  nargs = "?",
  complete = function()
    return require("acp_editor.commands").complete_mode()
  end,
  desc = "acp-editor: choose the agent's mode",
})
command("AcpModel", run("model"), {
  nargs = "?",
  complete = function(arglead, cmdline)
    return require("acp_editor.session.config_options").complete(arglead, cmdline, true)
  end,
  desc = "acp-editor: choose the session's model",
})
command("AcpConfig", run("config"), {
  nargs = "*",
  complete = function(arglead, cmdline)
    return require("acp_editor.session.config_options").complete(arglead, cmdline)
  end,
  desc = "acp-editor: choose one of the session's options (model, reasoning, ...)",
})
command("AcpAttach", run("attach"), {
  desc = "acp-editor: attach the current buffer, a selection, diagnostics, a URL... to the next prompt",
})
command("AcpTranscript", run("transcript"), {
  desc = "acp-editor: open the session's live Markdown transcript (read-only)",
})
command("AcpReview", run("review"), {
  nargs = "?",
  complete = function()
    return { "accept", "reject" }
  end,
  desc = "acp-editor: agent changes in the quickfix list (accept/reject: all of them)",
})
command("AcpReviewGroups", run("review_groups"), {
  desc = "acp-editor: accept, reject or list a group of files a command changed at once",
})
command("AcpUndo", run("undo"), {
  nargs = "?",
  desc = "acp-editor: restore the files to before a turn (default: the last)",
})
command("AcpSessions", run("sessions"), {
  desc = "acp-editor: switch between live sessions (or load an earlier one)",
})
command("AcpSwitch", run("switch"), {
  nargs = "?",
  complete = function(arglead)
    return require("acp_editor.commands").complete_sessions(arglead)
  end,
  desc = "acp-editor: bring a live session to the front",
})
command("AcpNewSession", run("new_session"), {
  nargs = "*",
  complete = function(arglead)
    return require("acp_editor.commands").complete_agents(arglead)
  end,
  desc = "acp-editor: start a new session (optionally of another agent; ++worktree: in a worktree of its own)",
})
command("AcpBringBack", run("bring_back"), {
  nargs = "?",
  complete = function(arglead)
    return require("acp_editor.commands").complete_worktrees(arglead)
  end,
  desc = "acp-editor: bring a worktree session's changes into your files, as its review",
})
command("AcpDiscardWorktree", run("discard_worktree"), {
  nargs = "?",
  complete = function(arglead)
    return require("acp_editor.commands").complete_worktrees(arglead)
  end,
  desc = "acp-editor: delete a session's worktree (asks first: what was not brought back is lost)",
})
command("AcpDeleteSession", run("delete_session"), { desc = "acp-editor: delete the current session (asks first)" })
command("AcpFork", run("fork"), { desc = "acp-editor: fork the current session" })
command("AcpSignIn", run("sign_in"), {
  nargs = "?",
  complete = function(arglead)
    return vim.tbl_filter(function(id)
      return vim.startswith(id, arglead or "")
    end, require("acp_editor.session.live").agent_ids())
  end,
  desc = "acp-editor: sign in to the agent (optionally another one, by name)",
})
command("AcpLogout", run("logout"), { desc = "acp-editor: log out of the agent (asks first)" })
command("AcpAnswer", run("answer"), { desc = "acp-editor: answer the agent's question (a form or a web page)" })
command("AcpPermission", run("permission"), { desc = "acp-editor: answer the pending permission request" })
-- <Plug> mappings, to bind to keys of your own (the defaults are buffer-local, see
-- :help acp_editor-keymaps).
vim.keymap.set("n", "<Plug>(acp-editor-permission)", "<Cmd>AcpPermission<CR>", {
  desc = "acp-editor: answer the pending permission request",
})
for action, desc in pairs({
  accept = "accept the agent's change here",
  reject = "reject the agent's change here",
  ["accept-file"] = "accept every agent change in this file",
  ["reject-file"] = "reject every agent change in this file",
  diff = "side-by-side diff of the agent's changes",
  next = "next agent change",
  prev = "previous agent change",
}) do
  vim.keymap.set("n", ("<Plug>(acp-editor-%s)"):format(action), function()
    require("acp_editor.review.keymaps").run((action:gsub("-", "_")))
  end, { desc = "acp-editor: " .. desc })
end
command("AcpTerminal", run("terminal"), {
  nargs = "?",
  complete = function()
    return require("acp_editor.terminals").ids()
  end,
  desc = "acp-editor: show a command's output",
})
command("AcpDiff", run("diff"), { desc = "acp-editor: side-by-side diff of the agent's changes here" })
command("AcpStart", run("start"), {
  nargs = "?",
  desc = "acp-editor: start the sidecar (optionally with a named agent)",
})
command("AcpStop", run("stop"), { desc = "acp-editor: stop the sidecar and the agent" })
command("AcpAgents", run("agents"), { desc = "acp-editor: choose an agent from the ACP registry" })
command("AcpInstall", run("install"), {
  nargs = "?",
  complete = "shellcmd",
  desc = "acp-editor: build the private sidecar (optionally with this Python)",
})
