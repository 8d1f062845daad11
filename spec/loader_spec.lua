-- sat.loader (lua/sat/loader.lua): which native file it looks for on each platform, what
-- it says when none fits, and that a checkout never uses it. Loading real files from a dist
-- folder, in plain Lua, LÖVE and under wine, is the dist and windows suites' job (a second
-- copy of the module in this process would share its metatables with the first).
local loader = require("sat.loader")
local support = require("spec.support")

local windows = package.config:sub(1, 1) == "\\"

-- The native module this process loaded (found on package.cpath before any test changes it).
local MODULE = (function()
  local file = ("sat.core"):gsub("%.", package.config:sub(1, 1))
  for template in package.cpath:gmatch("[^;]+") do
    local path = template:gsub("%?", file)
    local f = io.open(path, "rb")
    if f then
      f:close()
      return path
    end
  end
end)()

local function slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local bytes = f:read("*a")
  f:close()
  return bytes
end

local function spit(path, bytes)
  local f = assert(io.open(path, "wb"))
  f:write(bytes)
  f:close()
end

-- Little-endian bytes of n (4 or 8 of them), big-endian when be.
local function le(n, width, be)
  local t = {}
  for i = 1, width do
    t[i] = n % 256
    n = math.floor(n / 256)
  end
  local s = string.char((table.unpack or unpack)(t))
  return be and s:reverse() or s
end

