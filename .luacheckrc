-- luacheck configuration for the whole repository (`luacheck .` or one file at a time).
-- The library runs on Lua 5.1 / LuaJIT through 5.4: allow the union of their globals.
std = "max"
-- Methods whose `self` goes unused are normal here (callbacks such as shape:onEnter).
self = false
exclude_files = { "build/**" }

-- busted specs (luacheck's own default for spec files, stated so it holds with this file)
files["spec/**/*_spec.lua"] = { std = "+busted" }

-- LÖVE programs define love's callbacks; library code only reads love.
files["spec/love/**/*.lua"] = { globals = { "love" } }
files["examples/love/**/*.lua"] = { globals = { "love" } }
files["lua/sat/debug.lua"] = { read_globals = { "love" } }

-- LuaLS definition files (---@meta): stubs whose arguments and tables are only declared.
files["library/**/*.lua"] = { ignore = { "212", "241", "631" } } -- (an annotation is one line)
