-- The agent's session config options (ACP `configOptions`: the model, a reasoning level, the
-- mode of a v2 agent...): `:AcpModel` and `:AcpConfig` choose them with vim.ui.select (your
-- picker plugin when you have one) and set them with acp/setConfigOption. A boolean option
-- (schema 1.25: `type = "boolean"`, "Think aloud") is a toggle: choosing it in the list turns
-- it on or off at once, `:AcpConfig think-aloud` toggles it, `on`/`off` set it. The session
-- mirror learns the new values from the sidecar, as from any change; nothing is kept here.

local client = require("acp_editor.sidecar.client")
local protocol = require("acp_editor.protocol")
local store = require("acp_editor.store")
local summary = require("acp_editor.session.summary")

local M = {}

local function select_fn()
  return store.config.ui_select or vim.ui.select
end

--- The current session's config options.
---@return table[]
function M.options()
  local snap = store.current()
  local found = {}
  for _, option in ipairs(snap and type(snap.configOptions) == "table" and snap.configOptions or {}) do
    if type(option) == "table" and type(option.id) == "string" then
      table.insert(found, option)
    end
  end
  return found
end

--- The option with this id, else of this category ("model" finds the model whichever its id).
---@param name string
---@return table?
function M.find(name)
  return summary.config_option({ configOptions = M.options() }, name)
end

--- The values to choose from: a boolean option's two, a select option's list.
---@param option table
---@return {value: string|boolean, name?: string, description?: string, group?: string}[]
function M.values(option)
  if option.type == "boolean" then
    return { { value = true, name = "on" }, { value = false, name = "off" } }
  end
  return summary.values(option)
end

M.BOOLEAN_WORDS = { on = true, ["true"] = true, off = false, ["false"] = false }

--- A value typed on the command line, as the option takes it (a boolean option: on, off, true,
--- false, or toggle); nil when a boolean option cannot take it.
---@return string|boolean|nil
local function parse(option, text)
  if option.type == "boolean" then
    if text == "toggle" then
      return option.currentValue ~= true
    end
    return M.BOOLEAN_WORDS[text]
  end
  return text
end

--- Set `option` to the value typed, saying so when a boolean option cannot take it.
local function set_typed(option, text)
  local value = parse(option, text)
  if value == nil then
    return store.report(
      ("acp-editor: %s is on or off: :AcpConfig %s on|off|toggle"):format(option.name or option.id, option.id),
      vim.log.levels.ERROR
    )
  end
  return M.set(option, value)
end

--- Turn a boolean option over.
---@param option table
---@param callback? fun(err: table?)
function M.toggle(option, callback)
  return M.set(option, option.currentValue ~= true, callback)
end

---@param option table
---@param value string|boolean
---@param callback? fun(err: table?)
---@return nil
function M.set(option, value, callback)
  local sid = store.current_session
  if not sid then
    return callback and callback({ message = "no session yet: send a prompt first" })
  end
  local params = { sessionId = sid, configId = option.id, value = value }
  client.request(protocol.method.SET_CONFIG_OPTION, params, function(err)
    if err then
      local why = err.message or vim.inspect(err)
      store.report(("acp-editor: setting %s failed: %s"):format(option.name or option.id, why), vim.log.levels.ERROR)
    else
      local shown = value
      for _, v in ipairs(M.values(option)) do
        if v.value == value then
          shown = v.name or value
        end
      end
      store.report(("acp-editor: %s: %s"):format(option.name or option.id, tostring(shown)))
    end
    if callback then
      callback(err)
    end
  end)
end

--- Choose one of the option's values (the current one marked), then set it.
---@param option table
---@param callback? fun(err: table?)
function M.choose_value(option, callback)
  local values = M.values(option)
  select_fn()(values, {
    prompt = ("%s:"):format(option.name or option.id),
    kind = "acp_editor.config_option",
    format_item = function(v)
      local text = v.name or tostring(v.value)
      if v.description then
        text = ("%s: %s"):format(text, v.description)
      end
      if v.group then
        text = ("%s (%s)"):format(text, v.group)
      end
      return v.value == option.currentValue and (text .. " (current)") or text
    end,
  }, function(choice)
    if choice and choice.value ~= option.currentValue then
      M.set(option, choice.value, callback)
    end
  end)
end

local function nothing(what)
  store.report(("acp-editor: the agent offers no %s (or no session yet: send a prompt first)"):format(what))
end

--- :AcpModel [value]
---@param value? string
function M.model(value)
  local option = M.find("model")
  if not option then
    return nothing("model choice")
  end
  if value then
    return set_typed(option, value)
  end
  M.choose_value(option)
end

--- :AcpConfig [option [value]]: without an option, choose one first.
---@param name? string an option's id (or category)
---@param value? string
function M.config(name, value)
  local options = M.options()
  if #options == 0 then
    return nothing("options")
  end
  if name then
    local option = M.find(name)
    if not option then
      local ids = table.concat(
        vim.tbl_map(function(o)
          return o.id
        end, options),
        ", "
      )
      return store.report(("acp-editor: no option %s (the agent offers %s)"):format(name, ids), vim.log.levels.ERROR)
    end
    if value then
      return set_typed(option, value)
    elseif option.type == "boolean" then
      return M.toggle(option)
    end
    return M.choose_value(option)
  end
  select_fn()(options, {
    prompt = "Agent option (a switch turns on or off at once):",
    kind = "acp_editor.config_options",
    format_item = function(o)
      if o.type == "boolean" then
        local on = o.currentValue == true
        return ("%s: %s (turn %s)"):format(o.name or o.id, on and "on" or "off", on and "off" or "on")
      end
      return ("%s: %s"):format(o.name or o.id, summary.current_name(o) or "?")
    end,
  }, function(choice)
    if choice and choice.type == "boolean" then
      M.toggle(choice)
    elseif choice then
      M.choose_value(choice)
    end
  end)
end

--- Command-line completion: option ids, then the values of the option named.
---@param arglead string
---@param cmdline string
---@param model? boolean :AcpModel (values of the model option only)
---@return string[]
function M.complete(arglead, cmdline, model)
  local words = vim.split(vim.trim(cmdline), "%s+")
  local typing = #words - (arglead == "" and 0 or 1) -- the words before the one being typed
  local candidates
  if model then
    local option = M.find("model")
    candidates = typing == 1 and option and M.values(option) or {}
  elseif typing == 1 then
    candidates = vim.tbl_map(function(o)
      return { value = o.id }
    end, M.options())
  else
    local option = typing == 2 and M.find(words[2])
    candidates = option and M.values(option) or {}
    if option and option.type == "boolean" then
      candidates = { { value = "on" }, { value = "off" }, { value = "toggle" } }
    end
  end
  local out = {}
  for _, c in ipairs(candidates) do
    local text = tostring(c.value)
    if vim.startswith(text, arglead) then
      table.insert(out, text)
    end
  end
  return out
end

return M