-- s with the bytes at (1-based) i replaced by r.
local function patch(s, i, r)
  return s:sub(1, i - 1) .. r .. s:sub(i + #r)
end

-- A minimal Mach-O library image of size bytes: a 64-bit little-endian header (cputype,
-- MH_BUNDLE) and one LC_SEGMENT_64 mapping the whole image, zero-filled.
local function macho(cputype, size)
  local seg = le(0x19, 4) .. le(72, 4) .. ("__TEXT"):rep(1) .. ("\0"):rep(10) .. le(0, 8)
    .. le(size, 8) .. le(0, 8) .. le(size, 8) .. le(5, 4) .. le(5, 4) .. le(0, 4) .. le(0, 4)
  local head = "\207\250\237\254" .. le(cputype, 4) .. le(0, 4) .. le(8, 4) .. le(1, 4)
    .. le(#seg, 4) .. le(0, 4) .. le(0, 4)
  return head .. seg .. ("\0"):rep(size - #head - #seg)
end

-- A universal file of the given images (each at a multiple of 4096), big-endian table.
local function fat(images)
  local tab, body, at = {}, {}, 4096
  for i, img in ipairs(images) do
    local cputype = string.byte(img, 5) + 256 * string.byte(img, 6) + 65536 * string.byte(img, 7)
      + 16777216 * string.byte(img, 8)
    tab[i] = le(cputype, 4, true) .. le(0, 4, true) .. le(at, 4, true) .. le(#img, 4, true)
      .. le(12, 4, true)
    body[i] = img .. ("\0"):rep((4096 - #img % 4096) % 4096)
    at = at + #body[i]
  end
  local head = "\202\254\186\190" .. le(#images, 4, true) .. table.concat(tab)
  return head .. ("\0"):rep(4096 - #head) .. table.concat(body)
end

local function facts(t)
  return {
    love_os = t.love_os,
    jit = t.jit,
    config = t.config or "/\n;\n?\n!\n-\n",
    version = t.version or "Lua 5.4",
    procfs = t.procfs,
    arch = t.arch,
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

-- The process's machine as uname tells it (nil where there is no uname: Windows).
local function uname_arch()
  if windows then return nil end
  local p = io.popen("uname -m 2>/dev/null")
  local m = p and p:read("*l")
  if p then p:close() end
  local names = { x86_64 = "x64", amd64 = "x64", aarch64 = "arm64", arm64 = "arm64", i686 = "x86",
                  i386 = "x86" }
  return m and (names[m] or m)
end

-- How the messages show an architecture.
local SHOWN = { x64 = "x86-64" }
local function shown(arch) return SHOWN[arch] or arch end

-- Another machine than this one, and its ELF and PE machine numbers.
local OTHER = { x64 = { "arm64", 183, 0xaa64 } }
local function other(arch) return OTHER[arch] or { "x64", 62, 0x8664 } end

describe("sat.loader.inspect and sat.loader.check", function()
  local tmp
  local own = loader.facts().arch

  before_each(function()
    tmp = ("build/loader-check-%d-%d"):format(os.time(), math.random(1e6))
    os.execute(windows and 'mkdir "' .. tmp:gsub("/", "\\") .. '"' or "mkdir -p '" .. tmp .. "'")
  end)

  after_each(function()
    os.execute(windows and 'rmdir /s /q "' .. tmp:gsub("/", "\\") .. '"' or "rm -rf '" .. tmp .. "'")
  end)

  -- inspect's and check's verdicts on the bytes, as a file
  local function verdict(bytes, facts_)
    local path = tmp .. "/candidate"
    spit(path, bytes)
    local info, why = loader.inspect(path)
    local ok, why2 = loader.check(path, facts_)
    return info, why, ok, why2
  end

  it("reads the module this process loaded: this system's format and this machine", function()
    assert.is_string(MODULE)
    local info, why = loader.inspect(MODULE)
    assert.is_table(info, why)
    assert.are.equal(windows and "PE" or "ELF", info.format)
    assert.is_string(own, "the process's architecture is known here")
    assert.are.equal(own, info.arch)
    if uname_arch() then assert.are.equal(uname_arch(), own) end
    if rawget(_G, "jit") then assert.are.equal(jit.arch, own) end
    assert.are.same(info, (loader.check(MODULE)))
  end)

  it("calls every cut of the module truncated, never handing it to the system", function()
    local bytes = assert(slurp(MODULE))
    local n = #bytes
    local cuts = { 4, 5, 6, 16, 20, 52, 63, 64, 65, 100, 512, 1000, 4096, math.floor(n / 4),
                   math.floor(n / 2), n - 4096, n - 100, n - 1 }
    for _, cut in ipairs(cuts) do
      local info, why, ok, why2 = verdict(bytes:sub(1, cut))
      assert.is_nil(info, cut)
      assert.are.equal(("truncated (%d bytes, its header needs "):format(cut),
        why:sub(1, #("truncated (%d bytes, its header needs "):format(cut)), cut .. ": " .. why)
      assert.is_nil(ok)
      assert.are.equal(why, why2)
    end
    -- shorter than a format's magic: not a library at all
    for cut = 1, 3 do
      local info, why = verdict(bytes:sub(1, cut))
      assert.is_nil(info)
      assert.truthy(why:find("^not a native library") or why:find("^truncated"), why)
    end
    assert.are.equal("not a native library (an empty file)", select(2, verdict("")))
    -- whole again, with bytes after it: fine
    assert.is_table((verdict(bytes .. "appended")))
  end)

  it("says a library for another machine is of the wrong architecture", function()
    local bytes = assert(slurp(MODULE))
    local o = other(own)
    -- the module with its machine number changed
    local changed
    if bytes:sub(1, 4) == "\127ELF" then
      changed = patch(bytes, 19, le(o[2], 2))
    else
      local pe = string.byte(bytes, 61) + 256 * string.byte(bytes, 62) + 65536 * string.byte(bytes, 63)
      changed = patch(bytes, pe + 5, le(o[3], 2))
    end
    local info, _, ok, why = verdict(changed)
    assert.are.equal(o[1], info.arch)
    assert.is_nil(ok)
    assert.are.equal(("wrong architecture (%s file, this is %s)"):format(shown(o[1]), shown(own)),
      why)
    -- a real one, built by make loader-fixtures (aarch64-linux-gnu-gcc on an x86-64 host)
    local foreign = slurp("build/fixtures/foreign.so")
    if foreign and not windows then
      info, _, ok, why = verdict(foreign)
      assert.are.same({ "ELF", o[1], 64 }, { info.format, info.arch, info.bits })
      assert.is_nil(ok)
      assert.are.equal(("wrong architecture (%s file, this is %s)"):format(shown(o[1]),
        shown(own)), why)
    end
  end)

  it("says a library for another system is not one for this system", function()
    local linux = facts({ jit = { os = "Linux", arch = "x64" }, arch = "x64" })
    local win = facts({ config = "\\\n;\n?\n!\n-\n", arch = "x64" })
    local mac = facts({ love_os = "OS X", jit = { os = "OSX", arch = "arm64" }, arch = "arm64" })
    local dll = slurp("build/fixtures/windows-x64.dll")
    if dll then
      local info, _, ok, why = verdict(dll, linux)
      assert.are.same({ "PE", "x64", 64 }, { info.format, info.arch, info.bits })
      assert.is_nil(ok)
      assert.are.equal("not a library for Linux (a Windows DLL, x86-64)", why)
      assert.is_table((loader.check(tmp .. "/candidate", win)))
      assert.are.equal("not a library for macOS (a Windows DLL, x86-64)", select(4, verdict(dll, mac)))
    end
    local elf = slurp("build/fixtures/foreign.so")
    if elf then
      assert.are.equal("not a library for Windows (an ELF library, arm64)",
        select(4, verdict(elf, win)))
    end
    -- plain Lua elsewhere: Linux or macOS, either format fits
    local plain = facts({ version = "Lua 5.4", procfs = true, arch = "arm64" })
    assert.is_table((select(3, verdict(macho(0x100000c, 4096), plain))))
  end)

  it("reads Mach-O libraries and universal files: their machines, their length", function()
    local mac = facts({ love_os = "OS X", jit = { os = "OSX", arch = "arm64" }, arch = "arm64" })
    local intel = facts({ love_os = "OS X", jit = { os = "OSX", arch = "x64" }, arch = "x64" })
    local arm = macho(0x100000c, 4096)
    local info, why, ok = verdict(arm, mac)
    assert.are.same({ "Mach-O", "arm64", 64 }, { info.format, info.arch, info.bits }, why)
    assert.is_table(ok)
    assert.are.equal("wrong architecture (arm64 file, this is x86-64)", select(4, verdict(arm, intel)))
    assert.are.equal("truncated (4095 bytes, its header needs 4096)", select(2, verdict(arm:sub(1, 4095))))
    local both = fat({ macho(0x1000007, 4096), arm })
    info = verdict(both)
    assert.are.same({ "x64", "arm64" }, info.arches)
    assert.is_table((select(3, verdict(both, mac))))
    assert.is_table((select(3, verdict(both, intel))))
    assert.are.equal("wrong architecture (x86-64 + arm64 file, this is x86)",
      select(4, verdict(both, facts({ love_os = "OS X", jit = { os = "OSX", arch = "x86" },
                                      arch = "x86" }))))
    assert.are.equal(("truncated (%d bytes, its header needs %d)"):format(#both - 1, #both),
      select(2, verdict(both:sub(1, -2))))
  end)

  it("calls anything else not a native library", function()
    local R = 12345
    local noise = {}
    for i = 1, 4096 do
      R = (R * 16807) % 2147483647
      noise[i] = string.char(R % 256)
    end
    local elf = assert(slurp(MODULE))
    local cases = {
      { "not a library", "not a native library (no ELF, PE or Mach-O header)" },
      { table.concat(noise), "not a native library (no ELF, PE or Mach-O header)" },
      { "return require('sat.loader').load(...)\n", "not a native library (no ELF, PE or Mach-O header)" },
      { "MZ" .. ("\0"):rep(58) .. le(64, 4) .. ("\0"):rep(64), "not a native library (an MS-DOS program)" },
      { "\202\254\186\190\0\0\0\52" .. ("\0"):rep(64), "not a native library" }, -- a Java class
      { "\127ELF\9\1" .. ("\0"):rep(64), "not a native library (an ELF file of unknown class)" },
    }
    if elf:sub(1, 4) == "\127ELF" then -- the module as an executable (e_type 2)
      cases[#cases + 1] = { patch(elf, 17, le(2, 2)),
                            "not a native library (an ELF file but not a shared object)" }
    end
    for _, c in ipairs(cases) do
      local info, why, ok, why2 = verdict(c[1])
      assert.is_nil(info)
      assert.are.equal(c[2], why)
      assert.is_nil(ok)
      assert.are.equal(c[2], why2)
    end
  end)

  it("leaves the architecture to the system's loader where it cannot tell this one", function()
    local foreign = assert(slurp(MODULE))
    if foreign:sub(1, 4) == "\127ELF" then
      foreign = patch(foreign, 19, le(other(own)[2], 2))
      local unknown = facts({ version = "Lua 5.4" }) -- plain Lua, no /proc: no arch
      assert.is_table((select(3, verdict(foreign, unknown))))
    end
  end)
end)

describe("sat.loader.load", function()
  local tmp, saved_path, saved_cpath
  -- the windows suite runs these under wine too: cmd.exe's commands there

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

  it("reports a file that is not a library, saying so", function()
    local name = loader.names()[1]
    local f = assert(io.open(tmp .. "/sat/native/" .. name, "w"))
    f:write("not a library")
    f:close()
    local e = err_of("sat.core", tmp .. "/sat/core.lua")
    local line = e:match("[^\n]*" .. name:gsub("%p", "%%%0") .. ": [^\n]+")
    assert.truthy(line, e)
    assert.is_nil(line:find("no such file", 1, true))
    assert.truthy(line:find(": not a native library (no ELF, PE or Mach-O header)", 1, true), line)
    assert.is_nil(loader.path)
  end)

  it("refuses a truncated file or one for another machine before the system's loader sees it",
    function()
      -- (handed to the system's loader, a cut of the module kills the process: SIGBUS)
      local bytes = assert(slurp(MODULE))
      local name = loader.names()[1]
      local path = tmp .. "/sat/native/" .. name
      local own = loader.facts().arch
      local o = other(own)
      local wants = {
        { bytes:sub(1, 12288), "truncated (12288 bytes, its header needs " },
        { bytes:sub(1, math.floor(#bytes / 2)),
          ("truncated (%d bytes, its header needs "):format(math.floor(#bytes / 2)) },
        { bytes:sub(1, #bytes - 1), ("truncated (%d bytes, its header needs "):format(#bytes - 1) },
      }
      local foreign = slurp("build/fixtures/foreign.so")
      if foreign and not windows then
        wants[#wants + 1] = { foreign, ("wrong architecture (%s file, this is %s)"):format(
          shown(o[1]), shown(own)) }
      end
      for _, w in ipairs(wants) do
        spit(path, w[1])
        local e = err_of("sat.core", tmp .. "/sat/core.lua")
        assert.truthy(e:find(path .. ": " .. w[2], 1, true), e)
        assert.is_nil(e:find("No such file or directory", 1, true), e)
        assert.is_nil(loader.path)
      end
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
