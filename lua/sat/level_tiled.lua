--- sat.level_tiled: sat.level.tiled's reading of a Tiled map into shapes.
-- Part of sat.level (lua/sat/level.lua); requires sat and level_shapes.
--
-- Three forms of one map are read:
--   - Tiled's Lua export (`return { orientation = "orthogonal", layers = {...}, ... }`):
--     properties are a table name -> value; a tile's collision shapes are `objectGroup`;
--     objects say their `shape`; tile data is an array ("lua") or base64;
--   - a decoded JSON export: properties are an array of { name, type, value } (a table
--     name -> value before Tiled 1.2, `tileproperties` beside the tiles too); `objectgroup`;
--     an object is an ellipse or a point by a flag, a polygon or polyline by its points, a
--     text by its text, else a rectangle; tile data an array, base64 or a CSV string;
--   - an STI map (Simple-Tiled-Implementation, `sti("map.lua")`): the Lua export after STI
--     has worked on it (told by its `tileInstances`): groups flattened into `layers` (their
--     offsets and properties given to the children), a layer's offset in `x`, `y` (pixels),
--     tile data as rows of STI's tile tables (`data[y][x].gid`), and polygon and polyline
--     points moved to the map's coordinates (offset and rotation applied).
--
-- What is solid follows STI's convention (its bump plugin): `collidable = true` (or "true")
-- on a layer makes everything in it solid; on a tile (in its tileset), every instance of
-- the tile; on an object, the object. Here an explicit false on a tile or an object (or a
-- layer inside a solid group) takes it out again. The property's name is
-- options.property.
--
-- Tile layers: the solid tiles that fill their cell (the map's tile size, no tileset
-- offset, no collision shapes) are merged (options.merge, see sat.level.grid), tiles of one
-- kind together (the same custom properties and class): a merged shape gets the layer's
-- properties, the tile's on top. A tile with collision shapes (the tileset's per-tile
-- `objectGroup`, drawn in Tiled's collision editor) gets those shapes at each instance,
-- flipped as the instance is (the GID's flag bits: diagonal first, then horizontal, then
-- vertical, as Tiled draws), instead of its square; a tile of another size gets its image's
-- rectangle (anchored at the cell's bottom-left, as Tiled draws it). The collision shapes
-- that are themselves collidable are placed at every instance, solid tile or not (STI). A
-- one-way layer or tile (see below) is merged along its surface only (rows for up and down,
-- columns for left and right), never into thick blocks.
--
-- Object layers: rectangle -> box (turned by the object's rotation, degrees clockwise on a
-- y-down screen, about its top-left corner, as Tiled does); ellipse -> circle when round
-- (width == height), else a polygon of options.ellipseSides (24) vertices on the ellipse,
-- a multiple of 4 so that the four ends of the axes are vertices (the box stays exact) and
-- 24 keeps every edge within 1 - cos(pi / 24) = 0.86% of the larger semi-axis of the
-- ellipse; polygon -> polygon, or sat.concave when not convex; polyline -> sat.chain;
-- point -> sat.point; a tile object (`gid`) -> its tile's collision shapes (or its
-- rectangle), scaled to the object's size, flipped, placed by the tileset's
-- objectalignment (bottom-left by default) and turned about that point. Text objects and
-- image layers have no geometry: skipped with a warning.
--
-- Fields: every shape gets `name` and `type` = `class` (the object's, else the tile's, else
-- the layer's; set when not empty), `id` (an object's id), `properties` (the custom
-- properties, merged: the groups', the layer's, the tile's, the object's, each over the one
-- before; shared by the shapes of one layer or tile kind, read it only) and each custom
-- property as a field of its own, but for a name
-- the shape has as a method (`move`, `scale`, `rotation`, ...) or one of the five above:
-- those stay in `properties` only, with a warning. `oneway` becomes a vec, the direction of
-- motion the shape stops (world:move's one-way platforms): true or "down" gives vec(0, 1)
-- (a floor you jump up through and land on, y down as in Tiled), "up", "left", "right", or
-- "x,y" (normalized); false or "" none.
--
-- Offsets: a layer's offsetx/offsety and those of the groups it is in; parallax factors
-- change what is drawn, not where things are, so they are ignored; options.x/y move all.
-- Infinite maps: the chunks of a layer form one grid, merged across chunk edges.
-- Malformed input is an error naming the layer (its index path and name) or the object,
-- and what is wrong; nothing is added then.
local sat = require("sat")
local S = require("sat.level_shapes")

local type, pairs, ipairs, tostring, tonumber, pcall = type, pairs, ipairs, tostring, tonumber, pcall
local floor, sqrt, min, max = math.floor, math.sqrt, math.min, math.max
local fail, describe, finite, show = S.fail, S.describe, S.finite, S.show

local M = {}

local OPTIONS = {
  merge = true, static = true, fields = true, x = true, y = true, property = true,
  ellipseSides = true, maxSpan = true,
}

-- The GID's flag bits (Tiled: bit 32 horizontal, 31 vertical, 30 diagonal, 29 a hexagonal
-- rotation, cleared here); arithmetic, as 5.1 has no bit operators (a GID is < 2^32).
local FLIP_H, FLIP_V, FLIP_D, FLIP_R = 2147483648, 1073741824, 536870912, 268435456
local GID_LIMIT = 4294967296

local ONEWAY = { down = { 0, 1 }, up = { 0, -1 }, left = { -1, 0 }, right = { 1, 0 } }

-- Field names set from the map itself; a custom property of one of these names stays in
-- `properties` only.
local RESERVED = { name = true, type = true, class = true, id = true, properties = true }

local EMPTY = {}

------------------------------------------------------------------------------------------
-- small readers

local function truthy(v)
  return v == true or v == "true"
end

