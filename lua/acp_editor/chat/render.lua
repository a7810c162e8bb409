-- The chat transcript as text: a session mirror in, lines + folds + highlights out.
--
-- Pure (no buffers or windows), so the chat view can redraw by diffing two line lists and a test
-- can look at exactly what a user would read. Tool calls and thoughts become folded sections
-- whose first line says what they are (kind, title, status); what the agent sends that nobody
-- defined yet (custom kinds, statuses, content types, update variants) is shown generically.
--
-- The text is Markdown (the chat buffer's filetype): messages as the agent wrote them under
-- `## You` / `## Agent` headings, diffs in ```diff blocks. A message or tool output that leaves a
-- code block open (a reply still streaming, a cut-off output) gets its closing fence here, so
-- the rest of the transcript is not read as code. Notices, compactions, messages between
-- sessions and the turn's end are chat/markers.lua's; subagents under the tool call that
-- started them chat/children.lua's; the plans at the end chat/plans.lua's.

local children = require("acp_editor.chat.children")
local code_blocks = require("acp_editor.chat.code_blocks")
local markers = require("acp_editor.chat.markers")
local plans = require("acp_editor.chat.plans")
local prompt_items = require("acp_editor.session.prompt_items")
local reducer = require("acp_editor.session.reducer")
local summary = require("acp_editor.session.summary")

---@class acp_editor.Rendered
---@field lines string[]
---@field folds string[] foldexpr value per line (">1" opens a section, "1" is inside, "0" outside)
---@field hls {[1]: integer, [2]: string}[] (0-based line, highlight group) pairs
---@field entry_at table<integer, integer> line → the index (1-based) of the session entry drawn there
---@field child_at table<integer, string> line → the subagent's session drawn there

local M = {}

M.STATUS_ICONS = {
  pending = "○",
  in_progress = "◐",
  completed = "✓",
  failed = "✗",
  cancelled = "⊘",
}
M.PLAN_ICONS = plans.ICONS

---@class acp_editor.Writer
local Writer = {}
Writer.__index = Writer

local function writer()
  return setmetatable({ lines = {}, folds = {}, hls = {}, entry_at = {}, child_at = {} }, Writer)
end

function Writer:line(text, fold, hl)
  table.insert(self.lines, (text:gsub("\n", " ")))
  table.insert(self.folds, fold or "0")
  self.entry_at[#self.lines] = self.entry
  self.child_at[#self.lines] = self.child
  if hl then
    table.insert(self.hls, { #self.lines - 1, hl })
  end
end

--- Several lines (text split at newlines), all with the same fold level and highlight.
function Writer:text(text, indent, fold, hl)
  for _, l in ipairs(vim.split(text, "\n", { plain = true })) do
    self:line((indent or "") .. l, fold, hl)
  end
end

--- Markdown text (a message, tool output): like `text`, and a code block it leaves open is closed.
function Writer:markdown(text, indent, fold, hl)
  local first = #self.lines + 1
  self:text(text, indent, fold, hl)
  local close = code_blocks.closing(vim.list_slice(self.lines, first))
  if close then
    self:line(close, fold, hl)
  end
end

function Writer:blank()
  if #self.lines > 0 and self.lines[#self.lines] ~= "" then
    self:line("")
  end
end

--- One tool call content item.
local function content_item(w, item)
  local kind = type(item) == "table" and item.type or nil
  if kind == "content" and type(item.content) == "table" then
    local block = item.content
    if block.type == "text" then
      return w:markdown((block.text or ""):gsub("\n+$", ""), "  ", "1")
    end
    return w:line("  " .. reducer.text_of({ block }), "1")
  elseif kind == "diff" then
    w:line(("  diff %s"):format(vim.fn.fnamemodify(item.path or "?", ":~:.")), "1", "AcpEditorToolCall")
    local ok, diff = pcall(vim.diff, item.oldText or "", item.newText or "", { ctxlen = 1 })
    if ok and type(diff) == "string" then
      local fence = code_blocks.fence_for(diff)
      w:line("  " .. fence .. "diff", "1")
      for _, l in ipairs(vim.split(diff, "\n", { plain = true, trimempty = true })) do
        local hl = l:match("^%+") and "AcpEditorAdded" or l:match("^%-") and "AcpEditorRemoved" or nil
        w:line("  " .. l, "1", hl)
      end
      w:line("  " .. fence, "1")
    end
  elseif kind == "terminal" then
    w:line(("  terminal %s (:AcpTerminal %s)"):format(item.terminalId, item.terminalId), "1")
  else
    -- Nobody defined this content type yet: show it as it came.
    w:line(("  [%s] %s"):format(tostring(kind), vim.json.encode(item)), "1", "AcpEditorUnknown")
  end
end

--- What a tool call is called: its title, else (an agent may send an empty one) its tool's
--- `name`, else its kind, else its id.
---@param call table
---@return string
function M.title(call)
  for _, field in ipairs({ "title", "name", "kind" }) do
    local value = call[field]
    if type(value) == "string" and vim.trim(value) ~= "" then
      return value
    end
  end
  return tostring(call.toolCallId)
end

--- A tool call's one line, `✓ [read] Read hello.py · completed`, and its highlight group.
---@param call table
---@return string text
---@return string hl
function M.call_line(call)
  local status = call.status or "pending"
  local icon = M.STATUS_ICONS[status] or "?"
  local hl = "AcpEditorStatus_" .. (M.STATUS_ICONS[status] and status or "custom")
  return ("%s [%s] %s · %s"):format(icon, call.kind or "other", M.title(call), tostring(status)), hl
end

local function tool_call(w, call)
  local text, hl = M.call_line(call)
  w:line(text, ">1", hl)
  for _, loc in ipairs(call.locations or {}) do
    if type(loc) == "table" and loc.path then
      local line = loc.line and (":" .. loc.line) or ""
      w:line(("  at %s%s"):format(vim.fn.fnamemodify(loc.path, ":~:."), line), "1", "Comment")
    end
  end
  for _, item in ipairs(type(call.content) == "table" and call.content or {}) do
    content_item(w, item)
  end
end

--- The line under a prompt that waits its turn, or that was withdrawn before it: what it is,
--- and (v1: the queue is the sidecar's) the keys that change or remove it. v2 agents queue
--- prompts themselves: those cannot be changed.
---@param snap? acp_editor.SessionSnapshot
---@param e acp_editor.Entry
---@param keys table<string, string|false> the chat's keys
---@return string?
function M.marker(snap, e, keys)
  local v1 = not (snap and (snap.protocolVersion or 1) >= 2)
  if e.queued and v1 then
    local hints = {}
    if keys.edit_prompt then
      table.insert(hints, keys.edit_prompt .. " edit")
    end
    if keys.remove_prompt then
      table.insert(hints, keys.remove_prompt .. " remove")
    end
    local how = #hints > 0 and (" — " .. table.concat(hints, ", ") .. ";") or ":"
    return ("(queued%s it goes when the turn before it ends)"):format(how)
  elseif e.queued then
    return "(queued: the agent takes it up when it is done with the work before it; it cannot be changed)"
  elseif e.dropped and v1 then
    local again = keys.edit_prompt and (" · %s edits it to send again"):format(keys.edit_prompt) or ""
    return ("(not sent: removed before its turn%s)"):format(again)
  elseif e.dropped then
    return "(not sent on: the agent's work was cancelled before it took this up)"
  end
end

local ROLE = {
  user = { "## You", "AcpEditorUser" },
  agent = { "## Agent", "AcpEditorAgent" },
}

--- Your prompt: what you typed, then each attachment as an item of its own.
local function prompt(w, content)
  local typed = prompt_items.typed(content)
  if typed ~= "" then
    w:markdown(typed, "", "0")
  end
  local attached = prompt_items.attached(content)
  if #attached > 0 then
    w:line("Attached:", "0", "AcpEditorHint")
    for _, it in ipairs(attached) do
      w:line(prompt_items.line(it), "0", "AcpEditorHint")
    end
  elseif typed == "" then
    w:line("(an empty prompt)", "0", "AcpEditorHint")
  end
end

--- A message's heading and its highlight group.
local function heading(snap, e, ctx)
  if e.role == "session" then
    return markers.session_heading(snap, e, ctx.name_of), "AcpEditorSession"
  end
  local role = ROLE[e.role] or { "## " .. tostring(e.role), "AcpEditorAgent" }
  return role[1], role[2]
end

--- Draw one entry; returns the heading it drew under (a message's), for the next one.
local function entry(w, snap, e, prev_heading, ctx)
  local keys = ctx.keys or {}
  if e.kind == "notice" then
    return markers.notice(w, e)
  elseif e.kind == "message" then
    local text = reducer.text_of(e.content)
    if e.role == "thought" then
      w:blank()
      w:line("▸ Thinking", ">1", "AcpEditorThought")
      return w:markdown(text, "  ", "1", "AcpEditorThought")
    elseif e.role == "compaction" then
      return markers.compaction(w, e)
    end
    local title, hl = heading(snap, e, ctx)
    -- Consecutive agent messages (around tool calls) read as one reply without repeated headers.
    if title ~= prev_heading then
      w:blank()
      w:line(title, "0", hl)
    end
    if e.role == "user" then
      prompt(w, e.content)
    else
      w:markdown(text, "", "0")
    end
    local marker = e.role == "user" and M.marker(snap, e, keys)
    if marker then
      w:line(marker, "0", "Comment")
    end
    if e.role == "user" and type(e.turn) == "number" then
      -- The workspace was checkpointed before this prompt: say how to go back to it.
      w:line(("(turn %d · :AcpUndo %d restores the files to before it)"):format(e.turn, e.turn), "0", "Comment")
    end
    return title
  elseif e.kind == "toolCall" then
    w:blank()
    tool_call(w, snap.toolCalls[e.toolCallId] or { toolCallId = e.toolCallId })
    return children.under(w, snap, e.toolCallId, ctx)
  end
  local update = e.update or {}
  w:blank()
  w:line(("[%s] %s"):format(tostring(update.sessionUpdate), vim.json.encode(update)), "0", "AcpEditorUnknown")
end

local function permission(w, entry_, keys)
  local permissions = require("acp_editor.questions.permissions")
  local params = entry_.params
  local by = type(params.subagent) == "table" and (" (%s)"):format(permissions.asker(params)) or ""
  w:blank()
  w:line(("## Permission%s: %s"):format(by, permissions.describe(params)), "0", "AcpEditorPermission")
  local parts = {}
  local keyed = { -- chat keymap name, option kind it answers with
    { "allow", "allow_once" },
    { "allow_always", "allow_always" },
    { "reject", "reject_once" },
    { "reject_always", "reject_always" },
  }
  for _, pair in ipairs(keyed) do
    local lhs = keys[pair[1]]
    if lhs then
      for _, option in ipairs(entry_.params.options or {}) do
        if option.kind == pair[2] then
          table.insert(parts, ("%s %s"):format(lhs, option.name))
          break
        end
      end
    end
  end
  if keys.choose then
    table.insert(parts, keys.choose .. " choose…")
  end
  w:line("  " .. table.concat(parts, " · "), "0", "AcpEditorPermission")
end

---@class acp_editor.RenderContext what the transcript shows besides the session itself
---@field agent? table the last acp/agentStatus
---@field agent_name? string what the agent is called (its title or name, else its id)
---@field busy? boolean a prompt of ours is running
---@field waiting? boolean a question of the session (or of one of its subagents) waits for you
---@field plan_at? integer how many entries the session had when its plan last changed
---@field permissions? table[] pending permission requests, listed at the end
---@field keys table<string, string|false> the chat's keys, named in the permission hint
---@field session? string which of the live sessions this is ("session 2 of 3"), when several are
---@field sessions? table<string, table> every session mirror (its subagents' own are drawn in it)
---@field asks? fun(session_id: string): boolean whether a subagent's question waits
---@field name_of? fun(session_id: string): string how a subagent is named (`subagent “X”`)

--- The order entries are read in, as their (1-based) indexes. A prompt sent while a turn ran
--- keeps its index, but that turn's reply came after it: it reads where its wait ended (the
--- protocol's `waitedUntil`: after the first `waitedUntil` entries), so a reply stays under the
--- prompt it answers; one still queued reads last, under the running turn. A removed one whose
--- wait ended where another's did reads before the one that went (whose reply follows). The
--- rest read in index order.
---@param entries acp_editor.Entry[]
---@return integer[]
function M.reading_order(entries)
  local places, order = {}, {}
  for i, e in ipairs(entries) do
    local at = i
    if e.kind == "message" and e.role == "user" then
      if e.queued == true then
        at = math.huge
      elseif type(e.waitedUntil) == "number" and e.waitedUntil >= i then
        at = e.waitedUntil + (e.dropped and 0.25 or 0.5) -- the one that went nearest its reply
      end
    end
    places[i] = at
    order[i] = i
  end
  table.sort(order, function(a, b)
    if places[a] ~= places[b] then
      return places[a] < places[b]
    end
    return a < b
  end)
  return order
end

---@param snap? acp_editor.SessionSnapshot
---@param ctx acp_editor.RenderContext
---@return acp_editor.Rendered
function M.render(snap, ctx)
  local w = writer()
  local agent = ctx.agent or {}
  local info = agent.agentInfo or {}
  local header = { "acp-editor", info.title or info.name or ctx.agent_name or agent.agent or "agent" }
  if ctx.session then
    table.insert(header, ctx.session)
  end
  if snap and type(snap.worktree) == "string" then
    table.insert(header, "in its worktree (:AcpBringBack)")
  end
  local mode = summary.mode(snap)
  if mode then
    table.insert(header, "mode: " .. mode)
  end
  -- v2 agents say when their work waits on a question only the user can answer.
  local run = snap and type(snap.runState) == "table" and snap.runState.state
  if run == "requires_action" or ctx.waiting then
    table.insert(header, "waiting for you…")
  else
    table.insert(header, (ctx.busy or run == "running") and "working…" or (agent.state or "starting"))
  end
  local auth = summary.auth(agent, true)
  if auth then
    table.insert(header, auth)
  end
  local model = summary.model(snap)
  if model then
    table.insert(header, model)
  end
  local usage = summary.usage(snap)
  if usage then -- only what the agent reported: nothing at all before its first usage_update
    table.insert(header, summary.tokens(usage, "tokens"))
    if usage.cost then
      table.insert(header, usage.cost)
    end
  end
  w:line(table.concat(header, " · "), "0", "AcpEditorHeader")
  if agent.state == "failed" and agent.message then
    w:text(agent.message .. (agent.stderrTail and ("\n" .. agent.stderrTail) or ""), "  ", "0", "ErrorMsg")
  end
  ctx.call_line = M.call_line
  ctx.name_of = ctx.name_of or function()
    return "a subagent"
  end
  local prev_heading
  local entries = snap and snap.entries or {}
  for _, i in ipairs(M.reading_order(entries)) do
    w.entry = i
    prev_heading = entry(w, snap, entries[i], prev_heading, ctx)
  end
  w.entry = nil
  if not ctx.busy then
    markers.turn_end(w, snap)
  end
  children.unplaced(w, snap, ctx)
  plans.render(w, snap, ctx.plan_at)
  for _, p in ipairs(ctx.permissions or {}) do
    permission(w, p, ctx.keys)
  end
  if not snap or #snap.entries == 0 then
    w:blank()
    w:line("Type a prompt below and press Enter.", "0", "Comment")
  end
  return w
end

return M
