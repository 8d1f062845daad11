-- Helpers shared by the specs: `local support = require("spec.support")`.
local assert = require("luassert")

local support = {}

-- The backend the specs run on ("native" or "lua": SAT_BACKEND=lua runs them on the pure one)
-- and its core module.
local backend = require("sat.backend")
support.backend = backend.name
support.native = backend.name == "native"
support.core = backend.core
support.coreName = backend.module

-- What the pure backend does not have yet, by feature: the reason a test needing it is
-- pending there, or nil when the feature is in (always on the native backend). Each reason
-- names the files that are missing, and goes away by itself when they land.
-- (With pure set, the pure backend's answer whichever backend the specs run on: for specs that
-- drive both.)
local function missing(feature, pure)
  if support.native and not pure then
    return nil
  end
  if feature == "world" then
    if require("sat.pure.lsat_module").newHash == nil then
      return "the pure backend has no spatial hash yet (lsat_hash.lua, sat_hash*.lua): no world"
    end
  elseif feature == "compound" then
    if not pcall(require, "sat.pure.sat_compound") then
      return "the pure backend has no compounds yet (sat_compound.lua, sat_union.lua): no "
        .. "concave, compound or chain"
    end
  elseif feature == "native" then
    if pure then
      return nil
    end
    return "about the native module itself (C, its FFI path, its loader): not the pure backend"
  else
    error("unknown feature " .. tostring(feature))
  end
  return nil
end
support.missing = missing