-- A number field: nil gives default; anything but a finite number is an error.
local function num(t, key, default, where)
  local v = t[key]
  if v == nil then
    return default
  end
  if not finite(v) then
    fail(2, "%s: %s must be a finite number, got %s", where, key, show(v))
  end
  return v * 1.0
end

local function count(t, key, where, lo)
  local v = t[key]
  if type(v) ~= "number" or v ~= floor(v) or v < (lo or 1) or v >= GID_LIMIT then
    fail(2, "%s: %s must be an integer >= %d, got %s", where, key, lo or 1, show(v))
  end
  return v
end

-- Custom properties: a table name -> value (the Lua export, STI, old JSON) or an array of
-- { name, type, value } (JSON since Tiled 1.2).
local function readProperties(p, where)
  if p == nil then
    return EMPTY
  end
  if type(p) ~= "table" then
    fail(2, "%s: properties must be a table, got %s", where, describe(p))
  end
  if p[1] == nil then
    return p
  end
  local out = {}
  for k = 1, #p do
    local e = p[k]
    if type(e) ~= "table" or type(e.name) ~= "string" then
      fail(2, "%s: properties[%d] must be a table with a name, got %s", where, k, describe(e))
    end
    out[e.name] = e.value
  end
  return out
end

-- a's entries with b's on top (a new table unless one of them is empty).
local function overlay(a, b)
  if next(b) == nil then return a end
  if next(a) == nil then return b end
  local out = {}
  for k, v in pairs(a) do out[k] = v end
  for k, v in pairs(b) do out[k] = v end
  return out
end

local function nonEmpty(s)
  if type(s) == "string" and s ~= "" then
    return s
  end
  return nil
end

-- A text naming a layer: `layer 2.1 "walls"`.
local function layerName(path, layer)
  return ("layer %s %q"):format(path, tostring(layer.name or ""))
end

local function objectName(k, obj, where)
  local id = obj.id ~= nil and (" id " .. tostring(obj.id)) or ""
  return ("object %d%s %q in %s"):format(k, id, tostring(obj.name or ""), where)
end

------------------------------------------------------------------------------------------
-- geometry: points as flat lists; transforms as { a, b, c, d, e, f }: x' = a x + b y + e,
-- y' = c x + d y + f. Turns use sat's own sine and cosine (vec:rotated), exact for
-- multiples of 90 degrees, so that a level is the same bits everywhere.

local IDENTITY = { 1, 0, 0, 1, 0, 0 }

local function cosSin(degrees)
  local q = degrees / 90
  if q == floor(q) then
    local k = q % 4
    if k == 0 then return 1, 0 elseif k == 1 then return 0, 1 elseif k == 2 then return -1, 0 end
    return 0, -1
  end
  local v = sat.vec(1, 0):rotated(degrees * (math.pi / 180))
  return v.x, v.y
end

-- t after u (u applied first).
local function compose(t, u)
  return {
    t[1] * u[1] + t[2] * u[3], t[1] * u[2] + t[2] * u[4],
    t[3] * u[1] + t[4] * u[3], t[3] * u[2] + t[4] * u[4],
    t[1] * u[5] + t[2] * u[6] + t[5], t[3] * u[5] + t[4] * u[6] + t[6],
  }
end

local function translate(x, y)
  return { 1, 0, 0, 1, x, y }
end

-- A turn by degrees clockwise (y down) about (px, py).
local function turn(degrees, px, py)
  if degrees == 0 then
    return IDENTITY
  end
  local c, s = cosSin(degrees)
  return { c, -s, s, c, px - (c * px - s * py), py - (s * px + c * py) }
end

local function apply(t, pts)
  local out = {}
  local a, b, c, d, e, f = t[1], t[2], t[3], t[4], t[5], t[6]
  for i = 1, #pts, 2 do
    local x, y = pts[i], pts[i + 1]
    if b == 0 and c == 0 then -- (no products of zero: -0 and exactness kept)
      out[i], out[i + 1] = a * x + e, d * y + f
    else
      out[i], out[i + 1] = a * x + b * y + e, c * x + d * y + f
    end
  end
  return out
end

-- The scale a transform gives a circle, or nil when it makes an ellipse of it.
local function uniformScale(t)
  local a, b, c, d = t[1], t[2], t[3], t[4]
  if (a == d and b == -c) or (a == -d and b == c) then
    return sqrt(a * a + c * c)
  end
  return nil
end

-- The ellipse inscribed in [0, w] x [0, h] as n points (n a multiple of 4: the axes' ends
-- are exact), counter-clockwise on a y-down screen from the right end.
local function ellipsePoints(w, h, n)
  local rx, ry = w / 2, h / 2
  local pts = {}
  local q = n / 4
  for k = 0, n - 1 do
    local j, quarter = k % q, floor(k / q)
    local c, s
    if j == 0 then
      c, s = 1, 0
    else
      local v = sat.vec(1, 0):rotated(j * (2 * math.pi / n))
      c, s = v.x, v.y
    end
    -- the quarter-turns by swapping and negating: exact symmetry
    if quarter == 1 then c, s = -s, c elseif quarter == 2 then c, s = -c, -s
    elseif quarter == 3 then c, s = s, -c end
    pts[2 * k + 1] = rx + rx * c
    pts[2 * k + 2] = ry + ry * s
  end
  return pts
end

------------------------------------------------------------------------------------------
-- shapes from geometry

-- Runs a constructor; its refusal becomes an error naming where.
local function make(where, ctor, ...)
  local ok, shape = pcall(ctor, ...)
  if not ok then
    fail(2, "%s: %s", where, S.reason(shape))
  end
  return shape
end

