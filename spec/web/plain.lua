-- Runs the scene (spec/web/scene.lua) in plain Lua on the backend chosen as usual
-- (SAT_BACKEND=lua|native), printing its lines: `lua spec/web/plain.lua` with sat and this
-- folder on package.path. The first line names the backend; the last is "DONE <count>".
local sat = require("sat")
local scene = require("scene")
print("backend " .. sat.backend)
local n = scene.run(sat, print)
print("DONE " .. n)
