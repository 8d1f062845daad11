-- sat.loader (lua/sat/loader.lua): which native file it looks for on each platform, what
-- it says when none fits, and that a checkout never uses it. Loading real files from a dist
-- folder, in plain Lua, LÖVE and under wine, is the dist and windows suites' job (a second
-- copy of the module in this process would share its metatables with the first).
local loader = require("sat.loader")
local support = require("spec.support")

local function facts(t)
  return {
    love_os = t.love_os,
    jit = t.jit,
    config = t.config or "/\n;\n?\n!\n-\n",
    version = t.version or "Lua 5.4",
    procfs = t.procfs,
  }
end

describe("sat.loader.names", function()
  it("LÖVE names its system; LuaJIT its architecture; the ABI is luajit", function()
    local jit = { os = "Windows", arch = "x64" }
    assert.are.same({ "windows-x64-luajit.dll" },
      (loader.names(facts({ love_os = "Windows", jit = jit }))))
    assert.are.same({ "macos-arm64-luajit.so" },
      (loader.names(facts({ love_os = "OS X", jit = { os = "OSX", arch = "arm64" } }))))
    -- Android's LuaJIT says Linux; LÖVE knows better
    assert.are.same({ "android-arm64-luajit.so" },
      (loader.names(facts({ love_os = "Android", jit = { os = "Linux", arch = "arm64" } }))))
  end)

  it("LuaJIT without LÖVE: jit.os and jit.arch", function()
    local names, platform = loader.names(facts({ jit = { os = "Linux", arch = "x64" } }))
    assert.are.same({ "linux-x64-luajit.so" }, names)
    assert.are.equal("LuaJIT on Linux x64", platform)
    assert.are.same({ "macos-x64-luajit.so" },
      (loader.names(facts({ jit = { os = "OSX", arch = "x64" } }))))
  end)

  it("plain Lua on Windows: package.config's separator, every architecture", function()
    local names, platform = loader.names(facts({ config = "\\\n;\n?\n!\n-\n", version = "Lua 5.4" }))
    assert.are.same({ "windows-x64-lua54.dll", "windows-arm64-lua54.dll", "windows-x86-lua54.dll",
                      "windows-arm-lua54.dll" }, names)
    assert.are.equal("Lua 5.4 on Windows", platform)
  end)

  it("plain Lua elsewhere: Linux first when /proc exists, else macOS first", function()
    local names, platform = loader.names(facts({ version = "Lua 5.3", procfs = true }))
    assert.are.equal(8, #names)
    assert.are.equal("linux-x64-lua53.so", names[1])
    assert.are.equal("macos-x64-lua53.so", names[5])
    assert.are.equal("Lua 5.3 on Linux or macOS", platform)
    assert.are.equal("macos-x64-lua53.so", loader.names(facts({ version = "Lua 5.3" }))[1])
  end)

  it("reads the running interpreter by default", function()
    local abi = "luajit"
    if not rawget(_G, "jit") then
      local major, minor = _VERSION:match("(%d)%.(%d)")
      abi = "lua" .. major .. minor
    end
    local names = loader.names()
    assert.matches("%-" .. abi .. "%.[dls][lo]l?$", names[1])
    assert.are.equal(package.config:sub(1, 1) == "\\" and "dll" or "so", names[1]:match("[^.]+$"))
  end)
end)

describe("sat.loader.load", function()
  local tmp, saved_path, saved_cpath
  -- the windows suite runs these under wine too: cmd.exe's commands there
  local windows = package.config:sub(1, 1) == "\\"

  before_each(function()
    tmp = ("build/loader-spec-%d-%d"):format(os.time(), math.random(1e6))
    os.execute(windows and 'mkdir "' .. tmp:gsub("/", "\\") .. '\\sat\\native"'
      or "mkdir -p '" .. tmp .. "/sat/native'")
    local f = assert(io.open(tmp .. "/sat/core.lua", "w"))
    f:write('return require("sat.loader").load(...)\n')
    f:close()
    saved_path, saved_cpath = package.path, package.cpath
    package.path = tmp .. "/?.lua"
    package.cpath = tmp .. "/nothing/?.so"
  end)

  after_each(function()
    package.path, package.cpath = saved_path, saved_cpath
    os.execute(windows and 'rmdir /s /q "' .. tmp:gsub("/", "\\") .. '"' or "rm -rf '" .. tmp .. "'")
  end)

  local function err_of(...)
    local ok, e = pcall(loader.load, ...)
    assert.is_false(ok)
    return e
  end

  it("lists every file it looked for when none fits", function()
    local e = err_of("sat.core", tmp .. "/sat/core.lua")
    local names, platform = loader.names()
    assert.truthy(e:find("no native module fits " .. platform, 1, true), e)
    for _, name in ipairs(names) do
      assert.truthy(e:find(tmp .. "/sat/native/" .. name .. " (no such file)", 1, true), e)
    end
    assert.truthy(e:find("package.cpath (no sat.core there)", 1, true), e)
  end)

  it("finds the folder through package.path when not given the file (Lua 5.1, LuaJIT)", function()
    local e = err_of("sat.core")
    assert.truthy(e:find(tmp .. "/sat/native/" .. loader.names()[1], 1, true), e)
  end)

  it("reports a file that is not a library with the system loader's reason", function()
    local name = loader.names()[1]
    local f = assert(io.open(tmp .. "/sat/native/" .. name, "w"))
    f:write("not a library")
    f:close()
    local e = err_of("sat.core", tmp .. "/sat/core.lua")
    local line = e:match("[^\n]*" .. name:gsub("%p", "%%%0") .. ": [^\n]+")
    assert.truthy(line, e)
    assert.is_nil(line:find("no such file", 1, true))
    assert.is_nil(loader.path)
  end)
end)

describe("a checkout", function()
  it("loads sat.core the usual way: sat.loader is never required", function()
    package.loaded["sat.loader"] = nil
    package.loaded["sat"] = nil
    local sat = require("sat")
    assert.are.equal(package.loaded[support.coreName], sat.core) -- (the pure one: SAT_BACKEND=lua)
    assert.is_nil(package.loaded["sat.loader"])
    assert.is_nil(package.searchpath and package.searchpath("sat.core", package.path))
  end)
end)