-- Four points going round an axis-aligned rectangle -> its bounds, else nil.
local function axisRect(p)
  if #p ~= 8 then return nil end
  for i = 1, 8, 2 do
    local j = (i + 1) % 8 + 1 -- the next point
    local sameX, sameY = p[i] == p[j], p[i + 1] == p[j + 1]
    if sameX == sameY then -- (a diagonal step, or none)
      return nil
    end
  end
  return min(p[1], p[3], p[5], p[7]), min(p[2], p[4], p[6], p[8]),
    max(p[1], p[3], p[5], p[7]), max(p[2], p[4], p[6], p[8])
end

-- A polygon's shape: a rectangle exactly, a convex polygon, else sat.concave.
local function polyShape(where, pts)
  local x0, y0, x1, y1 = axisRect(pts)
  if x0 then
    return make(where, S.rect, x0, y0, x1, y1)
  end
  local ok, shape = pcall(sat.polygon, pts)
  if ok then
    return shape
  end
  return make(where, sat.concave, pts)
end

-- A geometry (an object's, in its parent's frame: see readObject) through transform t.
local function shapeOf(where, g, t, sides)
  local kind = g.kind
  if kind == "poly" then
    return polyShape(where, apply(t, g.pts))
  elseif kind == "ellipse" then
    local scale = uniformScale(t)
    if g.w == g.h and scale then
      local c = apply(t, { g.x + g.w / 2, g.y + g.h / 2 })
      return make(where, sat.circle, c[1], c[2], g.w / 2 * scale)
    end
    local pts = ellipsePoints(g.w, g.h, sides)
    return polyShape(where, apply(compose(t, translate(g.x, g.y)), pts))
  elseif kind == "chain" then
    return make(where, sat.chain, apply(t, g.pts))
  end -- "point"
  local p = apply(t, { g.x, g.y })
  return make(where, sat.point, p[1], p[2])
end

------------------------------------------------------------------------------------------
-- objects

-- The kind of an object: its `shape` (Lua export, STI) or its flags (JSON).
local function kindOf(obj)
  if obj.gid ~= nil then return "tile" end
  if obj.shape ~= nil then return obj.shape end
  if obj.ellipse then return "ellipse" end
  if obj.point then return "point" end
  if obj.polygon ~= nil then return "polygon" end
  if obj.polyline ~= nil then return "polyline" end
  if obj.text ~= nil then return "text" end
  return "rectangle"
end

