-- The pure backend's compounds (lua/sat/pure/sat_compound.lua, sat_union.lua and the compound
-- paths of sat_contacts, sat_sweep, sat_raycast, sat_explain and lsat_shape) against the
-- native module's (src/core/sat_compound.c, sat_union.c, ...), bit for bit: the same shapes
-- built by both from the same numbers (concave outlines random and adversarial: stars,
-- spirals, combs, near-degenerate ones; chains open and closed; unions of every kind, nested;
-- turned, scaled, far from the origin), then every query of a shape and every pair call with
-- a compound (test, collide in both orders, contacts, sweep with one or both moving, explain,
-- and after a collision the pair moved apart by its MTV: touching) made on each backend, and
-- every value compared: numbers bit for bit (the sign of zero, and integer or float from 5.3
-- on), shapes by their tostring, error messages word for word (every refusal of the
-- constructors and transforms). Under LuaJIT the comparison runs twice: compiler on and off.
--
-- PURE_COMPOUND_SCALE multiplies the cases (a long run: PURE_COMPOUND_SCALE=10);
-- PURE_COMPOUND_VERBOSE=1 prints the counts (to stderr).
local support = require("spec.support")
-- It compares both backends whichever is under test: the native suite (busted.sh) runs it,
-- the pure one's run (SAT_BACKEND=lua) would repeat it word for word.
if not support.native then
  describe("the pure compounds against the native ones", function()
    it("is run by the native suite", function()
      pending("compares both backends, whichever is under test: run once, by the native suite")
    end)
  end)
  return
end

local nativeFound, native = pcall(require, "sat.core")
local pure = require("sat.pure.lsat_module")

local SCALE = tonumber(os.getenv("PURE_COMPOUND_SCALE") or "") or 1
local VERBOSE = os.getenv("PURE_COMPOUND_VERBOSE") == "1"

local mathType = math.type
local format = string.format
local floor, pi, cos, sin = math.floor, math.pi, math.cos, math.sin
local unpack = rawget(_G, "unpack") or table.unpack

local function pack(...)
  return { n = select("#", ...), ... }
end

-- ---- values as exact tokens ------------------------------------------------------------------

local function num(x)
  local t = mathType and (mathType(x) == "integer" and "i" or "f") or ""
  if x ~= x then
    return t .. "nan"
  end
  return t .. format("%.17g", x)
end

