-- Memory: shapes, vectors and responses are plain userdata and tables the collector frees.
-- Tens of thousands are created and dropped; the heap must come back to about where it was.
local sat = require("sat")

local function settle()
  for _ = 1, 4 do collectgarbage("collect") end
  return collectgarbage("count")
end

describe("garbage collection", function()
  -- Builds n of everything the binding makes, with Lua fields pointing at each other.
  local function build(n, into)
    for i = 1, n do
      local p = sat.polygon(0, 0, 1, 0, 1, 1, 0, 1)
      local c = sat.circle(i, 0, 1)
      p.tag = { i }
      c.other = p
      p.other = c
      local v = sat.vec(i, i) + sat.vec(1, 1) * 2
      local r = sat.collide(p, c:clone())
      if into then into[i] = { p, c, v, r } end
    end
  end

  it("frees tens of thousands of dropped shapes, fields, vecs and responses", function()
    -- Under LuaJIT the FFI path's table of the shapes' own metatables keeps the size of its
    -- peak, like any Lua table: a first round sets it.
    build(20000, {})
    local start = settle()
    local live = {}
    build(20000, live)
    local held = settle() - start
    -- really allocated while held: well over 100 bytes per iteration
    assert.is_true(held > 20000 * 100 / 1024, ("%.1f KB held"):format(held))
    live = nil -- luacheck: ignore 311
    local after = settle()
    -- back to about the start: not one byte per iteration is left
    assert.is_true(after - start < 20000 / 1024, ("%.1f KB left"):format(after - start))
  end)

  it("frees what is created and dropped without ever being held", function()
    -- (LuaJIT's traces are collectable objects too, and the pure backend's loops compile)
    local start, after = require("spec.support").interpreted(function()
      local s = settle()
      build(50000)
      return s, settle()
    end)
    assert.is_true(after - start < 50000 / 1024, ("%.1f KB left"):format(after - start))
  end)

  it("keeps what is still referenced, fields included", function()
    local shapes = {}
    for i = 1, 1000 do
      local s = sat.circle(i, 0, 1)
      s.tag = "n" .. i
      shapes[i] = s
    end
    settle()
    for i = 1, 1000, 97 do
      assert.are.equal("n" .. i, shapes[i].tag)
      assert.are.equal(i, (shapes[i]:position()))
    end
  end)

  it("frees big polygons and their temporary point buffers", function()
    -- (LuaJIT's traces are collectable objects too, and the pure backend's loops compile)
    local start, after = require("spec.support").interpreted(function()
      local s = settle()
      local pts = {}
      for i = 0, 199 do
        local a = 2 * math.pi * i / 200
        pts[#pts + 1] = math.cos(a)
        pts[#pts + 1] = math.sin(a)
      end
      for _ = 1, 2000 do
        local p = sat.polygon(pts)
        p:vertices()
      end
      return s, settle()
    end)
    assert.is_true(after - start < 16, ("%.1f KB left"):format(after - start))
  end)
end)
