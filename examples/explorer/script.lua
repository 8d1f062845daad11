-- The explorer's automated run (SAT_EXPLORER_AUTO=1 or --auto): mouse and keys played frame
-- by frame, the same every run. Each step lasts `frames` frames: `press` keys go down on its
-- first frame; `drag` moves the mouse from one point to another with the button held (the
-- shape under the first point follows); `wheel` turns the wheel by this much per frame at
-- `at`. The explorer suite (make test) checks the log and the screenshot of the last frame.
local script = {}

script.steps = {
  -- a hexagon (a) and a box (b), apart: the first separating axis decides
  { name = "apart",        frames = 10, press = { "r" } },
  -- b dragged onto a: an overlap, the MTV from the axis of least overlap
  { name = "drag",         frames = 40, drag = { 700, 330, 480, 300 } },
  -- a turned by the wheel
  { name = "turn",         frames = 20, wheel = 1, at = { 330, 330 } },
  -- b through every kind (circle, capsule, segment, point, triangle, hexagon, back to the
  -- box), each for a few frames, then a through them (back to the hexagon)
  { name = "kinds-b",      frames = 4, press = { "b" }, times = 7 },
  { name = "kinds-a",      frames = 4, press = { "a" }, times = 7 },
  -- swapped: the same axes seen from the other side
  { name = "swap",         frames = 10, press = { "s" } },
  { name = "swap-back",    frames = 10, press = { "s" } },
  -- the picture: b turned a little and pulled back to a shallow overlap
  { name = "final-turn",   frames = 6, wheel = 1, at = { 480, 300 } },
  { name = "final",        frames = 20, drag = { 480, 300, 478, 292 } },
}

-- Every frame's step and its place in it, worked out once (a step with `times` is that
-- many steps in a row).
local frames = {}
for _, s in ipairs(script.steps) do
  for _ = 1, s.times or 1 do
    for i = 1, s.frames do frames[#frames + 1] = { s, i } end
  end
end

-- Frame f (1-based) -> step, index of the frame within it (1-based); nil past the end.
function script.at(f)
  local at = frames[f]
  if at then return at[1], at[2] end
  return nil
end

function script.totalFrames()
  return #frames
end

return script
