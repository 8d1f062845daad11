-- Random shapes for the pure core's spec (spec/pure_core_spec.lua) and bench: descriptions
-- that the C core (through the satprobe helper, spec/helpers/satprobe.c) and the pure core
-- (lua/sat/pure/) build alike, step by step, so that every status and every number of the
-- two can be compared.
--
-- A description: {kind = "polygon", pts = {x1, y1, ...}, lean = true|false} | {kind =
-- "circle", x, y, r} | {kind = "segment", x1, y1, x2, y2} | {kind = "capsule", x1, y1, x2,
-- y2, r}, with ops = {{"move", dx, dy}, {"move_to", x, y}, {"set_rotation", a},
-- {"rotate", da}, {"rotate_about", da, cx, cy}, {"set_rotation_about", a, cx, cy},
-- {"scale", f}, {"set_radius", r}} applied in order, and id (the caller's identity, which
-- orders two shapes that are otherwise the same).
local support = require("spec.support")

local S = require("sat.pure.sat_shape")
local K = require("sat.pure.sat_constants")

local cases = {}

local pi = math.pi
-- -0 made at run time: Lua 5.1 keeps one constant for the literals 0.0 and -0.0 of a function
local ZERO = 0.0
local NZERO = -ZERO

-- ---- bits -----------------------------------------------------------------------------------

-- The same double, bit for bit (NaNs alike whatever their payload: the core makes none).
local function same(a, b)
  if a ~= a then
    return b ~= b
  end
  if a ~= b then
    return false
  end
  if a == 0 then
    return 1 / a == 1 / b
  end
  return true
end
cases.same = same

local function show(v)
  if type(v) == "number" then
    return ("%.17g"):format(v)
  end
  return tostring(v)
end
cases.show = show

-- ---- random descriptions ------------------------------------------------------------------

