-- LuaRocks package of sat: the C module sat.core (core + binding) and the Lua layer.
-- Build and install from a checkout (no network needed):
--   luarocks make rockspec/sat-scm-1.rockspec
-- sources must list what `make sources` prints (spec/suites/rock.sh checks that it does).
rockspec_format = "3.0"
package = "sat"
version = "scm-1"
source = {
  -- `luarocks make` builds the working tree it is run in; this is for `luarocks build`.
  url = "git+file://./",
}
description = {
  summary = "2D collision for Lua games: exact SAT for convex polygons and circles, in C",
  detailed = [[
sat tests convex polygons and circles against each other with the Separating Axis Theorem
(depth, normal, minimum translation, containment) in a small C core, and adds a spatial-hash
world with queries, callbacks and movement with resolution. Lua 5.1, LuaJIT (LÖVE), 5.2,
5.3 and 5.4.]],
  license = "MIT",
  labels = { "collision", "geometry", "game", "love" },
}
dependencies = {
  "lua >= 5.1",
}

-- The C sources, once: the builtin backend's list (Windows) and the Unix command's.
local sources = {
  "src/core/sat_collide.c",
  "src/core/sat_collide_traced.c",
  "src/core/sat_compound.c",
  "src/core/sat_contacts.c",
  "src/core/sat_explain.c",
  "src/core/sat_hash.c",
  "src/core/sat_hash_query.c",
  "src/core/sat_hash_step.c",
  "src/core/sat_math.c",
  "src/core/sat_raycast.c",
  "src/core/sat_shape.c",
  "src/core/sat_sweep.c",
  "src/core/sat_union.c",
  "src/lua/lsat_explain.c",
  "src/lua/lsat_ffi.c",
  "src/lua/lsat_hash.c",
  "src/lua/lsat_module.c",
  "src/lua/lsat_response.c",
  "src/lua/lsat_shape.c",
  "src/lua/lsat_util.c",
  "src/lua/lsat_vec.c",
}

-- On Unix the module is built by one compiler command rather than the builtin backend, which
-- cannot pass a flag: -ffp-contract=off, no fused multiply-add, for the same bits on every
-- platform (docs/design.md, "Determinism"). Windows keeps the builtin backend (MSVC or
-- mingw on x86-64, whose baseline instruction set has no fused multiply-add).
local unix_build = "mkdir -p build/rock/sat && $(CC) $(CFLAGS) -ffp-contract=off -DSAT_HIDDEN" ..
  " -Isrc/core -Isrc/lua -I$(LUA_INCDIR) $(LIBFLAG) -o build/rock/sat/core.so"
for i = 1, #sources do
  unix_build = unix_build .. " " .. sources[i]
end
unix_build = unix_build .. " -lm"

local lua_modules = {
  sat = "lua/sat/init.lua",
  ["sat.backend"] = "lua/sat/backend.lua",
  ["sat.world"] = "lua/sat/world.lua",
  ["sat.world_check"] = "lua/sat/world_check.lua",
  ["sat.world_events"] = "lua/sat/world_events.lua",
  ["sat.world_move"] = "lua/sat/world_move.lua",
  ["sat.world_push"] = "lua/sat/world_push.lua",
  ["sat.world_mover"] = "lua/sat/world_mover.lua",
  ["sat.world_state"] = "lua/sat/world_state.lua",
  ["sat.debug"] = "lua/sat/debug.lua",
  ["sat.fast"] = "lua/sat/fast.lua",
  ["sat.level"] = "lua/sat/level.lua",
  ["sat.level_tiled"] = "lua/sat/level_tiled.lua",
  ["sat.level_shapes"] = "lua/sat/level_shapes.lua",
  ["sat.level_grid"] = "lua/sat/level_grid.lua",
  -- the pure-Lua backend (where no native module loads)
  ["sat.pure.lsat_explain"] = "lua/sat/pure/lsat_explain.lua",
  ["sat.pure.lsat_hash"] = "lua/sat/pure/lsat_hash.lua",
  ["sat.pure.lsat_module"] = "lua/sat/pure/lsat_module.lua",
  ["sat.pure.jit"] = "lua/sat/pure/jit.lua",
  ["sat.pure.lsat_response"] = "lua/sat/pure/lsat_response.lua",
  ["sat.pure.lsat_shape"] = "lua/sat/pure/lsat_shape.lua",
  ["sat.pure.lsat_util"] = "lua/sat/pure/lsat_util.lua",
  ["sat.pure.lsat_vec"] = "lua/sat/pure/lsat_vec.lua",
  ["sat.pure.sat_collide"] = "lua/sat/pure/sat_collide.lua",
  ["sat.pure.sat_collide_traced"] = "lua/sat/pure/sat_collide_traced.lua",
  ["sat.pure.sat_compound"] = "lua/sat/pure/sat_compound.lua",
  ["sat.pure.sat_constants"] = "lua/sat/pure/sat_constants.lua",
  ["sat.pure.sat_contacts"] = "lua/sat/pure/sat_contacts.lua",
  ["sat.pure.sat_explain"] = "lua/sat/pure/sat_explain.lua",
  ["sat.pure.sat_hash"] = "lua/sat/pure/sat_hash.lua",
  ["sat.pure.sat_hash_query"] = "lua/sat/pure/sat_hash_query.lua",
  ["sat.pure.sat_hash_step"] = "lua/sat/pure/sat_hash_step.lua",
  ["sat.pure.sat_internal"] = "lua/sat/pure/sat_internal.lua",
  ["sat.pure.sat_math"] = "lua/sat/pure/sat_math.lua",
  ["sat.pure.sat_raycast"] = "lua/sat/pure/sat_raycast.lua",
  ["sat.pure.sat_shape"] = "lua/sat/pure/sat_shape.lua",
  ["sat.pure.sat_sweep"] = "lua/sat/pure/sat_sweep.lua",
  ["sat.pure.sat_union"] = "lua/sat/pure/sat_union.lua",
}

