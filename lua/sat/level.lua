--- sat.level: level geometry in one call, from tile grids (merged into few shapes) and from
-- Tiled maps (their Lua export, a decoded JSON export, or an STI map).
--
--   local shapes = sat.level.grid(world, { "#####", "#...#", "#####" }, 16, 16)
--   local shapes, warnings = sat.level.tiled(world, require("maps.level1"))
--
-- Built on the public API only (sat's constructors, world:add / has / remove), so it works
-- on either backend. Everything is built and checked before anything is added: an error
-- leaves the world as it was.
--
-- Four files, one way: this one (the two calls), level_tiled.lua (reading a Tiled map),
-- level_shapes.lua (errors, options, fields, shapes from cells, adding all or nothing) and
-- level_grid.lua (the merging of cells, in cells).
local S = require("sat.level_shapes")
local cells = require("sat.level_grid")
local tiled = require("sat.level_tiled")

local type, pcall = type, pcall
local fail, describe, show = S.fail, S.describe, S.show

local level = {}

------------------------------------------------------------------------------------------
-- sat.level.grid

local GRID_OPTIONS = {
  solid = true, merge = true, static = true, fields = true, x = true, y = true, maxSpan = true,
}

local DEFAULT_EMPTY_BYTES = { [32] = true, [46] = true } -- " " and "."

-- The grid's width (its longest row), checking its rows.
local function gridWidth(grid)
  local W = 0
  for r = 1, #grid do
    local row = grid[r]
    local t = type(row)
    if t == "string" or t == "table" then
      if #row > W then W = #row end
    else
      fail(2, "row %d: string or table expected, got %s", r, describe(row))
    end
  end
  return W
end

-- What options.solid says: (set, fn).
local function solidTest(solid)
  if type(solid) == "table" then
    return solid, nil
  elseif type(solid) == "function" then
    return nil, solid
  elseif solid ~= nil then
    fail(5, "solid must be a table (a set of values) or a function, got %s", show(solid))
  end
  return nil, nil
end

local byte, sub = string.byte, string.sub

-- Whether cell c of row r (a string or a table) is solid, as options.solid says.
local function isSolid(row, c, r, set, fn)
  local v
  if type(row) == "string" then
    if not (set or fn) then
      return not DEFAULT_EMPTY_BYTES[byte(row, c)]
    end
    v = sub(row, c, c)
  else
    v = row[c]
  end
  if fn then
    return fn(v, c, r) and true or false
  elseif set then
    return v ~= nil and set[v] and true or false
  end
  return v and v ~= 0 and true or false
end

-- The runs function of level_grid.runRectangles, straight from the rows (every cell tested
-- once, in reading order; a row of values with the default test in a loop of its own).
local function rowRuns(grid, set, fn)
  return function(r, rc0, rc1, rg)
    local row = grid[r + 1]
    local n = #row
    local m, c = 0, 1
    if type(row) == "table" and not (set or fn) then
      while c <= n do
        local v = row[c]
        if v and v ~= 0 then
          local c1 = c + 1
          while c1 <= n do
            local w = row[c1]
            if not w or w == 0 then break end
            c1 = c1 + 1
          end
          m = m + 1
          rc0[m], rc1[m], rg[m] = c - 1, c1 - 1, true
          c = c1 + 1
        else
          c = c + 1
        end
      end
      return m
    end
    while c <= n do
      if isSolid(row, c, r + 1, set, fn) then
        local c1 = c + 1
        while c1 <= n and isSolid(row, c1, r + 1, set, fn) do
          c1 = c1 + 1
        end
        m = m + 1
        rc0[m], rc1[m], rg[m] = c - 1, c1 - 1, true
        c = c1 + 1
      else
        c = c + 1
      end
    end
    return m
  end
end

-- The cells of a grid: a flat array (true where solid, every cell written in order: an
-- array, not a hash).
local function gridCells(grid, W, set, fn)
  local out, i = {}, 0
  for r = 1, #grid do
    local row = grid[r]
    local n = #row
    for c = 1, n do
      out[i + c] = isSolid(row, c, r, set, fn)
    end
    for c = n + 1, W do -- (a shorter row: empty to the grid's width)
      out[i + c] = false
    end
    i = i + W
  end
  return out
end

local function buildGrid(world, grid, tw, th, options)
  if type(grid) ~= "table" then
    fail(2, "table expected, got %s", describe(grid))
  end
  if not S.finite(tw) or tw <= 0 then
    fail(3, "tile width must be a finite number > 0, got %s", show(tw))
  end
  if not S.finite(th) or th <= 0 then
    fail(4, "tile height must be a finite number > 0, got %s", show(th))
  end
  local o = S.checkOptions(5, options, GRID_OPTIONS)
  local merge, static, x, y, fields, span = S.commonOptions(5, o)
  tw, th = tw * 1.0, th * 1.0
  local W, H = gridWidth(grid), #grid
  local set, fn = solidTest(o.solid)
  if merge == "concave" or merge == "chain" then
    local ok, shapes = pcall(S.shapesOf, gridCells(grid, W, set, fn), W, H, tw, th, x, y, merge)
    if not ok then
      fail(2, "%s", S.reason(shapes)) -- (a constructor's: coordinates out of range)
    end
    if fields then
      S.applyFields(5, shapes, fields)
    end
    return S.addAll(world, shapes, static)
  end
  local lx, ly = S.limits(world, span, W, tw, x), S.limits(world, span, H, th, y)
  local R
  if merge == "rects" or merge == "rows" then
    R = cells.runRectangles(W, H, rowRuns(grid, set, fn), merge, lx, ly)
  else
    local ok
    ok, R = pcall(cells.rectangles, gridCells(grid, W, set, fn), W, H, merge, lx, ly)
    if not ok then
      fail(2, "%s", S.reason(R))
    end
  end
  -- (each rectangle made, given the fields and added in turn; a constructor's error, out of
  -- range coordinates, is argument 2's)
  return S.addRects(world, R, tw, th, x, y, static, fields, 2, 5)
end

--- sat.level.grid(world, grid, tileW, tileH [, options]) -> shapes
-- grid: a list of rows, each a string (a character per cell) or a list of values; row r,
-- column c covers [x + (c - 1) * tileW, x + c * tileW] x [y + (r - 1) * tileH, y + r * tileH].
-- The solid cells become few shapes whose union is exactly the solid area, added to the
-- world (static unless options.static is false) and returned in reading order.
-- options:
--   solid   which values are solid: a set ({ ["#"] = true }) or a function(value, col, row);
--           by default a character other than " " and ".", or a value other than nil, false
--           and 0
--   merge   "rects" (default: the runs of each row, merged down where the next row's run
--           spans the same columns), "greedy", "rows", "columns", "none" (a box per tile),
--           "concave" (outlines, cut where a region has a hole or touches itself: one
--           sat.concave per piece, a plain polygon for a rectangle) or "chain" (every
--           boundary loop, holes too, as a closed sat.chain: the surface only)
--   maxSpan the most tiles a merged rectangle spans along x and along y; math.huge: no
--           limit (the fewest shapes); by default, as many as keep each rectangle within
--           two of the world's hash cells, on the hash's lowest level (see docs/level.md)
--   static  false adds the shapes as moving ones (default true: "static")
--   fields  a table of fields given to every shape (`{ tag = "wall", category = 2 }`)
--   x, y    where the grid's top-left corner is (default 0, 0)
function level.grid(world, grid, tileW, tileH, options)
  S.checkWorld("grid", world)
  local shapes = S.run("grid", buildGrid, world, grid, tileW, tileH, options)
  return shapes
end

------------------------------------------------------------------------------------------
-- sat.level.tiled

--- sat.level.tiled(world, map [, options]) -> shapes, warnings
-- map: what Tiled's Lua export returns, a decoded JSON export, or an STI map. What is read
-- and how: level_tiled.lua. Returns the shapes added (static unless options.static is
-- false), layer by layer, and a list of warnings (strings: what was skipped and why).
-- options: merge, maxSpan, static, fields, x, y as for grid; property (the name of the property
-- that makes a layer, tile or object solid, default "collidable"); ellipseSides (the sides
-- of the polygon an ellipse that is not round becomes, default 24).
function level.tiled(world, map, options)
  S.checkWorld("tiled", world)
  local shapes, warnings = S.run("tiled", tiled.build, world, map, options)
  return shapes, warnings
end

return level
