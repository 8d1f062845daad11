-- The automated run (SAT_DEMO_AUTO=1 or --auto): a fixed list of inputs played at a fixed
-- dt, so every run of the demo is the same. The love-demo suite (make test) checks its log.
--
-- Each step holds some keys for a number of frames under a phase name; `press` keys are
-- pressed (love.keypressed) on the step's first frame.
local script = {}

script.dt = 1 / 60

script.steps = {
  -- every other key once (reset, each body, fill and help off and on), ending as a box
  { phase = "start",       frames = 10,
    press = { "r", "2", "3", "4", "1", "f", "f", "h", "h" } },
  -- the box goes diagonally into wall-mid and must slide down along it
  { phase = "slide",       frames = 100, hold = { "right", "down" } },
  -- as a circle, left through zone-a (enter), then up out of it (exit)
  { phase = "zone",        frames = 60, hold = { "left" }, press = { "tab" } },
  { phase = "zone-exit",   frames = 50, hold = { "up" } },
  -- as a polygon, down onto the 45 degree slope, then along it
  { phase = "slope",       frames = 130, hold = { "down" }, press = { "tab" } },
  -- thousands of moving shapes for a moment
  { phase = "stress",      frames = 20, press = { "s", "+" } },
  { phase = "stress-off",  frames = 5, press = { "-", "s" } },
  -- overlays on, back to the box, right along the bottom toward the moving obstacles
  { phase = "final",       frames = 110, hold = { "right" }, press = { "b", "c", "n", "1" } },
  -- a new level, the player a capsule: up under the ledge (a segment), along its underside
  -- and round its end, up, back left above it, down onto it, and along its top
  { phase = "capsule",         frames = 30, hold = { "up" }, press = { "r", "4" } },
  { phase = "capsule-ceiling", frames = 50, hold = { "up", "right" } },
  { phase = "capsule-rise",    frames = 20, hold = { "up" } },
  { phase = "capsule-left",    frames = 40, hold = { "left" } },
  { phase = "capsule-fall",    frames = 20, hold = { "down" } },
  { phase = "capsule-walk",    frames = 20, hold = { "down", "right" } },
  -- the platformer room (platform.lua): the hero walks onto the lift and rides it up and
  -- down, walks left up the stairs (steps of 6 px), over the plateau and down the 30 degree
  -- slope, jumps up through the one-way ledge and lands on it, then drops through it
  { phase = "platform",       frames = 30, press = { "p" } },
  { phase = "plat-onto-lift", frames = 40, hold = { "right" } },
  { phase = "plat-ride",      frames = 480 },
  { phase = "plat-walk",      frames = 220, hold = { "left" } },
  { phase = "plat-jump",      frames = 5, hold = { "up" } },
  { phase = "plat-stand",     frames = 70 },
  { phase = "plat-drop",      frames = 50, hold = { "down" } },
  -- back to the arena for the screenshot
  { phase = "arena",          frames = 2, press = { "p" } },
}

-- Frame f (1-based) -> step, index of the frame within the step.
function script.at(f)
  local first = 1
  for _, s in ipairs(script.steps) do
    if f < first + s.frames then return s, f - first + 1 end
    first = first + s.frames
  end
  return nil
end

function script.totalFrames()
  local n = 0
  for _, s in ipairs(script.steps) do n = n + s.frames end
  return n
end

function script.isDown(f, key)
  local s = script.at(f)
  if not s or not s.hold then return false end
  for _, k in ipairs(s.hold) do
    if k == key then return true end
  end
  return false
end

-- Keys pressed at frame f.
function script.pressed(f)
  local s, i = script.at(f)
  if s and i == 1 and s.press then return s.press end
  return {}
end

return script
