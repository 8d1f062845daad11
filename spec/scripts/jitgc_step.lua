-- Run by spec/world_jitgc_spec.lua: under LuaJIT in a LuaJIT of its own (it hung for ever
-- before the world stopped walking tables with pairs loops), elsewhere in the spec's Lua.
-- Returns (and, run as a script, prints "done true") whether the finalizer that stepped the
-- world from inside a step was refused, as it must be.
local sat = require("sat")
local w = sat.world(32)
w:add(sat.circle(0, 0, 5))
w:add(sat.circle(1, 0, 5))
local mode = "quiet"
local finalizerRan = false
local function arm()
  local function fin()
    finalizerRan = pcall(w.step, w) == false -- refused: a step is under way
  end
  if newproxy then -- luacheck: ignore 113 (LuaJIT, Lua 5.1)
    getmetatable(newproxy(true)).__gc = fin -- luacheck: ignore 113
  else
    setmetatable({}, { __gc = fin })
  end
end
w:on("stay", function()
  if mode == "yield" then
    coroutine.yield()
  elseif mode == "gc" then
    mode = "quiet"
    arm()
    collectgarbage()
  end
end)
w:step() -- enter
mode = "yield"
local co = coroutine.create(function() w:step() end)
local resumed, err = coroutine.resume(co) -- a step suspended in its handler
if not resumed and not tostring(err):find("yield across", 1, true) then
  error(err, 0) -- (Lua 5.1 cannot yield through the step's pcall: no step is suspended there)
end
mode = "quiet"
for _ = 1, 300 do w:step() end -- each walks the steppers (one coroutine): compiled
mode = "gc"
w:step() -- its handler runs a finalizer that steps the world: the steppers hold the main thread too
if arg and arg[0] and arg[0]:find("jitgc_step", 1, true) then
  print("done", finalizerRan)
end
return finalizerRan
