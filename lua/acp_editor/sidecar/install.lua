-- The sidecar in a private environment: a Python virtual environment of the plugin's own, under
-- stdpath("data")/acp-editor/venv, holding the `acp-editor` package from this checkout.
--
-- lazy.nvim runs the repository's build.lua after installing or updating the plugin, which calls
-- `run`; `:AcpInstall` does the same for any other plugin manager. `server_cmd` defaults to the
-- private sidecar when it exists, else to `acp-editor` on PATH.

local M = {}

--- The oldest Python the sidecar runs on (pyproject.toml's requires-python).
M.MIN_PYTHON = { 3, 11 }

--- The plugin's root: the folder holding lua/, plugin/ and pyproject.toml.
function M.root()
  local here = debug.getinfo(1, "S").source:sub(2) -- <root>/lua/acp_editor/sidecar/install.lua
  return vim.fn.fnamemodify(here, ":p:h:h:h:h")
end

function M.venv()
  return vim.fs.joinpath(vim.fn.stdpath("data"), "acp-editor", "venv")
end

local function bin(venv, name)
  local windows = vim.fn.has("win32") == 1
  return vim.fs.joinpath(venv, windows and "Scripts" or "bin", windows and (name .. ".exe") or name)
end

--- The private sidecar's executable, when it was built.
---@return string?
function M.private_sidecar()
  local exe = bin(M.venv(), "acp-editor")
  return vim.fn.executable(exe) == 1 and exe or nil
end

--- What `server_cmd` defaults to: the private sidecar, else `acp-editor` on PATH.
---@return string[]
function M.default_server_cmd()
  local private = M.private_sidecar()
  return { private or "acp-editor" }
end

local function version_of(python)
  local result = vim
    .system({ python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])" }, { text = true })
    :wait(10000)
  if result.code ~= 0 then
    return nil
  end
  local major, minor = (result.stdout or ""):match("(%d+)%.(%d+)")
  return major and { tonumber(major), tonumber(minor) } or nil
end

--- A Python new enough for the sidecar: `python` when given, else the newest found on PATH.
---@param python? string
---@return string? exe
---@return string? why nothing was found
function M.find_python(python)
  local candidates = python and { python }
    or { "python3.14", "python3.13", "python3.12", "python3.11", "python3", "python" }
  local seen = {}
  for _, name in ipairs(candidates) do
    local exe = vim.fn.exepath(name)
    if exe ~= "" and not seen[exe] then
      seen[exe] = true
      local v = version_of(exe)
      if v and (v[1] > M.MIN_PYTHON[1] or (v[1] == M.MIN_PYTHON[1] and v[2] >= M.MIN_PYTHON[2])) then
        return exe
      end
    end
  end
  local wanted = ("%d.%d"):format(M.MIN_PYTHON[1], M.MIN_PYTHON[2])
  local tried = table.concat(candidates, ", ")
  local hint = "install one, e.g. from python.org or your package manager"
  return nil, ("no Python %s or newer found on PATH (tried %s): %s"):format(wanted, tried, hint)
end

local function run_step(cmd, report)
  report(table.concat(cmd, " "))
  local result = vim.system(cmd, { text = true }):wait()
  if result.code ~= 0 then
    local out = vim.trim((result.stderr or "") .. "\n" .. (result.stdout or ""))
    local lines = vim.split(out, "\n")
    return false, table.concat(vim.list_slice(lines, math.max(1, #lines - 12)), "\n")
  end
  return true
end

--- Build (or update) the private sidecar. Blocking: it runs once, at install time.
---@param opts? { python?: string, report?: fun(msg: string) }
---@return boolean ok
---@return string message what was installed, or why it failed
function M.run(opts)
  opts = opts or {}
  local report = opts.report or function(msg)
    vim.notify("acp-editor: " .. msg, vim.log.levels.INFO)
  end
  local python, why = M.find_python(opts.python)
  if not python then
    return false, why or "no Python"
  end
  local venv = M.venv()
  vim.fn.mkdir(vim.fs.dirname(venv), "p")
  if vim.fn.executable(bin(venv, "python")) ~= 1 then
    local ok, err = run_step({ python, "-m", "venv", venv }, report)
    if not ok then
      return false, "creating the environment failed:\n" .. err
    end
  end
  local pip = { bin(venv, "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check" }
  local ok, err = run_step(vim.list_extend(pip, { "--upgrade", M.root() }), report)
  if not ok then
    return false, "installing the sidecar failed:\n" .. err
  end
  local doc = vim.fs.joinpath(M.root(), "doc")
  pcall(vim.cmd.helptags, vim.fn.fnameescape(doc)) -- :help acp_editor for every plugin manager
  local exe = bin(venv, "acp-editor")
  local version = vim.system({ exe, "--version" }, { text = true }):wait(15000)
  return true, ("installed %s in %s"):format(vim.trim(version.stdout or "acp-editor"), venv)
end

return M
