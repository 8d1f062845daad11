-- luacheck: globals love
-- LÖVE configuration of the sat demo.

local function autoMode()
  if os.getenv("SAT_DEMO_AUTO") == "1" then return true end
  for _, a in ipairs(rawget(_G, "arg") or {}) do
    if a == "--auto" then return true end
  end
  return false
end

function love.conf(t)
  t.identity = "sat-demo"          -- save dir: ~/.local/share/love/sat-demo on Linux
  t.version = "11.4"
  t.window.title = "sat - SAT collision for LÖVE"
  t.window.width = 960
  t.window.height = 640
  t.window.resizable = false
  t.window.vsync = autoMode() and 0 or 1 -- the scripted run uses a fixed dt: no need to wait
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
