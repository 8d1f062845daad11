-- sat.pure.jit (lua/sat/pure/jit.lua): which files LuaJIT's compiler is kept out of. Its two
-- decisions: fuses (does this LuaJIT's compiler fuse a * b + c into one rounding?), checked
-- against a compiled probe, and apply/unfuse (jit.off for the functions of the files named,
-- found by their source), checked on functions loaded under chosen file names.
local J = require("sat.pure.jit")

local jit_lib = rawget(_G, "jit")
local loadstring = rawget(_G, "loadstring") or load

-- a function whose source is the file name given (as require gives it: "@" .. path), and a
-- local function of it reached only through its upvalue
local function fileFunctions(path)
  local chunk = assert(loadstring([[
    local function inner(a, b, c) return a * b + c end
    return function(a, b, c) return inner(a, b, c) end
  ]], "@" .. path))
  return chunk()
end

describe("sat.pure.jit", function()
  it("says whether the compiler fuses multiply-adds as a compiled probe shows", function()
    if type(jit_lib) ~= "table" then
      assert.is_false(J.fuses) -- PUC Lua: every operation rounds
      return
    end
    if not jit_lib.status() then
      pending("the JIT is off: nothing is compiled to probe")
      return
    end
    -- (1 + 2^-30)^2 - 1: 2^-29 with the product rounded first, 2^-29 + 2^-60 fused
    local function probe(t)
      local r
      for _ = 1, 2000 do r = t[1] * t[1] + t[2] end
      return r
    end
    local r = probe({ 1 + 1 / 1073741824, -1 })
    local unfused, fused = 1 / 536870912, 1 / 536870912 + 1 / 1152921504606846976
    assert.is_true(r == unfused or r == fused)
    assert.are.equal(r == fused, J.fuses)
  end)

  it("turns the compiler off for the functions of the files named, and of no other file", function()
    local roots = {
      { fileFunctions("lua/sat/world_move.lua"), fileFunctions("lua/sat/world.lua") },
      { a = fileFunctions("sat/pure/sat_shape.lua"), b = fileFunctions("lua/sat/pure/lsat_vec.lua") },
      { fileFunctions("lua/sat/purely.lua"), fileFunctions("C:\\game\\sat\\level_tiled.lua") },
    }
    if type(jit_lib) ~= "table" or type(jit_lib.off) ~= "function" then
      assert.are.equal(0, J.apply(roots, J.FUSED)) -- nothing to turn off
      return
    end
    -- each file: its returned function and the local one behind it
    assert.are.equal(2, J.apply({ roots[1] }, { "world_move" }))
    assert.are.equal(0, J.apply({ roots[1] }, { "level_tiled", "pure" }))
    assert.are.equal(4, J.apply({ roots[2] }, { "pure" }))
    assert.are.equal(2, J.apply({ roots[3] }, { "level_tiled", "pure" }))
    assert.are.equal(2 + 4 + 2, J.apply(roots, J.FUSED))
  end)

  it("unfuse does nothing where the compiler does not fuse", function()
    local roots = { { fileFunctions("lua/sat/world_move.lua") } }
    local saved = J.fuses
    J.fuses = false
    local off = J.unfuse(roots)
    J.fuses = true
    local on = J.unfuse(roots)
    J.fuses = saved
    assert.are.equal(0, off)
    assert.are.equal(type(jit_lib) == "table" and 2 or 0, on)
  end)
end)
