-- The agent's plans at the transcript's end: only the current turn's (an earlier turn's plan
-- is done with). An agent sends one whole plan (`plan`), or several by id (`plans`, ACP plan
-- operations): a list of steps (`items`), Markdown (`markdown`), or a file it keeps the plan in
-- (`file`: its path, to open). A plan the agent removed is gone from `plans`, so from here.
--
-- Pure, like chat/render.lua: a Writer in, lines out.

local M = {}

M.ICONS = { pending = "○", in_progress = "▶", completed = "✓" }

--- Whether the user sent a prompt after entry `index` (1-based count of entries then).
local function prompted_since(snap, index)
  for i = index + 1, #snap.entries do
    local e = snap.entries[i]
    if e.kind == "message" and e.role == "user" then
      return true
    end
  end
  return false
end

--- A plan's kind: its `type`, else (v2 plans have none) what it holds.
---@param plan table
---@return "items"|"markdown"|"file"|string
function M.kind(plan)
  if type(plan.type) == "string" then
    return plan.type
  elseif type(plan.entries) == "table" then
    return "items"
  elseif type(plan.content) == "string" then
    return "markdown"
  elseif type(plan.uri) == "string" then
    return "file"
  end
  return "unknown"
end

--- The plans to show, in order: every plan by id (sorted by id), and the old whole plan when
--- the agent sent one of those instead.
---@param snap table
---@return table[]
function M.shown(snap)
  local list = {}
  if type(snap.plans) == "table" then
    local ids = vim.tbl_keys(snap.plans)
    table.sort(ids)
    for _, id in ipairs(ids) do
      local plan = snap.plans[id]
      if type(plan) == "table" and not (M.kind(plan) == "items" and #(plan.entries or {}) == 0) then
        table.insert(list, plan)
      end
    end
  end
  local whole = snap.plan
  if type(whole) == "table" and whole.planId == nil and type(whole.entries) == "table" and #whole.entries > 0 then
    table.insert(list, 1, whole)
  end
  return list
end

local function body(w, plan)
  local kind = M.kind(plan)
  if kind == "items" then
    for _, item in ipairs(type(plan.entries) == "table" and plan.entries or {}) do
      local icon = M.ICONS[item.status] or "?"
      w:line(("  %s %s"):format(icon, item.content or ""), "0", item.status == "completed" and "Comment" or nil)
    end
  elseif kind == "markdown" then
    w:markdown((tostring(plan.content or "")):gsub("\n+$", ""), "  ", "0")
  elseif kind == "file" then
    local uri = tostring(plan.uri or "")
    local ok, path = pcall(vim.uri_to_fname, uri)
    local shown = ok and vim.fn.fnamemodify(path, ":~:.") or uri
    w:line(("  in the file %s (:edit %s)"):format(shown, shown), "0")
  else
    w:line(("  [%s] %s"):format(kind, vim.json.encode(plan)), "0", "AcpEditorUnknown")
  end
end

--- The plans of the current turn, each under `## Plan` (`## Plan (id)` when there are several).
---@param w table the Writer
---@param snap? table
---@param plan_at? integer how many entries the session had when a plan last changed
function M.render(w, snap, plan_at)
  if not snap then
    return
  end
  local list = M.shown(snap)
  if #list == 0 or (plan_at and prompted_since(snap, plan_at)) then
    return
  end
  for _, plan in ipairs(list) do
    w:blank()
    local heading = #list > 1 and plan.planId and ("## Plan (%s)"):format(plan.planId) or "## Plan"
    w:line(heading, "0", "AcpEditorPlan")
    body(w, plan)
  end
end

return M