function cases.new(seed)
  local rng = support.rng(seed)
  local g = { rng = rng }

  local function pick(t)
    return t[rng.int(1, #t)]
  end

  -- a size: 1e-3 to 1e5, mostly 1 to 100
  local function size()
    if rng.next() < 0.8 then
      return rng.range(1, 100)
    end
    return 10 ^ rng.range(-3, 5)
  end

  -- a centre: near the origin, or far from it (1e9), sometimes on integers
  local function centre()
    local r = rng.next()
    if r < 0.5 then
      return rng.range(-1000, 1000), rng.range(-1000, 1000)
    elseif r < 0.8 then
      return 1e9 + rng.range(-1000, 1000), -1e9 + rng.range(-1000, 1000)
    end
    return rng.int(-50, 50), rng.int(-50, 50)
  end
  g.centre = centre
  g.size = size

  -- n points of a convex outline: on an ellipse at sorted angles, turned, either winding
  local function ellipse(n, cx, cy, rx, ry)
    local angles = {}
    for i = 1, n do
      angles[i] = rng.range(0, 2 * pi)
    end
    table.sort(angles)
    local turn, cw = rng.range(0, 2 * pi), rng.next() < 0.5
    local c, s = math.cos(turn), math.sin(turn)
    local pts = {}
    for i = 1, n do
      local a = angles[cw and n + 1 - i or i]
      local x, y = rx * math.cos(a), ry * math.sin(a)
      pts[#pts + 1] = cx + c * x - s * y
      pts[#pts + 1] = cy + s * x + c * y
    end
    return pts
  end

  -- a polygon of 3 to 70 vertices: regular-ish, random on an ellipse, a box, with merged
  -- and collinear points among them
  function g.polygon_pts(cx, cy, r, n)
    local kind = rng.next()
    n = n or (rng.next() < 0.5 and rng.int(3, 10) or rng.int(3, 70))
    local pts
    if kind < 0.2 then
      -- an axis-aligned box on integers (exact edges, for touching)
      local w, h = rng.int(1, 20), rng.int(1, 20)
      local x, y = math.floor(cx), math.floor(cy)
      pts = { x, y, x + w, y, x + w, y + h, x, y + h }
    elseif kind < 0.4 then
      local a0 = rng.range(0, 2 * pi)
      pts = {}
      for i = 0, n - 1 do
        local a = a0 + (i + rng.range(-0.3, 0.3)) * (2 * pi / n)
        pts[#pts + 1] = cx + r * math.cos(a)
        pts[#pts + 1] = cy + r * math.sin(a)
      end
    else
      pts = ellipse(n, cx, cy, r, r * rng.range(0.2, 1))
    end
    local extra = rng.next()
    if extra < 0.1 then
      -- a point repeated (merged away)
      local k = rng.int(1, #pts / 2)
      table.insert(pts, 2 * k + 1, pts[2 * k])
      table.insert(pts, 2 * k + 1, pts[2 * k - 1])
    elseif extra < 0.2 then
      -- an edge's midpoint (collinear, dropped)
      local m = #pts / 2
      local k = rng.int(1, m)
      local j = k % m + 1
      local mx = 0.5 * (pts[2 * k - 1] + pts[2 * j - 1])
      local my = 0.5 * (pts[2 * k] + pts[2 * j])
      table.insert(pts, 2 * k + 1, my)
      table.insert(pts, 2 * k + 1, mx)
    elseif extra < 0.25 then
      -- a point nudged by a hair (merged, or kept, depending on the tolerance)
      local k = rng.int(1, #pts / 2)
      table.insert(pts, 2 * k + 1, pts[2 * k] * (1 + rng.range(-1e-9, 1e-9)))
      table.insert(pts, 2 * k + 1, pts[2 * k - 1] * (1 + rng.range(-1e-9, 1e-9)))
    end
    return pts
  end

  -- outlines that fail, or nearly: collinear, one point, two, a star, a pentagram, NaN, huge
  function g.bad_polygon_pts()
    local cx, cy = centre()
    local r = size()
    local k = rng.int(1, 12)
    if k == 1 then
      return { cx, cy, cx + r, cy + r, cx + 2 * r, cy + 2 * r, cx + 3 * r, cy + 3 * r }
    elseif k == 2 then
      return { cx, cy, cx, cy, cx, cy }
    elseif k == 3 then
      return { cx, cy, cx + r, cy, cx, cy, cx + r, cy }
    elseif k == 4 then
      local pts = {}
      for i = 0, 9 do
        local rr = i % 2 == 0 and r or r / 3
        pts[#pts + 1] = cx + rr * math.cos(i * pi / 5)
        pts[#pts + 1] = cy + rr * math.sin(i * pi / 5)
      end
      return pts
    elseif k == 5 then
      local pts = {}
      for i = 0, 4 do
        pts[#pts + 1] = cx + r * math.cos(i * 4 * pi / 5)
        pts[#pts + 1] = cy + r * math.sin(i * 4 * pi / 5)
      end
      return pts
    elseif k == 6 then
      return { cx, cy, cx + r, cy, 0 / 0, cy + r }
    elseif k == 7 then
      return { cx, cy, cx + r, cy, 1 / 0, cy + r }
    elseif k == 8 then
      return { cx, cy, 2e150, cy, cx, cy + r }
    elseif k == 9 then
      return { 0, 0, 1e-101, 0, 0, 1e-101 }
    elseif k == 10 then
      return { cx, cy, cx + r }
    elseif k == 11 then
      -- a sliver: area under the tolerance
      return { cx, cy, cx + r, cy, cx + 2 * r, cy + r * 1e-13 }
    end
    return { cx, cy, cx + r, cy }
  end

  local function op()
    local k = rng.next()
    local cx, cy = centre()
    if k < 0.15 then
      return { "move", rng.range(-100, 100), rng.range(-100, 100) }
    elseif k < 0.25 then
      return { "move_to", cx, cy }
    elseif k < 0.4 then
      return { "set_rotation", pick({ ZERO, NZERO, pi / 2, pi, rng.range(-10, 10), rng.range(-1e6, 1e6) }) }
    elseif k < 0.55 then
      return { "rotate", rng.range(-4, 4) }
    elseif k < 0.65 then
      return { "rotate_about", rng.range(-4, 4), cx, cy }
    elseif k < 0.72 then
      return { "set_rotation_about", rng.range(-10, 10), cx, cy }
    elseif k < 0.85 then
      return { "scale", pick({ 0.5, 2.0, rng.range(0.3, 3), rng.range(0.9, 1.1) }) }
    elseif k < 0.9 then
      return { "set_radius", rng.range(0, 20) }
    end
    -- refusals
    return pick({
      { "move", 0 / 0, 1 }, { "move_to", 1 / 0, 0 }, { "move_to", 2e150, 0 },
      { "move", 1e150, 1e150 }, { "set_rotation", 0 / 0 }, { "rotate", 1e308 },
      { "rotate_about", 1, 0 / 0, 0 }, { "rotate_about", 1, 3e150, 0 },
      { "set_rotation_about", 1e308, 0, 0 }, { "scale", 0 }, { "scale", -1 },
      { "scale", 1 / 0 }, { "scale", 1e200 }, { "scale", 1e-200 }, { "set_radius", -1 },
      { "set_radius", 0 / 0 }, { "set_radius", 1e151 },
    })
  end

  -- a description of the kind given (or any), ops included (none when `still`)
  function g.shape(kind, cx, cy, r, still)
    kind = kind or pick({ "polygon", "circle", "segment", "capsule" })
    if not cx then
      cx, cy = centre()
    end
    r = r or size()
    local d
    if kind == "polygon" then
      d = { kind = kind, pts = g.polygon_pts(cx, cy, r), lean = rng.next() < 0.8 }
    elseif kind == "circle" then
      d = { kind = kind, cx, cy, rng.next() < 0.1 and 0.0 or r }
    else
      local a, h = rng.range(0, 2 * pi), r * rng.range(0.1, 1)
      local x1, y1 = cx - h * math.cos(a), cy - h * math.sin(a)
      local x2, y2 = cx + h * math.cos(a), cy + h * math.sin(a)
      if kind == "segment" then
        d = { kind = kind, x1, y1, x2, y2 }
      else
        local zero = rng.next() < 0.1
        d = { kind = kind, x1, y1, zero and x1 or x2, zero and y1 or y2,
          rng.next() < 0.1 and 0.0 or r * rng.range(0.05, 0.5) }
      end
    end
    d.ops = {}
    if not still then
      for i = 1, rng.int(0, 4) do
        d.ops[i] = op()
      end
    end
    return d
  end

  -- a description meant to fail or stop on a refusal
  function g.bad_shape()
    local k = rng.int(1, 8)
    local cx, cy = centre()
    if k == 1 then
      return { kind = "polygon", pts = g.bad_polygon_pts(), lean = true, ops = {} }
    elseif k == 2 then
      return { kind = "circle", cx, cy, pick({ -1, 0 / 0, 1 / 0, 2e150 }), ops = {} }
    elseif k == 3 then
      return { kind = "circle", pick({ 0 / 0, 1 / 0, -1 / 0, 2e150, -2e150 }), cy, 1, ops = {} }
    elseif k == 4 then
      return { kind = "segment", cx, cy, cx, cy, ops = {} }
    elseif k == 5 then
      return { kind = "segment", 0, 0, 1e-101, 0, ops = {} }
    elseif k == 6 then
      return { kind = "capsule", cx, cy, cx + 1, cy, pick({ -1, 0 / 0, 2e150 }), ops = {} }
    elseif k == 7 then
      return { kind = "segment", cx, cy, pick({ 0 / 0, 1 / 0, 3e150 }), cy, ops = {} }
    end
    return { kind = "capsule", cx, cy, cx, cy, 0.0, ops = {} }
  end

  -- Two descriptions (kinds given) placed against each other exactly: touching (an edge
  -- on an edge, a circle on a face, ends meeting), on integers (exact in both), near the
  -- origin or at 1e9 (still exact); or overlapping by an exact amount. Not turned: their
  -- edges are the axes.
  function g.touching(ka, kb)
    local far = rng.next() < 0.5 and 1e9 or 0
    local x, y = rng.int(-20, 20) + far, rng.int(-20, 20) - far
    local w, h = rng.int(1, 8), rng.int(1, 8)
    local dent = rng.next() < 0.3 and rng.int(0, 2) * 0.5 or 0 -- overlap, exactly
    local function at(kind, side) -- a shape on the line x = x0 (side -1: left of it)
      local x0 = x + w - dent * (side > 0 and 1 or 0)
      local cy = y + rng.int(0, h)
      if kind == "polygon" then
        local bw, bh = rng.int(1, 6), rng.int(1, 6)
        local x1 = side > 0 and x0 or x0 - bw
        return { kind = kind, pts = { x1, cy, x1 + bw, cy, x1 + bw, cy + bh, x1, cy + bh },
          lean = true, ops = {} }
      elseif kind == "circle" then
        local r = rng.int(1, 4)
        return { kind = kind, x0 + side * r, cy, r, ops = {} }
      elseif kind == "segment" then
        if rng.next() < 0.5 then -- along the line
          return { kind = kind, x0, cy, x0, cy + rng.int(1, 5), ops = {} }
        end
        return { kind = kind, x0, cy, x0 + side * rng.int(1, 5), cy + rng.int(-3, 3), ops = {} }
      end
      local r = rng.int(0, 3)
      if rng.next() < 0.5 then
        return { kind = kind, x0 + side * r, cy, x0 + side * r, cy + rng.int(0, 5), r, ops = {} }
      end
      return { kind = kind, x0 + side * r, cy, x0 + side * (r + rng.int(1, 5)), cy, r, ops = {} }
    end
    local a
    if ka == "polygon" then
      a = { kind = ka, pts = { x, y, x + w, y, x + w, y + h, x, y + h }, lean = true, ops = {} }
    else
      a = at(ka, -1)
      -- shift so that its right side is on the line: a was built left of x + w
    end
    return a, at(kb, 1)
  end

  return g
end

-- ---- building both --------------------------------------------------------------------------

local function xs_ys(pts)
  local xs, ys = {}, {}
  for i = 1, #pts / 2 do
    xs[i], ys[i] = pts[2 * i - 1] * 1.0, pts[2 * i] * 1.0
  end
  return xs, ys, #pts / 2
end
cases.xs_ys = xs_ys

-- The pure core's record from a description, before its ops: status, record.
function cases.pure_new(d)
  local s = {}
  local st
  if d.kind == "polygon" then
    local xs, ys, n = xs_ys(d.pts)
    local o = {}
    st = S.sat_polygon_validate(xs, ys, n, xs, ys, o)
    if st == K.SAT_OK then
      if d.lean then
        S.sat_polygon_build_lean(s, o)
      else
        S.sat_polygon_build(s, o)
      end
    end
  elseif d.kind == "circle" then
    st = S.sat_circle_init(s, d[1] * 1.0, d[2] * 1.0, d[3] * 1.0)
  elseif d.kind == "segment" then
    st = S.sat_segment_init(s, d[1] * 1.0, d[2] * 1.0, d[3] * 1.0, d[4] * 1.0)
  else
    st = S.sat_capsule_init(s, d[1] * 1.0, d[2] * 1.0, d[3] * 1.0, d[4] * 1.0, d[5] * 1.0)
  end
  return st, st == K.SAT_OK and s or nil
end

-- The C core's shape (satprobe): status, shape.
function cases.probe_new(P, d)
  if d.kind == "polygon" then
    return P.polygon(d.pts, d.lean)
  elseif d.kind == "circle" then
    return P.circle(d[1], d[2], d[3])
  elseif d.kind == "segment" then
    return P.segment(d[1], d[2], d[3], d[4])
  end
  return P.capsule(d[1], d[2], d[3], d[4], d[5])
end

local pure_ops = {
  move = S.sat_shape_move,
  move_to = S.sat_shape_move_to,
  set_rotation = S.sat_shape_set_rotation,
  rotate = S.sat_shape_rotate,
  rotate_about = S.sat_shape_rotate_about,
  set_rotation_about = S.sat_shape_set_rotation_about,
  scale = S.sat_shape_scale,
  set_radius = S.sat_circle_set_radius,
}

-- One op on both: the two statuses.
function cases.apply(P, p, s, o)
  local a, b, c = o[2], o[3], o[4]
  local kind = s.kind
  if o[1] == "set_radius" and kind ~= K.SAT_CIRCLE and kind ~= K.SAT_CAPSULE then
    return K.SAT_OK, K.SAT_OK -- the binding lets only these set a radius
  end
  local pst = P[o[1]](p, a, b, c)
  local op = pure_ops[o[1]]
  local sst = op(s, a * 1.0, b and b * 1.0, c and c * 1.0)
  if sst == K.SAT_ERR_NO_LOCAL then -- as the probe and the bindings: the arrays, then again
    local lx, ly = {}, {}
    for i = 1, s.count do
      lx[i], ly[i] = 0.0, 0.0
    end
    S.sat_shape_give_local(s, lx, ly)
    sst = op(s, a * 1.0, b and b * 1.0, c and c * 1.0)
  end
  return pst, sst
end

return cases
