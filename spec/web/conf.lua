-- luacheck: globals love
-- LÖVE configuration of the scene's game (spec/web/main.lua): a small window, no audio.
function love.conf(t)
  t.identity = "sat-scene"
  t.version = "11.4"
  t.window.title = "sat scene"
  t.window.width = 160
  t.window.height = 120
  t.window.vsync = 0
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
