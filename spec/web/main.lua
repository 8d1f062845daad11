-- luacheck: globals love
-- The scene's LÖVE game (spec/web/scene.lua): the dist suite runs it headless with LÖVE (the
-- native module, then the pure backend with sat/native/ deleted), the web suite in a love.js
-- build in headless Chromium. A game folder is this file, conf.lua, scene.lua and a copy of
-- dist/sat/. It prints "backend <name>", the scene's lines, then "DONE <count>" (after
-- "ERROR <message>" when something raised), and quits.
function love.load()
  local count = 0
  local ok, err = xpcall(function()
    local sat = require("sat")
    print("backend " .. sat.backend)
    count = require("scene").run(sat, print)
  end, debug.traceback)
  if not ok then
    print("ERROR " .. tostring(err):gsub("\n", " | "))
  end
  print("DONE " .. count)
  if io and io.stdout then
    io.stdout:flush()
  end
  love.event.quit(ok and 0 or 1)
end
