-- Helpers shared by the specs: `local support = require("spec.support")`.
local assert = require("luassert")

local support = {}

-- The message of the error f(...) raises; fails when it raises none.
function support.err(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return tostring(e)
end

-- msg contains text, literally.
function support.has(msg, text)
  assert.is_truthy(msg:find(text, 1, true), ("%q does not contain %q"):format(msg, text))
end

-- A regular n-gon of radius r about (cx, cy), as a flat table {x1, y1, ...},
-- counter-clockwise (clockwise when asked).
function support.ngon(n, cx, cy, r, clockwise)
  local t = {}
  for i = 0, n - 1 do
    local a = 2 * math.pi * i / n
    if clockwise then a = -a end
    t[#t + 1] = cx + r * math.cos(a)
    t[#t + 1] = cy + r * math.sin(a)
  end
  return t
end

return support
