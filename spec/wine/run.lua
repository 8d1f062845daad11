-- Runs busted spec files where busted itself cannot be installed (the Windows builds of LuaJIT
-- and Lua 5.4 under wine: spec/suites/windows.sh). It implements the part of busted and
-- luassert that the specs use, with their meaning: describe / it / pending / before_each /
-- after_each / setup / teardown, and assert.<modifiers>.<assertion> (equal, same, near,
-- matches, true, false, nil, truthy, falsy, the type checks, has_error, error_matches), and
-- prints TAP as `busted -o TAP` does: "ok N - name", "not ok N - name" with "# " lines,
-- "1..N" last. An assertion it does not know fails the test with "unsupported assertion".
--   <lua> spec/wine/run.lua spec/vec_spec.lua ...   (from the checkout's root)
-- Each file runs in a fresh environment; package.loaded is restored after it (as busted's
-- default insulation does). Exits 1 when a test failed.
local real_assert = assert
local unpack = table.unpack or unpack -- luacheck: ignore unpack

-- ---- luassert ----------------------------------------------------------------------------
local function show(v)
  if type(v) == "string" then return ("%q"):format(v) end
  return tostring(v)
end

-- util.deepcompare(t1, t2, ignore_mt) as luassert has it: tables key by key, else ==
local function deepcompare(a, b, seen)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  if rawequal(a, b) then return true end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  for k, v in next, a do
    local w = b[k]
    if w == nil or not deepcompare(v, w, seen) then return false end
  end
  for k in next, b do
    if a[k] == nil then return false end
  end
  return true
end

-- Each returns ok and a description of what was expected.
local checks = {}
function checks.equal(n, expected, actual)
  real_assert(n > 1, "equals needs 2 arguments")
  return expected == actual, ("expected %s, got %s"):format(show(expected), show(actual))
end
checks.equals = checks.equal
function checks.same(n, expected, actual)
  real_assert(n > 1, "same needs 2 arguments")
  return deepcompare(expected, actual), ("expected the same as %s, got %s"):format(
    show(expected), show(actual))
end
function checks.near(n, expected, actual, tolerance)
  real_assert(n > 2, "near needs 3 arguments")
  expected, actual, tolerance = tonumber(expected), tonumber(actual), tonumber(tolerance)
  real_assert(expected and actual and tolerance, "near needs numbers")
  return actual >= expected - tolerance and actual <= expected + tolerance,
    ("expected %.17g +- %g, got %.17g"):format(expected, tolerance, actual)
end
function checks.matches(n, pattern, actual, init, plain)
  real_assert(n > 1 and type(pattern) == "string", "matches needs a pattern")
  local s = (type(actual) == "number" or type(actual) == "string") and tostring(actual)
  real_assert(s, "matches needs a string")
  local ok
  if plain then ok = s:find(pattern, init, true) ~= nil else ok = s:match(pattern, init) ~= nil end
  return ok, ("expected %s to match %s"):format(show(s), show(pattern))
end
checks.match = checks.matches
checks["true"] = function(_, v) return v == true, "expected true, got " .. show(v) end
checks["false"] = function(_, v) return v == false, "expected false, got " .. show(v) end
checks["nil"] = function(_, v) return v == nil, "expected nil, got " .. show(v) end
function checks.truthy(_, v) return v ~= nil and v ~= false, "expected truthy, got " .. show(v) end
function checks.falsy(_, v) return v == nil or v == false, "expected falsy, got " .. show(v) end
for _, t in ipairs({ "table", "number", "string", "function", "boolean", "userdata" }) do
  checks[t] = function(_, v) return type(v) == t, ("expected a %s, got %s"):format(t, type(v)) end
end
function checks.error(n, f, want)
  local ok, err = pcall(f)
  if ok then return false, "expected an error" end
  if n > 1 and want ~= err then
    return false, ("expected the error %s, got %s"):format(show(want), show(err))
  end
  return true, "expected no error, got " .. show(err)
end
checks.errors = checks.error
function checks.error_matches(_, f, pattern, init, plain)
  local ok, err = pcall(f)
  if ok then return false, "expected an error" end
  err = tostring(err)
  local found = err:find(pattern, init, plain) ~= nil
  return found, ("expected an error matching %s, got %s"):format(show(pattern), show(err))
end

local WORDS = { is = true, are = true, was = true, has = true, does = true, ["not"] = true,
                no = true, ["is_not"] = true }

-- assert.are_not.equal(...): words accumulate until an assertion's name ends the chain.
local function chain(words)
  return setmetatable({}, {
    __index = function(_, key)
      local more = {}
      for i = 1, #words do more[i] = words[i] end
      for w in tostring(key):gmatch("[^_]+") do more[#more + 1] = w end
      -- the longest tail of words that names an assertion
      for i = 1, #more do
        local name = table.concat(more, "_", i)
        if checks[name] and (i == 1 or WORDS[more[i - 1]]) then
          local negate = false
          for j = 1, i - 1 do
            if more[j] == "not" or more[j] == "no" then negate = not negate end
          end
          return function(...)
            local ok, what = checks[name](select("#", ...), ...)
            if negate then ok = not ok end
            if not ok then
              local n = select("#", ...)
              local msg = n > 0 and select(n, ...)
              local custom = type(msg) == "string" and ({ equal = 3, equals = 3, same = 3,
                near = 4, ["true"] = 2, ["false"] = 2, ["nil"] = 2, truthy = 2, falsy = 2,
                table = 2, number = 2, string = 2 })[name] == n and msg
              error((negate and "not: " or "") .. (custom or what), 2)
            end
          end
        end
      end
      for _, w in ipairs(more) do
        if not WORDS[w] then error("unsupported assertion: assert." .. table.concat(more, "."), 2) end
      end
      return chain(more)
    end,
    __call = function(_, ...) return real_assert(...) end,
  })
end

local assert_api = chain({})

-- ---- busted ------------------------------------------------------------------------------
local results = {}
local function report(ok, name, msg)
  results[#results + 1] = ok
  if ok == "skip" then
    print(("ok %d - # SKIP %s"):format(#results, name))
  elseif ok then
    print(("ok %d - %s"):format(#results, name))
  else
    print(("not ok %d - %s"):format(#results, name))
    print("# Failure message: " .. tostring(msg):gsub("\n", "\n# "))
  end
end

local function new_block(name, parent)
  return { name = name, parent = parent, items = {}, before = {}, after = {}, setup = {},
           teardown = {} }
end

local function fullname(block, name)
  local parts = { name }
  while block and block.name do
    table.insert(parts, 1, block.name)
    block = block.parent
  end
  return table.concat(parts, " ")
end

local current

-- the message alone, as busted's TAP output gives it
local function traceback(e)
  return tostring(e)
end

local function run_hooks(block, field, outward)
  local chainlist = {}
  local b = block
  while b do
    table.insert(chainlist, outward and #chainlist + 1 or 1, b)
    b = b.parent
  end
  for _, c in ipairs(chainlist) do
    for _, f in ipairs(c[field]) do f() end
  end
end

local function run_block(block)
  for _, f in ipairs(block.setup) do
    local ok, e = xpcall(f, traceback)
    if not ok then report(false, fullname(block, "setup"), e) return end
  end
  for _, item in ipairs(block.items) do
    if item.block then
      run_block(item.block)
    elseif item.pending then
      report("skip", item.name)
    else
      local ok, e = xpcall(function()
        run_hooks(block, "before", false)
        item.fn()
      end, traceback)
      local ok2, e2 = xpcall(function() run_hooks(block, "after", true) end, traceback)
      if ok and not ok2 then ok, e = ok2, e2 end
      report(ok, fullname(block, item.name), e)
    end
  end
  for _, f in ipairs(block.teardown) do
    local ok, e = xpcall(f, traceback)
    if not ok then report(false, fullname(block, "teardown"), e) end
  end
end

local api = {}
function api.describe(name, fn)
  local block = new_block(name, current)
  current.items[#current.items + 1] = { block = block }
  local saved = current
  current = block
  local ok, e = xpcall(fn, traceback)
  current = saved
  if not ok then
    block.items = {}
    report(false, fullname(block, "(while collecting)"), e)
  end
end
api.context = api.describe
function api.it(name, fn) current.items[#current.items + 1] = { name = name, fn = fn } end
api.test = api.it
function api.pending(name) current.items[#current.items + 1] = { name = name, pending = true } end
function api.before_each(fn) current.before[#current.before + 1] = fn end
function api.after_each(fn) current.after[#current.after + 1] = fn end
function api.setup(fn) current.setup[#current.setup + 1] = fn end
api.lazy_setup, api.strict_setup = api.setup, api.setup
function api.teardown(fn) current.teardown[#current.teardown + 1] = fn end
api.lazy_teardown, api.strict_teardown = api.teardown, api.teardown

local function run_file(path)
  local root = new_block(nil, nil)
  current = root
  local saved_loaded = {}
  for k, v in pairs(package.loaded) do saved_loaded[k] = v end
  local env = setmetatable({ assert = assert_api }, { __index = _G })
  for k, f in pairs(api) do env[k] = f end
  package.preload.luassert = function() return assert_api end
  local chunk, err
  if setfenv then -- luacheck: ignore setfenv
    chunk, err = loadfile(path)
    if chunk then setfenv(chunk, env) end -- luacheck: ignore setfenv
  else
    chunk, err = loadfile(path, "t", env)
  end
  if not chunk then
    report(false, path, err)
  else
    local ok, e = xpcall(chunk, traceback)
    if not ok then report(false, path, e) end
    run_block(root)
  end
  for k in pairs(package.loaded) do
    if saved_loaded[k] == nil then package.loaded[k] = nil end
  end
  for k, v in pairs(saved_loaded) do package.loaded[k] = v end
  package.preload.luassert = nil
end

for _, path in ipairs({ ... }) do
  run_file(path)
end
print("1.." .. #results)
for _, ok in ipairs(results) do
  if not ok then os.exit(1) end
end
