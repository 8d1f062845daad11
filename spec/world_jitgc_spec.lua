-- Issue 13: under LuaJIT with its compiler on, a finalizer that steps a world must not hang
-- the game. The world walked its stepping threads with a `pairs` loop; LuaJIT compiles such
-- a loop into a trace that starts at the loop's own instruction, and a finalizer (run in
-- the collector's finalizing phase) that leaves it at its first guard spins for ever (see
-- docs/design.md, "Finalizers"). The scene runs in a LuaJIT of its own under the suites'
-- stall guard (spec/suites/lib/limit.sh: 30 s of processor time; a spin is caught however
-- loaded the machine, and a slow machine is not taken for a spin).
if require("spec.support").skip(pending, "world") then return end
local jitOn = jit ~= nil and jit.status() -- luacheck: ignore 113 (LuaJIT's global)

describe("a finalizer stepping a world from inside a step", function()
  it("is refused at once, and nothing hangs (under LuaJIT's compiler in a LuaJIT of its own)",
    function()
      if not jitOn or package.config:sub(1, 1) == "\\" then -- (Windows: no sh there)
        assert.is_true(dofile("spec/scripts/jitgc_step.lua"))
        return
      end
      local cmd = ("LUA_PATH=%q LUA_CPATH=%q sh spec/suites/lib/limit.sh 30 30 luajit " ..
        "spec/scripts/jitgc_step.lua 2>&1; " ..
        "echo rc=$?"):format(package.path, package.cpath)
      local p = assert(io.popen(cmd))
      local out = p:read("*a")
      p:close()
      assert.matches("done\ttrue", out, 1, true)
      assert.matches("rc=0", out, 1, true)
    end)
end)
