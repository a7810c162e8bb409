-- The agent's questions for a form or a web page (`acp/elicit`, docs/protocol.md).
--
-- Nothing pops up while you type: the question is announced (vim.notify) and waits, oldest
-- first, until you run :AcpAnswer. A form is then asked field by field (vim.ui.select for
-- choices and yes/no, vim.ui.input for the rest, pre-filled with the defaults), then shown whole
-- for review: pick a field to change it, "Send" or "Decline". Dismissing any question (<Esc>)
-- cancels the whole form. A web page is one vim.ui.select naming the agent, the site and the
-- whole address, "Decline" first; only "Open" opens it (vim.ui.open, the system's browser). The
-- server checks a form's answers again. A question of a session in the background says which
-- session asks and how to get there (:AcpSwitch); :AcpAnswer asks the front session's first.

local asyncreq = require("acp_editor.sidecar.asyncreq")
local protocol = require("acp_editor.protocol")
local store = require("acp_editor.store")

local M = {
  pending = {}, ---@type table[] questions waiting for the user
}

local function select_fn()
  return store.config.ui_select or vim.ui.select
end

local SEND, DECLINE, OPEN = "Send", "Decline", "Open"

--- The choices of a single-select field or of a multi-select field's items: { {value, title} }.
local function choices(field)
  local found = {}
  for _, v in ipairs(field.enum or {}) do
    table.insert(found, { value = v, title = v })
  end
  for _, o in ipairs(field.oneOf or field.anyOf or {}) do
    table.insert(found, { value = o.const, title = o.title or o.const })
  end
  return found
end

--- Fields in asking order: the required ones first, then by name (JSON key order is lost).
local function field_names(schema)
  local required = {}
  for _, name in ipairs(schema.required or {}) do
    required[name] = true
  end
  local names = vim.tbl_keys(schema.properties or {})
  table.sort(names, function(a, b)
    if (required[a] or false) ~= (required[b] or false) then
      return required[a] == true
    end
    return a < b
  end)
  return names, required
end

--- A field's new value: vim.NIL (left empty) clears it. (Not `v ~= vim.NIL and v or nil`,
--- which loses `false`.)
local function set_answer(answers, name, value)
  if value == vim.NIL then
    answers[name] = nil
  else
    answers[name] = value
  end
end

local function shown(value)
  if value == nil or value == vim.NIL then
    return "(empty)"
  elseif type(value) == "table" then
    return table.concat(value, ", ")
  end
  return tostring(value)
end

--- Ask one field; `done(value)` with the new value, or `done(nil, true)` when dismissed.
local function ask_field(name, field, current, done)
  local label = field.title or name
  if field.description then
    label = ("%s (%s)"):format(label, field.description)
  end
  local options = choices(field.type == "array" and (field.items or {}) or field)
  if field.type == "boolean" then
    select_fn()({ "Yes", "No" }, { prompt = label, kind = "acp_editor.elicit" }, function(choice)
      done(choice and choice == "Yes", choice == nil)
    end)
  elseif field.type == "string" and #options > 0 then
    select_fn()(options, {
      prompt = label,
      kind = "acp_editor.elicit",
      format_item = function(o)
        return o.title
      end,
    }, function(choice)
      done(choice and choice.value, choice == nil)
    end)
  else
    local hint = field.type == "array"
        and #options > 0
        and (" [%s, comma-separated]"):format(table.concat(
          vim.tbl_map(function(o)
            return o.value
          end, options),
          ", "
        ))
      or ""
    vim.ui.input({ prompt = label .. hint .. ": ", default = current ~= nil and shown(current) or "" }, function(text)
      if text == nil then
        return done(nil, true)
      elseif text == "" then
        return done(vim.NIL)
      elseif field.type == "number" or field.type == "integer" then
        local number = tonumber(text)
        if number == nil or (field.type == "integer" and number % 1 ~= 0) then
          store.report(("acp-editor: %s must be a %s number"):format(label, field.type == "integer" and "whole" or ""))
          return ask_field(name, field, current, done)
        end
        return done(number)
      elseif field.type == "array" then
        return done(vim.tbl_map(vim.trim, vim.split(text, ",", { trimempty = true })))
      end
      done(text)
    end)
  end
end

local function review(entry, answers, finish)
  local schema = entry.params.requestedSchema or {}
  local names, required = field_names(schema)
  local items = { SEND, DECLINE }
  for _, name in ipairs(names) do
    local field = schema.properties[name]
    local mark = required[name] and "*" or ""
    table.insert(items, ("%s%s: %s"):format(field.title or name, mark, shown(answers[name])))
  end
  local prompt = ("%s asks: %s\nYour answers (pick one to change it):"):format(entry.params.agent, entry.params.message)
  select_fn()(items, { prompt = prompt, kind = "acp_editor.elicit_review" }, function(_, index)
    if entry.withdrawn then
      return
    elseif index == nil then
      return finish({ action = "cancel" })
    elseif index == 2 then
      return finish({ action = "decline" })
    elseif index == 1 then
      local missing = vim.tbl_filter(function(name)
        return answers[name] == nil
      end, schema.required or {})
      if #missing > 0 then
        store.report("acp-editor: still to answer: " .. table.concat(missing, ", "), vim.log.levels.WARN)
        return review(entry, answers, finish)
      end
      return finish({ action = "accept", content = answers })
    end
    local name = names[index - 2]
    ask_field(name, schema.properties[name], answers[name], function(value, dismissed)
      if not dismissed then
        set_answer(answers, name, value)
      end
      review(entry, answers, finish)
    end)
  end)