-- The reasons why the features listed are missing, joined; nil when none is.
local function reasonsOf(pure, ...)
  local list = {}
  for i = 1, select("#", ...) do
    list[#list + 1] = missing((select(i, ...)), pure)
  end
  return #list > 0 and table.concat(list, "; ") or nil
end

local function reasons(...)
  return reasonsOf(false, ...)
end

-- `it` for tests that need every feature listed ("world", "compound", "native"); where one
-- is missing, a pending test whose message says which and why. Usage:
--   local it_world = support.needs(it, pending, "world")
function support.needs(it, pending, ...)
  local why = reasons(...)
  if why == nil then
    return it
  end
  return function(name)
    pending(name .. " [" .. why .. "]")
  end
end

-- The same for tests that drive the pure backend whichever backend the specs run on.
function support.needsPure(it, pending, ...)
  local why = reasonsOf(true, ...)
  if why == nil then
    return it
  end
  return function(name)
    pending(name .. " [" .. why .. "]")
  end
end

-- For a whole file: when a feature is missing, one pending test that names the file and says
-- why, and true (the file then returns at once). Usage:
--   if support.skip(pending, "world") then return end
function support.skip(pending, ...)
  local why = reasons(...)
  if why == nil then
    return false
  end
  local file = debug.getinfo(2, "S").short_src:match("[^/\\]+$")
  pending(file .. " [" .. why .. "]")
  return true
end

-- The message of the error f(...) raises; fails when it raises none.
function support.err(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return tostring(e)
end

-- msg contains text, literally.
function support.has(msg, text)
  assert.is_truthy(msg:find(text, 1, true), ("%q does not contain %q"):format(msg, text))
end

-- want and got agree within tol (default 1e-12) relative to want.
function support.near(want, got, tol, what)
  tol = tol or 1e-12
  assert(math.abs(want - got) <= tol * (1 + math.abs(want)),
    ("%s: want %.17g, got %.17g"):format(what or "value", want, got))
end

-- sat.collide(a, b) has this overlap and normal (nx, ny when given), and collide(b, a) the
-- same overlap, the normal negated and the containment flags swapped, exactly. Returns the
-- first response.
function support.pair(a, b, overlap, nx, ny, tol)
  local sat = require("sat")
  local r = assert(sat.collide(a, b), "no collision")
  local s = assert(sat.collide(b, a), "no collision swapped")
  support.near(overlap, r.overlap, tol, "overlap")
  if nx then support.near(nx, r.normal.x, tol, "normal.x") end
  if ny then support.near(ny, r.normal.y, tol, "normal.y") end
  assert.are.equal(r.overlap, s.overlap)
  assert.are.equal(-r.normal.x, s.normal.x)
  assert.are.equal(-r.normal.y, s.normal.y)
  assert.are.equal(r.aInB, s.bInA)
  assert.are.equal(r.bInA, s.aInB)
  return r
end

-- A regular n-gon of radius r about (cx, cy), as a flat table {x1, y1, ...},
-- counter-clockwise (clockwise when asked).
function support.ngon(n, cx, cy, r, clockwise)
  local t = {}
  for i = 0, n - 1 do
    local a = 2 * math.pi * i / n
    if clockwise then a = -a end
    t[#t + 1] = cx + r * math.cos(a)
    t[#t + 1] = cy + r * math.sin(a)
  end
  return t
end

-- Kilobytes f() allocates, the collector stopped around it: f runs once before (buffers
-- reach their size) and once after a collection (which shrinks a few things that the next
-- round grows back), then measured five times, the least kept. Under LuaJIT a trace compiled
-- during one run is a collectable object too (a one-time cost, when the compiler's counters
-- say so): an allocation made by every call shows in every run, and so in the least.
function support.allocated(f)
  f()
  collectgarbage()
  collectgarbage("stop")
  f()
  local least
  for _ = 1, 5 do
    local before = collectgarbage("count")
    f()
    local grown = collectgarbage("count") - before
    if least == nil or grown < least then
      least = grown
    end
  end
  collectgarbage("restart")
  return least
end

-- Seeded random numbers, the same on every Lua (math.random is not): Park-Miller.
-- r.next() in (0, 1), r.range(a, b), r.int(a, b) (both ends included).
function support.rng(seed)
  local state = seed
  local function next01()
    state = state * 16807 % 2147483647
    return state / 2147483647
  end
  return {
    next = next01,
    range = function(a, b) return a + (b - a) * next01() end,
    int = function(a, b) return a + math.floor(next01() * (b - a + 1)) end,
  }
end

-- support.filterBits(s) -> category, mask: the filter bits the broad phase uses for shape s
-- (near the origin), read through it: a box over everything whose mask, then category, is
-- one bit at a time (made on first use, on the backend under test).
local probeHash, probe
function support.filterBits(s)
  if probeHash == nil then
    probeHash = support.core.newHash(1e4)
    probe = require("sat").box(-5e3, -5e3, 1e4, 1e4)
    probeHash:add(probe)
  end
  local cat, mask = 0, 0
  for k = 0, 31 do
    probe.category, probe.mask = 0xFFFFFFFF, 2 ^ k
    if #probeHash:collisions(s, true) > 0 then
      cat = cat + 2 ^ k
    end
    probe.category, probe.mask = 2 ^ k, 0xFFFFFFFF
    if #probeHash:collisions(s, true) > 0 then
      mask = mask + 2 ^ k
    end
  end
  return cat, mask
end

-- LuaJIT's compiler: whether it is on now (false under PUC Lua and under luajit -joff).
local jit = rawget(_G, "jit")
function support.compilerOn()
  return jit ~= nil and (jit.status()) == true
end

--- Runs f(...) with LuaJIT's compiler off and its traces flushed (compiled code would still
-- run, and some does not survive what the caller does: a refused allocation, a debug hook),
-- then puts the compiler back as it was: on only if it was on, so that a luajit -joff run
-- stays interpreted to its end. Returns f's results; an error is raised again after that.
-- Under PUC Lua, just f(...).
function support.interpreted(f, ...)
  if not support.compilerOn() then
    return f(...)
  end
  jit.off()
  jit.flush()
  local function finish(ok, ...)
    jit.on()
    if not ok then
      error((...), 0)
    end
    return ...
  end
  return finish(pcall(f, ...))
end

return support
