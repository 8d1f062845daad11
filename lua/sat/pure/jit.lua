--- jit.lua - which of sat's Lua files LuaJIT's compiler is kept out of, decided in one place.
-- Nothing here changes a result: the same operations run in the same order, compiled or
-- interpreted. Two reasons, two lists.
--
-- OFF, for speed (docs/benchmarks.md, "The pure backend under LuaJIT"): the world's paths of
-- the pure backend (the spatial hash's filing, gathering, queries and step, the sweep, the
-- contacts, the binding's hash calls) are long chains of short loops with data-dependent
-- branches, called from many places with records of every kind. Their traces abort (loops
-- left unbiased, too many side exits) or multiply until the machine-code area is full, which
-- flushes every trace, the game's own included, and starts over: a frame of the level scene
-- spent most of its time in the compiler. Interpreted, these files cost less than their
-- traces do. The pair tests (sat_collide.lua, sat_shape.lua, sat_internal.lua, sat_math.lua
-- and the binding's shape calls) stay compiled: their traces pay.
--
-- FUSED, for the bits (docs/determinism.md): a LuaJIT whose compiler fuses a * b + c (and
-- a * b - c, c - a * b) into one instruction with one rounding gives other bits than the C
-- core (built with -ffp-contract=off) and than its own interpreter, which rounds the product
-- first. LuaJIT 2.1 before its 2025 change ("Disable FMA by default", the -Ofma flag) does
-- so on arm64 and PowerPC with no way to turn it off (Debian 12's 2.1.0-beta3 on aarch64:
-- fmadd/fmsub in the traces of world_move.lua's slide). On such a LuaJIT (M.fuses), every
-- file that multiplies and adds inexact numbers runs interpreted: every file of the pure
-- backend, and the Lua layer's files that compute positions (the move's slide, push's
-- carrying, the mover's ground, the level's tile and object placement). The Lua layer's
-- other files compute no inexact product that is then added (world_state's digest
-- arithmetic is exact: integers below 2^53 and powers of two), so fusing cannot change them.
--
-- apply(roots, names) turns the compiler off for every function defined in one of the files
-- named (jit.off(fn, true): the function and the functions defined inside it) that can be
-- reached from the given tables: their fields, and, through upvalues, the files' local
-- functions. Found by the function's source (its file name), so a function of another file
-- reached this way keeps its compiled traces. No global JIT setting (jit.opt) is changed:
-- those belong to the game (the one call below, jit.opt.start("-fma") when no "fma" flag is
-- on, only asks whether the flag exists: it was off and stays off). Under PUC Lua (no `jit`
-- module) and with the JIT off (iOS) this does nothing that matters.
local M = {}

M.OFF = {
  "sat_hash", "sat_hash_query", "sat_hash_step", "sat_sweep", "sat_contacts", "lsat_hash",
}

-- The files a fusing compiler is kept out of: "pure" stands for every file of the pure
-- backend (lua/sat/pure/), the others are the Lua layer's (lua/sat/<name>.lua).
M.FUSED = { "pure", "world_move", "world_push", "world_mover", "level_shapes", "level_tiled" }

local jit_lib = rawget(_G, "jit")

-- Does this LuaJIT's compiler fuse multiply-adds? Yes when its "fma" flag is on (a LuaJIT
-- that has the flag leaves it off unless the game turns it on); a LuaJIT without the flag
-- fuses on every target but x86, x64 (no FMA instruction used) and 32-bit ARM (VMLA rounds
-- twice, as separate operations do). Decided once, as sat loads: a game that turns "+fma"
-- on later fuses its traces of sat's files too (docs/determinism.md).
local function fuses()
  if type(jit_lib) ~= "table" or type(jit_lib.status) ~= "function" then return false end
  local status = { jit_lib.status() }
  for i = 2, #status do
    if status[i] == "fma" then return true end
  end
  local opt = jit_lib.opt
  if type(opt) == "table" and type(opt.start) == "function" and pcall(opt.start, "-fma") then
    return false -- the flag exists and is off
  end
  local arch = jit_lib.arch
  return arch ~= "x86" and arch ~= "x64" and arch ~= "arm"
end
M.fuses = fuses()

-- the set of source suffixes ("/sat_hash.lua") of the files named; "pure" stands for every
-- file of the pure backend
local function suffixes(names)
  local set = {}
  for i = 1, #names do
    if names[i] == "pure" then
      set.pure = true
    else
      set[#set + 1] = "/" .. names[i] .. ".lua"
    end
  end
  return set
end

local function listed(source, set)
  if type(source) ~= "string" then return false end
  source = source:gsub("\\", "/")
  if set.pure and (source:find("/sat/pure/[^/]*%.lua$") or source:find("^@sat/pure/[^/]*%.lua$")) then
    return true
  end
  for i = 1, #set do
    local s = set[i]
    if source:sub(-#s) == s then return true end
  end
  return false
end

--- Turns the compiler off for the named files' functions (names: M.OFF when not given)
-- reachable from the tables given (modules' tables). Returns the count of functions turned
-- off (0 without LuaJIT).
function M.apply(roots, names)
  if type(jit_lib) ~= "table" or type(jit_lib.off) ~= "function" then return 0 end
  local getinfo, getupvalue = debug.getinfo, debug.getupvalue
  local set, seen, stack, count = suffixes(names or M.OFF), {}, {}, 0
  for i = 1, #roots do stack[#stack + 1] = roots[i] end
  while #stack > 0 do
    local v = stack[#stack]
    stack[#stack] = nil
    if not seen[v] then
      seen[v] = true
      if type(v) == "table" then
        for _, x in next, v do
          local t = type(x)
          if (t == "table" or t == "function") and not seen[x] then stack[#stack + 1] = x end
        end
      elseif type(v) == "function" then
        local info = getinfo(v, "S")
        if info.what == "Lua" then
          if listed(info.source, set) then
            jit_lib.off(v, true)
            count = count + 1
          end
          local k = 1
          while true do
            local name, x = getupvalue(v, k)
            if name == nil then break end
            local t = type(x)
            if (t == "table" or t == "function") and not seen[x] then stack[#stack + 1] = x end
            k = k + 1
          end
        end
      end
    end
  end
  return count
end

--- On a LuaJIT that fuses multiply-adds (M.fuses), turns the compiler off for the FUSED
-- files' functions reachable from the tables given; elsewhere does nothing. Returns the count
-- of functions turned off.
function M.unfuse(roots)
  if not M.fuses then return 0 end
  return M.apply(roots, M.FUSED)
end

return M