-- Every value as tokens: numbers exactly, shapes by tostring (and kind), vecs by their
-- numbers, other tables by their keys in order (a bounded depth).
local function tokens(M, v, out, depth)
  local tv = type(v)
  if tv == "number" then
    out[#out + 1] = num(v)
  elseif tv ~= "table" and tv ~= "userdata" then
    out[#out + 1] = tv .. ":" .. tostring(v)
  elseif M.isShape(v) then
    out[#out + 1] = "shape:" .. tostring(getmetatable(v)) .. ":" .. tostring(v)
  elseif M.isVec(v) then
    out[#out + 1] = "vec(" .. num(v.x) .. "," .. num(v.y) .. ")"
  elseif depth > 5 then
    out[#out + 1] = "..."
  else
    local keys = {}
    for k in pairs(v) do
      keys[#keys + 1] = k
    end
    table.sort(keys, function(a, b)
      if type(a) ~= type(b) then
        return type(a) < type(b)
      end
      return a < b
    end)
    out[#out + 1] = "{"
    for _, k in ipairs(keys) do
      out[#out + 1] = tostring(k) .. "="
      tokens(M, v[k], out, depth + 1)
    end
    out[#out + 1] = "}"
  end
end

local counts = { calls = 0, tokens = 0, shapes = 0, pairs = 0, refusals = 0 }

-- f(M, ...) on each backend (protected), its values compared token by token.
local function both(what, f, ...)
  local function run(M, ...)
    local res = pack(pcall(f, M, ...))
    local out = {}
    if not res[1] then
      out[1] = "error: " .. tostring(res[2])
      return out, false
    end
    out[1] = "#" .. (res.n - 1)
    for i = 2, res.n do
      tokens(M, res[i], out, 0)
    end
    return out, true
  end
  local tn, okn = run(native, ...)
  local tp = run(pure, ...)
  counts.calls = counts.calls + 1
  counts.tokens = counts.tokens + #tn
  for i = 1, math.max(#tn, #tp) do
    if tn[i] ~= tp[i] then
      local lo = math.max(1, i - 8)
      error(format("%s: token %d differs\n  native: %s\n  pure:   %s", what, i,
        table.concat(tn, " ", lo, math.min(#tn, i + 8)),
        table.concat(tp, " ", lo, math.min(#tp, i + 8))), 0)
    end
  end
  return okn
end

-- ---- recipes: the same shape on either backend -----------------------------------------------
-- A recipe: { ctor = name, args = {...}, ops = { {method, args...}, ... } }.

local function build(M, rc)
  local s = M[rc.ctor](unpack(rc.args, 1, rc.nargs or #rc.args))
  for _, op in ipairs(rc.ops or {}) do
    s[op[1]](s, unpack(op, 2))
  end
  return s
end

local function flat(xs, ys)
  local t = {}
  for i = 1, #xs do
    t[2 * i - 1], t[2 * i] = xs[i], ys[i]
  end
  return t
end

-- Outlines, world coordinates, about (cx, cy) at size r.
local function radial(rng, cx, cy, r, n)
  local angles = {}
  for i = 1, n do
    angles[i] = rng.range(0, 2 * pi)
  end
  table.sort(angles)
  local xs, ys = {}, {}
  for i = 1, n do
    local rr = r * rng.range(0.3, 1)
    xs[i], ys[i] = cx + rr * cos(angles[i]), cy + rr * sin(angles[i])
  end
  return flat(xs, ys)
end

local function star(cx, cy, r, spikes, inner, turn)
  local xs, ys = {}, {}
  for i = 0, 2 * spikes - 1 do
    local rr = i % 2 == 0 and r or r * inner
    local a = turn + i * pi / spikes
    xs[#xs + 1], ys[#ys + 1] = cx + rr * cos(a), cy + rr * sin(a)
  end
  return flat(xs, ys)
end

local function spiral(cx, cy, r, turns, steps)
  local xs, ys = {}, {}
  local width = r / (3 * turns)
  local k = turns * 2 * pi
  for i = 0, steps do
    local a = k * i / steps
    local rr = r * (0.2 + 0.8 * i / steps)
    xs[#xs + 1], ys[#ys + 1] = cx + rr * cos(a), cy + rr * sin(a)
  end
  for i = steps, 0, -1 do
    local a = k * i / steps
    local rr = r * (0.2 + 0.8 * i / steps) - width
    xs[#xs + 1], ys[#ys + 1] = cx + rr * cos(a), cy + rr * sin(a)
  end
  return flat(xs, ys)
end

local function comb(cx, cy, r, teeth)
  local xs, ys = { cx - r, cx + r }, { cy - r * 0.2, cy - r * 0.2 }
  local w = 2 * r / (2 * teeth - 1)
  for t = teeth - 1, 0, -1 do
    local x0 = cx - r + 2 * t * w
    xs[#xs + 1], ys[#ys + 1] = x0 + w, cy + r
    xs[#xs + 1], ys[#ys + 1] = x0, cy + r
    if t > 0 then
      xs[#xs + 1], ys[#ys + 1] = x0, cy
      xs[#xs + 1], ys[#ys + 1] = x0 - w, cy
    end
  end
  -- the comb's right end first: reorder so that the outline goes round once
  local oxs, oys = { xs[1], xs[2] }, { ys[1], ys[2] }
  oxs[3], oys[3] = cx + r, cy + r
  for i = 3, #xs do
    oxs[#oxs + 1], oys[#oys + 1] = xs[i], ys[i]
  end
  return flat(oxs, oys)
end

local function convex_part(rng, cx, cy, r)
  local k = rng.int(1, 6)
  if k == 1 then
    return { ctor = "circle", args = { cx, cy, r * rng.range(0.1, 1) } }
  elseif k == 2 then
    local a = rng.range(0, 2 * pi)
    return { ctor = "segment", args = { cx, cy, cx + r * cos(a), cy + r * sin(a) } }
  elseif k == 3 then
    local a = rng.range(0, 2 * pi)
    return { ctor = "capsule", args = { cx, cy, cx + r * cos(a), cy + r * sin(a),
      r * rng.range(0, 0.5) } }
  elseif k == 4 then
    return { ctor = "box", args = { cx, cy, r * rng.range(0.1, 1), r * rng.range(0.1, 1) } }
  elseif k == 5 then
    return { ctor = "point", args = { cx, cy } }
  end
  return { ctor = "polygon", args = { star(cx, cy, r, rng.int(3, 8), 1, rng.range(0, 6)) } }
end

local function transforms(rng, rc)
  rc.ops = rc.ops or {}
  local n = rng.int(0, 3)
  for _ = 1, n do
    local k = rng.int(1, 5)
    if k == 1 then
      rc.ops[#rc.ops + 1] = { "rotate", rng.range(-7, 7) }
    elseif k == 2 then
      rc.ops[#rc.ops + 1] = { "scale", rng.range(0.3, 3) }
    elseif k == 3 then
      rc.ops[#rc.ops + 1] = { "move", rng.range(-5, 5), rng.range(-5, 5) }
    elseif k == 4 then
      rc.ops[#rc.ops + 1] = { "setRotation", rng.range(-3, 3) }
    else
      rc.ops[#rc.ops + 1] = { "rotate", rng.range(-2, 2), rng.range(-20, 20), rng.range(-20, 20) }
    end
  end
  return rc
end

-- A compound (concave, chain or union) about (cx, cy) of size r.
local function compound(rng, cx, cy, r, depth)
  local k = rng.int(1, 9)
  if k == 1 then
    return { ctor = "concave", args = { radial(rng, cx, cy, r, rng.int(3, 40)) } }
  elseif k == 2 then
    return { ctor = "concave", args = { star(cx, cy, r, rng.int(3, 24), rng.range(0.1, 0.9),
      rng.range(0, 6)) } }
  elseif k == 3 then
    return { ctor = "concave", args = { spiral(cx, cy, r, rng.range(0.5, 2), rng.int(6, 40)) } }
  elseif k == 4 then
    return { ctor = "concave", args = { comb(cx, cy, r, rng.int(2, 8)) } }
  elseif k == 5 or k == 6 then
    local n = rng.int(2, 25)
    local xs, ys = { cx - r }, { cy + rng.range(-r, r) * 0.3 }
    for i = 2, n do
      xs[i], ys[i] = xs[i - 1] + rng.range(0, 2 * r / n), ys[i - 1] + rng.range(-r, r) * 0.3
    end
    return { ctor = "chain", args = { flat(xs, ys), k == 6 and n >= 3 }, nargs = 2 }
  end
  local parts = {}
  for i = 1, rng.int(1, 4) do
    local px, py = cx + rng.range(-r, r) * 0.6, cy + rng.range(-r, r) * 0.6
    if depth < 1 and rng.next() < 0.2 then
      parts[i] = compound(rng, px, py, r * 0.5, depth + 1)
    else
      parts[i] = convex_part(rng, px, py, r * rng.range(0.2, 0.7))
    end
  end
  return { ctor = "compound", parts = parts, args = {} }
end

-- compound recipes hold their parts' recipes
local build0 = build
build = function(M, rc)
  if rc.parts then
    local list = {}
    for i, p in ipairs(rc.parts) do
      list[i] = build(M, p)
    end
    local s = M.compound(list)
    for _, op in ipairs(rc.ops or {}) do
      s[op[1]](s, unpack(op, 2))
    end
    return s
  end
  return build0(M, rc)
end

local function any_shape(rng, cx, cy, r)
  if rng.next() < 0.5 then
    return compound(rng, cx, cy, r, 0)
  end
  return convex_part(rng, cx, cy, r)
end

-- Where a case is: near the origin, or far from it.
local function centre(rng)
  local far = rng.next() < 0.25 and rng.range(1e3, 1e7) or 0
  return rng.range(-50, 50) + far, rng.range(-50, 50) - far
end

-- ---- the checks ----------------------------------------------------------------------------

local function same_shape(what, rc, rng)
  counts.shapes = counts.shapes + 1
  if not both(what .. " build", function(M) return (build(M, rc)) end) then
    return
  end
  both(what .. " queries", function(M)
    local s = build(M, rc)
    local x1, y1, x2, y2 = s:bbox()
    return tostring(s), s:kind(), x1, y1, x2, y2, s:area(), s:position(), s:rotation()
  end)
  both(what .. " vertices", function(M) return (build(M, rc):vertices()) end)
  both(what .. " parts", function(M)
    local out = {}
    for i, p in ipairs(build(M, rc):parts()) do
      local x1, y1, x2, y2 = p:bbox()
      out[i] = { tostring(p), x1, y1, x2, y2, p:area() }
    end
    return out
  end)
  both(what .. " clone", function(M)
    local c = build(M, rc):clone()
    c:rotate(0.5)
    local x1, y1, x2, y2 = c:bbox()
    return tostring(c), x1, y1, x2, y2
  end)
  local pts = {}
  for i = 1, 6 do
    pts[i] = { rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1) }
  end
  both(what .. " contains, raycast", function(M)
    local s = build(M, rc)
    local x1, y1, x2, y2 = s:bbox()
    local w, h = x2 - x1, y2 - y1
    local mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    local out = {}
    for i, p in ipairs(pts) do
      local ax, ay = mx + p[1] * w, my + p[2] * h
      out[#out + 1] = s:contains(ax, ay)
      out[#out + 1] = { s:raycast(ax, ay, mx + p[3] * w * 2, my + p[4] * h * 2) }
      out[#out + 1] = { s:raycast(mx - w * (1 + i), ay, mx + w * (1 + i), my + p[4] * h) }
    end
    return out
  end)
  both(what .. " transforms", function(M)
    local s = build(M, rc)
    s:scale(1.7)
    s:rotate(0.25, 3, -2)
    s:moveTo(12, -7)
    local a = { s:bbox() }
    s:scale(1 / 1.7)
    s:setRotation(0)
    return a, { s:bbox() }, s:area(), pcall(s.vertices, s)
  end)
end

local function same_pair(what, ra, rb, rng)
  counts.pairs = counts.pairs + 1
  local vx, vy = rng.range(-30, 30), rng.range(-30, 30)
  local wx, wy = rng.range(-10, 10), rng.range(-10, 10)
  both(what .. " test, collide", function(M)
    local a, b = build(M, ra), build(M, rb)
    return M.test(a, b), M.test(b, a), M.collide(a, b), M.collide(b, a)
  end)
  both(what .. " contacts", function(M)
    local a, b = build(M, ra), build(M, rb)
    return { M.contacts(a, b) }, { M.contacts(b, a) }
  end)
  both(what .. " sweep", function(M)
    local a, b = build(M, ra), build(M, rb)
    return { M.sweep(a, vx, vy, b) }, { M.sweep(b, -vx, -vy, a, wx, wy) },
      { M.sweep(a, 0, 0, b) }
  end)
  both(what .. " explain", function(M)
    local a, b = build(M, ra), build(M, rb)
    local e = M.explain(a, b)
    return e, tostring(e)
  end)
  -- moved apart by the MTV: touching (or near it), every call again
  both(what .. " touching", function(M)
    local a, b = build(M, ra), build(M, rb)
    local r = M.collide(a, b)
    if not r then
      return false
    end
    a:move(r.mtv.x, r.mtv.y)
    return M.test(a, b), M.collide(a, b), M.collide(b, a), { M.contacts(a, b) },
      { M.sweep(a, -r.mtv.x, -r.mtv.y, b) }, { M.sweep(a, r.mtv.x, r.mtv.y, b) }
  end)
end

-- Refusals: each constructor's and transform's errors, word for word.
local function refusals(rng)
  local function refuse(what, f)
    counts.refusals = counts.refusals + 1
    both("refusal " .. what, f)
  end
  refuse("concave bowtie", function(M) return (M.concave(0, 0, 1, 1, 0, 1, 1, 0)) end)
  refuse("concave touching", function(M) return (M.concave(0, 0, 4, 0, 4, 4, 2, 0.0, 0, 4)) end)
  refuse("concave folded", function(M) return (M.concave(0, 0, 2, 0, 1, 0, 1, 1)) end)
  refuse("concave figure eight", function(M)
    return (M.concave(0, 0, 2, 0, 2, 2, 4, 2, 4, 4, 2, 4, 2, 2, 0, 2))
  end)
  refuse("concave flat", function(M) return (M.concave(0, 0, 1, 1, 2, 2, 3, 3)) end)
  refuse("concave two", function(M) return (M.concave(0, 0, 1, 1)) end)
  refuse("concave same", function(M) return (M.concave(1, 1, 1, 1, 1, 1)) end)
  refuse("concave tiny", function(M) return (M.concave(0, 0, 1e-300, 0, 0, 1e-300)) end)
  refuse("concave nan", function(M) return (M.concave(0, 0, 0 / 0, 1, 2, 2)) end)
  refuse("concave inf", function(M) return (M.concave(0, 0, math.huge, 1, 2, 2)) end)
  refuse("concave range", function(M) return (M.concave(0, 0, 1e300, 1, 2, 2)) end)
  refuse("concave table", function(M) return (M.concave({ 0, 0, 1, 0, 1, 1, 0.5, 0.2 })) end)
  refuse("concave vecs", function(M)
    return (M.concave({ M.vec(0, 0), M.vec(3, 0), M.vec(3, 3), M.vec(1.5, 1), M.vec(0, 3) }))
  end)
  refuse("concave bad", function(M) return (M.concave("x")) end)
  refuse("concave none", function(M) return (M.concave()) end)
  refuse("concave odd", function(M) return (M.concave(0, 0, 1, 1, 2)) end)
  local many = {}
  for i = 1, 2 * 2000 do
    many[i] = i
  end
  refuse("concave too many", function(M) return (M.concave(many)) end)
  refuse("chain one", function(M) return (M.chain({ 1, 1 })) end)
  refuse("chain same", function(M) return (M.chain({ 1, 1, 1, 1, 1, 1 })) end)
  refuse("chain nan", function(M) return (M.chain({ 1, 1, 0 / 0, 1 })) end)
  refuse("chain range", function(M) return (M.chain({ 1, 1, 1e300, 1 })) end)
  refuse("chain closed flag", function(M) return (M.chain({ 1, 1, 2, 2 }, 1)) end)
  refuse("chain not a table", function(M) return (M.chain(5)) end)
  refuse("chain closed two", function(M) return (M.chain({ 0, 0, 1, 1 }, true)) end)
  refuse("chain dups", function(M) return (M.chain({ 0, 0, 0, 0, 1, 1, 1, 1, 2, 0 }, true)) end)
  refuse("chain odd", function(M) return (M.chain({ 0, 0, 1 })) end)
  refuse("compound empty", function(M) return (M.compound({})) end)
  refuse("compound none", function(M) return (M.compound()) end)
  refuse("compound bad part", function(M) return (M.compound({ M.circle(0, 0, 1), 5 })) end)
  refuse("compound vec part", function(M) return (M.compound({ M.vec(0, 0) })) end)
  refuse("compound table part", function(M) return (M.compound({ {} })) end)
  refuse("compound scale 0", function(M)
    return (M.compound({ M.circle(0, 0, 1), M.box(0, 0, 1, 1) }):scale(0))
  end)
  refuse("compound scale tiny", function(M)
    return (M.concave(0, 0, 1, 0, 1, 1, 0.5, 0.2, 0, 1):scale(1e-300))
  end)
  refuse("compound scale huge", function(M)
    return (M.concave(0, 0, 1, 0, 1, 1, 0.5, 0.2, 0, 1):scale(1e300))
  end)
  refuse("compound scale nan", function(M) return (M.chain({ 0, 0, 1, 1 }):scale(0 / 0)) end)
  refuse("compound move range", function(M) return (M.chain({ 0, 0, 1, 1 }):moveTo(1e300, 0)) end)
  refuse("compound rotate inf", function(M) return (M.chain({ 0, 0, 1, 1 }):rotate(math.huge)) end)
  refuse("compound radius", function(M) return (M.chain({ 0, 0, 1, 1 }):radius()) end)
  refuse("compound parts of vertices", function(M)
    return (M.compound({ M.circle(0, 0, 1) }):vertices())
  end)
  refuse("compound vertices bad t", function(M) return (M.chain({ 0, 0, 1, 1 }):vertices(5)) end)
  refuse("compound field", function(M)
    local c = M.chain({ 0, 0, 1, 1 })
    c.parts = 1
  end)
  for i = 1, 10 do
    local cx, cy = centre(rng)
    local rc = compound(rng, cx, cy, rng.range(1, 20), 0)
    local f = ({ 0, -1, 1e-320, 0 / 0, 1e308 })[i % 5 + 1]
    refuse("random scale " .. i, function(M) return (tostring(build(M, rc):scale(f))) end)
  end
end

local function run(share, seed)
  local rng = support.rng(seed)
  refusals(rng)
  local nshapes, npairs = floor(120 * SCALE * share), floor(200 * SCALE * share)
  for i = 1, nshapes do
    local cx, cy = centre(rng)
    local rc = transforms(rng, compound(rng, cx, cy, rng.range(0.5, 40), 0))
    same_shape(format("seed %d shape %d %s", seed, i, rc.ctor), rc, rng)
  end
  for i = 1, npairs do
    local cx, cy = centre(rng)
    local r = rng.range(0.5, 40)
    local ra = transforms(rng, compound(rng, cx, cy, r, 0))
    local d = r * rng.range(0, 1.5)
    local a = rng.range(0, 2 * pi)
    local rb = transforms(rng, any_shape(rng, cx + d * cos(a), cy + d * sin(a),
      r * rng.range(0.2, 1.5)))
    if rng.next() < 0.5 then
      ra, rb = rb, ra
    end
    same_pair(format("seed %d pair %d %s-%s", seed, i, ra.ctor, rb.ctor), ra, rb, rng)
  end
  -- the adversarial: many-spike stars (64 from PURE_COMPOUND_SCALE=2 on: a union of 4,000
  -- part pairs), two 100-segment chains, long spirals and combs
  local spikes = SCALE >= 2 and 64 or 16
  for i = 1, math.max(1, floor(2 * share * SCALE)) do
    local cx, cy = centre(rng)
    local s1 = { ctor = "concave", args = { star(cx, cy, 20, spikes, 0.3, rng.range(0, 1)) } }
    local s2 = { ctor = "concave", args = { star(cx + 3, cy + 1, 20, spikes, 0.3,
      rng.range(0, 1)) } }
    same_pair(format("seed %d stars %d", seed, i), s1, transforms(rng, s2), rng)
    local xs1, ys1, xs2, ys2 = {}, {}, {}, {}
    for k = 0, 100 do
      xs1[k + 1], ys1[k + 1] = cx + k, cy + 3 * sin(k * 0.7)
      xs2[k + 1], ys2[k + 1] = cx + k + 0.5, cy + 1 + 3 * sin(k * 0.7 + 0.3)
    end
    same_pair(format("seed %d chains %d", seed, i), { ctor = "chain", args = { flat(xs1, ys1) } },
      { ctor = "chain", args = { flat(xs2, ys2) } }, rng)
    local sp = { ctor = "concave", args = { spiral(cx, cy, 30, 3, 120) } }
    same_shape(format("seed %d spiral %d", seed, i), sp, rng)
    same_pair(format("seed %d spiral-comb %d", seed, i), sp,
      { ctor = "concave", args = { comb(cx + 10, cy, 15, 12) } }, rng)
  end
end

local function both_jit_modes(f)
  if not jit then
    f(1)
    return
  end
  f(0.5)
  require("spec.support").interpreted(f, 0.5)
end

local describe_n = nativeFound and describe or function(name)
  describe(name, function()
    it("is pending", function()
      pending(name .. " [no native module loads here]")
    end)
  end)
end

describe_n("the pure compounds against the native ones", function()
  it("give the same bits, errors and results for every call", function()
    both_jit_modes(function(share)
      run(share, 4242)
    end)
    if VERBOSE then
      io.stderr:write(format("pure compounds, %s%s: %d calls compared (%d values), %d shapes, "
        .. "%d pairs, %d refusals, 0 mismatches\n", _VERSION, jit and " (LuaJIT)" or "",
        counts.calls, counts.tokens, counts.shapes, counts.pairs, counts.refusals))
    end
    assert.is_true(counts.calls > 0)
  end)
end)
