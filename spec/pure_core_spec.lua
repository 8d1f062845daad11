-- The pure backend's core (lua/sat/pure/sat_*.lua) against the C core, bit for bit: the same
-- shapes built and transformed by both (the C through the satprobe helper, which compiles the
-- core's own sources: spec/helpers/satprobe.c), and every status, every field of a shape and
-- every number of every query and pair call compared. Under LuaJIT the whole comparison runs
-- twice: with the compiler on and off. Plus hand-computed checks of the refusals.
local support = require("spec.support")
local cases = require("spec.pure_cases")

-- It compares both backends whichever is under test: the native suite (busted.sh) runs it,
-- the pure one's run (SAT_BACKEND=lua) would repeat it word for word.
if not support.native then
  describe("the pure core against the C core", function()
    it("is run by the native suite", function()
      pending("compares both backends, whichever is under test: run once, by the native suite")
    end)
  end)
  return
end
local ok_probe, P = pcall(require, "satprobe")

-- the pure backend as a game loads it (its module first: under LuaJIT, sat.pure.jit's choice of
-- the files that run interpreted applies to the core files used below, as in a game)
require("sat.pure.lsat_module")
local K = require("sat.pure.sat_constants")
local I = require("sat.pure.sat_internal")
local S = require("sat.pure.sat_shape")
local C = require("sat.pure.sat_collide")
local E = require("sat.pure.sat_explain")
local R = require("sat.pure.sat_raycast")
local CT = require("sat.pure.sat_contacts")
local SW = require("sat.pure.sat_sweep")

local same, show = cases.same, cases.show

-- Cases per kind (shapes) and per kind pair; the counts are printed at the end (to stderr).
-- PURE_CORE_SCALE multiplies them (the default keeps the spec to seconds a Lua; a long run:
-- PURE_CORE_SCALE=10).
local SCALE = tonumber(os.getenv("PURE_CORE_SCALE") or "") or 1
local N_SHAPES = math.floor(600 * SCALE)
local N_BAD = math.floor(200 * SCALE)
local N_PAIRS = math.floor(1000 * SCALE)
local N_TOUCHING = math.floor(200 * SCALE)

local KINDS = { "polygon", "circle", "segment", "capsule" }

local counts = {}
local function tally(what, n)
  counts[what] = (counts[what] or 0) + (n or 1)
end

-- Two doubles the same bits, or a failure naming what.
local function eq(want, got, what)
  if not same(want, got) then
    error(("%s: C %s, Lua %s"):format(what, show(want), show(got)), 2)
  end
  tally("numbers")
end

local function eq_array(want, got, n, what)
  if got == nil then
    error(what .. ": missing in the record", 2)
  end
  for i = 1, n do
    if not same(want[i], got[i]) then
      error(("%s[%d]: C %s, Lua %s"):format(what, i, show(want[i]), show(got[i])), 2)
    end
  end
  tally("numbers", n)
end

local SCALARS = { "kind", "count", "px", "py", "plx", "ply", "radius", "bound", "scale", "angle" }
local SEGMENT_FIELDS = { "hx", "hy", "ux", "uy", "lhx", "lhy", "hlen", "lhlen" }

-- Every field of the C shape p in the record s.
local function same_shape(p, s, what)
  local f = P.fields(p)
  for _, k in ipairs(SCALARS) do
    eq(f[k], s[k], what .. "." .. k)
  end
  if f.kind == K.SAT_POLYGON then
    local n = f.count
    eq_array(f.nx, s.nx, n, what .. ".nx")
    eq_array(f.ny, s.ny, n, what .. ".ny")
    eq_array(f.ox, s.ox, n, what .. ".ox")
    eq_array(f.oy, s.oy, n, what .. ".oy")
    eq_array(f.sup, s.sup, n, what .. ".sup")
    eq_array(f.least, s.least, n, what .. ".least")
    if f.lean ~= (s.lx == nil) then
      error(what .. ": lean in C " .. tostring(f.lean) .. ", not in Lua")
    end
    if not f.lean then
      eq_array(f.lx, s.lx, n, what .. ".lx")
      eq_array(f.ly, s.ly, n, what .. ".ly")
    end
    if n > 4 then
      eq_array(f.deep, s.deep, n, what .. ".deep")
    end
  elseif f.kind == K.SAT_SEGMENT or f.kind == K.SAT_CAPSULE then
    for _, k in ipairs(SEGMENT_FIELDS) do
      eq(f[k], s[k], what .. "." .. k)
    end
  end
end

-- The queries of one shape: position, bbox, area, vertices or endpoints, contains at points
-- about it (its vertices among them), each compared.
local function same_queries(g, p, s, what)
  local a, b = P.position(p)
  local c, d = S.sat_shape_position(s)
  eq(a, c, what .. " position x")
  eq(b, d, what .. " position y")
  local w = { P.bbox(p) }
  local l = { S.sat_shape_bbox(s) }
  for i = 1, 4 do
    eq(w[i], l[i], what .. " bbox " .. i)
  end
  eq(P.area(p), S.sat_shape_area(s), what .. " area")
  local pts = {}
  if s.kind == K.SAT_POLYGON then
    for i = 0, s.count - 1 do
      local x, y = P.vertex(p, i)
      local u, v = S.sat_polygon_vertex(s, i)
      eq(x, u, what .. " vertex x")
      eq(y, v, what .. " vertex y")
      pts[#pts + 1] = { x, y }
    end
  elseif s.kind == K.SAT_SEGMENT or s.kind == K.SAT_CAPSULE then
    w = { P.endpoints(p) }
    l = { S.sat_segment_endpoints(s) }
    for i = 1, 4 do
      eq(w[i], l[i], what .. " endpoints " .. i)
    end
    pts[1], pts[2] = { w[1], w[2] }, { w[3], w[4] }
  end
  local x1, y1, x2, y2 = P.bbox(p)
  for _ = 1, 6 do
    pts[#pts + 1] = { g.rng.range(x1, x2), g.rng.range(y1, y2) }
  end
  pts[#pts + 1] = { a, b }
  pts[#pts + 1] = { 0 / 0, b }
  -- raycasts: between the points above and others about the box (from inside, grazing,
  -- along edges, of no length, far)
  local rng = g.rng
  local w2, h2 = x2 - x1, y2 - y1
  local hit = {}
  for k = 1, #pts do
    local q, o = pts[k], pts[(k * 5) % #pts + 1]
    local rays = {
      { q[1], q[2], o[1], o[2] },
      { rng.range(x1 - w2, x2 + w2), rng.range(y1 - h2, y2 + h2), q[1], q[2] },
      { q[1] - w2, q[2], q[1] + w2, q[2] },
      { q[1], q[2], q[1], q[2] },
      { q[1], q[2], q[1] + rng.range(-1, 1) * 1e6, q[2] + rng.range(-1, 1) * 1e6 },
    }
    for _, ray in ipairs(rays) do
      local want = { P.raycast(p, ray[1], ray[2], ray[3], ray[4]) }
      local h = R.sat_shape_raycast(s, ray[1], ray[2], ray[3], ray[4], hit)
      if want[1] ~= h then
        error(("%s raycast(%s, %s, %s, %s): C %d, Lua %d"):format(what, show(ray[1]), show(ray[2]),
          show(ray[3]), show(ray[4]), want[1], h))
      end
      if h == 1 then
        eq(want[2], hit.t, what .. " raycast t")
        eq(want[3], hit.nx, what .. " raycast nx")
        eq(want[4], hit.ny, what .. " raycast ny")
        tally("raycast hits")
      end
      tally("raycasts")
    end
  end
  for _, q in ipairs(pts) do
    if P.contains(p, q[1], q[2]) ~= S.sat_shape_contains(s, q[1], q[2]) then
      error(("%s contains(%s, %s): C %d"):format(what, show(q[1]), show(q[2]),
        P.contains(p, q[1], q[2])))
    end
    tally("contains")
  end
end

-- Builds d on both sides and applies its ops, comparing statuses and shapes after each
-- step: the C shape and the record, or nil when the build was refused.
local function build(d, what, light)
  local pst, p = cases.probe_new(P, d)
  local sst, s = cases.pure_new(d)
  if pst ~= sst then
    error(("%s: build status C %d, Lua %d"):format(what, pst, sst))
  end
  tally("statuses")
  if pst ~= K.SAT_OK then
    return nil, nil, pst
  end
  if d.id then
    P.set_id(p, d.id)
    s.id = d.id
  end
  if not light then
    same_shape(p, s, what)
  end
  for i, o in ipairs(d.ops) do
    local a, b = cases.apply(P, p, s, o)
    if a ~= b then
      error(("%s op %d %s: status C %d, Lua %d"):format(what, i, o[1], a, b))
    end
    tally("statuses")
    if not light then
      same_shape(p, s, what .. " after op " .. i .. " " .. o[1])
    end
  end
  if light and #d.ops > 0 then
    same_shape(p, s, what .. " after its ops")
  end
  return p, s
end

-- Every shape gets its own id (as the binding's), which orders two shapes alike but for it.
local last_id = 0
local function new_id()
  last_id = last_id + 1
  return last_id
end

-- Moves b (both sides) so that its position is a's plus a random offset of up to `reach`
-- times the sum of their bounds; the statuses compared.
local function place_near(g, pa, pb, sb, reach)
  local ax, ay = P.position(pa)
  local bx, by = P.position(pb)
  local d = (P.fields(pa).bound + P.fields(pb).bound) * g.rng.range(0, reach)
  local t = g.rng.range(0, 2 * math.pi)
  local dx, dy = (ax + d * math.cos(t)) - bx, (ay + d * math.sin(t)) - by
  local st = P.move(pb, dx, dy)
  assert.are.equal(st, S.sat_shape_move(sb, dx, dy))
end

local AXIS_INTS = { "from", "feature", "index", "separates" }
local AXIS_NUMBERS = { "nx", "ny", "a_min", "a_max", "b_min", "b_max", "overlap" }
local RESULT_NUMBERS = { "overlap", "nx", "ny", "mx", "my" }

-- sat_explain of a pair as the C's: the verdict, every axis, the result.
local function same_explanation(p1, s1, p2, s2, what)
  local w = P.explain(p1, p2)
  local e, axes = {}, {}
  local hit = E.sat_explain(s1, s2, e, axes, 1000)
  assert.are.equal(w.hit, hit, what .. " explain hit")
  assert.are.equal(w.count, e.count, what .. " explain count")
  assert.are.equal(w.deciding, e.deciding, what .. " explain deciding")
  eq(w.containment, e.containment, what .. " explain containment")
  for _, k in ipairs(RESULT_NUMBERS) do
    eq(w[k], e.result[k], what .. " explain result " .. k)
  end
  assert.are.equal(w.a_in_b, e.result.a_in_b, what .. " explain a_in_b")
  assert.are.equal(w.b_in_a, e.result.b_in_a, what .. " explain b_in_a")
  for k = 1, w.count do
    local wa, la = w.axes[k], axes[k]
    for _, f in ipairs(AXIS_INTS) do
      if wa[f] ~= la[f] then
        error(("%s explain axis %d %s: C %s, Lua %s"):format(what, k, f, show(wa[f]), show(la[f])))
      end
    end
    for _, f in ipairs(AXIS_NUMBERS) do
      eq(wa[f], la[f], what .. " explain axis " .. k .. " " .. f)
    end
  end
  tally("explained")
  tally("axes", w.count)
end

-- sat_contacts of a pair as the C's.
local function same_contacts(p1, s1, p2, s2, what)
  local w = { P.contacts(p1, p2) }
  local l = { CT.sat_contacts(s1, s2) }
  if w[1] ~= l[1] then
    error(("%s contacts: C %d points, Lua %d"):format(what, w[1], l[1]))
  end
  for k = 2, 1 + 2 * w[1] do
    eq(w[k], l[k], what .. " contact " .. (k - 1))
  end
  tally("contacts")
  tally("contact points", w[1])
end

local HIT_NUMBERS = { "t", "mx", "my", "dist2" }

-- sat_sweep and sat_sweep_contact of a pair along motions as the C's.
local function same_sweeps(g, p1, s1, p2, s2, what)
  local rng = g.rng
  local f1, f2 = P.fields(p1), P.fields(p2)
  local dx, dy = f2.px - f1.px, f2.py - f1.py
  local size = f1.bound + f2.bound
  local special = ({ { 2 * dx, 2 * dy }, { 0.0, 0.0 }, { dx * 1e6, dy * 1e6 }, { -dx, -dy },
    { 0 / 0, 1 }, { 1e151, 0 } })[rng.int(1, 6)]
  local motions = {
    { dx, dy }, { rng.range(-1, 1) * size, rng.range(-1, 1) * size },
    { dx * rng.range(0, 1.5) + rng.range(-0.1, 0.1) * size, dy * rng.range(0, 1.5) }, special,
  }
  local hit = {}
  for k, v in ipairs(motions) do
    local w = { P.sweep(p1, v[1], v[2], p2) }
    local h = SW.sat_sweep(s1, v[1] * 1.0, v[2] * 1.0, s2, hit)
    local o = what .. " sweep " .. k
    if w[1] ~= h then
      error(("%s: C %d, Lua %d"):format(o, w[1], h))
    end
    if h == 1 then
      assert.are.equal(w[2], hit.overlapping, o .. " overlapping")
      for i, f in ipairs(HIT_NUMBERS) do
        eq(w[2 + i], hit[f], o .. " " .. f)
      end
      for i, f in ipairs(RESULT_NUMBERS) do
        eq(w[6 + i], hit.result[f], o .. " result " .. f)
      end
      assert.are.equal(w[12], hit.result.a_in_b, o .. " a_in_b")
      assert.are.equal(w[13], hit.result.b_in_a, o .. " b_in_a")
      tally("sweep hits")
    end
    tally("sweeps")
    -- both moving
    local bv = { rng.range(-1, 1) * size, rng.range(-1, 1) * size }
    if rng.next() < 0.05 then
      bv = { 1, 0 / 0 }
    end
    w = { P.sweep_contact(p1, v[1], v[2], p2, bv[1], bv[2]) }
    local l = { CT.sat_sweep_contact(s1, v[1] * 1.0, v[2] * 1.0, s2, bv[1] * 1.0, bv[2] * 1.0, hit) }
    if w[1] ~= l[1] then
      error(("%s contact: C %d, Lua %d"):format(o, w[1], l[1]))
    end
    if l[1] == 1 then
      assert.are.equal(w[2], hit.overlapping, o .. " contact overlapping")
      for i, f in ipairs(HIT_NUMBERS) do
        eq(w[2 + i], hit[f], o .. " contact " .. f)
      end
      for i, f in ipairs(RESULT_NUMBERS) do
        eq(w[6 + i], hit.result[f], o .. " contact result " .. f)
      end
      eq(w[14], l[2], o .. " contact point x")
      eq(w[15], l[3], o .. " contact point y")
      tally("sweep contacts")
    end
  end
end

-- sat_test and sat_collide of a pair, in both orders, as the C's.
local function same_pair(pa, sa, pb, sb, what, g)
  for order = 1, 2 do
    local p1, s1, p2, s2 = pa, sa, pb, sb
    if order == 2 then
      p1, s1, p2, s2 = pb, sb, pa, sa
    end
    local t = P.test(p1, p2)
    if t ~= C.sat_test(s1, s2) then
      error(("%s (order %d): sat_test C %d, Lua %d"):format(what, order, t, C.sat_test(s1, s2)))
    end
    local w = { P.collide(p1, p2) }
    local r = {}
    local hit = C.sat_collide(s1, s2, r)
    if w[1] ~= hit then
      error(("%s (order %d): sat_collide C %d, Lua %d"):format(what, order, w[1], hit))
    end
    tally("tests")
    same_explanation(p1, s1, p2, s2, what .. " (order " .. order .. ")")
    same_contacts(p1, s1, p2, s2, what .. " (order " .. order .. ")")
    if g then
      same_sweeps(g, p1, s1, p2, s2, what .. " (order " .. order .. ")")
    end
    if hit == 1 then
      local o = what .. " (order " .. order .. ") "
      eq(w[2], r.overlap, o .. "overlap")
      eq(w[3], r.nx, o .. "normal x")
      eq(w[4], r.ny, o .. "normal y")
      eq(w[5], r.mx, o .. "mtv x")
      eq(w[6], r.my, o .. "mtv y")
      assert.are.equal(w[7], r.a_in_b)
      assert.are.equal(w[8], r.b_in_a)
      tally("hits")
      if r.overlap == 0 then
        tally("hits touching (overlap 0)")
      end
    end
  end
end

-- Runs f(share): once (share 1), or under LuaJIT twice, with the compiler on and then off,
-- each with half the cases (f runs math.floor(N * share) of its N).
local function both_jit_modes(f)
  if not jit then
    f(1)
    return
  end
  f(0.5)
  require("spec.support").interpreted(f, 0.5)
end

describe("pure core (lua/sat/pure) against the C core", function()
  if not ok_probe then
    if package.config:sub(1, 1) == "\\" then
      -- the windows suite (wine) has no build of the C core's raw functions
      pending("needs the satprobe helper, built for this platform's tests only on Linux")
      return
    end
    it("needs the satprobe helper (make test-helpers)", function()
      error("satprobe not found: " .. tostring(P))
    end)
    return
  end

  teardown(function()
    local keys = {}
    for k in pairs(counts) do
      keys[#keys + 1] = k
    end
    table.sort(keys)
    local parts = {}
    for _, k in ipairs(keys) do
      parts[#parts + 1] = k .. " " .. counts[k]
    end
    io.stderr:write(("pure core, %s%s: %s\n"):format(_VERSION, jit and " (LuaJIT)" or "",
      table.concat(parts, ", ")))
  end)

  describe("sat_internal", function()
    it("ldexp, frexp, fmin, fmax as the C library's", function()
      local rng = support.rng(7)
      local z = 0.0
      local vals = { z, -z, 1 / 0, -1 / 0, 0 / 0, 2 ^ -1074, -(2 ^ -1074), 2 ^ -1022,
        2 ^ -1023, 1.7976931348623157e308, 1e-300, 1e300, 0.5, 1, 3 }
      for _ = 1, 2000 do
        vals[#vals + 1] = P.ldexp(rng.range(-1, 1), rng.int(-1100, 1100))
      end
      local exps = { 0, 1, -1, 600, -600, 1074, -1074, 1100, -1100, 2000, -2000 }
      for i, x in ipairs(vals) do
        local m1, e1 = P.frexp(x)
        local m2, e2 = I.frexp(x)
        eq(m1, m2, "frexp(" .. show(x) .. ")")
        if x - x == 0 then
          assert.are.equal(e1, e2)
        end
        for _, e in ipairs(exps) do
          eq(P.ldexp(x, e), I.ldexp(x, e), "ldexp(" .. show(x) .. ", " .. e .. ")")
        end
        local e = rng.int(-2100, 2100)
        eq(P.ldexp(x, e), I.ldexp(x, e), "ldexp(" .. show(x) .. ", " .. e .. ")")
        local y = vals[(i * 7) % #vals + 1]
        eq(P.fmin(x, y), I.fmin(x, y), "fmin")
        eq(P.fmax(x, y), I.fmax(x, y), "fmax")
        eq(P.fmin(y, x), I.fmin(y, x), "fmin")
        eq(P.fmax(y, x), I.fmax(y, x), "fmax")
      end
      -- glibc's by hand: equal operands give the second, NaN the other
      local nz = -z
      assert.are.equal(-1 / 0, 1 / I.fmin(z, nz))
      assert.are.equal(1 / 0, 1 / I.fmax(nz, z))
      assert.are.equal(3, I.fmin(0 / 0, 3))
      assert.are.equal(3, I.fmax(3, 0 / 0))
    end)

    it("sat__dd_add and the merge and collinear reductions as the C's", function()
      local g = cases.new(11)
      both_jit_modes(function(share)
        for _ = 1, 500 * share do
          local hi, lo, d = g.rng.range(-1e9, 1e9), g.rng.range(-1e-7, 1e-7), g.rng.range(-1e3, 1e3)
          local h1, l1 = P.dd_add(hi, lo, d)
          local h2, l2 = S.sat__dd_add(hi, lo, d)
          eq(h1, h2, "dd_add hi")
          eq(l1, l2, "dd_add lo")
          local pts = g.polygon_pts(0, 0, g.size())
          for _, tol in ipairs({ 1e-9, 1e-3, 0.5, 3 }) do
            local want = P.merge_close(pts, tol)
            local xs, ys, n = cases.xs_ys(pts)
            n = S.sat__merge_close(xs, ys, n, tol)
            assert.are.equal(#want / 2, n)
            for i = 1, n do
              eq(want[2 * i - 1], xs[i], "merge x")
              eq(want[2 * i], ys[i], "merge y")
            end
            want = P.drop_collinear(pts, tol)
            xs, ys, n = cases.xs_ys(pts)
            n = S.sat__drop_collinear(xs, ys, n, tol)
            assert.are.equal(#want / 2, n)
            for i = 1, n do
              eq(want[2 * i - 1], xs[i], "collinear x")
              eq(want[2 * i], ys[i], "collinear y")
            end
          end
        end
      end)
    end)
  end)

  describe("sat_shape", function()
    it("validates outlines as the C does: statuses, kept points, exponent, centroid", function()
      local g = cases.new(21)
      both_jit_modes(function(share)
        for i = 1, N_SHAPES * share do
          local cx, cy = g.centre()
          local pts = i % 4 == 0 and g.bad_polygon_pts() or g.polygon_pts(cx, cy, g.size())
          local want = { P.validate(pts) }
          local xs, ys, n = cases.xs_ys(pts)
          local o = {}
          local st = S.sat_polygon_validate(xs, ys, n, xs, ys, o)
          assert.are.equal(want[1], st)
          tally("validate")
          if st == K.SAT_OK then
            assert.are.equal(want[2], o.count)
            assert.are.equal(want[3], o.exponent)
            eq(want[4], o.ox, "origin x")
            eq(want[5], o.oy, "origin y")
            eq(want[6], o.cx, "centroid x")
            eq(want[7], o.cy, "centroid y")
            for k = 1, o.count do
              eq(want[8][2 * k - 1], o.wx[k], "work x")
              eq(want[8][2 * k], o.wy[k], "work y")
            end
          end
        end
      end)
    end)

    for _, kind in ipairs({ "polygon", "circle", "segment", "capsule" }) do
      it(kind .. "s: built, transformed (every refusal too), queried as the C's", function()
        local g = cases.new(100 + #kind)
        both_jit_modes(function(share)
          for i = 1, N_SHAPES * share do
            local d = g.shape(kind)
            local p, s = build(d, kind .. " " .. i)
            if p then
              same_queries(g, p, s, kind .. " " .. i)
              -- a copy: the same fields, lean or not as the C's
              local c = S.sat_shape_copy({}, s)
              same_shape(P.clone(p), c, kind .. " " .. i .. " copy")
              tally("shapes")
            end
          end
        end)
      end)
    end

    it("refuses bad input with the C's statuses", function()
      local g = cases.new(5)
      both_jit_modes(function(share)
        for i = 1, N_BAD * share do
          build(g.bad_shape(), "bad " .. i)
        end
      end)
    end)

    it("refusals by hand: every status of the constructors and transforms", function()
      local function new(f, ...)
        return f({}, ...)
      end
      assert.are.equal(K.SAT_ERR_NONFINITE, new(S.sat_circle_init, 0 / 0, 0.0, 1.0))
      assert.are.equal(K.SAT_ERR_NEGATIVE_RADIUS, new(S.sat_circle_init, 0.0, 0.0, -1.0))
      assert.are.equal(K.SAT_ERR_RANGE, new(S.sat_circle_init, 1e151, 0.0, 1.0))
      assert.are.equal(K.SAT_ERR_RANGE, new(S.sat_circle_init, 0.0, 0.0, 1e151))
      assert.are.equal(K.SAT_ERR_SAME_POINTS, new(S.sat_segment_init, 1.0, 2.0, 1.0, 2.0))
      assert.are.equal(K.SAT_OK, new(S.sat_capsule_init, 1.0, 2.0, 1.0, 2.0, 0.0))
      assert.are.equal(K.SAT_ERR_RANGE, new(S.sat_segment_init, 0.0, 0.0, 1e-101, 0.0))
      assert.are.equal(K.SAT_ERR_NEGATIVE_RADIUS, new(S.sat_capsule_init, 0.0, 0.0, 1.0, 0.0, -0.5))
      local function poly(pts, count)
        local xs, ys, n = cases.xs_ys(pts)
        return S.sat_polygon_validate(xs, ys, count or n, xs, ys, {})
      end
      assert.are.equal(K.SAT_ERR_TOO_MANY_POINTS, poly({ 0, 0, 1, 0, 0, 1 }, K.SAT_MAX_POINTS + 1))
      assert.are.equal(K.SAT_ERR_NONFINITE, poly({ 0, 0, 1, 0, 0, 0 / 0 }))
      assert.are.equal(K.SAT_ERR_RANGE, poly({ 0, 0, 2e150, 0, 0, 1 }))
      assert.are.equal(K.SAT_ERR_TOO_FEW_POINTS, poly({ 0, 0, 1, 0 }))
      assert.are.equal(K.SAT_ERR_TOO_FEW_POINTS, poly({ 1, 1, 1, 1, 1, 1 }))
      assert.are.equal(K.SAT_ERR_RANGE, poly({ 0, 0, 1e-101, 0, 0, 1e-101 }))
      assert.are.equal(K.SAT_ERR_ZERO_AREA, poly({ 0, 0, 1, 1, 2, 2, 3, 3 }))
      assert.are.equal(K.SAT_ERR_TOO_FEW_POINTS, poly({ 0, 0, 1, 0, 0, 0, 1, 0 }))
      assert.are.equal(K.SAT_ERR_NOT_CONVEX, poly({ 0, 0, 4, 0, 1, 1, 0, 4 }))
      -- a pentagram turns left at every point, twice around
      local star = {}
      for i = 0, 4 do
        star[#star + 1] = math.cos(i * 4 * math.pi / 5)
        star[#star + 1] = math.sin(i * 4 * math.pi / 5)
      end
      assert.are.equal(K.SAT_ERR_NOT_CONVEX, poly(star))
      assert.are.equal(K.SAT_OK, poly({ 0, 0, 4, 0, 4, 3 }))
      -- transforms: each refusal changes nothing
      local s = {}
      assert.are.equal(K.SAT_OK, S.sat_polygon_init(s, { 0.0, 4.0, 4.0 }, { 0.0, 0.0, 3.0 }, 3))
      local before = S.sat_shape_copy({}, s)
      assert.are.equal(K.SAT_ERR_NONFINITE, S.sat_shape_move(s, 0 / 0, 0.0))
      assert.are.equal(K.SAT_ERR_RANGE, S.sat_shape_move(s, 2e150, 0.0))
      assert.are.equal(K.SAT_ERR_RANGE, S.sat_shape_move_to(s, 0.0, -2e150))
      assert.are.equal(K.SAT_ERR_NONFINITE, S.sat_shape_set_rotation(s, 1 / 0))
      assert.are.equal(K.SAT_OK, S.sat_shape_rotate(s, 1.7e308))
      assert.are.equal(K.SAT_ERR_ANGLE, S.sat_shape_rotate(s, 1.7e308))
      s = S.sat_shape_copy({}, before)
      assert.are.equal(K.SAT_ERR_RANGE, S.sat_shape_rotate_about(s, 2.0, 1e150, 0.0))
      assert.are.equal(K.SAT_ERR_RANGE, S.sat_shape_rotate_about(s, math.pi, 1e150 - 1e135, 0.0))
      assert.are.equal(K.SAT_ERR_BAD_SCALE, S.sat_shape_scale(s, 0.0))
      assert.are.equal(K.SAT_ERR_BAD_SCALE, S.sat_shape_scale(s, -2.0))
      assert.are.equal(K.SAT_ERR_RANGE, S.sat_shape_scale(s, 1e150))
      assert.are.equal(K.SAT_ERR_RANGE, S.sat_shape_scale(s, 1e-101))
      for _, k in ipairs({ "px", "py", "plx", "ply", "angle", "scale", "bound" }) do
        eq(before[k], s[k], "after refusals: " .. k)
      end
      assert.are.equal(K.SAT_ERR_NEGATIVE_RADIUS, S.sat_circle_set_radius(s, -1.0))
      -- the messages, as the C's
      for st = 0, 16 do
        assert.are.equal(P.status_message(st), K.sat_status_message(st))
      end
    end)
    describe("sat_collide", function()
    it("sat_collide_traced.lua is what tools/pure_traced.lua makes of sat_collide.lua", function()
      local tool = dofile("tools/pure_traced.lua")
      local src, traced = tool.read(tool.source), tool.read(tool.target)
      assert.is_truthy(src and traced, "run from the checkout's root")
      assert.is_true(tool.transform(src) == traced,
        "stale: run `lua tools/pure_traced.lua` after editing sat_collide.lua")
    end)

    for ia = 1, #KINDS do
      for ib = ia, #KINDS do
        local ka, kb = KINDS[ia], KINDS[ib]
        it(ka .. " / " .. kb .. ": sat_test and sat_collide as the C's, both orders", function()
          local g = cases.new(1000 + 10 * ia + ib)
          both_jit_modes(function(share)
            for i = 1, N_PAIRS * share do
              local da, db = g.shape(ka), g.shape(kb)
              da.id, db.id = new_id(), new_id()
              local what = ka .. " / " .. kb .. " " .. i
              local pa, sa = build(da, what .. " a", true)
              local pb, sb = build(db, what .. " b", true)
              if pa and pb then
                place_near(g, pa, pb, sb, i % 10 == 0 and 0.05 or 1.2)
                same_pair(pa, sa, pb, sb, what, g)
                if i % 50 == 0 then
                  same_pair(pa, sa, pa, sa, what .. " itself")
                end
              end
            end
            for i = 1, N_TOUCHING * share do
              local da, db = g.touching(ka, kb)
              da.id, db.id = new_id(), new_id()
              local what = ka .. " / " .. kb .. " touching " .. i
              local pa, sa = build(da, what .. " a")
              local pb, sb = build(db, what .. " b")
              if pa and pb then
                same_pair(pa, sa, pb, sb, what, g)
                tally("touching")
              end
            end
          end)
        end)
      end
    end
  end)
end)
end)
