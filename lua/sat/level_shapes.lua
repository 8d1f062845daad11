--- sat.level_shapes: what sat.level's calls share: their errors, option checks, fields, the
-- shapes made from merged cells, and adding all or nothing.
-- Part of sat.level (lua/sat/level.lua); requires sat and level_grid, never level.lua.
local sat = require("sat")
local cells = require("sat.level_grid")

local type, pairs, pcall, error, tostring, getmetatable, setmetatable =
  type, pairs, pcall, error, tostring, getmetatable, setmetatable
local box, polygon, concave, chain = sat.box, sat.polygon, sat.concave, sat.chain
local worldModule = require("sat.world")
local isWorld, addMade = worldModule.isWorld, worldModule.addMade

local M = {}

-- The merge modes: level_grid's rectangle modes and the two outline ones.
M.MODES = {
  none = true, rows = true, columns = true, rects = true, greedy = true, concave = true,
  chain = true,
}
M.DEFAULT_MERGE = "rects"

------------------------------------------------------------------------------------------
-- errors
--
-- A failure inside a call is raised as a Failure {arg, message} by fail(), caught by run()
-- and raised again from the public function, at its caller's line, as
-- "bad argument #arg to 'name' (message)". Anything else (a bug, no memory) goes through as
-- it is.

local Failure = {}

function M.fail(n, fmt, ...)
  error(setmetatable({ arg = n, message = fmt:format(...) }, Failure), 0)
end
local fail = M.fail

function M.isFailure(e)
  return getmetatable(e) == Failure
end

--- run(name, build, ...) -> build's results; a Failure becomes the argument error of the
-- public function that called run, raised at that function's caller (level 3).
function M.run(name, build, ...)
  local ok, a, b = pcall(build, ...)
  if ok then
    return a, b
  end
  if getmetatable(a) == Failure then
    error(("bad argument #%d to '%s' (%s)"):format(a.arg, name, a.message), 3)
  end
  error(a, 0)
end

-- The type name an argument error gives for v: a shape by its kind, "vec", else Lua's type.
function M.describe(v)
  if sat.isShape(v) then
    return v:kind()
  elseif sat.isVec(v) then
    return "vec"
  end
  return type(v)
end
local describe = M.describe

-- The reason an error gave, without its position and "bad argument #1 to 'name'" frame.
function M.reason(e)
  e = tostring(e)
  local inner = e:match("^.-bad argument #%d+ to '[^']*' %((.*)%)$")
  if inner then
    return inner
  end
  return (e:gsub("^[^:]*:%d+: ", ""))
end

------------------------------------------------------------------------------------------
-- argument checks

-- What the public functions take as a world: anything with add, remove and has (a world
-- of sat.world, or one that wraps it).
function M.checkWorld(name, w)
  if not (type(w) == "table" and type(w.add) == "function" and type(w.remove) == "function"
      and type(w.has) == "function") then
    error(("bad argument #1 to '%s' (world expected, got %s)"):format(name, describe(w)), 3)
  end
end

function M.finite(v)
  return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge
end
local finite = M.finite

-- The keys of t in a fixed order (strings sorted, then numbers, then the rest by
-- tostring): what is done per key must not depend on pairs' order.
function M.sortedKeys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta > tb end -- "string" before "number" before the rest
    if ta == "string" or ta == "number" then return a < b end
    return tostring(a) < tostring(b)
  end)
  return keys
end
local sortedKeys = M.sortedKeys

--- checkOptions(arg, options, known) -> options (a table): nil gives {}; a name not in
-- known is an error naming it.
function M.checkOptions(arg, options, known)
  if options == nil then
    return {}
  end
  if type(options) ~= "table" then
    fail(arg, "options must be a table, got %s", describe(options))
  end
  for _, k in ipairs(sortedKeys(options)) do
    if not known[k] then
      fail(arg, "unknown option %s (options: %s)", type(k) == "string" and ("%q"):format(k)
        or tostring(k), table.concat(sortedKeys(known), ", "))
    end
  end
  return options
end

