-- luacheck: globals love
-- LÖVE configuration of the SAT explorer: a fixed window; the scripted run (main.lua) needs
-- no vsync.

function love.conf(t)
  local args = table.concat(rawget(_G, "arg") or {}, " ")
  t.identity = "sat-explorer"
  t.version = "11.4"
  t.window.title = "sat - the SAT explorer"
  t.window.width, t.window.height, t.window.resizable = 1120, 680, false
  t.window.msaa = 4
  t.window.vsync = (os.getenv("SAT_EXPLORER_AUTO") == "1" or args:find("--auto", 1, true))
    and 0 or 1
  for _, m in ipairs({ "audio", "sound", "joystick", "physics", "video" }) do
    t.modules[m] = false
  end
end