build = {
  type = "builtin",
  modules = {
    ["sat.core"] = {
      sources = sources,
      incdirs = { "src/core", "src/lua" },
      defines = { "SAT_HIDDEN" }, -- export luaopen_sat_core alone (see src/core/sat.h)
      libraries = { "m" },
    },
    sat = lua_modules.sat,
    ["sat.backend"] = lua_modules["sat.backend"],
    ["sat.world"] = lua_modules["sat.world"],
    ["sat.world_check"] = lua_modules["sat.world_check"],
    ["sat.world_events"] = lua_modules["sat.world_events"],
    ["sat.world_move"] = lua_modules["sat.world_move"],
    ["sat.world_push"] = lua_modules["sat.world_push"],
    ["sat.world_mover"] = lua_modules["sat.world_mover"],
    ["sat.world_state"] = lua_modules["sat.world_state"],
    ["sat.debug"] = lua_modules["sat.debug"],
    ["sat.fast"] = lua_modules["sat.fast"],
    ["sat.level"] = lua_modules["sat.level"],
    ["sat.level_tiled"] = lua_modules["sat.level_tiled"],
    ["sat.level_shapes"] = lua_modules["sat.level_shapes"],
    ["sat.level_grid"] = lua_modules["sat.level_grid"],
    ["sat.pure.lsat_explain"] = lua_modules["sat.pure.lsat_explain"],
    ["sat.pure.lsat_hash"] = lua_modules["sat.pure.lsat_hash"],
    ["sat.pure.lsat_module"] = lua_modules["sat.pure.lsat_module"],
    ["sat.pure.jit"] = lua_modules["sat.pure.jit"],
    ["sat.pure.lsat_response"] = lua_modules["sat.pure.lsat_response"],
    ["sat.pure.lsat_shape"] = lua_modules["sat.pure.lsat_shape"],
    ["sat.pure.lsat_util"] = lua_modules["sat.pure.lsat_util"],
    ["sat.pure.lsat_vec"] = lua_modules["sat.pure.lsat_vec"],
    ["sat.pure.sat_collide"] = lua_modules["sat.pure.sat_collide"],
    ["sat.pure.sat_collide_traced"] = lua_modules["sat.pure.sat_collide_traced"],
    ["sat.pure.sat_compound"] = lua_modules["sat.pure.sat_compound"],
    ["sat.pure.sat_constants"] = lua_modules["sat.pure.sat_constants"],
    ["sat.pure.sat_contacts"] = lua_modules["sat.pure.sat_contacts"],
    ["sat.pure.sat_explain"] = lua_modules["sat.pure.sat_explain"],
    ["sat.pure.sat_hash"] = lua_modules["sat.pure.sat_hash"],
    ["sat.pure.sat_hash_query"] = lua_modules["sat.pure.sat_hash_query"],
    ["sat.pure.sat_hash_step"] = lua_modules["sat.pure.sat_hash_step"],
    ["sat.pure.sat_internal"] = lua_modules["sat.pure.sat_internal"],
    ["sat.pure.sat_math"] = lua_modules["sat.pure.sat_math"],
    ["sat.pure.sat_raycast"] = lua_modules["sat.pure.sat_raycast"],
    ["sat.pure.sat_shape"] = lua_modules["sat.pure.sat_shape"],
    ["sat.pure.sat_sweep"] = lua_modules["sat.pure.sat_sweep"],
    ["sat.pure.sat_union"] = lua_modules["sat.pure.sat_union"],
  },
  platforms = {
    unix = {
      type = "command",
      build_command = unix_build,
      install = {
        lib = { ["sat.core"] = "build/rock/sat/core.so" },
        lua = lua_modules,
      },
    },
  },
  -- the LuaLS definitions, into the rock's directory (`luarocks show --rock-dir sat`), never
  -- on the module path: point an editor's workspace.library at its library/ (README.md)
  copy_directories = { "library" },
}