end

local function form(entry, finish)
  local schema = entry.params.requestedSchema or {}
  local names = field_names(schema)
  local answers = {}
  for _, name in ipairs(names) do
    answers[name] = schema.properties[name].default
  end
  local function next_field(i)
    if entry.withdrawn then
      return
    elseif i > #names then
      return review(entry, answers, finish)
    end
    local name = names[i]
    ask_field(name, schema.properties[name], answers[name], function(value, dismissed)
      if dismissed then
        return finish({ action = "cancel" })
      end
      set_answer(answers, name, value)
      next_field(i + 1)
    end)
  end
  next_field(1)
end

local function page(entry, finish)
  local p = entry.params
  local lines = {
    ("%s asks you to open a web page in your browser."):format(p.agent),
    p.message,
    "Site: " .. tostring(p.host),
    "Address: " .. p.url,
  }
  if p.warning then
    table.insert(lines, "Careful: " .. p.warning .. ".")
  end
  select_fn()(
    { DECLINE, OPEN },
    { prompt = table.concat(lines, "\n"), kind = "acp_editor.elicit_page" },
    function(choice)
      if entry.withdrawn then
        return
      elseif choice == OPEN then
        vim.ui.open(p.url)
        return finish({ action = "accept" })
      end
      finish({ action = choice == DECLINE and "decline" or "cancel" })
    end
  )
end

local function forget(entry)
  for i, e in ipairs(M.pending) do
    if e == entry then
      table.remove(M.pending, i)
      store.emit("questions")
      return
    end
  end
end

--- The acp/elicit handler: suspends until the user answered (see acp_editor.sidecar.asyncreq).
---@param params table
---@param ctx lsp.HandlerContext
---@return table? result
---@return table? err
function M.handle(_, params, ctx)
  local waiting = asyncreq.current()
  if not waiting then
    return { action = "cancel" } -- cannot wait outside a coroutine: dismiss rather than block
  end
  local entry = { params = params, waiting = waiting, request_id = asyncreq.request_id(ctx.method) }
  table.insert(M.pending, entry)
  store.emit("questions", entry) -- the status line and `User AcpQuestion`
  local what = params.mode == "url" and "to open a web page" or "to fill in a form"
  local sid = store.root_of(params.sessionId) -- a subagent asks in its parent's place
  if sid and store.current_session and sid ~= store.current_session then
    local title = require("acp_editor.session.live").title(store.sessions[sid])
    store.report(
      ("acp-editor: %s asks you %s in session %s (%s): %s — :AcpSwitch %s, then :AcpAnswer"):format(
        params.agent,
        what,
        sid,
        title,
        params.message,
        sid
      ),
      vim.log.levels.WARN
    )
  else
    store.report(("acp-editor: %s asks you %s: %s (:AcpAnswer)"):format(params.agent, what, params.message))
  end
  return asyncreq.wait()
end

--- The questions in asking order: the front session's (and those naming no session) first.
local function in_order()
  local front, others = {}, {}
  for _, entry in ipairs(M.pending) do
    local sid = store.root_of(entry.params.sessionId)
    local mine = sid == nil or store.current_session == nil or sid == store.current_session
    table.insert(mine and front or others, entry)
  end
  return vim.list_extend(front, others)
end

--- :AcpAnswer: ask the oldest question nobody is answering yet (the front session's first).
---@return boolean asked whether there was one
function M.answer()
  for _, entry in ipairs(in_order()) do
    if not entry.started then
      entry.started = true
      local function finish(answer)
        if entry.withdrawn then
          return
        end
        forget(entry)
        entry.waiting:resume(answer)
      end
      if entry.params.mode == "url" then
        page(entry, finish)
      else
        form(entry, finish)
      end
      return true
    end
  end
  store.report("acp-editor: the agent asks nothing right now")
  return false
end

--- `$/cancelRequest`: the agent withdrew the question, or the user cancelled the turn. A dialog
--- already shown cannot be closed from here; its late answer is ignored.
---@param params? {id?: integer|string}
function M.cancel_request(_, params)
  local id = params and params.id
  for _, entry in ipairs(vim.list_slice(M.pending)) do
    if entry.request_id ~= nil and entry.request_id == id or (entry.request_id == nil and #M.pending == 1) then
      entry.withdrawn = true
      forget(entry)
      entry.waiting:resume(nil, { code = protocol.errors.REQUEST_CANCELLED, message = "withdrawn by the server" })
      store.report("acp-editor: the agent withdrew its question")
    end
  end
end

--- The sidecar is gone: nobody waits for these answers any more.
function M.reset()
  for _, entry in ipairs(M.pending) do
    entry.withdrawn = true
  end
  M.pending = {}
  store.emit("questions")
end

return M
