--- lsat_module.lua - the pure backend's twin of src/lua/lsat_module.c: the module table, what
-- require("sat.core") returns on the native backend, with the same keys (but _ffi, the native
-- module's FFI internals).
--
-- Each type file makes its metatables and method tables once, as it loads (the C binding keeps
-- them in the registry, across reloads of the module); loading this file again makes a new
-- module table of the same functions, so shapes made before keep working.
local K = require("sat.pure.sat_constants")

local function open()
  local module = {}
  require("sat.pure.lsat_vec").open(module)
  require("sat.pure.lsat_shape").open(module)
  require("sat.pure.lsat_response").open(module)
  require("sat.pure.lsat_hash").open(module)
  require("sat.pure.lsat_explain").open(module)
  module._VERSION = K.SAT_VERSION
  -- LuaJIT: the world's files run interpreted (sat.pure.jit says why); nothing else changes
  local J = require("sat.pure.jit")
  local roots = { module }
  for i = 1, #J.OFF do roots[#roots + 1] = require("sat.pure." .. J.OFF[i]) end
  J.apply(roots)
  return module
end

return open()
