--- Does sat.pure.jit's answer to "does this LuaJIT's compiler fuse multiply-adds?" (fuses)
-- agree with what the compiler does? A compiled a * b + c whose exact product needs more
-- than 53 bits: (1 + 2^-30)^2 - 1 is 2^-29 rounded first (separate operations, the C core
-- with -ffp-contract=off), 2^-29 + 2^-60 fused. Prints one line; exit status 1 when they
-- disagree (the replay suite runs it on every LuaJIT it has, spec/suites/replay.sh).
--   luajit spec/replay/fma.lua   (LUA_PATH as for the specs)
local J = require("sat.pure.jit")
local jit_lib = rawget(_G, "jit")
if type(jit_lib) ~= "table" then
  print("fma: not LuaJIT; fuses " .. tostring(J.fuses))
  os.exit(J.fuses and 1 or 0)
end
if not jit_lib.status() then
  print("fma: the JIT is off; fuses " .. tostring(J.fuses) .. " (" .. jit_lib.arch .. ")")
  os.exit(0)
end
local function probe(t) -- the operands from a table: nothing for the compiler to fold
  local r
  for _ = 1, 2000 do r = t[1] * t[1] + t[2] end
  return r
end
local a = 1 + 1 / 1073741824
local r = probe({ a, -1 })
local unfused, fused = 1 / 536870912, 1 / 536870912 + 1 / 1152921504606846976
local seen = r == fused and "fused" or r == unfused and "rounded twice" or ("%.17g"):format(r)
local agree = (r == fused) == J.fuses and (r == fused or r == unfused)
print(("fma: %s %s compiles a * b + c %s; sat.pure.jit.fuses %s: %s"):format(
  jit_lib.version, jit_lib.arch, seen, tostring(J.fuses), agree and "agree" or "DISAGREE"))
os.exit(agree and 0 or 1)
