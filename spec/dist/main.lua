-- luacheck: globals love
-- The main.lua of the game the dist suite ships (spec/suites/dist.sh puts it, with
-- spec/love/conf.lua and dist/sat/, in a folder, a .love, a fused executable). It knows
-- nothing of the checkout: it requires sat as a shipped game does, and writes to
-- $SAT_DIST_OUT "loaded <file>" and "copied yes|no" (from sat.loader), then one line per
-- check, "ok <name>" or "not ok <name> - <error>"; it quits with status 0 when all passed.
local out = {}

local checks = {
  { "a collision", function(sat)
    local r = assert(sat.collide(sat.circle(0, 0, 1), sat.box(0.5, -1, 2, 2)))
    assert(r.overlap == 0.5 and r.normal.x == 1, tostring(r.normal))
  end },
  { "the FFI path is on", function(sat) assert(sat.test ~= sat.core.test) end },
  { "a world moves a box along a wall", function(sat)
    local w = sat.world(32)
    local box = w:add(sat.box(0, 0, 10, 10))
    w:add(sat.box(20, -50, 10, 100))
    -- by (20, 5): its centre from (5, 5) to (25, 10), stopped where its right side
    -- touches the wall (x = 20), sliding on in y
    local x, y, hits = w:move(box, 20, 5)
    assert(x == 15 and y == 10 and #hits == 1, ("%s %s %d"):format(x, y, #hits))
  end },
  { "sat.debug draws", function(sat)
    local w = sat.world(32)
    w:add(sat.circle(40, 40, 20))
    w:add(sat.box(50, 30, 30, 30))
    assert(sat.debug.drawWorld(w, { contacts = true }) == 1)
  end },
}

function love.load()
  local loaded, sat = pcall(require, "sat")
  if not loaded then
    out[1] = "not ok require sat - " .. tostring(sat):gsub("\n", " | ")
    return
  end
  local loader = require("sat.loader")
  out[1] = "ok require sat"
  out[2] = "loaded " .. tostring(loader.path)
  out[3] = "copied " .. (loader.copied and "yes" or "no")
  for _, c in ipairs(checks) do
    local passed, err = pcall(c[2], sat)
    out[#out + 1] = passed and "ok " .. c[1] or ("not ok %s - %s"):format(c[1], tostring(err))
  end
end

function love.update()
  local f = assert(io.open(os.getenv("SAT_DIST_OUT"), "w"))
  f:write(table.concat(out, "\n"), "\n")
  f:close()
  love.event.quit(table.concat(out, "\n"):find("not ok") and 1 or 0)
end
