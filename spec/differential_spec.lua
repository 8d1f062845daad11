-- What the differential fuzzer (spec/fuzz/differential.lua, the differential suite) found
-- where the pure backend and the native module differed, each case kept here with its value
-- worked out by hand, and checked against the native module where one loads.
local support = require("spec.support")
local backend = require("sat.backend")

local nativeFound = pcall(require, "sat.core")
local pure = backend.new("lua")
local native = nativeFound and backend.new("native") or nil

describe("the pure backend's text, as the C's snprintf writes it", function()
  local U = require("sat.pure.lsat_util")

  -- LuaJIT's string.format rounds a decimal tie away from zero; C rounds it to even. The
  -- values below are exact binary fractions whose decimal expansion ends just past the
  -- digits kept, with a 5: a tie.
  it("rounds a decimal tie to even, as C does, on every Lua (LuaJIT's formatter too)", function()
    -- -3.49835205078125 = -(3 + 0.49835205078125), exact in binary; 14 digits keep
    -- 3.4983520507812|5: the last kept is 2, even: it stays
    assert.are.equal("-3.4983520507812", U.fmt_g(14, -3.49835205078125))
    assert.are.equal("3.4983520507812", U.fmt_g(14, 3.49835205078125))
    -- 1.015625 = 1 + 1/64: 6 digits keep 1.01562|5, 2 even; 1.234375: 1.23437|5, 7 odd: up
    assert.are.equal("1.01562", U.fmt_g(6, 1.015625))
    assert.are.equal("1.23438", U.fmt_g(6, 1.234375))
    assert.are.equal("2", U.fmt_g(1, 2.5))
    assert.are.equal("-2", U.fmt_g(1, -2.5))
    assert.are.equal("4", U.fmt_g(1, 3.5))
    assert.are.equal("0.12", U.fmt_g(2, 0.125))
    -- near a tie but not one: the usual rounding
    assert.are.equal("1.01563", U.fmt_g(6, 1.0156250000000002))
    assert.are.equal("0.1", U.fmt_g(14, 0.1))
    assert.are.equal("inf", U.fmt_g(14, math.huge))
    assert.are.equal("4.9406564584125e-324", U.fmt_g(14, 5e-324))
  end)

  it("in a shape's tostring and an explanation's", function()
    local c = pure.circle(-3.49835205078125, 1.015625, 1)
    assert.are.equal("circle(r 1 at -3.4983520507812, 1.015625)", tostring(c))
    -- two boxes overlapping by 1.015625 along x: the explanation's overlap column (%.6g)
    local a, b = pure.box(0, 0, 10, 10), pure.box(10 - 1.015625, 0, 10, 20)
    local e = tostring(pure.explain(a, b))
    support.has(e, "overlap 1.01562 along (1, 0)")
    if native then
      assert.are.equal(tostring(native.circle(-3.49835205078125, 1.015625, 1)), tostring(c))
      local na, nb = native.box(0, 0, 10, 10), native.box(10 - 1.015625, 0, 10, 20)
      assert.are.equal(tostring(native.explain(na, nb)), e)
    end
  end)
end)

