-- A scripted scene that shows sat at work: `make demo`.
-- Shapes are built, moved and tested; each step prints what collides and why.
local sat = require("sat")

local function fmt(n)
  return string.format("%.4g", n)
end

local function say(...)
  print(string.format(...))
end

local function report(label, a, b)
  local r = sat.collide(a, b)
  if not r then
    say("  %-34s no contact", label)
    return nil
  end
  local inside = r.aInB and "a is inside b" or r.bInA and "b is inside a" or "partial"
  say("  %-34s overlap %s, normal (%s, %s), mtv (%s, %s), %s",
    label, fmt(r.overlap), fmt(r.normal.x), fmt(r.normal.y), fmt(r.mtv.x), fmt(r.mtv.y), inside)
  return r
end

say("%s: separating axis tests for convex polygons, circles, segments and capsules", sat._VERSION)
say("")

say("1. A crate slides right into a wall.")
local wall = sat.box(100, 0, 20, 100)
local crate = sat.box(60, 40, 30, 30)
say("   %s and %s", tostring(wall), tostring(crate))
for step = 1, 4 do
  crate:move(5, 0)
  local x = crate:bbox()
  report(string.format("step %d: crate left edge at x=%s", step, fmt(x)), crate, wall)
end
local r = sat.collide(crate, wall)
if r then
  crate:move(r.mtv.x, r.mtv.y)
  local _, _, right = crate:bbox()
  say("   pushed out by the mtv: crate's right edge is at x=%s, the wall's left edge at 100", fmt(right))
  report("after the push (touching counts)", crate, wall)
end
say("")

say("2. The normal points from a toward b, so swapping flips it.")
local ball = sat.circle(118, 110, 15)
say("   %s", tostring(ball))
report("collide(ball, wall)", ball, wall)
report("collide(wall, ball)", wall, ball)
say("")

say("3. Containment: a coin fully inside a chest.")
local chest = sat.polygon(0, 200, 80, 200, 80, 260, 0, 260)
local coin = sat.circle(20, 230, 6)
report("collide(coin, chest)", coin, chest)
local c = sat.collide(coin, chest)
coin:move(c.mtv.x, c.mtv.y)
local cx, cy = coin:position()
say("   coin:move(mtv) takes it out through the nearest side, to (%s, %s),", fmt(cx), fmt(cy))
report("and now just touching", coin, chest)
say("")

say("4. Rotation pivots about the centroid; circles stay exact (no polygon stand-in).")
local plank = sat.box(200, 200, 120, 10)
local pebble = sat.circle(300, 168, 8)
report("flat plank vs pebble above it", plank, pebble)
plank:rotate(-math.pi / 6)
report("plank tilted 30 degrees up", plank, pebble)
local v = plank:vertices()
for i = 1, #v do
  v[i] = fmt(v[i])
end
say("   the plank's corners are now %s", table.concat(v, ", "))
say("   the normal is the plank's upper face: the pebble would be pushed up and to the left")
say("")

say("5. Far from the origin nothing degrades.")
local a1, b1 = sat.box(0, 0, 10, 10), sat.circle(12, 5, 3)
local near = sat.collide(a1, b1).overlap
a1:move(1e9, -1e9)
b1:move(1e9, -1e9)
local far = sat.collide(a1, b1).overlap
say("  overlap at the origin %s, at (1e9, -1e9) %s", fmt(near), fmt(far))
say("")

say("6. Capsules and segments are exact too: a capsule's round end against a box's corner is")
say("   the true distance; a circle centred on a segment goes out to the segment's left.")
report("capsule end vs box corner", sat.capsule(7, 8, 7, 12, 6), sat.box(0, 0, 4, 4))
report("circle centred on a segment", sat.circle(0, 0, 2), sat.segment(-50, 0, 50, 0))
report("capsule standing on a segment", sat.capsule(0, -30, 0, -10, 10), sat.segment(-50, 0, 50, 0))
say("")

say("7. A world: a level built from a tile map by sat.level.grid, its 11 tiles merged into static")
say("   boxes that each fit in two cells of the world's hash (static shapes never pair with each")
say("   other), and a player who walks down and right: it lands on the floor, slides along it")
say("   over the seams and stops against the wall.")
local world = sat.world(64)
local map = {
  ".......#",
  ".......#",
  ".......#",
  "########",
}
for _, s in ipairs(sat.level.grid(world, map, 32, 32)) do
  local _, top = s:bbox()
  s.name = top == 96 and "floor" or "wall"
  say("  %s: %s", s.name, tostring(s))
end
local player = world:add(sat.circle(90, 46, 12))
player.name = "player"
function player:onEnter(other, resp)
  say("   enter: player touches the %s (normal %s, %s)", other.name, fmt(resp.normal.x), fmt(resp.normal.y))
end
function player:onExit(other)
  say("   exit: player leaves the %s", other.name)
end
say("  %d shapes, %d pairs among them", world:count() - 1, world:step())
local hits = {} -- filled again by every move: no garbage
for frame = 1, 11 do
  local x, y = world:move(player, 12, 6, hits)
  world:step()
  say("  frame %d: player at (%s, %s), %d contact(s)", frame, fmt(x), fmt(y), #hits)
end
world:move(player, -60, -40)
world:step()
local px, py = player:position()
say("  the player jumps away to (%s, %s)", fmt(px), fmt(py))
say("")

say("8. How the test decided (sat.explain), where they touch (sat.contacts), and when a moving")
say("   shape first touches another (sat.sweep).")
local box, disc = sat.box(0, 0, 10, 10), sat.circle(13, 14, 6)
print(sat.explain(box, disc))
local n, x1, y1 = sat.contacts(box, disc)
say("  %d contact point: (%s, %s), midway between the corner and the circle", n, fmt(x1), fmt(y1))
local t, nx, ny, hx, hy = sat.sweep(sat.box(-50, 0, 10, 10), 100, 0, box)
say("  a box moving 100 right meets the first at t=%s, normal (%s, %s), at (%s, %s)", fmt(t),
  fmt(nx), fmt(ny), fmt(hx), fmt(hy))
say("")
say("Done. See README.md for the whole API.")