-- A value in a message: a string quoted, a number as Lua writes it (NaN as "nan"), else
-- its type.
local function show(v)
  if type(v) == "string" then
    return ("%q"):format(v)
  elseif type(v) == "number" then
    return v ~= v and "nan" or ("%.14g"):format(v)
  end
  return describe(v)
end
M.show = show

--- The options both calls take: merge, static, fields, x, y. Returns them checked, x and y
-- as floats.
function M.commonOptions(arg, o)
  local merge = o.merge
  if merge == nil then
    merge = M.DEFAULT_MERGE
  elseif not M.MODES[merge] then
    fail(arg, "merge must be \"rects\", \"greedy\", \"rows\", \"columns\", \"none\", \"concave\" "
      .. "or \"chain\", got %s", show(merge))
  end
  local static = o.static
  if static == nil then
    static = true
  elseif type(static) ~= "boolean" then
    fail(arg, "static must be a boolean, got %s", show(static))
  end
  local x, y = o.x or 0, o.y or 0
  if not finite(x) then fail(arg, "x must be a finite number, got %s", show(x)) end
  if not finite(y) then fail(arg, "y must be a finite number, got %s", show(y)) end
  local fields = o.fields
  if fields ~= nil and type(fields) ~= "table" then
    fail(arg, "fields must be a table, got %s", show(fields))
  end
  local span = o.maxSpan
  if span ~= nil and not (type(span) == "number" and span >= 1 and (span == math.huge
      or span == math.floor(span))) then
    fail(arg, "maxSpan must be an integer >= 1 or math.huge, got %s", show(span))
  end
  return merge, static, x * 1.0, y * 1.0, fields, span
end

-- The margin a merged rectangle keeps from a hash cell's edge: more than the hash pads a
-- shape's box by (the touch tolerance and rounding, about 1e-12 of its size).
local FIT_MARGIN = 1e-7

--- limits(world, span, n, size, origin) -> lim: for a grid of n tiles of `size` along an
-- axis from `origin`, lim[c + 1] = the last tile (exclusive) a merged rectangle starting at
-- tile c may reach. span (options.maxSpan): math.huge, none; an integer, that many tiles;
-- nil, as far as keeps the rectangle on the lowest level of the world's hash: its box
-- within two of the world's cells (sat.world files a shape at the lowest level where its
-- box covers at most 2 x 2 cells, and every query visits every level in use, so a few
-- long shapes on coarser levels cost every move and step). A world that does not tell its
-- cell size: no limit. At least one tile, however big.
function M.limits(world, span, n, size, origin)
  local lim = {}
  if span ~= nil then
    for c = 0, n - 1 do
      lim[c + 1] = math.min(n, c + span)
    end
    return lim
  end
  local ok, cell = pcall(function() return world:cellSize() end)
  if not ok or type(cell) ~= "number" or cell ~= cell or cell <= 0 then
    for c = 0, n - 1 do lim[c + 1] = n end
    return lim
  end
  local floor = math.floor
  local function fits(c0, c1)
    local a, b = origin + c0 * size, origin + c1 * size
    local d = FIT_MARGIN * cell + 1e-12 * (math.abs(a) + math.abs(b))
    return floor((b + d) / cell) - floor((a - d) / cell) <= 1
  end
  local e = 1 -- (moves forward with c: a rectangle from c + 1 reaches no less far)
  for c = 0, n - 1 do
    if e < c + 1 then e = c + 1 end
    while e < n and fits(c, e + 1) do
      e = e + 1
    end
    lim[c + 1] = e
  end
  return lim
end

------------------------------------------------------------------------------------------
-- fields

local function setField(shape, k, v)
  shape[k] = v
end

