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

return support
