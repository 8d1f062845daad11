-- LÖVE configuration of the binding's smoke test (spec/suites/love.sh runs it headless).
function love.conf(t)
  t.identity = "sat-spec"
  t.version = "11.4"
  t.window.title = "sat LÖVE check"
  t.window.width = 160
  t.window.height = 120
  t.window.vsync = 0
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
