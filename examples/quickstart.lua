local sat = require("sat")

local player = sat.box(100, 100, 32, 48)    -- top-left corner and size, as love.graphics.rectangle
local wall = sat.polygon(120, 90, 200, 90, 200, 300, 120, 300)
local coin = sat.circle(150, 200, 8)

local r = sat.collide(player, wall)         -- a response, or nil when apart
print(r.overlap, r.normal, r.mtv)           --> 12.0  vec(1, 0)  vec(-12, 0)
player:move(r.mtv:unpack())                 -- out by the MTV: now touching, not overlapping
print(sat.test(player, wall), sat.collide(player, wall).overlap)  --> true  0.0
print(sat.collide(coin, wall).aInB)         --> true: the coin is inside the wall

local world = sat.world(64)                 -- spatial hash, 64-unit cells
world:add(player); world:add(wall)
player.name, wall.name = "player", "wall"   -- shapes take any Lua field
function player:onEnter(other) print("player touches the " .. other.name) end
world:step()                                --> player touches the wall
local x, y, hits = world:move(player, 30, 25) -- slides down the wall instead of entering it
print(x, y, #hits, hits[1].normal)          --> 104.0  149.0  1  vec(1, 0)
