-- Helpers of the sat.level specs: `local L = require("spec.level_support")`.
--   L.json(text)        a tiny JSON decoder (no JSON library comes with busted here)
--   L.copy(t)           a deep copy
--   L.sti(map)          a Tiled Lua map as STI (Simple-Tiled-Implementation) leaves it
--   L.load(path)        a map file (Lua export or JSON) as a table
local sat = require("sat")
local L = {}

------------------------------------------------------------------------------------------
-- JSON: objects, arrays, strings (escapes and \u, as UTF-8), numbers, true, false, null
-- (nil). An error names the position.

local function decodeError(text, i, what)
  error(("json: %s at character %d near %q"):format(what, i, text:sub(i, i + 10)), 0)
end

local function utf8char(c)
  if c < 0x80 then
    return string.char(c)
  elseif c < 0x800 then
    return string.char(0xC0 + math.floor(c / 64), 0x80 + c % 64)
  end
  return string.char(0xE0 + math.floor(c / 4096), 0x80 + math.floor(c / 64) % 64, 0x80 + c % 64)
end

local ESCAPES = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }

function L.json(text)
  local i = 1
  local value
  local function skip()
    i = text:find("[^ \t\r\n]", i) or #text + 1
  end
  local function str()
    local out = {}
    i = i + 1
    while true do
      local j = text:find('["\\]', i)
      if not j then decodeError(text, i, "unterminated string") end
      out[#out + 1] = text:sub(i, j - 1)
      if text:sub(j, j) == '"' then
        i = j + 1
        return table.concat(out)
      end
      local e = text:sub(j + 1, j + 1)
      if e == "u" then
        local hex = text:sub(j + 2, j + 5)
        if not hex:match("^%x%x%x%x$") then decodeError(text, j, "bad \\u escape") end
        out[#out + 1] = utf8char(tonumber(hex, 16))
        i = j + 6
      elseif ESCAPES[e] then
        out[#out + 1] = ESCAPES[e]
        i = j + 2
      else
        decodeError(text, j, "bad escape")
      end
    end
  end
  value = function()
    skip()
    local c = text:sub(i, i)
    if c == "{" then
      local t = {}
      i = i + 1
      skip()
      if text:sub(i, i) == "}" then i = i + 1 return t end
      while true do
        skip()
        if text:sub(i, i) ~= '"' then decodeError(text, i, "key expected") end
        local k = str()
        skip()
        if text:sub(i, i) ~= ":" then decodeError(text, i, "':' expected") end
        i = i + 1
        t[k] = value()
        skip()
        local d = text:sub(i, i)
        i = i + 1
        if d == "}" then return t end
        if d ~= "," then decodeError(text, i - 1, "',' or '}' expected") end
      end
    elseif c == "[" then
      local t, n = {}, 0
      i = i + 1
      skip()
      if text:sub(i, i) == "]" then i = i + 1 return t end
      while true do
        n = n + 1
        t[n] = value()
        skip()
        local d = text:sub(i, i)
        i = i + 1
        if d == "]" then return t end
        if d ~= "," then decodeError(text, i - 1, "',' or ']' expected") end
      end
    elseif c == '"' then
      return str()
    elseif text:sub(i, i + 3) == "true" then
      i = i + 4
      return true
    elseif text:sub(i, i + 4) == "false" then
      i = i + 5
      return false
    elseif text:sub(i, i + 3) == "null" then
      i = i + 4
      return nil
    end
    local num = text:match("^-?%d+%.?%d*[eE]?[-+]?%d*", i)
    if not num or num == "" or not tonumber(num) then decodeError(text, i, "value expected") end
    i = i + #num
    return tonumber(num)
  end
  local v = value()
  skip()
  if i <= #text then decodeError(text, i, "end expected") end
  return v
end

------------------------------------------------------------------------------------------

function L.copy(t)
  -- (sat's vecs and shapes are kept: on the pure backend they are tables, copied they would
  -- be plain tables)
  if type(t) ~= "table" or sat.isVec(t) or sat.isShape(t) then return t end
  local out = {}
  for k, v in pairs(t) do out[L.copy(k)] = L.copy(v) end
  return out
end

function L.load(path)
  if path:match("%.json$") then
    local f = assert(io.open(path, "rb"))
    local text = f:read("*a")
    f:close()
    return L.json(text)
  end
  return assert(loadfile(path))()
end

------------------------------------------------------------------------------------------
-- STI: what Map:init (sti/init.lua of karai17/Simple-Tiled-Implementation) makes of a Lua
-- export, written again from its documented behaviour: the changes sat.level.tiled reads.
--   - groups flattened into map.layers (a child named "group.child", its offsets added to
--     the group's, the group's properties it lacks given to it), map.layers[name] = layer;
--   - layer.x, layer.y = the layer's offset in pixels (plus the map's, ox, oy);
--   - tile data (and each chunk's) as rows of tile tables: data[y][x] = map.tiles[gid], a
--     flipped GID a tile table of its own with that GID;
--   - polygon and polyline points moved to the map's frame (layer offset and object
--     position added, turned by the object's rotation);
--   - map.tiles, map.tileInstances, map.offsetx/offsety, object.layer.

local function stiTile(map, gid)
  local t = map.tiles[gid]
  if not t then
    t = { gid = gid, properties = {}, sx = 1, sy = 1, r = 0 }
    map.tiles[gid] = t
  end
  return t
end

-- (STI decodes base64 with love.data.decode; the same, in plain Lua)
local function base64(s)
  local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  local bits = {}
  for ch in s:gsub("=", ""):gmatch(".") do
    local v = alphabet:find(ch, 1, true) - 1
    for b = 5, 0, -1 do bits[#bits + 1] = math.floor(v / 2 ^ b) % 2 end
  end
  local bytes = {}
  for i = 1, #bits - 7, 8 do
    local v = 0
    for b = 0, 7 do v = v * 2 + bits[i + b] end
    bytes[#bytes + 1] = v
  end
  local gids = {}
  for i = 1, #bytes - 3, 4 do
    gids[#gids + 1] = bytes[i] + bytes[i + 1] * 256 + bytes[i + 2] * 65536 + bytes[i + 3] * 16777216
  end
  return gids
end

local function stiData(map, data, w, h)
  if type(data) == "string" then data = base64(data) end
  local rows = {}
  for y = 1, h do
    rows[y] = {}
    for x = 1, w do
      local gid = data[(y - 1) * w + x]
      if gid > 0 then rows[y][x] = stiTile(map, gid) end
    end
  end
  return rows
end

function L.sti(source, ox, oy)
  local map = L.copy(source)
  map.tiles, map.tileInstances, map.objects = {}, {}, {}
  map.offsetx, map.offsety = ox or 0, oy or 0
  local flat = {}
  local function append(layer)
    if layer.type == "group" then
      for _, child in ipairs(layer.layers) do
        child.name = layer.name .. "." .. child.name
        child.offsetx = (layer.offsetx or 0) + (child.offsetx or 0)
        child.offsety = (layer.offsety or 0) + (child.offsety or 0)
        for k, v in pairs(layer.properties or {}) do
          if child.properties[k] == nil then child.properties[k] = v end
        end
        append(child)
      end
    else
      flat[#flat + 1] = layer
    end
  end
  for _, layer in ipairs(map.layers) do append(layer) end
  map.layers = flat
  for _, layer in ipairs(flat) do
    layer.x = (layer.x or 0) + (layer.offsetx or 0) + map.offsetx
    layer.y = (layer.y or 0) + (layer.offsety or 0) + map.offsety
    if layer.type == "tilelayer" then
      if layer.chunks then
        for _, chunk in ipairs(layer.chunks) do
          chunk.data = stiData(map, chunk.data, chunk.width, chunk.height)
        end
      else
        layer.data = stiData(map, layer.data, layer.width, layer.height)
      end
    elseif layer.type == "objectgroup" then
      for _, object in ipairs(layer.objects) do
        object.layer = layer
        map.objects[object.id] = object
        local x, y = layer.x + object.x, layer.y + object.y
        local a = math.rad(object.rotation or 0)
        local c, s = math.cos(a), math.sin(a)
        for _, key in ipairs({ "polygon", "polyline" }) do
          for _, v in ipairs(object[key] or {}) do
            local vx, vy = v.x, v.y -- about the object's position
            v.x, v.y = x + vx * c - vy * s, y + vx * s + vy * c
          end
        end
      end
    end
    map.layers[layer.name] = layer
  end
  return map
end

return L
