-- Checks a folder made by `make dist` with nothing else on the paths (make dist runs it with
-- LUA_PATH='dist/?.lua;dist/?/init.lua' and an empty LUA_CPATH, under each Lua it built for):
-- every module that init.lua can require, followed through the files it names, is in the
-- folder and loads from it, sat.core from the folder's native/ through sat/loader.lua; then a
-- collision, a world and sat.debug's drawing-free helpers work.
--   <lua> spec/dist/check.lua dist/sat
-- Prints one line; exits 1 with the reasons when something is missing.
local dir = assert(arg[1], "usage: check.lua DIST_SAT_DIR")
local problems = {}

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  return text
end

-- Names of the binding's types, which the pure backend's files name too (what getmetatable
-- gives for its objects, src/lua/lsat.h's LSAT_MT_*): not modules.
local TYPE_NAMES = {}
for _, t in ipairs({ "vec", "polygon", "circle", "segment", "capsule", "compound", "response",
                     "hash", "explanation" }) do
  TYPE_NAMES["sat." .. t] = true
end

-- the modules named by the Lua files, from init.lua on: "sat.world" -> world.lua
local found, order = { sat = true }, { "sat" }
local i = 1
while order[i] do
  local name = order[i]
  local file = name == "sat" and "init.lua" or name:gsub("^sat%.", ""):gsub("%.", "/") .. ".lua"
  local text = read(dir .. "/" .. file)
  if not text then
    problems[#problems + 1] = ("%s: %s is not in %s"):format(name, file, dir)
  else
    for other in text:gmatch("[\"'](sat%.[%w_%.]+)[\"']") do
      if not found[other] and not TYPE_NAMES[other] then
        found[other] = true
        order[#order + 1] = other
      end
    end
  end
  i = i + 1
end

local loaded = {}
for _, name in ipairs(order) do
  local ok, mod = pcall(require, name)
  if not ok then
    problems[#problems + 1] = ("require(%q) fails: %s"):format(name, tostring(mod))
  elseif mod == nil then
    problems[#problems + 1] = ("require(%q) returned nothing"):format(name)
  else
    loaded[#loaded + 1] = name
  end
end

local native = package.loaded["sat.loader"] and package.loaded["sat.loader"].path
native = native and native:gsub("^%./", "")
if not native then
  problems[#problems + 1] = "sat.core was not loaded by sat/loader.lua from native/"
elseif native:sub(1, #dir + 8) ~= dir .. "/native/" then
  problems[#problems + 1] = "sat.core came from " .. native .. ", outside " .. dir
end

if #problems == 0 then
  local ok, err = pcall(function()
    local sat = require("sat")
    local r = assert(sat.collide(sat.circle(0, 0, 1), sat.box(0.5, -1, 2, 2)), "no collision")
    assert(r.overlap == 0.5 and r.normal.x == 1, "wrong response " .. tostring(r.normal))
    local w = sat.world(16)
    local a = w:add(sat.circle(0, 0, 4))
    w:add(sat.box(2, -2, 4, 4))
    assert(#w:queryShape(a) == 1, "queryShape")
    assert(#sat.debug.contacts(w) == 1, "sat.debug.contacts")
  end)
  if not ok then problems[#problems + 1] = "using it: " .. tostring(err) end
end

local lua = rawget(_G, "jit") and jit.version or _VERSION
if #problems > 0 then
  io.stderr:write(("dist check (%s) FAILED for %s:\n  %s\n"):format(lua, dir,
    table.concat(problems, "\n  ")))
  os.exit(1)
end
print(("dist check (%s): %s load from %s; sat.core is %s"):format(lua,
  table.concat(loaded, ", "), dir, native:sub(#dir + 2)))
