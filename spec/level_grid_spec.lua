-- sat.level.grid: the merged shapes cover exactly the solid tiles (checked by exact point
-- tests at every tile centre and every tile-boundary point, and by area), movers walking
-- over merged and unmerged floors go through the same positions frame by frame, queries
-- answer the same, and every option and refusal.
local sat = require("sat")
local support = require("spec.support")
local it_compound = support.needs(it, pending, "compound")

-- The merge modes listed, without those that make compounds (concave, chain) where the
-- backend has none yet (the pure one).
local function modes(list)
  if support.missing("compound") == nil then
    return list
  end
  local out = {}
  for _, mode in ipairs(list) do
    if mode ~= "concave" and mode ~= "chain" then
      out[#out + 1] = mode
    end
  end
  return out
end

local RECT_MODES = { "rects", "greedy", "rows", "columns", "none" }

-- Park-Miller, the same numbers on every Lua.
local function rng(seed)
  local x = seed % 2147483646 + 1
  return function(lo, hi)
    x = x * 16807 % 2147483647
    return lo + (hi - lo) * ((x - 1) / 2147483646)
  end
end

-- A W x H grid of strings: a solid border (when asked) and a fraction of solid cells.
local function randomGrid(R, W, H, fraction, border)
  local grid = {}
  for r = 1, H do
    local row = {}
    for c = 1, W do
      local edge = r == 1 or c == 1 or r == H or c == W
      row[c] = ((border and edge) or R(0, 1) < fraction) and "#" or "."
    end
    grid[r] = table.concat(row)
  end
  return grid
end

local function solidAt(grid, c, r) -- 1-based; outside is empty
  local row = grid[r]
  return row ~= nil and c >= 1 and c <= #row and row:sub(c, c) == "#"
end

-- How many shapes contain the point.
local function cover(shapes, x, y)
  local n = 0
  for i = 1, #shapes do
    if shapes[i]:contains(x, y) then n = n + 1 end
  end
  return n
end

-- The exact coverage check: every tile centre is covered by one shape when solid, none when
-- empty; every tile corner and edge midpoint is covered when a tile touching it is solid and
-- by nothing when none is; the areas add up to the solid area. (With shapes of area, a
-- centre covered once and the area sum together rule out any overlap.)
local function checkCover(grid, shapes, tw, th, ox, oy)
  local H, W = #grid, #grid[1]
  local solid = 0
  for r = 1, H do
    for c = 1, W do
      local s = solidAt(grid, c, r)
      if s then solid = solid + 1 end
      local n = cover(shapes, ox + (c - 0.5) * tw, oy + (r - 0.5) * th)
      assert(n == (s and 1 or 0), ("tile %d,%d (%s) covered %d times"):format(c, r,
        s and "solid" or "empty", n))
    end
  end
  for r = 0, H do
    for c = 0, W do
      -- the corner (c, r) and the midpoints of the edges right of and below it
      local corner = solidAt(grid, c, r) or solidAt(grid, c + 1, r) or solidAt(grid, c, r + 1)
        or solidAt(grid, c + 1, r + 1)
      local right = solidAt(grid, c + 1, r) or solidAt(grid, c + 1, r + 1)
      local below = solidAt(grid, c, r + 1) or solidAt(grid, c + 1, r + 1)
      for _, p in ipairs({ { 0, 0, corner }, { 0.5, 0, right }, { 0, 0.5, below } }) do
        local x, y = ox + (c + p[1]) * tw, oy + (r + p[2]) * th
        local n = cover(shapes, x, y)
        assert((n > 0) == p[3], ("point %s, %s: covered %d times, a solid tile touches it: %s")
          :format(x, y, n, tostring(p[3])))
      end
    end
  end
  local area = 0
  for i = 1, #shapes do
    area = area + shapes[i]:area()
  end
  support.near(solid * tw * th, area, 1e-12, "area")
  return solid
end

describe("sat.level.grid", function()
  it("merges into shapes covering exactly the solid tiles, in every mode, on random grids", function()
    for trial = 1, 12 do
      local R = rng(100 + trial)
      local W, H = 3 + math.floor(R(0, 14)), 3 + math.floor(R(0, 10))
      local grid = randomGrid(R, W, H, R(0.2, 0.8), trial % 3 == 0)
      local tw, th, ox, oy = 16, 12, trial * 7.5, -trial * 3
      for _, mode in ipairs(modes({ "rects", "greedy", "rows", "columns", "none", "concave" })) do
        -- (by default within two of the world's cells; every other level without limit)
        local world = sat.world(trial % 2 == 0 and 16 or 40)
        local shapes = sat.level.grid(world, grid, tw, th, { merge = mode, x = ox, y = oy,
          maxSpan = trial % 2 == 0 and math.huge or nil })
        assert.equal(#shapes, world:count())
        local solid = checkCover(grid, shapes, tw, th, ox, oy)
        if mode == "none" then assert.equal(solid, #shapes) end
        for _, s in ipairs(shapes) do
          assert.is_true(world:isStatic(s))
          if mode ~= "concave" then
            -- a rectangle of whole tiles
            local x1, y1, x2, y2 = s:bbox()
            assert.equal(4, #s:vertices() / 2)
            support.near(s:area(), (x2 - x1) * (y2 - y1), 1e-12, "rectangle")
          end
        end
      end
    end
  end)

  it("maxSpan: no rectangle spans more tiles than it says, the cover stays exact", function()
    for trial = 1, 8 do
      local R = rng(200 + trial)
      local grid = randomGrid(R, 14, 11, R(0.5, 0.95), trial % 2 == 0)
      local span = 1 + trial % 3
      for _, mode in ipairs({ "rects", "greedy", "rows", "columns" }) do
        local shapes = sat.level.grid(sat.world(), grid, 4, 4, { merge = mode, maxSpan = span })
        checkCover(grid, shapes, 4, 4, 0, 0)
        local widest = 0
        for _, s in ipairs(shapes) do
          local x1, y1, x2, y2 = s:bbox()
          assert.is_true(x2 - x1 <= 4 * span and y2 - y1 <= 4 * span, mode)
          widest = math.max(widest, x2 - x1, y2 - y1)
        end
        if mode ~= "columns" and mode ~= "rows" then assert.equal(4 * span, widest) end
      end
    end
    local solid = {}
    for r = 1, 10 do solid[r] = ("#"):rep(10) end
    assert.equal(16, #sat.level.grid(sat.world(), solid, 1, 1, { maxSpan = 3 })) -- 4 x 4 pieces
    assert.equal(1, #sat.level.grid(sat.world(), solid, 1, 1, { maxSpan = math.huge }))
  end)

  it("rows, columns and rects merge the runs they say; greedy and rects never give more than rows", function()
    local grid = { "####.", "####.", "##...", "##..#", "....#" }
    local function rects(mode)
      local out = {}
      for _, s in ipairs(sat.level.grid(sat.world(), grid, 1, 1, { merge = mode })) do
        local x1, y1, x2, y2 = s:bbox()
        out[#out + 1] = ("%g,%g-%g,%g"):format(x1, y1, x2, y2)
      end
      return table.concat(out, " ")
    end
    -- by hand: cells [x1, x2) x [y1, y2), in reading order of their top-left corners
    assert.equal("0,0-4,1 0,1-4,2 0,2-2,3 0,3-2,4 4,3-5,4 4,4-5,5", rects("rows"))
    assert.equal("0,0-1,4 1,0-2,4 2,0-3,2 3,0-4,2 4,3-5,5", rects("columns"))
    assert.equal("0,0-4,2 0,2-2,4 4,3-5,5", rects("rects"))
    assert.equal("0,0-4,2 0,2-2,4 4,3-5,5", rects("greedy"))
    for trial = 1, 20 do
      local R = rng(300 + trial)
      local g = randomGrid(R, 12, 9, R(0.3, 0.9), false)
      local n = {}
      for _, mode in ipairs(RECT_MODES) do
        n[mode] = #sat.level.grid(sat.world(), g, 1, 1, { merge = mode })
      end
      -- (greedy may give more than rows: a run it takes down leaves pieces of the rows below)
      assert.is_true(n.rects <= n.rows and n.rows <= n.none and n.greedy <= n.none)
    end
  end)

  it("gives one shape for a solid map without a limit, in every mode but rows and columns", function()
    local grid = {}
    for r = 1, 40 do grid[r] = ("#"):rep(30) end
    for _, mode in ipairs(modes({ "rects", "greedy", "concave", "chain" })) do
      local shapes = sat.level.grid(sat.world(), grid, 8, 8, { merge = mode, maxSpan = math.huge })
      assert.equal(1, #shapes)
      assert.same({ 0, 0, 240, 320 }, { shapes[1]:bbox() })
    end
    assert.equal(40, #sat.level.grid(sat.world(), grid, 8, 8, { merge = "rows", maxSpan = math.huge }))
    assert.equal(30, #sat.level.grid(sat.world(), grid, 8, 8, { merge = "columns", maxSpan = math.huge }))
  end)

  it("keeps every merged rectangle on the hash's lowest level by default (within two cells)", function()
    -- cells of 32, tiles of 16 from x = 0: a rectangle may not reach from one cell edge to
    -- the next but one (its padded box would cover three cells): a run of 10 tiles from 0 is
    -- cut after tile 1, then every two tiles: 1, 2, 2, 2, 2, 1 (by hand)
    local world = sat.world(32)
    local shapes = sat.level.grid(world, { ("#"):rep(10) }, 16, 16)
    local widths = {}
    for i, s in ipairs(shapes) do
      local x1, _, x2 = s:bbox()
      widths[i] = ("%g"):format((x2 - x1) / 16)
    end
    assert.equal("1 2 2 2 2 1", table.concat(widths, " "))
    assert.same({ 0 }, world:levels())
    -- from x = 16 the cuts fall between cells: every two tiles
    shapes = sat.level.grid(sat.world(32), { ("#"):rep(10) }, 16, 16, { x = 16 })
    assert.equal(5, #shapes)
    -- random levels, every rectangle mode, two cell sizes: one level, and an exact cover
    for trial = 1, 6 do
      local R = rng(400 + trial)
      local grid = randomGrid(R, 20, 14, R(0.4, 0.9), true)
      for _, mode in ipairs({ "rects", "greedy", "rows", "columns" }) do
        local w = sat.world(trial % 2 == 0 and 32 or 50)
        local got = sat.level.grid(w, grid, 16, 16, { merge = mode, x = trial * 3 })
        assert.same({ 0 }, w:levels())
        checkCover(grid, got, 16, 16, trial * 3, 0)
      end
    end
  end)

  it_compound("cuts a region with a hole or a self-touching corner into simple outlines (concave)", function()
    -- a ring: cut at the top of its hole into the top row and a U
    local ring = sat.level.grid(sat.world(), { "###", "#.#", "###" }, 10, 10, { merge = "concave" })
    assert.equal(2, #ring)
    assert.same({ 0, 0, 30, 10 }, { ring[1]:bbox() })
    assert.equal("polygon", ring[1]:kind())
    assert.same({ 0, 10, 30, 30 }, { ring[2]:bbox() })
    assert.equal("compound", ring[2]:kind())
    -- its outline: the eight corners of the U, each once
    local corners = {}
    local v = ring[2]:vertices()
    assert.equal(16, #v)
    for i = 1, #v, 2 do
      corners[#corners + 1] = ("%d,%d"):format(math.floor(v[i] + 0.5), math.floor(v[i + 1] + 0.5))
      support.near(math.floor(v[i] + 0.5), v[i], 1e-12, "x")
      support.near(math.floor(v[i + 1] + 0.5), v[i + 1], 1e-12, "y")
    end
    table.sort(corners)
    assert.equal("0,10 0,30 10,10 10,20 20,10 20,20 30,10 30,30", table.concat(corners, " "))
    assert.equal(500, ring[2]:area())
    -- two tiles meeting at a corner are two regions; a region touching itself at a corner
    -- (its hole meets the outside there) is cut through that corner
    local pinch = { "###.", "#.#.", "##.#", "...#" }
    local shapes = sat.level.grid(sat.world(), pinch, 1, 1, { merge = "concave" })
    checkCover(pinch, shapes, 1, 1, 0, 0)
    for _, s in ipairs(shapes) do
      if s:kind() == "compound" then
        assert.is_table(s:vertices()) -- a concave outline (a compound of parts has none)
      end
    end
  end)

  it_compound("gives every boundary loop, holes too, as closed chains (chain)", function()
    for trial = 1, 8 do
      local R = rng(500 + trial)
      local grid = randomGrid(R, 10, 8, 0.5, trial % 2 == 0)
      local chains = sat.level.grid(sat.world(), grid, 4, 4, { merge = "chain" })
      -- the unit edges between a solid tile and an empty one (or the outside), by hand
      local want, nwant = {}, 0
      for r = 0, #grid + 1 do
        for c = 0, #grid[1] + 1 do
          local s = solidAt(grid, c, r)
          if s ~= solidAt(grid, c + 1, r) then
            want[("v%g,%g"):format(c, r)] = true -- the vertical edge x = c, rows r - 1 .. r
            nwant = nwant + 1
          end
          if s ~= solidAt(grid, c, r + 1) then
            want[("h%g,%g"):format(c, r)] = true -- the horizontal edge y = r, cols c - 1 .. c
            nwant = nwant + 1
          end
        end
      end
      local got = 0
      for _, ch in ipairs(chains) do
        assert.equal("compound", ch:kind())
        assert.equal(0, ch:area())
        for _, seg in ipairs(ch:parts()) do
          local e = { seg:endpoints() }
          for i = 1, 4 do -- (a chain's parts are kept about its centroid: within rounding)
            local v = math.floor(e[i] / 4 + 0.5)
            support.near(v * 4, e[i], 1e-12, "endpoint")
            e[i] = v
          end
          local x1, y1, x2, y2 = e[1], e[2], e[3], e[4]
          assert.is_true(x1 == x2 or y1 == y2)
          if x1 == x2 then
            for y = math.min(y1, y2), math.max(y1, y2) - 1 do
              local key = ("v%g,%g"):format(x1, y + 1)
              assert.is_true(want[key], key)
              want[key] = nil
              got = got + 1
            end
          else
            for x = math.min(x1, x2), math.max(x1, x2) - 1 do
              local key = ("h%g,%g"):format(x + 1, y1)
              assert.is_true(want[key], key)
              want[key] = nil
              got = got + 1
            end
          end
        end
      end
      assert.equal(nwant, got) -- every boundary edge once, nothing else
    end
  end)

  describe("a mover over merged floors moves as over the unmerged tiles", function()
    -- Random levels (a border and a quarter of the tiles solid); a box, a circle and a
    -- capsule start in free tiles and move each frame by world:move under gravity with a
    -- sideways speed, stopping their fall on what they land on. Each is in a category of
    -- its own, so that movers never meet: which of two shapes touched at the same instant
    -- is resolved first is decided by their distance, so between movers it would depend on
    -- the tiles' partition. Sizes, speeds and gravity are not multiples of the tile size,
    -- as in a game. The positions after every frame must equal the unmerged level's within
    -- 1e-9.
    local function walk(grid, mode, seed)
      local R = rng(seed)
      local world = sat.world(64)
      -- (merged without limit, the most seams away; "fit": the default, within two cells)
      if mode == "fit" then
        sat.level.grid(world, grid, 16, 16)
      else
        sat.level.grid(world, grid, 16, 16, { merge = mode, maxSpan = math.huge })
      end
      local movers, vx, vy = {}, {}, {}
      while #movers < 6 do
        local c, r = 2 + math.floor(R(0, #grid[1] - 2)), 2 + math.floor(R(0, #grid - 2))
        if not solidAt(grid, c, r) then
          local k = #movers + 1
          local x, y = (c - 0.5) * 16 + R(-1.5, 1.5), (r - 0.5) * 16 + R(-1.5, 1.5)
          local m
          if k % 3 == 0 then
            m = sat.box(x - 4.67, y - 4.67, 9.34, 9.34)
          elseif k % 3 == 1 then
            m = sat.circle(x, y, 4.71)
          else
            m = sat.capsule(x, y - 3.1, x, y + 3.1, 3.87)
          end
          m.category = 2 ^ k
          m.mask = 1
          movers[k] = world:add(m)
          vx[k], vy[k] = R(-2.2, 2.2), 0
        end
      end
      local path = {}
      for _ = 1, 150 do
        for k, m in ipairs(movers) do
          vy[k] = vy[k] + 0.3719
          local x0, y0 = m:position()
          local x, y = world:move(m, vx[k], vy[k])
          -- stopped on the way: a fall ends, a walk turns back (read from the positions: a
          -- merged shape met on two faces in one move is one collision, its first)
          if math.abs((y - y0) - vy[k]) > 1e-9 then vy[k] = 0 end
          if math.abs((x - x0) - vx[k]) > 1e-9 then vx[k] = -vx[k] end
          path[#path + 1] = x
          path[#path + 1] = y
        end
      end
      return path
    end

    local function compare(mode, trials)
      for trial = 1, trials do
        local R = rng(700 + trial)
        local grid = randomGrid(R, 24, 16, 0.25, true)
        local want, got = walk(grid, "none", trial), walk(grid, mode, trial)
        assert.equal(#want, #got)
        for i = 1, #want do
          if math.abs(want[i] - got[i]) > 1e-9 then
            error(("%s, level %d: mover %d at frame %d is at %s, unmerged %s"):format(mode, trial,
              math.floor((i - 1) / 2) % 6 + 1, math.floor((i - 1) / 12) + 1, got[i], want[i]))
          end
        end
      end
    end

    -- (concave on 50 levels: levels 23, 38 and 49 met the seams of its parts at inner corners)
    for _, mode in ipairs({ "rects", "greedy", "rows", "columns", "chain", "concave", "fit" }) do
      ((mode == "chain" or mode == "concave") and it_compound or it)(mode, function()
        compare(mode, mode == "concave" and 50 or 12)
      end)
    end
  end)

  it("answers point, rectangle and segment queries as the unmerged tiles do", function()
    for trial = 1, 6 do
      local R = rng(900 + trial)
      local grid = randomGrid(R, 14, 10, 0.4, trial % 2 == 1)
      local worlds = {}
      for _, mode in ipairs(modes({ "none", "rects", "greedy", "rows", "columns", "concave" })) do
        worlds[mode] = sat.world(16)
        sat.level.grid(worlds[mode], grid, 16, 16, { merge = mode, maxSpan = math.huge })
      end
      local base = worlds.none
      local function same(label, fn)
        local want = fn(base)
        for mode, w in pairs(worlds) do
          local got = fn(w)
          assert(got == want, ("%s, %s: %s, unmerged %s"):format(label, mode, tostring(got), tostring(want)))
        end
      end
      for _ = 1, 150 do
        -- points anywhere, on tile edges and on tile corners
        local x, y = R(-8, 14 * 16 + 8), R(-8, 10 * 16 + 8)
        local cx, cy = math.floor(R(0, 15)) * 16, math.floor(R(0, 11)) * 16
        same(("point %s, %s"):format(x, y), function(w) return #w:queryPoint(x, y) > 0 end)
        same(("corner %s, %s"):format(cx, cy), function(w) return #w:queryPoint(cx, cy) > 0 end)
        same(("edge %s, %s"):format(cx, y), function(w) return #w:queryPoint(cx, y) > 0 end)
        local rw, rh = R(0, 20), R(0, 20)
        same(("rect %s, %s"):format(x, y), function(w) return #w:queryRect(x, y, rw, rh) > 0 end)
        same(("rect at corner %s, %s"):format(cx, cy), function(w)
          return #w:queryRect(cx, cy, rw, rh) > 0
        end)
        local x2, y2 = R(-8, 14 * 16 + 8), R(-8, 10 * 16 + 8)
        same(("segment %s, %s"):format(x, y), function(w)
          local hits = w:querySegment(x, y, x2, y2)
          return hits[1] and ("%.9f"):format(hits[1].t) or "miss"
        end)
      end
    end
  end)

  describe("options", function()
    it("solid: a set of values or a function; by default not \" \", \".\", nil, false or 0", function()
      local function bounds(shapes)
        local out = {}
        for _, s in ipairs(shapes) do out[#out + 1] = ("%g,%g,%g,%g"):format(s:bbox()) end
        return table.concat(out, " ")
      end
      assert.equal("0,0,2,1 1,1,2,2", bounds(sat.level.grid(sat.world(), { "=#.", " x" }, 1, 1)))
      assert.equal("0,0,1,1", bounds(sat.level.grid(sat.world(), { "=#.", " x" }, 1, 1,
        { solid = { ["="] = true } })))
      assert.equal("1,0,2,2", bounds(sat.level.grid(sat.world(), { "=#.", " x" }, 1, 1,
        { solid = function(v, c, r) return v ~= "=" and v ~= "." and v ~= " " and c + r > 2 end })))
      assert.equal("0,0,1,2 2,0,3,1", bounds(sat.level.grid(sat.world(),
        { { 1, 0, true }, { "a", false, nil } }, 1, 1)))
      assert.equal("2,0,3,1", bounds(sat.level.grid(sat.world(), { { 1, 0, 7 }, { 2 } }, 1, 1,
        { solid = { [7] = true } })))
      local calls = {}
      sat.level.grid(sat.world(), { { 5, 6 } }, 1, 1, { solid = function(v, c, r)
        calls[#calls + 1] = ("%s@%d,%d"):format(v, c, r)
      end })
      assert.equal("5@1,1 6@2,1", table.concat(calls, " "))
    end)

    it("x, y, static, fields", function()
      local world = sat.world()
      local shapes = sat.level.grid(world, { "##", "#." }, 10, 20,
        { x = 100, y = -50, static = false, fields = { tag = "wall", category = 4 } })
      assert.equal(2, #shapes)
      assert.same({ 100, -50, 120, -30 }, { shapes[1]:bbox() })
      assert.same({ 100, -30, 110, -10 }, { shapes[2]:bbox() })
      for _, s in ipairs(shapes) do
        assert.is_false(world:isStatic(s))
        assert.equal("wall", s.tag)
        assert.equal(4, s.category)
      end
    end)

    it("tiles of any size give edges at x + c w exactly, merged or not", function()
      local grid = { "###", "#.#" }
      local a = sat.level.grid(sat.world(), grid, 0.1, 0.3, { x = 0.7, merge = "none" })
      local b = sat.level.grid(sat.world(), grid, 0.1, 0.3, { x = 0.7 })
      local edges = {}
      for _, s in ipairs(a) do
        local x1, _, x2 = s:bbox()
        edges[x1], edges[x2] = true, true
      end
      for _, s in ipairs(b) do
        local x1, _, x2 = s:bbox()
        assert.is_true(edges[x1] and edges[x2])
      end
      assert.is_true(edges[0.7 + 3 * 0.1])
    end)
  end)

  describe("refuses bad arguments, adding nothing", function()
    local world = sat.world()
    world:add(sat.circle(0, 0, 1))
    local t = { "#" }
    local cases = {
      { "bad argument #1 to 'grid' (world expected, got number)", function() return sat.level.grid(5, t, 1, 1) end },
      { "bad argument #1 to 'grid' (world expected, got circle)", function()
        return sat.level.grid(sat.circle(0, 0, 1), t, 1, 1)
      end },
      { "bad argument #2 to 'grid' (table expected, got string)", function()
        return sat.level.grid(world, "#", 1, 1)
      end },
      { "bad argument #2 to 'grid' (row 2: string or table expected, got number)", function()
        return sat.level.grid(world, { "#", 3 }, 1, 1)
      end },
      { "bad argument #3 to 'grid' (tile width must be a finite number > 0, got -1)", function()
        return sat.level.grid(world, t, -1, 1)
      end },
      { "bad argument #4 to 'grid' (tile height must be a finite number > 0, got nil)", function()
        return sat.level.grid(world, t, 1)
      end },
      { "bad argument #4 to 'grid' (tile height must be a finite number > 0, got inf)", function()
        return sat.level.grid(world, t, 1, math.huge)
      end },
      { "bad argument #5 to 'grid' (options must be a table, got string)", function()
        return sat.level.grid(world, t, 1, 1, "rects")
      end },
      { "bad argument #5 to 'grid' (unknown option \"merg\" (options: fields, maxSpan, merge, solid, static, x, y))",
        function() return sat.level.grid(world, t, 1, 1, { merg = "rects" }) end },
      { "bad argument #5 to 'grid' (merge must be \"rects\", \"greedy\", \"rows\", \"columns\", \"none\", "
        .. "\"concave\" or \"chain\", got \"big\")", function()
        return sat.level.grid(world, t, 1, 1, { merge = "big" })
      end },
      { "bad argument #5 to 'grid' (static must be a boolean, got \"static\")", function()
        return sat.level.grid(world, t, 1, 1, { static = "static" })
      end },
      { "bad argument #5 to 'grid' (x must be a finite number, got nan)", function()
        return sat.level.grid(world, t, 1, 1, { x = 0 / 0 })
      end },
      { "bad argument #5 to 'grid' (solid must be a table (a set of values) or a function, got \"#\")",
        function() return sat.level.grid(world, t, 1, 1, { solid = "#" }) end },
      { "bad argument #5 to 'grid' (maxSpan must be an integer >= 1 or math.huge, got 0.5)", function()
        return sat.level.grid(world, t, 1, 1, { maxSpan = 0.5 })
      end },
      { "bad argument #5 to 'grid' (fields must be a table, got \"wall\")", function()
        return sat.level.grid(world, t, 1, 1, { fields = "wall" })
      end },
      { "bad argument #5 to 'grid' (fields.move: cannot set field 'move' of a polygon: 'move' is a method)",
        function() return sat.level.grid(world, { "##", "##" }, 1, 1, { fields = { move = 1 } }) end },
      { "bad argument #5 to 'grid' (fields.category: bad value for field 'category' (integer expected, got string))",
        function() return sat.level.grid(world, { "##" }, 1, 1, { fields = { category = "walls" } }) end },
      { "bad argument #2 to 'grid' (out of range (coordinates and sizes up to 1e150",
        function() return sat.level.grid(world, { "##" }, 1e151, 1) end },
    }
    for _, case in ipairs(cases) do
      it(case[1], function()
        support.has(support.err(case[2]), case[1])
        assert.equal(1, world:count())
      end)
    end
    it("raises at the caller's line", function()
      local line = debug.getinfo(1, "l").currentline + 1
      local ok, msg = pcall(function() sat.level.grid(world, { "#" }, 0, 1) end)
      assert.is_false(ok)
      support.has(msg, "level_grid_spec.lua:" .. line .. ": bad argument #3 to 'grid'")
    end)
  end)

  -- A failure after some shapes were made (the world's add may run as each is made): the
  -- world ends as it was, and the error is the one making every shape, then giving every one
  -- its fields, then adding every one would raise first. Through a world that counts what
  -- it is given and fails its add when told to.
  describe("fails all or nothing, whatever fails where", function()
    local function counting(failAt)
      local inner = sat.world()
      inner:add(sat.circle(-5, -5, 1))
      local w = { adds = 0, removes = 0 }
      function w.add(_, shape, kind)
        if w.adds + 1 == failAt then
          error("the world is full", 0)
        end
        w.adds = w.adds + 1
        return inner:add(shape, kind)
      end
      function w.remove(_, shape)
        w.removes = w.removes + 1
        return inner:remove(shape)
      end
      function w.has(_, shape)
        return inner:has(shape)
      end
      return w, inner
    end
    -- rows 1, 3 and 5 solid, a rectangle each; with tiles 0.6e150 wide and high, row 1 lies
    -- within the coordinates' range (up to 1e150), rows 3 and 5 past it
    local far, near = { "#", ".", "#", ".", "#" }, 0.6e150
    local OUT = "bad argument #2 to 'grid' (out of range"
    local FIELD = "bad argument #5 to 'grid' (fields.category: bad value for field 'category'"
    for _, mode in ipairs(RECT_MODES) do
      it(mode .. ": a rectangle that cannot be made", function()
        local w, inner = counting()
        support.has(support.err(sat.level.grid, w, far, near, near, { merge = mode }), OUT)
        assert.equal(w.adds, w.removes)
        assert.equal(1, inner:count())
      end)
      it(mode .. ": a field refused, a rectangle further on that cannot be made", function()
        local w, inner = counting()
        support.has(support.err(sat.level.grid, w, far, near, near,
          { merge = mode, fields = { category = "walls" } }), OUT)
        assert.equal(w.adds, w.removes)
        assert.equal(1, inner:count())
      end)
      it(mode .. ": a field refused", function()
        local w, inner = counting()
        support.has(support.err(sat.level.grid, w, far, 1, 1,
          { merge = mode, fields = { category = "walls" } }), FIELD)
        assert.equal(0, w.adds)
        assert.equal(1, inner:count())
      end)
      it(mode .. ": the world's add fails on the second shape", function()
        local w, inner = counting(2)
        local ok, e = pcall(sat.level.grid, w, far, 1, 1, { merge = mode, fields = { tag = 1 } })
        assert.is_false(ok)
        assert.equal("the world is full", e)
        assert.equal(1, w.adds)
        assert.equal(1, w.removes)
        assert.equal(1, inner:count())
      end)
      it(mode .. ": the world's add fails, a rectangle further on cannot be made", function()
        local w, inner = counting(2)
        -- (tiles 0.3e150 wide and high: rows 1 and 3 within range, row 5 past it)
        support.has(support.err(sat.level.grid, w, far, 0.3e150, 0.3e150, { merge = mode }), OUT)
        assert.equal(w.adds, w.removes)
        assert.equal(1, inner:count())
      end)
    end
  end)
end)
