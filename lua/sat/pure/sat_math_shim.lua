--- sat_math_shim.lua - sat_sin, sat_cos and sat_atan2 from the host's math library, until
-- sat_math.lua (the twin of src/core/sat_math.c, the core's own functions) lands: then the
-- core's files require that instead and this file goes. On this machine Lua's math.sin, cos
-- and atan2 are the C library's, which the C core calls today: the same bits.
local M = {}

M.sat_sin = math.sin
M.sat_cos = math.cos
-- math.atan2 is gone from 5.3 on (unless built with compatibility): math.atan takes (y, x)
---@diagnostic disable-next-line: deprecated
M.sat_atan2 = math.atan2 or math.atan

return M
