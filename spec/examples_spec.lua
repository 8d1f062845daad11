-- The README's example (examples/quickstart.lua) prints what its "-->" comments say, and the
-- scripted demo (examples/demo.lua) runs to the end with the contacts it narrates.
if require("spec.support").skip(pending, "world") then return end

-- Each line the chunk prints, its values as print shows them, two spaces apart.
local function run(path)
  local out = {}
  local env = setmetatable({
    print = function(...)
      local parts = {}
      for i = 1, select("#", ...) do
        parts[i] = tostring((select(i, ...)))
      end
      out[#out + 1] = table.concat(parts, "  ")
    end,
  }, { __index = _G })
  local chunk
  if setfenv then
    chunk = assert(loadfile(path))
    setfenv(chunk, env)
  else
    chunk = assert(loadfile(path, "t", env))
  end
  chunk()
  return out
end

-- The comments show what Lua 5.4 prints (`make demo` builds for it), whole floats as "12.0";
-- Lua 5.1, 5.2 and LuaJIT print them as "12", so there each such number is expected so.
local WHOLE_FLOATS_AS_INTEGERS = tostring(12.0) == "12"

local function asThisLuaPrints(text)
  if not WHOLE_FLOATS_AS_INTEGERS then
    return text
  end
  return (text:gsub("%S+", function(word)
    return (word:gsub("^(%-?%d+)%.0$", "%1"))
  end))
end

local function expected(path)
  local want = {}
  for line in io.lines(path) do
    local comment = line:match("%-%->%s*(.-)%s*$")
    if comment then
      local printed = comment:gsub(":.*$", "") -- "true: the coin..." checks "true"
      want[#want + 1] = asThisLuaPrints(printed)
    end
  end
  return want
end

describe("examples/quickstart.lua (the README example)", function()
  it("prints what each --> comment says", function()
    local got = run("examples/quickstart.lua")
    local want = expected("examples/quickstart.lua")
    assert.are.equal(#want, #got)
    for i = 1, #want do
      local normalized = got[i]:gsub("%s+", " ")
      assert.are.equal(want[i]:gsub("%s+", " "), normalized)
    end
  end)
end)

describe("examples/demo.lua (make demo)", function()
  it("runs every scene and reports the contacts it describes", function()
    local text = table.concat(run("examples/demo.lua"), "\n")
    assert.truthy(text:find("overlap 10, normal (1, 0), mtv (-10, 0), partial", 1, true))
    assert.truthy(text:find("a is inside b", 1, true))
    assert.truthy(text:find("collide(wall, ball)                overlap 5, normal (0, 1)", 1, true))
    assert.truthy(text:find("overlap at the origin 1, at (1e9, -1e9) 1", 1, true))
    assert.truthy(text:find("capsule end vs box corner          overlap 1, normal (-0.6, -0.8)", 1,
      true))
    assert.truthy(text:find("circle centred on a segment        overlap 2, normal (0, -1)", 1, true))
    assert.truthy(text:find("capsule standing on a segment      overlap 0, normal (0, 1)", 1, true))
    assert.truthy(text:find("enter: player touches the wall", 1, true))
    assert.truthy(text:find("exit: player leaves the floor", 1, true))
    assert.truthy(text:find("explanation(hit, overlap 1 along (0.6, 0.8), containment 0; axis 5 "
      .. "gives the MTV)", 1, true))
    assert.truthy(text:find(">  5  a     vertex 3", 1, true))
    assert.truthy(text:find("meets the first at t=0.4, normal (1, 0), at (0, 5)", 1, true))
    assert.truthy(text:find("Done.", 1, true))
  end)
end)
