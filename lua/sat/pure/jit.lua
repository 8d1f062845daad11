--- jit.lua - which of the pure backend's files LuaJIT's compiler is kept out of, decided in one
-- place. Nothing here changes a result: the same operations run in the same order, compiled
-- or interpreted.
--
-- Why (docs/benchmarks.md, "The pure backend under LuaJIT"): the world's paths (the spatial
-- hash's filing, gathering, queries and step, the sweep, the contacts, the binding's hash
-- calls) are long chains of short loops with data-dependent branches, called from many
-- places with records of every kind. Their traces abort (loops left unbiased, too many side
-- exits) or multiply until the machine-code area is full, which flushes every trace, the
-- game's own included, and starts over: a frame of the level scene spent most of its time in
-- the compiler. Interpreted, these files cost less than their traces do. The pair tests
-- (sat_collide.lua, sat_shape.lua, sat_internal.lua, sat_math.lua and the binding's shape
-- calls) stay compiled: their traces pay.
--
-- OFF lists the files by module name; apply(module_tables) turns the compiler off for every
-- function defined in one of them (jit.off(fn, true): the function and the functions defined
-- inside it) that can be reached from the given tables: their fields, and, through upvalues,
-- the files' local functions. Found by the function's source (its file name), so a function
-- of another file reached this way keeps its compiled traces. No global JIT setting
-- (jit.opt) is changed: those belong to the game. Under PUC Lua (no `jit` module) and with
-- the JIT off (iOS) this does nothing that matters.
local M = {}

M.OFF = {
  "sat_hash", "sat_hash_query", "sat_hash_step", "sat_sweep", "sat_contacts", "lsat_hash",
}

local jit_lib = rawget(_G, "jit")

-- the set of source suffixes ("/sat_hash.lua") of the files in OFF
local function suffixes()
  local set = {}
  for i = 1, #M.OFF do set[#set + 1] = "/" .. M.OFF[i] .. ".lua" end
  return set
end

local function listed(source, set)
  if type(source) ~= "string" then return false end
  source = source:gsub("\\", "/")
  for i = 1, #set do
    local s = set[i]
    if source:sub(-#s) == s then return true end
  end
  return false
end

--- Turns the compiler off for the OFF files' functions reachable from the tables given (the
-- pure modules' tables). Returns the count of functions turned off (0 without LuaJIT).
function M.apply(roots)
  if type(jit_lib) ~= "table" or type(jit_lib.off) ~= "function" then return 0 end
  local getinfo, getupvalue = debug.getinfo, debug.getupvalue
  local set, seen, stack, count = suffixes(), {}, {}, 0
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

return M
