--- sat_constants.lua - the pure backend's twin of src/core/sat_constants.h, with the SAT_*
-- constants of sat.h (kinds, statuses, limits, features, forms) and sat_status_message.
--
-- Every tolerance of the core, with its unit and why, is documented in sat_constants.h; the
-- values here are the same doubles (decimal literals that round to the same bits). Only
-- numbers (no table or function per call) are read from here in hot code: the other files
-- copy them into locals as they load.
local M = {}

M.SAT_VERSION = "0.1.0"

-- sat_kind (sat.h): ordered, a pair is computed with the lower kind first.
M.SAT_POLYGON = 0
M.SAT_CIRCLE = 1
M.SAT_SEGMENT = 2
M.SAT_CAPSULE = 3
M.SAT_COMPOUND = 4
M.SAT_KIND_COUNT = 5

-- sat_status (sat.h), the same numbers.
M.SAT_OK = 0
M.SAT_ERR_NONFINITE = 1
M.SAT_ERR_TOO_FEW_POINTS = 2
M.SAT_ERR_ZERO_AREA = 3
M.SAT_ERR_NOT_CONVEX = 4
M.SAT_ERR_NEGATIVE_RADIUS = 5
M.SAT_ERR_BAD_SCALE = 6
M.SAT_ERR_TOO_MANY_POINTS = 7
M.SAT_ERR_RANGE = 8
M.SAT_ERR_NOMEM = 9
M.SAT_ERR_SAME_POINTS = 10
M.SAT_ERR_ANGLE = 11
M.SAT_ERR_SELF_CROSSING = 12
M.SAT_ERR_SELF_TOUCHING = 13
M.SAT_ERR_NO_PARTS = 14
M.SAT_ERR_NO_LOCAL = 15

-- Limits (sat.h).
M.SAT_MAX_POINTS = 1048576
M.SAT_MAX_COORD = 1e150
M.SAT_MIN_SIZE = 1e-100
M.SAT_COMPOUND_STACK = 1024

-- sat_form (sat.h).
M.SAT_FORM_PARTS = 0
M.SAT_FORM_CONCAVE = 1
M.SAT_FORM_CHAIN = 2
M.SAT_FORM_LOOP = 3

-- sat_feature (sat.h).
M.SAT_FEATURE_EDGE = 0
M.SAT_FEATURE_VERTEX = 1
M.SAT_FEATURE_CENTRE = 2
M.SAT_FEATURE_NORMAL = 3
M.SAT_FEATURE_DIRECTION = 4
M.SAT_FEATURE_ENDPOINT = 5

-- sat_constants.h
M.SAT_MERGE_REL = 1e-9
M.SAT_COLLINEAR_REL = 1e-9
M.SAT_AREA_REL = 1e-12
M.SAT_TOUCH_REL = 1e-12
M.SAT_CONTACT_FACE_COS = 1.0 - 1e-9
M.SAT_CONTACT_PARALLEL = 1e-12
M.SAT_BROAD_TOUCH_PAD = 4.0
M.SAT_BROAD_ROUNDING = 8.0
M.SAT_BROAD_SEGMENT_SLACK = 1e-9

-- sat_internal.h
M.SAT_PI = 3.14159265358979323846
M.SAT_DEEP16 = 65536

local messages = {
  [M.SAT_OK] = "ok",
  [M.SAT_ERR_NONFINITE] = "number must be finite (not NaN or infinite)",
  [M.SAT_ERR_TOO_FEW_POINTS] = "needs at least 3 distinct, non-collinear points",
  [M.SAT_ERR_ZERO_AREA] = "points enclose no area",
  [M.SAT_ERR_NOT_CONVEX] = "points are not convex (sat.concave takes a concave outline)",
  [M.SAT_ERR_NEGATIVE_RADIUS] = "radius must be >= 0",
  [M.SAT_ERR_BAD_SCALE] = "scale factor must be > 0",
  [M.SAT_ERR_TOO_MANY_POINTS] = "too many points",
  [M.SAT_ERR_RANGE] = "out of range (coordinates and sizes up to 1e150, polygons and segments at "
    .. "least 1e-100 across)",
  [M.SAT_ERR_NOMEM] = "out of memory",
  [M.SAT_ERR_SAME_POINTS] = "endpoints must differ",
  [M.SAT_ERR_ANGLE] = "resulting angle is not finite (the rotation overflows)",
  [M.SAT_ERR_SELF_CROSSING] = "outline crosses itself",
  [M.SAT_ERR_SELF_TOUCHING] = "outline touches itself",
  [M.SAT_ERR_NO_PARTS] = "no parts",
  [M.SAT_ERR_NO_LOCAL] = "a lean polygon cannot turn or scale before it is given the block for its "
    .. "local points (sat_shape_give_local)",
}

--- The message of a status (sat_status_message); "unknown error" for any other value.
function M.sat_status_message(status)
  return messages[status] or "unknown error"
end

return M
