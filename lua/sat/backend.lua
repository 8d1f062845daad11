--- sat.backend: the one place the Lua layer (init.lua, world.lua, debug.lua, ...) gets its core
-- from. Two cores give the same results bit for bit: the native module sat.core (C, the fast
-- path) and the pure-Lua backend (lua/sat/pure/, the same interface in plain Lua, for where no
-- native module loads: the web, iOS, Android, any Lua without C modules).
--
--   backend.core         the chosen core: what require("sat.core") returns natively
--   backend.name         "native" or "lua" (sat.backend)
--   backend.module       the name the core was required by: "sat.core" or "sat.pure.lsat_module"
--   backend.nativeError  why the native module did not load when sat fell back to the pure
--                        backend (sat.nativeError); false when it loaded or was not tried
--   backend.new(name)    a complete, independent sat table on the core named ("native" or
--                        "lua"): its own copy of the Lua layer (world, debug, ...), loaded
--                        afresh, sharing nothing with require("sat") but the core module. For
--                        tests that drive both backends in one process (the differential
--                        fuzzer).
--
-- The choice, made once as this module loads: the native module when one loads, else the pure
-- backend, silently. Forced by, first, a global SAT_BACKEND set before the first require("sat")
-- (`SAT_BACKEND = "lua"`, e.g. in LÖVE's conf.lua), then the environment variable SAT_BACKEND:
-- "lua" uses the pure backend without trying the native module; "native" requires the native
-- module and fails with its loader's message when none fits. docs/design.md, "The core
-- interface"; docs/love.md, "Which backend".
local backend = {}

local NATIVE, PURE = "sat.core", "sat.pure.lsat_module"

--- backend.forced([global [, getenv]]) -> "native" | "lua" | nil: what forces the choice, from
-- the global SAT_BACKEND, else the environment's (os.getenv may be absent, or give nil, as in
-- some LÖVE builds and love.js). An empty value forces nothing; anything else is an error.
function backend.forced(global, getenv)
  local value, from = global, "the global SAT_BACKEND"
  if value == nil then
    from = "the environment variable SAT_BACKEND"
    if getenv == nil then
      local os = rawget(_G, "os")
      getenv = type(os) == "table" and os.getenv or nil
    end
    if type(getenv) == "function" then
      local ok, v = pcall(getenv, "SAT_BACKEND")
      value = ok and v or nil
    end
  end
  if value == nil or value == "" then
    return nil
  end
  if value ~= "native" and value ~= "lua" then
    error(("sat: %s is %q (\"native\" or \"lua\" expected)"):format(from, tostring(value)), 0)
  end
  return value
end

-- The native module, or nil and why not. A failed require leaves no trace in package.loaded
-- (Lua 5.1 leaves its loop sentinel there when the module's own chunk raised: dist/sat/core.lua
-- does when no native file fits).
local function load_native()
  local ok, core = pcall(require, NATIVE)
  if ok and type(core) == "table" then
    return core
  end
  local loaded = package.loaded
  if type(loaded[NATIVE]) ~= "table" then
    loaded[NATIVE] = nil
  end
  if ok then
    return nil, ("sat: require(%q) returned %s, not the module"):format(NATIVE, type(core))
  end
  return nil, tostring(core)
end

--- backend.load([name]) -> core, name, module, nativeError (a string, or false): the core named ("native", "lua"),
-- or, with no name, the native one when it loads and the pure one otherwise. "native" raises
-- the native module's own error when it does not load.
function backend.load(name)
  if name == "lua" then
    return require(PURE), "lua", PURE, false
  end
  local core, why = load_native()
  if core ~= nil then
    return core, "native", NATIVE, false
  end
  if name == "native" then
    error(why, 0)
  end
  return require(PURE), "lua", PURE, why
end

do
  local core, name, module, why = backend.load(backend.forced(rawget(_G, "SAT_BACKEND")))
  backend.core, backend.name, backend.module, backend.nativeError = core, name, module, why
end

-- ---- independent instances: backend.new ---------------------------------------------------

-- Modules an instance shares with the process: the cores, the loader, and sat.fast (which acts
-- on the native module itself, once per process).
local function shared(name)
  return name == NATIVE or name == "sat.loader" or name == "sat.fast"
    or name:find("^sat%.pure%.") ~= nil
end

-- The file of module name along a require path ("?.lua;?/init.lua" and the like).
local function search(path, name, exists)
  local file = name:gsub("%.", "/")
  for template in path:gmatch("[^;]+") do
    local candidate = template:gsub("%?", file)
    if exists(candidate) then
      return candidate
    end
  end
  return nil
end

-- The chunk of the Lua module name, its globals env: through LÖVE's filesystem in a game,
-- else package.path.
local function load_chunk(name, env)
  local love = rawget(_G, "love")
  local lfs = type(love) == "table" and love.filesystem or nil
  local chunk, err, file
  if lfs and lfs.getRequirePath then
    file = search(lfs.getRequirePath(), name, function(p) return lfs.getInfo(p, "file") ~= nil end)
    if file then
      chunk, err = lfs.load(file)
    end
  end
  if not chunk then
    file = search(package.path, name, function(p)
      local f = io.open(p, "rb")
      if f then f:close() end
      return f ~= nil
    end)
    if not file then
      error(("sat.backend: module %q not found on package.path"):format(name), 0)
    end
    local setfenv = rawget(_G, "setfenv")
    if setfenv then
      chunk, err = loadfile(file)
    else
      chunk, err = loadfile(file, "bt", env)
    end
  end
  if not chunk then
    error(err, 0)
  end
  local setfenv = rawget(_G, "setfenv")
  if setfenv then
    setfenv(chunk, env)
  elseif lfs and debug and debug.getupvalue(chunk, 1) == "_ENV" then
    debug.setupvalue(chunk, 1, env) -- (LÖVE's load under a Lua 5.2+ build)
  end
  return chunk, file
end

--- backend.new(name) -> sat: see the top.
function backend.new(name)
  if name ~= "native" and name ~= "lua" then
    error(("bad argument #1 to 'new' (\"native\" or \"lua\" expected, got %s)"):format(
      type(name) == "string" and ("%q"):format(name) or type(name)), 2)
  end
  local core, chosen, module, why = backend.load(name)
  local instance = {
    core = core, name = chosen, module = module, nativeError = why,
    forced = backend.forced, load = backend.load, new = backend.new,
  }
  local loaded = { ["sat.backend"] = instance }
  local env = setmetatable({}, { __index = _G, __newindex = _G })
  local function instance_require(modname)
    local value = loaded[modname]
    if value ~= nil then
      return value
    end
    if type(modname) ~= "string" or (modname ~= "sat" and modname:sub(1, 4) ~= "sat.")
      or shared(modname) then
      return require(modname)
    end
    local chunk, file = load_chunk(modname, env)
    value = chunk(modname, file)
    if value == nil then
      value = true
    end
    loaded[modname] = value
    return value
  end
  rawset(env, "require", instance_require)
  return instance_require("sat")
end

return backend