local function readPoints(list, where, key, least, absolute, x, y, rot)
  if type(list) ~= "table" then
    fail(2, "%s: %s must be a list of points, got %s", where, key, describe(list))
  end
  if #list < least then
    fail(2, "%s: a %s needs at least %d points, got %d", where, key, least, #list)
  end
  local pts = {}
  for i = 1, #list do
    local p = list[i]
    if type(p) ~= "table" or not finite(p.x) or not finite(p.y) then
      fail(2, "%s: %s[%d] must be a point {x = ..., y = ...} of finite numbers", where, key, i)
    end
    pts[2 * i - 1], pts[2 * i] = p.x * 1.0, p.y * 1.0
  end
  if absolute then -- (STI moved them already)
    return pts
  end
  -- relative to the object's position, turned about it
  return apply(compose(translate(x, y), turn(rot, 0, 0)), pts)
end

--- The geometry of an object in its parent's frame (a layer's, a tile's), rotation
-- included: { kind = "poly", pts } | { kind = "ellipse", x, y, w, h } (when not turned;
-- else a poly) | { kind = "chain", pts } | { kind = "point", x, y }; nil for a text.
-- absolute: STI's polygons and polylines, already in the map's frame.
local function readObject(obj, where, absolute)
  local kind = kindOf(obj)
  local x, y = num(obj, "x", nil, where), num(obj, "y", nil, where)
  if x == nil or y == nil then
    fail(2, "%s: x and y must be finite numbers, got %s, %s", where, show(obj.x), show(obj.y))
  end
  local w, h = num(obj, "width", 0, where), num(obj, "height", 0, where)
  local rot = num(obj, "rotation", 0, where)
  if kind == "rectangle" or kind == "ellipse" then
    if not (w > 0 and h > 0) then
      fail(2, "%s: a %s of width %s and height %s has no area", where, kind, show(w), show(h))
    end
    if kind == "ellipse" and rot == 0 then
      return { kind = "ellipse", x = x, y = y, w = w, h = h }
    end
    local t = turn(rot, x, y)
    if kind == "ellipse" then
      return { kind = "ellipse", x = 0, y = 0, w = w, h = h, t = compose(t, translate(x, y)) }
    end
    return { kind = "poly", pts = apply(t, { x, y, x + w, y, x + w, y + h, x, y + h }) }
  elseif kind == "polygon" then
    return { kind = "poly", pts = readPoints(obj.polygon, where, "polygon", 3, absolute, x, y, rot) }
  elseif kind == "polyline" then
    return { kind = "chain", pts = readPoints(obj.polyline, where, "polyline", 2, absolute, x, y, rot) }
  elseif kind == "point" then
    return { kind = "point", x = x, y = y }
  elseif kind == "text" then
    return nil
  end
  fail(2, "%s: unknown shape %s", where, show(kind))
end

-- shapeOf for an object's geometry, with its own transform (a turned ellipse) first.
local function placeGeometry(where, g, t, sides)
  if g.t then
    return shapeOf(where, g, compose(t, g.t), sides)
  end
  return shapeOf(where, g, t, sides)
end

------------------------------------------------------------------------------------------
-- tilesets and tiles

local function readTileset(ts, i, property)
  local where = ("tileset %d %q"):format(i, tostring(type(ts) == "table" and ts.name or ""))
  if type(ts) == "table" and ts.tiles == nil and (ts.source or ts.filename) then
    where = ("%s (%s)"):format(where, tostring(ts.source or ts.filename))
  end
  if type(ts) ~= "table" then
    fail(2, "tileset %d must be a table, got %s", i, describe(ts))
  end
  local set = {
    where = where,
    firstgid = count(ts, "firstgid", where, 1),
    tw = ts.tilewidth ~= nil and num(ts, "tilewidth", nil, where) or nil,
    th = ts.tileheight ~= nil and num(ts, "tileheight", nil, where) or nil,
    offx = 0, offy = 0,
    alignment = ts.objectalignment,
    image = ts.image,
    tilecount = ts.tilecount,
    external = ts.tiles == nil and (ts.source ~= nil or ts.filename ~= nil),
    tiles = {},
  }
  if type(ts.tileoffset) == "table" then
    set.offx = num(ts.tileoffset, "x", 0, where)
    set.offy = num(ts.tileoffset, "y", 0, where)
  end
  local tiles = ts.tiles
  if tiles ~= nil and type(tiles) ~= "table" then
    fail(2, "%s: tiles must be a table, got %s", where, describe(tiles))
  end
  local function add(id, t, tw)
    if type(t) ~= "table" then
      fail(2, "%s: tile %s must be a table, got %s", where, tostring(id), describe(t))
    end
    local tile = set.tiles[id] or {}
    tile.id = id
    tile.props = overlay(tile.props or EMPTY, readProperties(t.properties, tw))
    tile.class = nonEmpty(t.type) or nonEmpty(t.class) or tile.class
    tile.group = t.objectGroup or t.objectgroup or tile.group
    tile.w = t.width or t.imagewidth or tile.w
    tile.h = t.height or t.imageheight or tile.h
    set.tiles[id] = tile
  end
  if tiles then
    if tiles[1] ~= nil or next(tiles) == nil then
      for k = 1, #tiles do
        local t = tiles[k]
        local id = type(t) == "table" and t.id
        if type(id) ~= "number" or id ~= floor(id) or id < 0 then
          fail(2, "%s: tiles[%d].id must be an integer >= 0, got %s", where, k, show(id))
        end
        add(id, t, ("%s tile %d"):format(where, id))
      end
    else -- JSON before Tiled 1.2: { ["3"] = {...} }
      for key, t in pairs(tiles) do
        local id = tonumber(key)
        if id == nil or id ~= floor(id) or id < 0 then
          fail(2, "%s: tiles key %s is not a tile id", where, show(key))
        end
        add(id, t, ("%s tile %d"):format(where, id))
      end
    end
  end
  if type(ts.tileproperties) == "table" then -- (JSON before Tiled 1.2)
    for key, p in pairs(ts.tileproperties) do
      local id = tonumber(key)
      if id == nil then
        fail(2, "%s: tileproperties key %s is not a tile id", where, show(key))
      end
      add(id, { properties = p }, ("%s tile %d"):format(where, id))
    end
  end
  set.property = property
  return set
end

local function readTilesets(map, property)
  local list = map.tilesets
  if list == nil then
    return {}
  end
  if type(list) ~= "table" then
    fail(2, "tilesets must be a table, got %s", describe(list))
  end
  local sets = {}
  for i = 1, #list do
    sets[i] = readTileset(list[i], i, property)
  end
  table.sort(sets, function(a, b) return a.firstgid < b.firstgid end)
  for i = 2, #sets do
    if sets[i].firstgid == sets[i - 1].firstgid then
      fail(2, "%s and %s have the same firstgid %d", sets[i - 1].where, sets[i].where, sets[i].firstgid)
    end
  end
  return sets
end

-- A key for the fields a tile gives: tiles with the same class and properties merge
-- together. Properties whose values are tables make the tile a kind of its own.
local function tileKind(tile)
  if tile == nil then
    return ""
  end
  local parts = { tile.class or "" }
  for _, k in ipairs(S.sortedKeys(tile.props)) do
    local v = tile.props[k]
    if type(v) == "table" then
      return tile -- (a key no other tile has)
    end
    parts[#parts + 1] = ("%s=%s:%s"):format(tostring(k), type(v), tostring(v))
  end
  return table.concat(parts, "\0")
end

-- The collision shapes of a tile (its objectGroup), read once: a list of
-- { g = geometry in the tile's frame, props, name, class, id, collidable }.
local function tileShapes(ctx, set, tile)
  if tile.shapes ~= nil then
    return tile.shapes
  end
  local group = tile.group
  local list = false
  if group ~= nil then
    local where = ("%s tile %d's collision shapes"):format(set.where, tile.id)
    if type(group) ~= "table" or type(group.objects) ~= "table" then
      fail(2, "%s: objects must be a list, got %s", where, describe(group and group.objects))
    end
    if #group.objects > 0 then
      list = {}
      local groupProps = readProperties(group.properties, where)
      for k = 1, #group.objects do
        local obj = group.objects[k]
        if type(obj) ~= "table" then
          fail(2, "%s: object %d must be a table, got %s", where, k, describe(obj))
        end
        local ow = objectName(k, obj, where)
        local g = readObject(obj, ow, false)
        if g == nil then
          ctx.warn(("%s: a text has no geometry: skipped"):format(ow))
        else
          local props = overlay(groupProps, readProperties(obj.properties, ow))
          list[#list + 1] = { g = g, props = props, where = ow,
            name = nonEmpty(obj.name), class = nonEmpty(obj.type) or nonEmpty(obj.class),
            collidable = truthy(props[ctx.property]) }
        end
      end
      if #list == 0 then list = false end
    end
  end
  tile.shapes = list
  return list
end

-- What a (raw) GID is: nil for an empty cell, else { set, tile (or nil), id, gid, h, v, d
-- (flips), w, h (the tile's size before flipping), kind }. Cached per raw GID.
local function gidInfo(ctx, raw, where)
  local info = ctx.gids[raw]
  if info ~= nil then
    return info or nil
  end
  if type(raw) ~= "number" or raw ~= floor(raw) or raw < 0 or raw >= GID_LIMIT then
    fail(2, "%s is %s, expected a tile GID (an integer from 0 to 2^32 - 1)", where(), show(raw))
  end
  local g, fh, fv, fd = raw, false, false, false
  if g >= FLIP_H then fh, g = true, g - FLIP_H end
  if g >= FLIP_V then fv, g = true, g - FLIP_V end
  if g >= FLIP_D then fd, g = true, g - FLIP_D end
  if g >= FLIP_R then g = g - FLIP_R end
  if g == 0 then
    ctx.gids[raw] = false
    return nil
  end
  local set
  for i = #ctx.sets, 1, -1 do
    if ctx.sets[i].firstgid <= g then
      set = ctx.sets[i]
      break
    end
  end
  local id = set and g - set.firstgid
  if set == nil or (set.image ~= nil and type(set.tilecount) == "number" and id >= set.tilecount) then
    fail(2, "%s is tile %d, which is in no tileset", where(), g)
  end
  local tile = set.tiles[id]
  if set.external and not ctx.warnedExternal[set] then
    ctx.warnedExternal[set] = true
    ctx.warn(("%s is in another file (not embedded): its tiles' properties and collision "
      .. "shapes are not in the map; export with \"Embed tilesets\""):format(set.where))
  end
  local w = tile and tile.w or set.tw or ctx.tw
  local h = tile and tile.h or set.th or ctx.th
  info = {
    set = set, tile = tile, id = id, gid = g, fh = fh, fv = fv, fd = fd, w = w, h = h,
    kind = tileKind(tile),
    props = tile and tile.props or EMPTY,
    class = tile and tile.class,
    solid = tile and tile.props[ctx.property], -- true, false (taken out) or nil
  }
  ctx.gids[raw] = info
  return info
end

-- The transform that draws a tile's own frame ([0, w] x [0, h]) flipped as info says into
-- [0, w'] x [0, h'] (w', h' swapped by a diagonal flip), scaled by (sx, sy), at (x, y).
-- Returns it and w', h' (before the scale).
local function flipTransform(info, x, y, sx, sy)
  local a, b, c, d, e, f = 1, 0, 0, 1, 0, 0
  local w, h = info.w, info.h
  if info.fd then
    a, b, c, d = 0, 1, 1, 0
    w, h = h, w
  end
  if info.fh then
    a, b, e = -a, -b, w - e
  end
  if info.fv then
    c, d, f = -c, -d, h - f
  end
  return { a * sx, b * sx, c * sy, d * sy, e * sx + x, f * sy + y }, w, h
end

------------------------------------------------------------------------------------------
-- fields

local function onewayVec(v, where)
  if v == nil or v == false or v == "false" or v == "" then
    return nil
  end
  if v == true or v == "true" then
    return sat.vec(0, 1)
  end
  if type(v) == "string" then
    local d = ONEWAY[v]
    if d then
      return sat.vec(d[1], d[2])
    end
    local x, y = v:match("^%s*([^,%s]+)%s*,%s*([^,%s]+)%s*$")
    x, y = tonumber(x), tonumber(y)
    if finite(x) and finite(y) and (x ~= 0 or y ~= 0) then
      return sat.vec(x, y):normalized()
    end
  end
  fail(2, "%s: oneway must be true, \"down\", \"up\", \"left\", \"right\" or \"x,y\" (a direction), got %s",
    where, show(v))
end

-- Which merge a one-way property asks for: "rows" (up, down), "columns" (left, right),
-- "none" (any other direction); nil when not one-way.
local function onewayMerge(props, where)
  local v = onewayVec(props.oneway, where)
  if v == nil then return nil end
  if v.x == 0 then return "rows" end
  if v.y == 0 then return "columns" end
  return "none"
end

--- Gives shape its fields: { name, class, id, props } (see the header).
local function giveFields(ctx, shape, rec, where)
  if rec.name then shape.name = rec.name end
  if rec.class then
    shape.type = rec.class
    shape.class = rec.class
  end
  if rec.id ~= nil then shape.id = rec.id end
  local props = rec.props
  shape.properties = props
  if next(props) == nil then
    return
  end
  local keys = rec.keys
  if not keys then
    keys = S.sortedKeys(props)
    rec.keys = keys
  end
  for i = 1, #keys do
    local k = keys[i]
    local v = props[k]
    if RESERVED[k] then
      ctx.warn(("%s: property %q is kept in .properties only (the field %s is the map's own)")
        :format(where, tostring(k), tostring(k)))
    elseif type(shape[k]) == "function" then
      ctx.warn(("%s: property %q is kept in .properties only (%q is a method of a %s)")
        :format(where, tostring(k), tostring(k), shape:kind()))
    else
      if k == "oneway" then
        v = onewayVec(v, where)
      end
      local e = S.trySet(shape, k, v)
      if e then
        fail(2, "%s: property %q: %s", where, tostring(k), e)
      end
    end
  end
end

local function emit(ctx, shape, rec, where)
  giveFields(ctx, shape, rec, where)
  ctx.shapes[#ctx.shapes + 1] = shape
end

------------------------------------------------------------------------------------------
-- tile layers

local B64 = {}
do
  local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  for i = 1, 64 do
    B64[alphabet:byte(i)] = i - 1
  end
end

-- Base64 (uncompressed) tile data: little-endian unsigned 32-bit GIDs.
local function decodeBase64(s, where)
  s = s:gsub("%s", "")
  local n = #s
  if n % 4 ~= 0 then
    fail(2, "%s: base64 data of %d characters (not a multiple of 4)", where, n)
  end
  local bytes, nb = {}, 0
  local byte = string.byte
  for i = 1, n, 4 do
    local a, b, c, d = byte(s, i, i + 3)
    local va, vb, vc, vd = B64[a], B64[b], B64[c], B64[d]
    local pad = 0
    if d == 61 then
      pad, vd = 1, 0
      if c == 61 then pad, vc = 2, 0 end
      if i + 3 ~= n then va = nil end
    end
    if not (va and vb and vc and vd) then
      fail(2, "%s: bad base64 data near character %d", where, i)
    end
    local v = ((va * 64 + vb) * 64 + vc) * 64 + vd
    bytes[nb + 1] = floor(v / 65536)
    bytes[nb + 2] = floor(v / 256) % 256
    bytes[nb + 3] = v % 256
    nb = nb + 3 - pad
  end
  if nb % 4 ~= 0 then
    fail(2, "%s: base64 data of %d bytes (not whole 32-bit GIDs)", where, nb)
  end
  local gids = {}
  for i = 1, nb / 4 do
    local o = (i - 1) * 4
    gids[i] = bytes[o + 1] + bytes[o + 2] * 256 + bytes[o + 3] * 65536 + bytes[o + 4] * 16777216
  end
  return gids
end

-- The GIDs of one block of tile data (a layer's or a chunk's), w x h, as a flat array.
local function readData(ctx, data, w, h, encoding, compression, where)
  if compression ~= nil and compression ~= "" then
    fail(2, "%s: tile data compressed with %s cannot be read in plain Lua: export the map with "
      .. "the tile layer format \"CSV\" or \"Base64 (uncompressed)\"", where, show(compression))
  end
  local gids
  if type(data) == "string" then
    if encoding == "base64" then
      gids = decodeBase64(data, where)
    elseif encoding == "csv" then
      gids = {}
      for v in data:gmatch("[^,%s]+") do
        local n = tonumber(v)
        if n == nil then
          fail(2, "%s: CSV data has %s, not a number", where, show(v))
        end
        gids[#gids + 1] = n
      end
    else
      fail(2, "%s: data is a string but the encoding is %s (\"base64\" or \"csv\" expected)", where,
        show(encoding))
    end
  elseif type(data) == "table" then
    if ctx.sti and type(data[1]) == "table" then
      -- STI: rows of tile tables (nil where empty)
      gids = {}
      for r = 1, h do
        local row = data[r]
        if row ~= nil and type(row) ~= "table" then
          fail(2, "%s: data[%d] must be a row of tiles, got %s", where, r, describe(row))
        end
        for c = 1, w do
          local t = row and row[c]
          local g = 0
          if t ~= nil then
            g = type(t) == "table" and t.gid or t
          end
          gids[(r - 1) * w + c] = g
        end
      end
      return gids
    end
    gids = data
  else
    fail(2, "%s: data must be a list of GIDs or a string, got %s", where, describe(data))
  end
  if #gids ~= w * h then
    fail(2, "%s: data has %d entries, expected %d (width %d x height %d)", where, #gids, w * h, w, h)
  end
  return gids
end

-- Places the collision shapes of a tile instance (drawn into [x, x + w'] x [y, y + h']
-- flipped as info says, scaled by sx, sy, then turned by t): all of them, or the
-- collidable ones only.
local function placeTileShapes(ctx, info, list, all, x, y, sx, sy, outer, rec, where)
  local t = flipTransform(info, x, y, sx, sy)
  if outer then t = compose(outer, t) end
  for k = 1, #list do
    local s = list[k]
    if all or s.collidable then
      if not (s.props[ctx.property] == false or s.props[ctx.property] == "false") then
        local shape = placeGeometry(where .. ", " .. s.where, s.g, t, ctx.sides)
        emit(ctx, shape, {
          name = rec.name, class = s.class or rec.class, id = rec.id,
          props = overlay(rec.props, s.props),
        }, where)
      end
    end
  end
end

local function tileLayer(ctx, layer, path, lx, ly, props)
  local where = layerName(path, layer)
  local tw, th = ctx.tw, ctx.th
  local layerSolid = truthy(props[ctx.property])
  local chunks = {}
  if layer.chunks ~= nil then
    if type(layer.chunks) ~= "table" then
      fail(2, "%s: chunks must be a list, got %s", where, describe(layer.chunks))
    end
    for k = 1, #layer.chunks do
      local ch = layer.chunks[k]
      local cw = ("%s, chunk %d"):format(where, k)
      if type(ch) ~= "table" then
        fail(2, "%s must be a table, got %s", cw, describe(ch))
      end
      local x, y = ch.x, ch.y
      if type(x) ~= "number" or x ~= floor(x) or type(y) ~= "number" or y ~= floor(y) then
        fail(2, "%s: x and y must be integers (tiles), got %s, %s", cw, show(x), show(y))
      end
      local w, h = count(ch, "width", cw), count(ch, "height", cw)
      chunks[k] = { x = x, y = y, w = w, h = h,
        gids = readData(ctx, ch.data, w, h, layer.encoding, layer.compression, cw), where = cw }
    end
  else
    if layer.data == nil then
      fail(2, "%s: a tile layer needs data or chunks", where)
    end
    local w, h = count(layer, "width", where), count(layer, "height", where)
    chunks[1] = { x = 0, y = 0, w = w, h = h,
      gids = readData(ctx, layer.data, w, h, layer.encoding, layer.compression, where), where = where }
  end
  if #chunks == 0 then
    return
  end
  local x0, y0, x1, y1 = math.huge, math.huge, -math.huge, -math.huge
  for _, ch in ipairs(chunks) do
    x0, y0 = min(x0, ch.x), min(y0, ch.y)
    x1, y1 = max(x1, ch.x + ch.w), max(y1, ch.y + ch.h)
  end
  local W, H = x1 - x0, y1 - y0
  -- the cells to merge, per way of merging: the layer's, and the one-way ones
  local grids, order = {}, {}
  local kinds, nkinds = {}, 0 -- kind key -> group id; group id -> record
  local records = {}
  local layerRec = { name = nonEmpty(layer.name), class = nonEmpty(layer.class), props = props }
  local extras = {} -- functions placing per-tile shapes, in cell order
  local ox, oy = ctx.ox + lx, ctx.oy + ly
  for _, ch in ipairs(chunks) do
    local gids, w = ch.gids, ch.w
    for r = 0, ch.h - 1 do
      for c = 0, w - 1 do
        local i = r * w + c + 1
        local raw = gids[i]
        if raw ~= 0 then
          local info = gidInfo(ctx, raw, function()
            return ("%s: data[%d] (column %d, row %d)"):format(ch.where, i, c + 1, r + 1)
          end)
          if info then
            local solid = info.solid
            if solid == nil then solid = layerSolid else solid = truthy(solid) end
            local gc, gr = ch.x + c, ch.y + r -- the cell, in the layer's tiles
            local list = info.tile and tileShapes(ctx, info.set, info.tile)
            local fw, fh = info.w, info.h
            if info.fd then fw, fh = fh, fw end
            local full = fw == tw and fh == th and info.set.offx == 0 and info.set.offy == 0
            if solid and not list and full then
              local key = info.kind
              local id = kinds[key]
              if id == nil then
                nkinds = nkinds + 1
                id = nkinds
                kinds[key] = id
                local rec = {
                  name = layerRec.name, class = info.class or layerRec.class,
                  props = overlay(props, info.props),
                }
                records[id] = rec
                rec.merge = ctx.merge == "none" and "none" or onewayMerge(rec.props, where)
                  or ctx.merge
              end
              local mode = records[id].merge
              local grid = grids[mode]
              if grid == nil then
                grid = {}
                for g = 1, W * H do -- (every cell: an array, not a hash)
                  grid[g] = false
                end
                grids[mode] = grid
                order[#order + 1] = mode
              end
              grid[(gr - y0) * W + (gc - x0) + 1] = id
            elseif solid or list then
              -- the tile's image: at the cell's bottom-left, moved by the tileset's offset
              local x = ox + gc * tw + info.set.offx
              local y = oy + (gr + 1) * th - fh + info.set.offy
              local rec = { name = layerRec.name, class = info.class or layerRec.class,
                props = overlay(props, info.props) }
              local cw = ("%s, the tile at column %d, row %d"):format(where, gc + 1, gr + 1)
              extras[#extras + 1] = function()
                if list then
                  placeTileShapes(ctx, info, list, solid, x, y, 1, 1, nil, rec, cw)
                elseif solid then
                  emit(ctx, make(cw, S.rect, x, y, x + fw, y + fh), rec, cw)
                end
              end
            end
          end
        end
      end
    end
  end
  table.sort(order, function(a, b) -- the layer's own mode first, then by name
    if (a == ctx.merge) ~= (b == ctx.merge) then return a == ctx.merge end
    return a < b
  end)
  for _, mode in ipairs(order) do
    local gx, gy = ox + x0 * tw, oy + y0 * th
    local limx, limy
    if mode ~= "concave" and mode ~= "chain" then
      limx, limy = S.limits(ctx.world, ctx.span, W, tw, gx), S.limits(ctx.world, ctx.span, H, th, gy)
    end
    local ok, shapes, groups = pcall(S.shapesOf, grids[mode], W, H, tw, th, gx, gy, mode, limx, limy)
    if not ok then
      fail(2, "%s: %s", where, S.reason(shapes))
    end
    for k = 1, #shapes do
      emit(ctx, shapes[k], records[groups[k]], where)
    end
  end
  for k = 1, #extras do
    extras[k]()
  end
end

------------------------------------------------------------------------------------------
-- object layers

-- Where a tile object's anchor (x, y) is on its rectangle, as fractions of (w, h).
local ALIGN = {
  topleft = { 0, 0 }, top = { 0.5, 0 }, topright = { 1, 0 },
  left = { 0, 0.5 }, center = { 0.5, 0.5 }, right = { 1, 0.5 },
  bottomleft = { 0, 1 }, bottom = { 0.5, 1 }, bottomright = { 1, 1 },
}

local function objectLayer(ctx, layer, path, lx, ly, props)
  local where = layerName(path, layer)
  local objects = layer.objects
  if type(objects) ~= "table" then
    fail(2, "%s: objects must be a list, got %s", where, describe(objects))
  end
  local layerSolid = truthy(props[ctx.property])
  local frame = translate(ctx.ox + lx, ctx.oy + ly)
  for k = 1, #objects do
    local obj = objects[k]
    if type(obj) ~= "table" then
      fail(2, "%s: object %d must be a table, got %s", where, k, describe(obj))
    end
    local ow = objectName(k, obj, where)
    local oprops = readProperties(obj.properties, ow)
    local own = oprops[ctx.property]
    local info
    if obj.gid ~= nil then
      info = gidInfo(ctx, obj.gid, function() return ow .. ": gid" end)
    end
    -- solid: the object's own say, else its tile's, else the layer's
    local solid = own
    if solid == nil and info then solid = info.solid end
    if solid == nil then solid = layerSolid else solid = truthy(solid) end
    local list = info and info.tile and tileShapes(ctx, info.set, info.tile)
    local anyShape = list and (solid or (function()
      for _, s in ipairs(list) do if s.collidable then return true end end
      return false
    end)())
    if obj.template ~= nil and obj.shape == nil and obj.gid == nil and obj.polygon == nil
        and obj.polyline == nil and obj.ellipse == nil and obj.point == nil then
      if solid then
        fail(2, "%s is an instance of template %s, which is in another file: export with \"Detach templates\"",
          ow, show(obj.template))
      end
      ctx.warn(("%s is an instance of template %s, which is in another file: skipped"):format(ow,
        show(obj.template)))
    elseif solid or anyShape then
      local rec = {
        name = nonEmpty(obj.name), id = obj.id,
        class = nonEmpty(obj.type) or nonEmpty(obj.class) or (info and info.class),
        props = overlay(info and overlay(props, info.props) or props, oprops),
      }
      if info then
        -- a tile object: its rectangle of the object's size, anchored at (x, y) by the
        -- tileset's alignment, flipped, turned about (x, y)
        local x, y = num(obj, "x", nil, ow), num(obj, "y", nil, ow)
        if x == nil or y == nil then
          fail(2, "%s: x and y must be finite numbers, got %s, %s", ow, show(obj.x), show(obj.y))
        end
        local fw, fh = info.w, info.h
        if info.fd then fw, fh = fh, fw end
        local w, h = num(obj, "width", 0, ow), num(obj, "height", 0, ow)
        if w == 0 then w = fw end
        if h == 0 then h = fh end
        if not (w > 0 and h > 0) then
          fail(2, "%s: a tile object of width %s and height %s has no area", ow, show(w), show(h))
        end
        local align = ALIGN[info.set.alignment] or ALIGN.bottomleft
        local left, top = x - align[1] * w, y - align[2] * h
        local outer = compose(frame, turn(num(obj, "rotation", 0, ow), x, y))
        if list then
          placeTileShapes(ctx, info, list, solid, left, top, w / fw, h / fh, outer, rec, ow)
        else
          emit(ctx, polyShape(ow, apply(outer, { left, top, left + w, top, left + w, top + h,
            left, top + h })), rec, ow)
        end
      else
        local absolute = ctx.sti and (obj.polygon ~= nil or obj.polyline ~= nil)
        local g = readObject(obj, ow, absolute)
        if g == nil then
          ctx.warn(("%s: a text has no geometry: skipped"):format(ow))
        else
          local t = frame
          if absolute then t = translate(ctx.ox, ctx.oy) end
          emit(ctx, placeGeometry(ow, g, t, ctx.sides), rec, ow)
        end
      end
    end
  end
end

------------------------------------------------------------------------------------------
-- layers

local function walk(ctx, layers, prefix, owner, offx, offy, inherited)
  if type(layers) ~= "table" then
    fail(2, "%slayers must be a list, got %s", owner, describe(layers))
  end
  for i = 1, #layers do
    local layer = layers[i]
    local path = prefix .. i
    if type(layer) ~= "table" then
      fail(2, "layer %s must be a table, got %s", path, describe(layer))
    end
    local where = layerName(path, layer)
    local props = overlay(inherited, readProperties(layer.properties, where))
    local lx, ly
    if ctx.sti then -- STI: the whole offset in x, y (pixels)
      lx, ly = num(layer, "x", 0, where), num(layer, "y", 0, where)
    else
      lx, ly = offx + num(layer, "offsetx", 0, where), offy + num(layer, "offsety", 0, where)
    end
    local t = layer.type
    if t == "group" then
      walk(ctx, layer.layers, path .. ".", where .. ": ", lx, ly, props)
    elseif t == "tilelayer" then
      tileLayer(ctx, layer, path, lx, ly, props)
    elseif t == "objectgroup" then
      objectLayer(ctx, layer, path, lx, ly, props)
    elseif t == "imagelayer" then
      if truthy(props[ctx.property]) then
        ctx.warn(("%s: an image layer has no size in the map: skipped"):format(where))
      end
    elseif t ~= "customlayer" then -- (STI's own layers: nothing to read)
      fail(2, "%s: unknown layer type %s", where, show(t))
    end
  end
end

--- build(world, map, options) -> shapes, warnings (see sat.level.tiled).
function M.build(world, map, options)
  if type(map) ~= "table" then
    fail(2, "map expected, got %s", describe(map))
  end
  local o = S.checkOptions(3, options, OPTIONS)
  local merge, static, ox, oy, fields, span = S.commonOptions(3, o)
  local property = o.property
  if property == nil then
    property = "collidable"
  elseif type(property) ~= "string" then
    fail(3, "property must be a string, got %s", describe(property))
  end
  local sides = o.ellipseSides
  if sides == nil then
    sides = 24
  elseif type(sides) ~= "number" or sides ~= floor(sides) or sides < 4 or sides > 64
      or sides % 4 ~= 0 then
    fail(3, "ellipseSides must be a multiple of 4 from 4 to 64, got %s", show(sides))
  end
  local orientation = map.orientation
  if orientation ~= "orthogonal" then
    fail(2, "orientation %s is not supported: only orthogonal maps", show(orientation))
  end
  local warnings, seen = {}, {}
  local ctx = {
    sti = type(map.tileInstances) == "table",
    tw = num(map, "tilewidth", nil, "map"), th = num(map, "tileheight", nil, "map"),
    ox = ox, oy = oy, merge = merge, property = property, sides = sides, span = span,
    world = world,
    shapes = {}, gids = {}, warnedExternal = {},
    warn = function(text)
      if not seen[text] then
        seen[text] = true
        warnings[#warnings + 1] = text
      end
    end,
  }
  if not (ctx.tw and ctx.tw > 0 and ctx.th and ctx.th > 0) then
    fail(2, "map: tilewidth and tileheight must be numbers > 0, got %s, %s", show(map.tilewidth),
      show(map.tileheight))
  end
  ctx.sets = readTilesets(map, property)
  walk(ctx, map.layers, "", "", 0, 0, EMPTY)
  if fields then
    S.applyFields(3, ctx.shapes, fields)
  end
  return S.addAll(world, ctx.shapes, static), warnings
end

return M
