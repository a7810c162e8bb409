-- A session mirror in a few words: its mode, its model and what it used (tokens, context, cost).
--
-- Pure (a mirror in, short strings out), shared by the chat's header and the statusline so both
-- say the same thing the same way. Each function returns nil when the agent reported nothing,
-- so a caller shows nothing rather than a placeholder.

local M = {}

--- The config option of `category` (ACP: "mode", "model", "thought_level", ...), or of that id.
---@param snap? acp_editor.SessionSnapshot
---@param category string
---@return table?
function M.config_option(snap, category)
  local options = snap and snap.configOptions
  if type(options) ~= "table" then
    return nil
  end
  for _, option in ipairs(options) do
    if type(option) == "table" and option.category == category then
      return option
    end
  end
  for _, option in ipairs(options) do
    if type(option) == "table" and option.id == category then
      return option
    end
  end
end

--- The values a select option offers, flattened: ACP lists them plainly (`{value, name}`) or in
--- groups (`{group, name, options}`); a grouped value's `group` is its group's name.
---@param option table
---@return {value: string, name?: string, description?: string, group?: string}[]
function M.values(option)
  local out = {}
  for _, item in ipairs(type(option.options) == "table" and option.options or {}) do
    if type(item) == "table" and type(item.options) == "table" then
      for _, value in ipairs(item.options) do
        if type(value) == "table" then
          table.insert(out, vim.tbl_extend("force", value, { group = item.name or item.group }))
        end
      end
    elseif type(item) == "table" and item.value ~= nil then
      table.insert(out, item)
    end
  end
  return out
end

--- The name of an option's current value (its value when it has no name).
---@param option table
---@return string?
function M.current_name(option)
  local current = option.currentValue
  if current == nil or current == vim.NIL then
    return nil
  end
  for _, value in ipairs(M.values(option)) do
    if value.value == current then
      return value.name or tostring(current)
    end
  end
  return tostring(current)
end

--- The current mode's id (ACP v1 modes, else the v2 config option of category "mode").
---@param snap? acp_editor.SessionSnapshot
---@return string?
function M.mode(snap)
  local modes = snap and snap.modes
  if type(modes) == "table" and type(modes.currentModeId) == "string" then
    return modes.currentModeId
  end
  local option = M.config_option(snap, "mode")
  local current = option and option.currentValue
  return type(current) == "string" and current or nil
end

--- The current model's name (the config option of category "model").
---@param snap? acp_editor.SessionSnapshot
---@return string?
function M.model(snap)
  local option = M.config_option(snap, "model")
  return option and M.current_name(option) or nil
end

--- Whether the agent says the user is signed in (AgentStatus.auth), in words: "not logged in
--- (:AcpSignIn)" when it says not; with `label`, "signed in: Claude Max" when it says so and
--- names the account. nil otherwise (not required, not known, or the agent does not say).
---@param status? table an acp/agentStatus
---@param label? boolean
---@return string?
function M.auth(status, label)
  local auth = status and type(status.auth) == "table" and status.auth or nil
  if not auth then
    return nil
  elseif auth.state == "unauthenticated" then
    return "not logged in (:AcpSignIn)"
  elseif label and auth.state == "authenticated" and type(auth.label) == "string" and auth.label ~= "" then
    return "signed in: " .. auth.label
  end
end

--- 950, 12.3k, 200k, 1.2M
---@param n number
---@return string
function M.count(n)
  local function short(value, suffix)
    return (("%.1f"):format(value):gsub("%.0$", "")) .. suffix
  end
  if n < 1000 then
    return ("%d"):format(n)
  elseif n < 999500 then
    return short(n / 1000, "k")
  end
  return short(n / 1000000, "M")
end

--- `$0.42`, `0.42 EUR`
---@param cost table ACP `{amount, currency}`
---@return string?
function M.cost(cost)
  if type(cost) ~= "table" or type(cost.amount) ~= "number" then
    return nil
  end
  local currency = type(cost.currency) == "string" and cost.currency or ""
  if currency == "USD" or currency == "" then
    return ("$%.2f"):format(cost.amount)
  end
  return ("%.2f %s"):format(cost.amount, currency)
end

---@class acp_editor.Usage
---@field used string tokens in the context window: `12.3k`
---@field size? string the context window's size: `200k`
---@field percent? integer used of size
---@field cost? string `$0.42`, when the agent reports a cost

--- What the session used, from ACP `usage_update` (`{used, size, cost?}`); nil before the agent
--- reports any.
---@param snap? acp_editor.SessionSnapshot
---@return acp_editor.Usage?
function M.usage(snap)
  local usage = snap and snap.usage
  if type(usage) ~= "table" or type(usage.used) ~= "number" then
    return nil
  end
  local out = { used = M.count(usage.used), cost = M.cost(usage.cost) }
  if type(usage.size) == "number" and usage.size > 0 then
    out.size, out.percent = M.count(usage.size), math.floor(usage.used / usage.size * 100 + 0.5)
  end
  return out
end

--- `12.3k/200k (6%)`, or with a word after the counts: `12.3k/200k tokens (6%)`, `950 tokens`.
---@param usage acp_editor.Usage
---@param word? string
---@return string
function M.tokens(usage, word)
  local text = usage.size and (usage.used .. "/" .. usage.size) or usage.used
  text = word and (text .. " " .. word) or text
  return usage.percent and ("%s (%d%%)"):format(text, usage.percent) or text
end

return M
