-- luacheck: globals love
-- The replay scene (spec/replay/scene.lua) as a LÖVE game: the replay suite runs it in a
-- love.js web build in headless Chromium (spec/web/run.sh), where no native module loads and
-- sat takes the pure backend (Lua 5.1 in WebAssembly). A game folder is this file,
-- spec/web/conf.lua, scene.lua, sat/ (lua/sat of the checkout) and frames.lua (returns the
-- count of frames). It prints "backend <name> <_VERSION>", the scene's digest lines, then "DONE <lines>"
-- (after "ERROR <message>" when something raised), and quits.
function love.load()
  local count = 0
  local ok, err = xpcall(function()
    local sat = require("sat")
    print("backend " .. sat.backend .. " " .. _VERSION)
    require("scene").run(require("frames"), function(line)
      count = count + 1
      print(line)
    end)
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
