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
    if jit then
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
    if jit then
      jit.on()
    end
  end)
end)
