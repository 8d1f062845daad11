-- A tiny LÖVE program that checks sat inside LÖVE 11 (LuaJIT): it requires the module
-- `make LUA=luajit` built, runs collisions, draws shapes with love.graphics, writes one line
-- per check ("ok <name>" / "not ok <name> - <error>") to $SAT_LOVE_OUT (or stdout) and quits
-- with status 0 when every check passed. SAT_ROOT is the checkout (spec/suites/love.sh).
local root = os.getenv("SAT_ROOT") or "."
package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
package.cpath = root .. "/build/luajit/?.so;" .. package.cpath

local results = {}
local failed = 0
local sat

local function check(name, f)
  local ok, e = pcall(f)
  if ok then
    results[#results + 1] = "ok " .. name
  else
    failed = failed + 1
    results[#results + 1] = "not ok " .. name .. " - " .. tostring(e):gsub("\n", " ")
  end
end

local function near(a, b, what)
  if math.abs(a - b) > 1e-12 then
    error(("%s: %.17g, expected %.17g"):format(what, a, b), 2)
  end
end

local function finish()
  local text = table.concat(results, "\n") .. "\n"
  local path = os.getenv("SAT_LOVE_OUT")
  if path and path ~= "" then
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
  else
    io.write(text)
    io.flush()
  end
  love.event.quit(failed == 0 and 0 or 1)
end

local shapes = {}

function love.load()
  check("runs on LuaJIT", function()
    assert(type(jit) == "table" and jit.version, "not LuaJIT")
  end)
  check("require sat", function()
    sat = require("sat")
    assert(sat._VERSION:match("^sat %d"), sat._VERSION)
  end)
  if not sat then return end

  check("the hot calls go through the FFI, and agree with the C ones", function()
    assert(jit.status(), "LÖVE runs with the JIT on")
    local core = sat.core
    assert(sat.test ~= core.test and sat.collide ~= core.collide, "sat.fast is not installed")
    local a, b, c = sat.circle(0, 0, 1), sat.box(0.5, -1, 2, 2), sat.polygon(5, 5, 6, 5, 5, 6)
    assert(sat.test(a, b) == core.test(a, b) and sat.test(a, c) == core.test(a, c))
    local hit, mx, my = a:collidesWith(b)
    local r = core.collide(a, b)
    assert(hit and mx == r.mtv.x and my == r.mtv.y, "collidesWith differs from the C collide")
    assert(sat.collide(a, b).overlap == r.overlap)
  end)

  check("narrow phase", function()
    local a, b = sat.circle(0, 0, 1), sat.box(0.5, -1, 2, 2)
    assert(sat.test(a, b))
    local r = assert(sat.collide(a, b))
    near(r.overlap, 0.5, "overlap")
    near(r.normal.x, 1, "normal.x")
    local hit, mx, my = a:collidesWith(b)
    assert(hit)
    near(mx, -0.5, "mx")
    near(my, 0, "my")
    a:move(mx, my)
    near(sat.collide(a, b).overlap, 0, "overlap after the move")
  end)

  check("category and mask with LuaJIT's bit library", function()
    local s = sat.box(0, 0, 1, 1)
    s.mask = bit.bnot(2) -- a negative number in LuaJIT: the low 32 bits are kept
    assert(s.mask == 0xFFFFFFFD, tostring(s.mask))
    s.category = bit.lshift(1, 31)
    assert(s.category == 2 ^ 31, tostring(s.category))
  end)

  check("vectors and tostring", function()
    local v = sat.vec(3, 4)
    assert(tostring(v + v) == "vec(6, 8)")
    near(v:normalized().x, 0.6, "normalized")
    assert(tostring(sat.box(9, 19, 2, 2)) == "polygon(4 vertices at 10, 20)")
  end)

  check("errors name the function and argument", function()
    local ok, e = pcall(function() local c = sat.circle(0, 0, -1) return c end)
    assert(not ok and e:find("bad argument #3 to 'circle' (radius must be >= 0)", 1, true), e)
  end)

  check("a reused response allocates nothing", function()
    local a, b, r = sat.circle(0, 0, 1), sat.box(0.5, -1, 2, 2), {}
    -- one loop, warmed up first: compiling its trace allocates (once), calling does not
    local function run(n) for _ = 1, n do sat.collide(a, b, r) end end
    run(1000)
    collectgarbage("collect")
    collectgarbage("stop")
    local before = collectgarbage("count")
    run(100000)
    local grown = collectgarbage("count") - before
    collectgarbage("restart")
    assert(grown < 1, grown .. " KB")
  end)

  -- the world (Lua layer) too, once lua/sat/world.lua exists
  if package.searchpath("sat.world", package.path) then
    check("a world finds a collision", function()
      local w = sat.world(32)
      local a, b = w:add(sat.circle(0, 0, 10)), w:add(sat.box(5, -5, 20, 10))
      w:add(sat.point(500, 500))
      local found = w:queryShape(a)
      assert(#found == 1 and found[1] == b, "queryShape found " .. #found)
      assert(#w:queryPoint(500, 500) == 1)
    end)
  end

  shapes = {
    sat.box(10, 10, 40, 30):rotate(0.3),
    sat.polygon(80, 10, 120, 20, 100, 60),
    sat.circle(60, 90, 15),
  }
end

local drawn = false

function love.draw()
  if sat and not drawn then
    drawn = true
    check("love.graphics draws shapes from vertices() and position()", function()
      for _, s in ipairs(shapes) do
        if s:kind() == "polygon" then
          love.graphics.polygon("line", s:vertices())
        else
          local x, y = s:position()
          love.graphics.circle("line", x, y, s:radius())
        end
      end
    end)
  end
end

function love.update()
  if drawn or not sat then finish() end
end
