--- tools/pure_traced.lua - writes lua/sat/pure/sat_collide_traced.lua from
-- lua/sat/pure/sat_collide.lua, as sat_collide_traced.c compiles sat_collide.c a second time
-- with SAT_TRACING: the same pair functions, with their trace hooks on (sat_explain.lua
-- listens to them).
--
-- sat_collide.lua marks, in plain Lua comments (so that the untraced code carries nothing
-- of the trace: a comment costs nothing at run time):
--   --[==[T <code>]==]   code of the traced build only (inline or over several lines): the
--                        markers are removed, the code stays
--   <line> --EXIT_IF     the exit on a separating axis: commented out (the trace goes on
--                        and says "apart" at the end)
--   --@untraced ... --@end  lines of the untraced build only: commented out
-- Line numbers stay the same in both files.
--
--   lua tools/pure_traced.lua           writes the traced file
--   lua tools/pure_traced.lua --check   exits 1 when it is not what the source gives
-- Required (as the spec does: dofile), it returns the transform alone.

local function transform(src)
  local out, untraced = {}, false
  for line in src:gmatch("([^\n]*)\n") do
    if line:match("^%s*%-%-@untraced%s*$") then
      untraced = true
      out[#out + 1] = line
    elseif line:match("^%s*%-%-@end%s*$") then
      untraced = false
      out[#out + 1] = line
    elseif untraced or line:match("%-%-EXIT_IF%s*$") then
      out[#out + 1] = line == "" and line or "-- " .. line
    else
      out[#out + 1] = line
    end
  end
  local text = table.concat(out, "\n") .. "\n"
  text = text:gsub("%-%-%[==%[T(.-)%]==%]", "%1")
  return (text:gsub("[ \t]+\n", "\n"))
end

local SOURCE = "lua/sat/pure/sat_collide.lua"
local TARGET = "lua/sat/pure/sat_collide_traced.lua"

local function read(path)
  local f = io.open(path, "rb")
  if not f then
    return nil
  end
  local s = f:read("*a")
  f:close()
  return s
end

local script = arg and arg[0] and arg[0]:match("pure_traced%.lua$")
if not script then
  return { transform = transform, source = SOURCE, target = TARGET, read = read }
end

local src = assert(read(SOURCE), "cannot read " .. SOURCE)
local want = transform(src)
if arg[1] == "--check" then
  if read(TARGET) ~= want then
    io.stderr:write(TARGET .. " is not what " .. SOURCE .. " gives: run lua tools/pure_traced.lua\n")
    os.exit(1)
  end
  return
end
local f = assert(io.open(TARGET, "wb"))
f:write(want)
f:close()