describe("the pure backend interrupted (a finalizer or a hook running sat mid-call)", function()
  -- The core's sweep (sat_sweep.lua) runs with a debug count hook that, every few
  -- instructions, sweeps other shapes (other kind pairs) through the core too: the outer
  -- sweep must give what it gives alone (its state is per depth, as the C's is on its stack).
  -- (Under LuaJIT the hook runs only in the interpreter: the compiler is off meanwhile.)
  it("a core sweep inside a core sweep leaves the outer one's state alone", function()
    local jit = rawget(_G, "jit")
    local wasOn = require("spec.support").compilerOn()
    if wasOn then
      jit.off()
    end
    local SW = require("sat.pure.sat_sweep")
    local U = require("sat.pure.lsat_util")
    local sat = pure
    local function rec(s)
      return rawget(s, U.REC)
    end
    local cases = {
      { sat.capsule(0, 0, 0, 4, 1), sat.box(6, -2, 3, 8), 10, 1 },
      { sat.polygon(0, 0, 2, 0, 1, 2), sat.segment(5, -3, 6, 4), 9, 0.5 },
      { sat.circle(0, 0, 1), sat.capsule(4, 0, 6, 3, 0.5), 8, 0 },
      { sat.box(0, 0, 2, 2), sat.circle(5, 1, 1), 7, 0.25 },
      { sat.box(0, 0, 2, 2), sat.box(1, 1, 2, 2), 3, 0 }, -- overlapping at the start
    }
    local others = { rec(sat.segment(0, 0, 3, 1)), rec(sat.circle(1, 1, 2)),
      rec(sat.capsule(0, 0, 2, 2, 0.5)), rec(sat.box(-1, -1, 2, 3)) }
    local function run(c, hit)
      local found = SW.sat_sweep(rec(c[1]), c[3], c[4], rec(c[2]), hit)
      local r = hit.result
      return { found, hit.overlapping, hit.t, hit.mx, hit.my, hit.dist2, r.overlap, r.nx, r.ny,
        r.mx, r.my, r.a_in_b, r.b_in_a }
    end
    local inner = { result = {} }
    for _, c in ipairs(cases) do
      local want = run(c, { result = {} })
      assert.are.equal(1, want[1], "the pair meets")
      for every = 3, 60, 3 do
        local k = 0
        debug.sethook(function()
          k = k + 1
          SW.sat_sweep(others[k % 4 + 1], 3, -2, others[(k + 1) % 4 + 1], inner)
        end, "", every)
        local got = run(c, { result = {} })
        debug.sethook()
        assert.is_true(k > 0)
        assert.are.same(want, got)
      end
    end
    if wasOn then
      jit.on()
    end
  end)
end)

describe("two identical compounds (seed 3, operation 2114: the MTV negated)", function()
  -- A compound and its clones have the same state but their own ids, so the ids order the
  -- compounds; their parts, though, are identical and all have id 0. The C broke that last
  -- tie by memory order, so that a clone whose part malloc placed below the original's got
  -- the MTV negated, at random (the pure backend has no addresses). Identical shapes with
  -- equal ids now run in the caller's order on both: the parts follow their compounds.
  -- By hand: one box part 2 x 1 over an identical one, overlap 1 along y (the shorter
  -- side); one capsule part (0, 0)-(4, 0), radius 1, over an identical one: on one line,
  -- the depth is both radii, 2, across the segment (along y).
  local function cases(sat)
    return {
      { sat.compound({ sat.box(-1e9, 5, 2, 1) }), 1 },
      { sat.compound({ sat.capsule(0, 0, 4, 0, 1) }), 2 },
      { sat.compound({ sat.capsule(-1e9 + 0.3, 5, -1e9 + 4.3, 5, 1) }), 2 },
    }
  end
  local function check(sat)
    local got = {}
    for n, case in ipairs(cases(sat)) do
      local c, depth = case[1], case[2]
      local hit, mx, my = c:collidesWith(c:clone())
      assert.is_true(hit)
      assert.are.equal(0, mx)
      assert.are.equal(depth, math.abs(my))
      -- every clone, wherever its part lands in memory (some in blocks freed before it,
      -- below the original's), gets the same answer; the clone first gets it negated
      for _ = 1, 40 do
        for _ = 1, 5 do
          c:clone() -- garbage: its blocks freed below
        end
        collectgarbage()
        local d = c:clone()
        local h1, x1, y1 = c:collidesWith(d)
        local h2, x2, y2 = d:collidesWith(c)
        assert.are.same({ true, mx, my }, { h1, x1, y1 })
        assert.are.same({ true, -mx, -my }, { h2, x2, y2 })
      end
      got[n] = my
    end
    return got
  end

  it("get one MTV, whichever clone, on the pure backend and the native one", function()
    local want = check(pure)
    if native then
      assert.are.same(want, check(native))
    end
  end)
end)