-- shape[k] = v; the error a shape raises (a method's name, a bad category) as a string,
-- or nil.
function M.trySet(shape, k, v)
  local ok, e = pcall(setField, shape, k, v)
  if not ok then
    return M.reason(e)
  end
  return nil
end

-- The fields of t (keys: sortedKeys(t)) given to the shape; an error names the field (as
-- argument arg).
local function giveFields(shape, t, keys, arg)
  for j = 1, #keys do
    local k = keys[j]
    local e = M.trySet(shape, k, t[k])
    if e then
      fail(arg, "fields.%s: %s", tostring(k), e)
    end
  end
end

--- Gives every shape of the list the fields of t (in sortedKeys order); an error names the
-- field.
function M.applyFields(arg, shapes, t)
  local keys = sortedKeys(t)
  for i = 1, #shapes do
    giveFields(shapes[i], t, keys, arg)
  end
end

------------------------------------------------------------------------------------------
-- shapes

-- The rectangle [x0, x1] x [y0, y1] (x0 < x1, y0 < y1): a box when its size gives back the
-- corners exactly, else a polygon of the corners themselves, so that merged and unmerged
-- tiles have the same edges to the last bit.
function M.rect(x0, y0, x1, y1)
  local w, h = x1 - x0, y1 - y0
  if x0 + w == x1 and y0 + h == y1 then
    return box(x0, y0, w, h)
  end
  return polygon(x0, y0, x1, y0, x1, y1, x0, y1)
end
local rect = M.rect

--- shapesOf(grid, W, H, tw, th, x, y, merge, mw, mh) -> shapes, groups: the shapes of a
-- grid of cells (level_grid's layout), cell (c, r) covering [x + c tw, x + (c + 1) tw] x
-- [y + r th, y + (r + 1) th], in reading order, and the group of each (same index);
-- rectangles within the limits lx, ly (see limits).
function M.shapesOf(grid, W, H, tw, th, x, y, merge, lx, ly)
  local shapes, groups = {}, {}
  if merge == "concave" or merge == "chain" then
    local loops = merge == "chain" and cells.outlines(grid, W, H) or cells.simple(grid, W, H)
    for k = 1, #loops do
      local pts = loops[k].points
      local at = {}
      for p = 1, #pts, 2 do
        at[p] = x + pts[p] * tw
        at[p + 1] = y + pts[p + 1] * th
      end
      if merge == "chain" then
        shapes[k] = chain(at, true)
      elseif #pts == 8 then -- a rectangle: one polygon costs less than a compound of one
        local x0, x1 = math.min(at[1], at[3], at[5]), math.max(at[1], at[3], at[5])
        local y0, y1 = math.min(at[2], at[4], at[6]), math.max(at[2], at[4], at[6])
        shapes[k] = rect(x0, y0, x1, y1)
      else
        shapes[k] = concave(at)
      end
      groups[k] = loops[k].g
    end
    return shapes, groups
  end
  return M.rectShapes(cells.rectangles(grid, W, H, merge, lx, ly), tw, th, x, y)
end

-- The k-th of level_grid's rectangles R as a shape (tiles tw x th, the grid's corner x, y).
local function rectAt(R, k, tw, th, x, y)
  return rect(x + R.c0[k] * tw, y + R.r0[k] * th, x + R.c1[k] * tw, y + R.r1[k] * th)
end

--- rectShapes(R, tw, th, x, y) -> shapes, groups: the shapes of level_grid's rectangles.
function M.rectShapes(R, tw, th, x, y)
  local shapes, groups = {}, {}
  local G = R.g
  for k = 1, R.n do
    shapes[k] = rectAt(R, k, tw, th, x, y)
    groups[k] = G[k]
  end
  return shapes, groups
end

------------------------------------------------------------------------------------------
-- adding, all or nothing

--- Adds every shape of the list to the world ("static" unless static is false); if an add
-- fails, the shapes added are removed again and the error goes on.
function M.addAll(world, shapes, static)
  local kind = static and "static" or nil
  local n = 0
  local ok, e = pcall(function()
    for i = 1, #shapes do
      world:add(shapes[i], kind)
      n = i
    end
  end)
  if not ok then
    for i = n, 1, -1 do
      if world:has(shapes[i]) then
        world:remove(shapes[i])
      end
    end
    error(e, 0)
  end
  return shapes
end

-- The steps of addRects, for its error (where.stage).
local MAKE, FIELDS, ADD = 1, 2, 3

-- addRects' loop, run under pcall: where.at is the rectangle worked on, where.stage the step.
-- (A function of the file, not a closure made per call: LuaJIT ran the same loop in a new
-- closure under pcall about 5% slower, with a third more cache misses.)
local function makeAndAdd(world, R, tw, th, x, y, kind, t, keys, arg, shapes, where)
  for k = 1, R.n do
    where.at, where.stage = k, MAKE
    local shape = rectAt(R, k, tw, th, x, y)
    shapes[k] = shape
    if keys then
      where.stage = FIELDS
      giveFields(shape, t, keys, arg)
    end
    where.stage = ADD
    world:add(shape, kind)
  end
end

-- makeAndAdd without fields: where it stopped is told by the shapes list alone (see
-- addRects), and each rectangle's corners are read and placed here, not through rectAt and
-- rect (the default merge's build: under Lua 5.4 the calls and writes were a third of the
-- bytecodes it ran per rectangle).
local function makeAndAddBare(world, R, tw, th, x, y, kind, shapes)
  local C0, R0, C1, R1 = R.c0, R.r0, R.c1, R.r1
  local own, static = isWorld(world), kind == "static"
  for k = 1, R.n do
    local x0, y0, x1, y1 = x + C0[k] * tw, y + R0[k] * th, x + C1[k] * tw, y + R1[k] * th
    local w, h = x1 - x0, y1 - y0
    local shape
    if x0 + w == x1 and y0 + h == y1 then -- (rect's test)
      shape = box(x0, y0, w, h)
    else
      shape = polygon(x0, y0, x1, y0, x1, y1, x0, y1)
    end
    shapes[k] = shape
    if own then
      addMade(world, shape, static)
    else
      world:add(shape, kind)
    end
  end
end

--- addRects(world, R, tw, th, x, y, static, fields, makeArg, fieldsArg) -> shapes: what
-- rectShapes, applyFields (fields: a table or nil) and addAll do one after the other, done
-- rectangle by rectangle: each shape made is given the fields and added at once, while it is
-- still in the cache (the 316 x 316 level under LuaJIT: about a third fewer cache misses than
-- making every shape, then adding every one). The same outcome, errors included: all or
-- nothing, and when something fails, the error the three passes would have raised first (a
-- shape that cannot be made, as argument makeArg; then a field, as argument fieldsArg; then
-- the add's own).
function M.addRects(world, R, tw, th, x, y, static, fields, makeArg, fieldsArg)
  local keys = fields and sortedKeys(fields)
  local kind = static and "static" or nil
  local shapes, where = {}, { at = 0, stage = MAKE }
  local ok, e
  if keys then
    ok, e = pcall(makeAndAdd, world, R, tw, th, x, y, kind, fields, keys, fieldsArg, shapes,
      where)
  else
    ok, e = pcall(makeAndAddBare, world, R, tw, th, x, y, kind, shapes)
    if ok then
      return shapes
    end
    -- shapes[1..n] were made; the n-th is in the world unless its add failed
    local n = #shapes
    if n > 0 and not world:has(shapes[n]) then
      where.at, where.stage = n, ADD
    else
      where.at = n + 1
    end
  end
  if ok then
    return shapes
  end
  local at, stage = where.at, where.stage
  for i = at - 1, 1, -1 do -- (the one at `at` is not in: world:add undoes its own failure)
    if world:has(shapes[i]) then
      world:remove(shapes[i])
    end
  end
  if stage == MAKE then
    fail(makeArg, "%s", M.reason(e))
  end
  -- (the passes would have made every shape before giving any its fields, and given every
  -- one its fields before adding any)
  for k = at + 1, R.n do
    local made, shape = pcall(rectAt, R, k, tw, th, x, y)
    if not made then
      fail(makeArg, "%s", M.reason(shape))
    end
    shapes[k] = shape
  end
  if stage == ADD and keys then
    for k = at + 1, R.n do
      giveFields(shapes[k], fields, keys, fieldsArg)
    end
  end
  error(e, 0)
end

-- A LuaJIT that fuses multiply-adds runs this file interpreted (the placement of tiles and outlines would round
-- otherwise than the C core: sat.pure.jit says why); elsewhere nothing changes.
require("sat.pure.jit").unfuse({ M })

return M
