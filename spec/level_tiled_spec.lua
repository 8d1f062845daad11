-- sat.level.tiled on the test maps of spec/maps/ (Tiled's Lua export, a JSON export, an
-- infinite map, and the Lua map as STI leaves it): every shape against geometry computed by
-- hand from the map, its fields, the warnings; and every kind of malformed map refused with
-- a message naming what is wrong, the world left as it was.
local sat = require("sat")
local support = require("spec.support")
-- (tests whose maps make concave shapes or chains: pending where the backend has none yet)
local it_compound = support.needs(it, pending, "compound")
local L = require("spec.level_support")

local TOL = 1e-9

-- ---- comparing a shape with what it must be ------------------------------------------------

-- The points of pts ({x1, y1, ...}) and want are the same set, each within TOL.
local function samePoints(got, want, what)
  assert(#got == #want, ("%s: %d coordinates, want %d"):format(what, #got, #want))
  local used = {}
  for i = 1, #want, 2 do
    local found = false
    for j = 1, #got, 2 do
      if not used[j] and math.abs(got[j] - want[i]) <= TOL and math.abs(got[j + 1] - want[i + 1]) <= TOL then
        used[j], found = true, true
        break
      end
    end
    assert(found, ("%s: no vertex at %s, %s (got %s)"):format(what, want[i], want[i + 1],
      table.concat(got, ", ")))
  end
end

local function rect(x1, y1, x2, y2)
  return { kind = "polygon", pts = { x1, y1, x2, y1, x2, y2, x1, y2 } }
end
local function poly(...)
  return { kind = "polygon", pts = { ... } }
end
local function circle(x, y, r)
  return { kind = "circle", x = x, y = y, r = r }
end

-- shape is what want says: its kind and geometry, and each field of want.fields (a vec
-- compared by value; false means the field must be absent).
local function check(shape, want, what)
  if want.kind == "circle" then
    assert.equal("circle", shape:kind(), what)
    local x, y = shape:position()
    support.near(want.x, x, TOL, what .. " x")
    support.near(want.y, y, TOL, what .. " y")
    support.near(want.r, shape:radius(), TOL, what .. " r")
  elseif want.kind == "polygon" then
    assert.equal("polygon", shape:kind(), what)
    samePoints(shape:vertices(), want.pts, what)
  elseif want.kind == "concave" then
    assert.equal("compound", shape:kind(), what)
    samePoints(shape:vertices(), want.pts, what)
    support.near(want.area, shape:area(), TOL, what .. " area")
  elseif want.kind == "chain" then
    assert.equal("compound", shape:kind(), what)
    local parts = shape:parts()
    assert.equal(#want.pts / 2 - 1, #parts, what)
    for i, seg in ipairs(parts) do
      local x1, y1, x2, y2 = seg:endpoints()
      local k = 2 * i - 1
      samePoints({ x1, y1, x2, y2 }, { want.pts[k], want.pts[k + 1], want.pts[k + 2], want.pts[k + 3] },
        what .. " segment " .. i)
    end
  end
  for k, v in pairs(want.fields or {}) do
    local got = shape[k]
    if v == false then
      assert(got == nil, ("%s: field %s is %s, want none"):format(what, k, tostring(got)))
    elseif sat.isVec(v) then
      assert(sat.isVec(got) and got.x == v.x and got.y == v.y,
        ("%s: field %s is %s, want %s"):format(what, k, tostring(got), tostring(v)))
    else
      assert(got == v, ("%s: field %s is %s, want %s"):format(what, k, tostring(got), tostring(v)))
    end
  end
end

local function checkAll(shapes, want, label)
  for i = 1, math.min(#shapes, #want) do
    check(shapes[i], want[i], ("%s shape %d"):format(label, i))
  end
  assert.equal(#want, #shapes)
end

-- ---- spec/maps/features.lua, by hand --------------------------------------------------------
-- Tiles of 16. The flips of the slope (its collision triangle (0,16) (16,0) (16,16) in its
-- own frame): horizontal x -> 16 - x; vertical y -> 16 - y; diagonal x <-> y.

local wall = { name = "walls", type = "terrain", class = "terrain", collidable = true, role = "wall" }
local function with(base, more)
  local t = {}
  for k, v in pairs(base) do t[k] = v end
  for k, v in pairs(more) do t[k] = v end
  return t
end
local slope = with(wall, { slope = 45 })
local bumper = with(wall, { bumper = true })

local function egg() -- the ellipse 40 x 20 at (0, 150): 24 vertices on it, from its right end
  local pts = {}
  for k = 0, 23 do
    local a = 2 * math.pi * k / 24
    pts[#pts + 1] = 20 + 20 * math.cos(a)
    pts[#pts + 1] = 160 + 10 * math.sin(a)
  end
  return pts
end

local c30, s30 = math.cos(math.pi / 6), 0.5

local FEATURES = {
  -- layer 1 "walls": merged ("rects": row runs, merged down where equal), in reading order
  -- of their top-left tiles; the ice tiles are a kind of their own
  { kind = "polygon", pts = rect(0, 0, 64, 16).pts, fields = with(wall, { surface = false }) },
  { kind = "polygon", pts = rect(96, 0, 128, 32).pts,
    fields = with(wall, { type = "ice", class = "ice", surface = "ice" }) },
  { kind = "polygon", pts = rect(0, 16, 16, 80).pts, fields = wall },
  { kind = "polygon", pts = rect(48, 16, 64, 32).pts, fields = wall },
  { kind = "polygon", pts = rect(112, 32, 128, 80).pts, fields = wall },
  { kind = "polygon", pts = rect(0, 80, 128, 96).pts, fields = wall },
  -- the tiles with collision shapes, in cell order: the slope at column 3, row 3 (its image
  -- at 32, 32); flipped horizontally at 80, 32; vertically at 16, 64; diagonally at 32, 64
  { kind = "polygon", pts = poly(32, 48, 48, 32, 48, 48).pts, fields = slope },
  { kind = "polygon", pts = poly(96, 48, 80, 32, 80, 48).pts, fields = slope },
  { kind = "polygon", pts = poly(16, 64, 32, 80, 32, 64).pts, fields = slope },
  { kind = "polygon", pts = poly(48, 64, 32, 80, 48, 80).pts, fields = slope },
  -- the half block flipped all three ways at 48, 64: its bottom half becomes the left half;
  -- the bumper's centre (8, 4) goes to (4, 8) -> (12, 8) -> (12, 8)
  { kind = "polygon", pts = rect(48, 64, 56, 80).pts, fields = with(wall, { bumper = false }) },
  circle(60, 72, 4),
  -- unflipped at 80, 64
  { kind = "polygon", pts = rect(80, 72, 96, 80).pts, fields = wall },
  circle(88, 68, 4),
  -- layer 2.1 "ledges" at 100 + 4, 50 (group and layer offsets), solid from the group: the
  -- plain row merged as the layer merges, then the one-way tiles in rows only
  { kind = "polygon", pts = rect(104, 82, 168, 98).pts,
    fields = { name = "ledges", collidable = true, oneway = false, type = false } },
  { kind = "polygon", pts = rect(104, 50, 152, 66).pts,
    fields = { name = "ledges", collidable = true, oneway = sat.vec(0, 1) } },
  { kind = "polygon", pts = rect(104, 66, 152, 82).pts,
    fields = { name = "ledges", collidable = true, oneway = sat.vec(0, 1) } },
  -- layer 2.2.1 "markers" at 100 + 2, 50 + 3: taken out, but for the door
  { kind = "polygon", pts = rect(112, 53, 120, 69).pts,
    fields = { name = "door", id = 21, collidable = true } },
  -- layer 3 "decor", not solid: the spikes' own shape; the big tile (32 x 32, anchored at
  -- its cell's bottom-left: column 4, row 1)
  { kind = "polygon", pts = rect(2, 12, 14, 16).pts,
    fields = { name = "decor", type = "hazard", class = "hazard", damage = 1, collidable = true } },
  { kind = "polygon", pts = rect(48, -16, 80, 16).pts, fields = { name = "decor", collidable = true } },
  -- layer 4 "objects"
  { kind = "polygon", pts = rect(10, 200, 40, 210).pts,
    fields = { name = "crate", type = "box", class = "box", id = 1, collidable = true } },
  -- turned 30 degrees clockwise (y down) about its top-left corner (100, 100)
  { kind = "polygon", pts = poly(100, 100, 100 + 40 * c30, 100 + 40 * s30,
    100 + 40 * c30 - 20 * s30, 100 + 40 * s30 + 20 * c30, 100 - 20 * s30, 100 + 20 * c30).pts,
    fields = { name = "tilted", id = 2 } },
  -- a quarter turn: (x, y) -> (200 - (y - 50), 50 + (x - 200))
  { kind = "polygon", pts = rect(190, 50, 200, 70).pts, fields = { name = "upright", id = 3 } },
  { kind = "circle", x = 60, y = 70, r = 10, fields = { name = "ball", id = 4 } },
  { kind = "polygon", pts = egg(), fields = { name = "egg", id = 5 } },
  { kind = "polygon", pts = poly(300, 300, 330, 300, 300, 330).pts, fields = { name = "wedge" } },
  { kind = "concave", pts = { 400, 300, 430, 300, 430, 310, 410, 310, 410, 330, 400, 330 }, area = 500,
    fields = { name = "ell", id = 7 } },
  { kind = "chain", pts = { 500, 300, 520, 290, 540, 300 }, fields = { name = "hill", id = 8 } },
  { kind = "circle", x = 600, y = 300, r = 0, fields = { name = "pin", id = 9 } },
  -- the slope as a tile object: 32 x 32 (scale 2), anchored bottom-left at (300, 200),
  -- flipped horizontally: (0,16) (16,0) (16,16) -> (16,16) (0,0) (0,16) -> x 2 -> + (300, 168)
  { kind = "polygon", pts = poly(332, 200, 300, 168, 300, 200).pts,
    fields = { name = "ramp", id = 10, slope = 45 } },
  -- a plain tile object (its rectangle) turned a quarter about (400, 100)
  { kind = "polygon", pts = rect(400, 100, 416, 116).pts, fields = { name = "block", id = 11 } },
  -- properties: move is a method and name the object's own: kept in .properties only
  { kind = "polygon", pts = rect(700, 0, 710, 10).pts,
    fields = { name = "plat", id = 13, speed = 3, oneway = sat.vec(0, -1) } },
  -- layer 5 "sensors": the one object that says it is solid
  { kind = "polygon", pts = rect(0, 400, 10, 410).pts,
    fields = { name = "trigger", type = "zone", id = 30, collidable = true } },
}
FEATURES[12].fields = bumper
FEATURES[14].fields = bumper

describe("sat.level.tiled", function()
  it_compound("reads Tiled's Lua export: every layer and object kind, as computed by hand", function()
    local world = sat.world(32)
    -- (maxSpan: merged without limit; by default, only as far as keeps within two hash cells)
    local shapes, warnings = sat.level.tiled(world, L.load("spec/maps/features.lua"), { maxSpan = math.huge })
    checkAll(shapes, FEATURES, "features.lua")
    assert.equal(#shapes, world:count())
    for _, s in ipairs(shapes) do
      assert.is_true(world:isStatic(s))
      assert.is_table(s.properties)
    end
    -- properties stay whole in .properties, those that are not fields too
    assert.same({ collidable = true, move = 5, name = "bad", oneway = "up", speed = 3 }, shapes[32].properties)
    assert.equal(4, #warnings)
    support.has(warnings[1], "object 12 id 12 \"label\" in layer 4 \"objects\": a text has no geometry: skipped")
    support.has(warnings[2], "object 13 id 13 \"plat\" in layer 4 \"objects\": property \"move\" is kept in "
      .. ".properties only (\"move\" is a method of a polygon)")
    support.has(warnings[3], "property \"name\" is kept in .properties only (the field name is the map's own)")
    support.has(warnings[4], "layer 6 \"sky\": an image layer has no size in the map: skipped")
  end)

  it_compound("reads a decoded JSON export: property arrays, flags, base64 data, both tileset forms", function()
    local world = sat.world(8)
    local shapes, warnings = sat.level.tiled(world, L.load("spec/maps/features.json"), { maxSpan = math.huge })
    checkAll(shapes, {
      -- "ground" (tiles of 8, base64): the rock tiles solid by their own property, merged
      { kind = "polygon", pts = rect(0, 0, 16, 8).pts, fields = { name = "ground", type = "rock", collidable = true } },
      { kind = "polygon", pts = rect(0, 16, 32, 24).pts, fields = { name = "ground", type = "rock" } },
      -- the tile whose round collision shape is solid in itself, at column 4, row 1
      { kind = "circle", x = 28, y = 4, r = 4, fields = { name = "ground", collidable = true, type = false } },
      -- the old form's tile ("collidable": "true" in tileproperties), its shape at (0, 8)
      { kind = "polygon", pts = rect(0, 12, 8, 16).pts, fields = { name = "ground", collidable = "true" } },
      -- "things"
      { kind = "circle", x = 45, y = 5, r = 5, fields = { name = "ball", id = 1, collidable = true } },
      { kind = "circle", x = 50, y = 50, r = 0, fields = { name = "spot", id = 2 } },
      { kind = "polygon", pts = poly(60, 0, 70, 0, 60, 10).pts,
        fields = { name = "tri", type = "shard", class = "shard" } },
      { kind = "chain", pts = { 80, 0, 90, 10 }, fields = { name = "line", type = "rail" } },
      { kind = "polygon", pts = rect(100, 0, 104, 6).pts, fields = { name = "box", hp = 3, tint = "#ff00ff00" } },
    }, "features.json")
    assert.equal(#shapes, world:count())
    assert.equal(2, #warnings)
    support.has(warnings[1], "tileset 3 \"\" (external.tsj) is in another file (not embedded)")
    support.has(warnings[2], "object 1 id 5 \"\" in layer 3 \"refs\" is an instance of template \"crate.tx\"")
  end)

  it("reads infinite maps: chunks of Lua arrays and of base64, merged across chunk edges", function()
    local shapes = sat.level.tiled(sat.world(), L.load("spec/maps/infinite.lua"), { maxSpan = math.huge })
    checkAll(shapes, {
      rect(-64, -64, -48, 0), -- the wall in chunk (-4, -4)
      rect(-64, 0, 64, 16),   -- the floor across chunks (-4, 0) and (0, 0)
      rect(16, 80, 48, 112),  -- the base64 block in chunk (0, 4)
    }, "infinite.lua")
  end)

  it_compound("reads an STI map as the Lua export it came from", function()
    local raw = sat.level.tiled(sat.world(), L.load("spec/maps/features.lua"), { maxSpan = math.huge })
    local sti = L.load("spec/maps/features.lua")
    sti = L.sti(sti)
    assert.is_table(sti.tileInstances)
    assert.is_table(sti.layers[1].data[1]) -- rows of tiles
    local shapes, warnings = sat.level.tiled(sat.world(), sti, { maxSpan = math.huge })
    local want = {}
    for i, w in ipairs(FEATURES) do
      want[i] = L.copy(w)
      want[i].fields = L.copy(w.fields or {})
    end
    -- STI names a layer in a group "group.layer"
    for i = 15, 17 do want[i].fields.name = "platforms.ledges" end
    checkAll(shapes, want, "STI")
    assert.equal(#raw, #shapes)
    assert.equal(4, #warnings)
    -- and with STI's map offset (sti(map, plugins, ox, oy)): everything moved by it
    local moved = sat.level.tiled(sat.world(), L.sti(L.load("spec/maps/infinite.lua"), 5, -7), { maxSpan = math.huge })
    checkAll(moved, { rect(-59, -71, -43, -7), rect(-59, -7, 69, 9), rect(21, 73, 53, 105) }, "STI offset")
  end)

  describe("options", function()
    it_compound("x, y, static, fields, merge, property, ellipseSides", function()
      local world = sat.world()
      local map = L.load("spec/maps/features.lua")
      local shapes = sat.level.tiled(world, map, { x = 1000, y = -500, static = false,
        fields = { level = 3 }, merge = "none", ellipseSides = 8 })
      assert.equal(#shapes, world:count())
      for _, s in ipairs(shapes) do
        assert.is_false(world:isStatic(s))
        assert.equal(3, s.level)
      end
      -- merge "none": a box per solid full tile, the one-way ones too
      check(shapes[1], rect(1000, -500, 1016, -484), "none")
      local n = 0
      for _, s in ipairs(shapes) do
        if s.name == "walls" and s.slope == nil and s:kind() == "polygon" then
          local x1, y1, x2, y2 = s:bbox()
          if x2 - x1 == 16 and y2 - y1 == 16 then n = n + 1 end
        end
      end
      assert.equal(24, n) -- the full tiles of "walls", counted by hand in the map
      -- the ellipse in 8: its axes' ends and the points at 45 degrees
      local oval
      for _, s in ipairs(shapes) do if s.name == "egg" then oval = s end end
      local r2 = math.sqrt(0.5)
      samePoints(oval:vertices(), { 1040, -340, 1020 + 20 * r2, -340 + 10 * r2, 1020, -330,
        1020 - 20 * r2, -340 + 10 * r2, 1000, -340, 1020 - 20 * r2, -340 - 10 * r2, 1020, -350,
        1020 + 20 * r2, -340 - 10 * r2 }, "egg in 8")
      -- another property name: "solid" is on nothing in this map but the sensors' idle object
      map.layers[5].objects[2].properties = { solid = true }
      local only = sat.level.tiled(sat.world(), map, { property = "solid", maxSpan = math.huge })
      assert.equal(1, #only)
      check(only[1], rect(20, 400, 30, 410), "property solid")
    end)

    it("by default, merged rectangles stay within two of the world's cells", function()
      -- infinite.lua's floor, 8 tiles of 16 from x = -64, in cells of 64: a rectangle from
      -- -64 (a cell's edge) must end before 0 (-16); from -16, before 64 (48); then to 64
      local world = sat.world(64)
      local shapes = sat.level.tiled(world, L.load("spec/maps/infinite.lua"))
      assert.same({ 0 }, world:levels())
      check(shapes[1], rect(-64, -64, -48, -16), "the wall's first piece")
      local floor = {}
      for _, s in ipairs(shapes) do
        local x1, y1, x2, y2 = s:bbox()
        if y1 == 0 and y2 == 16 then floor[#floor + 1] = ("%g-%g"):format(x1, x2) end
      end
      assert.equal("-64--16 -16-48 48-64", table.concat(floor, " "))
    end)

    it("one-way: true, a side, a direction; merged along the surface", function()
      local function map(oneway, data)
        return {
          orientation = "orthogonal", tilewidth = 10, tileheight = 10,
          tilesets = { { firstgid = 1, name = "t", tilewidth = 10, tileheight = 10, tiles = {} } },
          layers = { {
            type = "tilelayer", name = "p", width = 3, height = 2, data = data,
            properties = { collidable = true, oneway = oneway },
          } },
        }
      end
      local block = { 1, 1, 1, 1, 1, 1 }
      local function load(m) return sat.level.tiled(sat.world(), m, { maxSpan = math.huge }) end
      local s = load(map("down", block))
      assert.equal(2, #s) -- rows
      check(s[1], { kind = "polygon", pts = rect(0, 0, 30, 10).pts, fields = { oneway = sat.vec(0, 1) } }, "down")
      s = load(map("left", block))
      assert.equal(3, #s) -- columns
      check(s[1], { kind = "polygon", pts = rect(0, 0, 10, 20).pts, fields = { oneway = sat.vec(-1, 0) } }, "left")
      s = load(map("3,4", block))
      assert.equal(6, #s) -- a slanted direction: tile by tile
      check(s[1], { kind = "polygon", pts = rect(0, 0, 10, 10).pts, fields = { oneway = sat.vec(0.6, 0.8) } }, "3,4")
      s = load(map(false, block))
      assert.equal(1, #s)
      check(s[1], { kind = "polygon", pts = rect(0, 0, 30, 20).pts, fields = { oneway = false } }, "false")
    end)
  end)

  describe("refuses malformed maps, naming what is wrong, adding nothing", function()
    local function features() return L.load("spec/maps/features.lua") end
    local function small(layer)
      return {
        orientation = "orthogonal", tilewidth = 8, tileheight = 8,
        tilesets = { { firstgid = 1, name = "t", tilewidth = 8, tileheight = 8, tilecount = 2, image = "t.png",
          tiles = {} } },
        layers = { layer },
      }
    end
    local function objects(obj)
      return small({ type = "objectgroup", name = "o", properties = { collidable = true }, objects = { obj } })
    end
    local cases = {
      { "map expected, got string", function() return "map.lua" end },
      { "orientation \"isometric\" is not supported: only orthogonal maps", function()
        local m = features(); m.orientation = "isometric"; return m
      end },
      { "orientation nil is not supported", function() local m = features(); m.orientation = nil; return m end },
      { "map: tilewidth and tileheight must be numbers > 0, got 0, 16", function()
        local m = features(); m.tilewidth = 0; return m
      end },
      { "tilesets must be a table, got string", function() local m = features(); m.tilesets = "x"; return m end },
      { "tileset 2 \"big\": firstgid must be an integer >= 1, got nil", function()
        local m = features(); m.tilesets[2].firstgid = nil; return m
      end },
      { "tileset 1 \"ground\" and tileset 2 \"big\" have the same firstgid 1", function()
        local m = features(); m.tilesets[2].firstgid = 1; return m
      end },
      { "layers must be a list, got nil", function() local m = features(); m.layers = nil; return m end },
      { "layer 3 must be a table, got number", function() local m = features(); m.layers[3] = 7; return m end },
      { "layer 2 \"platforms\": layers must be a list, got boolean", function()
        local m = features(); m.layers[2].layers = true; return m
      end },
      { "layer 3 \"decor\": unknown layer type \"tiles\"", function()
        local m = features(); m.layers[3].type = "tiles"; return m
      end },
      { "layer 1 \"walls\": properties must be a table, got string", function()
        local m = features(); m.layers[1].properties = "solid"; return m
      end },
      { "layer 1 \"walls\": data has 47 entries, expected 48 (width 8 x height 6)", function()
        local m = features(); table.remove(m.layers[1].data); return m
      end },
      { "layer 2.1 \"ledges\": width must be an integer >= 1, got 0", function()
        local m = features(); m.layers[2].layers[1].width = 0; return m
      end },
      { "layer 3 \"decor\": a tile layer needs data or chunks", function()
        local m = features(); m.layers[3].data = nil; return m
      end },
      { "layer 1 \"walls\": data[3] (column 3, row 1) is -5, expected a tile GID (an integer from 0 to 2^32 - 1)",
        function() local m = features(); m.layers[1].data[3] = -5; return m end },
      { "layer 1 \"walls\": data[4] (column 4, row 1) is 1.5, expected a tile GID", function()
        local m = features(); m.layers[1].data[4] = 1.5; return m
      end },
      { "layer 1 \"walls\": data[1] (column 1, row 1) is 4294967296, expected a tile GID", function()
        local m = features(); m.layers[1].data[1] = 4294967296; return m
      end },
      { "layer 3 \"decor\": data[2] (column 2, row 1) is tile 10, which is in no tileset", function()
        local m = features(); m.layers[3].data[2] = 10; return m
      end },
      { "layer 1 \"walls\": tile data compressed with \"zlib\" cannot be read in plain Lua: export the map "
        .. "with the tile layer format \"CSV\" or \"Base64 (uncompressed)\"", function()
        local m = features()
        m.layers[1].encoding, m.layers[1].compression, m.layers[1].data = "base64", "zlib", "eJxjYGBgAAAABAAB"
        return m
      end },
      { "layer 1 \"l\": bad base64 data near character 5", function()
        return small({ type = "tilelayer", name = "l", width = 2, height = 1, encoding = "base64",
          data = "AQAA*QAAAAA=" })
      end },
      { "layer 1 \"l\": base64 data of 6 characters (not a multiple of 4)", function()
        return small({ type = "tilelayer", name = "l", width = 1, height = 1, encoding = "base64", data = "AQAAAA" })
      end },
      { "layer 1 \"l\": data is a string but the encoding is \"lua\"", function()
        return small({ type = "tilelayer", name = "l", width = 1, height = 1, encoding = "lua", data = "1" })
      end },
      { "layer 1 \"l\", chunk 1: x and y must be integers (tiles), got 0.5, 0", function()
        return small({ type = "tilelayer", name = "l", chunks = { { x = 0.5, y = 0, width = 1, height = 1,
          data = { 1 } } } })
      end },
      { "layer 1 \"o\": objects must be a list, got nil", function()
        return small({ type = "objectgroup", name = "o" })
      end },
      { "object 1 id 4 \"a\" in layer 1 \"o\": x and y must be finite numbers, got nil, 0", function()
        return objects({ id = 4, name = "a", y = 0, width = 1, height = 1 })
      end },
      { "object 1 id 4 \"a\" in layer 1 \"o\": rotation must be a finite number, got inf", function()
        return objects({ id = 4, name = "a", x = 0, y = 0, width = 1, height = 1, rotation = math.huge })
      end },
      { "object 1 id 4 \"a\" in layer 1 \"o\": unknown shape \"star\"", function()
        return objects({ id = 4, name = "a", shape = "star", x = 0, y = 0 })
      end },
      { "object 1 id 4 \"a\" in layer 1 \"o\": a rectangle of width 0 and height 5 has no area", function()
        return objects({ id = 4, name = "a", shape = "rectangle", x = 0, y = 0, width = 0, height = 5 })
      end },
      { "object 1 id 4 \"a\" in layer 1 \"o\": a polygon needs at least 3 points, got 2", function()
        return objects({ id = 4, name = "a", shape = "polygon", x = 0, y = 0,
          polygon = { { x = 0, y = 0 }, { x = 1, y = 1 } } })
      end },
      { "object 1 id 4 \"a\" in layer 1 \"o\": polyline[2] must be a point {x = ..., y = ...} of finite numbers",
        function()
          return objects({ id = 4, name = "a", shape = "polyline", x = 0, y = 0,
            polyline = { { x = 0, y = 0 }, { x = "1", y = 1 } } })
        end },
      { "object 1 id 4 \"a\" in layer 1 \"o\": outline crosses itself", function()
        return objects({ id = 4, name = "a", shape = "polygon", x = 0, y = 0,
          polygon = { { x = 0, y = 0 }, { x = 10, y = 0 }, { x = 0, y = 10 }, { x = 10, y = 10 } } })
      end, compound = true },
      { "object 1 id 4 \"a\" in layer 1 \"o\": oneway must be true, \"down\", \"up\", \"left\", \"right\" or "
        .. "\"x,y\" (a direction), got \"sideways\"", function()
        return objects({ id = 4, name = "a", x = 0, y = 0, width = 1, height = 1,
          properties = { oneway = "sideways" } })
      end },
      { "object 1 id 4 \"a\" in layer 1 \"o\": property \"category\": bad value for field 'category' "
        .. "(integer expected, got string)", function()
        return objects({ id = 4, name = "a", x = 0, y = 0, width = 1, height = 1,
          properties = { category = "walls" } })
      end },
      { "object 1 id 4 \"a\" in layer 1 \"o\" is an instance of template \"crate.tx\", which is in another file: "
        .. "export with \"Detach templates\"", function()
        return objects({ id = 4, name = "a", x = 0, y = 0, template = "crate.tx" })
      end },
      { "object 1 id 4 \"a\" in layer 1 \"o\": gid is tile 3, which is in no tileset", function()
        -- (the tileset has 2 tiles)
        return objects({ id = 4, name = "a", x = 0, y = 0, gid = 3 })
      end },
    }
    for _, case in ipairs(cases) do
      (case.compound and it_compound or it)(case[1], function()
        local world = sat.world()
        world:add(sat.circle(0, 0, 1))
        local map = case[2]()
        local msg = support.err(sat.level.tiled, world, map)
        support.has(msg, "bad argument #2 to 'tiled' (")
        support.has(msg, case[1])
        assert.equal(1, world:count())
      end)
    end

    local bad = {
      { "bad argument #1 to 'tiled' (world expected, got nil)", nil, {} },
      { "bad argument #3 to 'tiled' (options must be a table, got string)", "x" },
      { "bad argument #3 to 'tiled' (unknown option \"sides\" (options: ellipseSides, fields, maxSpan, merge, "
        .. "property, static, x, y))", { sides = 8 } },
      { "bad argument #3 to 'tiled' (ellipseSides must be a multiple of 4 from 4 to 64, got 10)",
        { ellipseSides = 10 } },
      { "bad argument #3 to 'tiled' (property must be a string, got number)", { property = 1 } },
      { "bad argument #3 to 'tiled' (merge must be", { merge = "all" } },
      { "bad argument #3 to 'tiled' (fields.move: cannot set field 'move' of a polygon: 'move' is a method)",
        { fields = { move = 1 } }, compound = true },
    }
    for _, case in ipairs(bad) do
      (case.compound and it_compound or it)(case[1], function()
        local world = sat.world()
        world:add(sat.circle(0, 0, 1))
        local msg
        if #case == 3 then
          msg = support.err(sat.level.tiled, nil, features())
        else
          msg = support.err(sat.level.tiled, world, features(), case[2])
        end
        support.has(msg, case[1])
        assert.equal(1, world:count())
      end)
    end

    it("raises at the caller's line", function()
      local line = debug.getinfo(1, "l").currentline + 1
      local ok, msg = pcall(function() sat.level.tiled(sat.world(), { orientation = "hexagonal" }) end)
      assert.is_false(ok)
      support.has(msg, "level_tiled_spec.lua:" .. line .. ": bad argument #2 to 'tiled'")
    end)

    it_compound("takes out the shapes it added when an add fails", function()
      local real = sat.world()
      real:add(sat.circle(0, 0, 1))
      local adds = 0
      local failing = {
        add = function(_, s, kind)
          adds = adds + 1
          if adds == 10 then error("no room") end
          return real:add(s, kind)
        end,
        remove = function(_, s) return real:remove(s) end,
        has = function(_, s) return real:has(s) end,
      }
      local ok, msg = pcall(sat.level.tiled, failing, features())
      assert.is_false(ok)
      support.has(msg, "no room")
      assert.equal(10, adds)
      assert.equal(1, real:count())
    end)
  end)
end)
