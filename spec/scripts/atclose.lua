-- The lua_close cases of issue 25 (#7): a game whose finalizer calls sat when the interpreter
-- closes. Lua 5.1 and LuaJIT unload C modules at lua_close (the package library's finalizer of
-- their handles) while later finalizers may still call into them; the module is never unloaded
-- (-z nodelete on Linux, pinned at luaopen on Windows), so each case ends with exit status 0.
--   <lua> spec/scripts/atclose.lua CASE [PATH CPATH]
-- runs one case (a name of `cases` below; `list` prints them) in this process, with
-- package.path and package.cpath PATH and CPATH when given; every case prints "at close: ..."
-- from a finalizer run by lua_close. Run by spec/hardening_spec.lua (a child process of the
-- interpreter busted runs under) and spec/suites/chaos.sh (under Lua 5.1, 5.2, 5.3, 5.4 and
-- LuaJIT).
local name, path, cpath = ...
if path then
  package.path = path
end
if cpath then
  package.cpath = cpath
end

local newproxy = rawget(_G, "newproxy")

-- An object whose collection runs fn (a table's __gc does nothing under Lua 5.1 / LuaJIT).
local function onCollect(fn)
  if newproxy then
    local p = newproxy(true)
    getmetatable(p).__gc = fn
    return p
  end
  return setmetatable({}, { __gc = fn })
end

-- Each case leaves what the finalizers need in `keep` (reachable until lua_close).
local keep = {}

local cases = {}

-- a finalizer made before require("sat"): collected after the module's handle (made later)
cases.before = function()
  keep.finalizer = onCollect(function()
    local sat = package.loaded.sat
    local a, b = sat.circle(0, 0, 2), sat.box(1, -1, 2, 2)
    a:rotate(1)
    local r = sat.collide(a, b)
    print("at close: " .. tostring(r.overlap))
  end)
  keep.sat = require("sat")
end

-- a sentinel that re-arms itself, each time calling sat: one runs after every other finalizer
cases.sentinel = function()
  local runs, closing = 0, false
  local function sentinel()
    onCollect(function()
      runs = runs + 1
      local sat = package.loaded.sat
      if type(sat) == "table" then -- (Lua 5.1: a marker while it loads)
        local p = sat.polygon(0, 0, 3, 0, 3, 2, 0, 2)
        p:rotate(0.5)
        p:scale(2)
        if closing then
          print("at close: " .. runs)
        end
      end
      sentinel()
    end)
  end
  sentinel()
  keep.sat = require("sat")
  for _ = 1, 3 do
    collectgarbage()
  end
  closing = true
end

-- a finalizer that makes a world at close, and steps it
cases.world = function()
  keep.finalizer = onCollect(function()
    local sat = package.loaded.sat
    local w = sat.world(8)
    local a = w:add(sat.circle(0, 0, 2))
    w:add(sat.box(1, -1, 4, 4))
    w:step()
    print("at close: " .. #w:collisions(a))
  end)
  local sat = require("sat")
  keep.sat = sat
  keep.world = sat.world()
  keep.world:add(sat.circle(0, 0, 1))
end

-- a finalizer calling the FFI path under LuaJIT (the C functions elsewhere)
cases.ffi = function()
  keep.finalizer = onCollect(function()
    local sat = package.loaded.sat
    local a, b = sat.circle(0, 0, 2), sat.box(1, -1, 2, 2)
    local hit = a:collidesWith(b)
    a:move(1, 0)
    local x = a:position()
    print("at close: " .. tostring(hit and sat.test(a, b) and sat.collide(a, b).overlap) .. " " .. x)
  end)
  keep.sat = require("sat")
end

if name == "list" then
  local names = {}
  for k in pairs(cases) do
    names[#names + 1] = k
  end
  table.sort(names)
  print(table.concat(names, " "))
  return
end
local case = cases[name]
if not case then
  io.stderr:write("atclose.lua: no case " .. tostring(name) .. "\n")
  os.exit(2)
end
case()
-- (the finalizers run at lua_close, after this chunk returns)
_G.atclose_keep = keep
