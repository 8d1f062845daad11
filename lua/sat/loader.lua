--- sat.loader: loads the native module sat.core from a folder made by `make dist`.
-- That folder (dist/sat/) holds the Lua files, native/<os>-<arch>-<abi>.<ext> for every
-- platform it was built for, and a core.lua whose one line hands require("sat.core") to
-- loader.load. A checkout or a LuaRocks install has no sat/core.lua: there require finds the
-- C module sat/core.so the usual way and this file is not used. docs/love.md, "Shipping".
local loader = {}

-- Set by load(): the native file it loaded, and whether LÖVE's save-directory copy of it
-- was (re)written on this run.
loader.path = nil
loader.copied = false

local ENTRY = "luaopen_sat_core"
local ARCHES = { "x64", "arm64", "x86", "arm" }
local JIT_OS = { Windows = "windows", OSX = "macos", Linux = "linux", BSD = "bsd" }
local LOVE_OS = { Windows = "windows", ["OS X"] = "macos", Linux = "linux", Android = "android",
                  iOS = "ios" }
local SHOWN_OS = { windows = "Windows", macos = "macOS", linux = "Linux", bsd = "BSD",
                   android = "Android", ios = "iOS" }

local function exists(path)
  local f = io.open(path, "rb")
  if f then
    f:close()
    return true
  end
  return false
end

-- ---- what a native file is, from its header ---------------------------------------------
-- The system's loader trusts a file's header: it maps a truncated library past the file's
-- end (the process dies of SIGBUS inside dlopen), and glibc reports a library for another
-- machine as "No such file or directory". So each candidate is read here first, in plain
-- Lua: its format (ELF, PE, Mach-O), machine and word size, and whether the file is as long
-- as its header says (the header tables, the segments or sections it maps).

-- Architectures by the names native files use (loader.names), from each format's machine
-- number; the ones a message shows differently; LuaJIT's jit.arch variants.
local ELF_MACHINES = { [3] = "x86", [62] = "x64", [40] = "arm", [183] = "arm64", [20] = "ppc",
                       [21] = "ppc64", [243] = "riscv", [258] = "loongarch64", [2] = "sparc",
                       [43] = "sparc64", [22] = "s390x" }
local PE_MACHINES = { [0x14c] = "x86", [0x8664] = "x64", [0xaa64] = "arm64", [0x1c0] = "arm",
                      [0x1c4] = "arm", [0x200] = "ia64" }
local MACHO_MACHINES = { [7] = "x86", [0x1000007] = "x64", [12] = "arm", [0x100000c] = "arm64",
                         [18] = "ppc", [0x1000012] = "ppc64" }
local SHOWN_ARCH = { x64 = "x86-64" }
local JIT_ARCH = { arm64be = "arm64", mipsel = "mips", mips64el = "mips64", mips64r6 = "mips64",
                   mips64r6el = "mips64" }
local WINDOWS_ARCH = { AMD64 = "x64", X86 = "x86", ARM64 = "arm64", ARM = "arm", IA64 = "ia64" }
-- The format each system's loader takes.
local FORMAT_OF = { windows = "PE", macos = "Mach-O", ios = "Mach-O" }
local FORMAT_SHOWN = { PE = "a Windows DLL", ["Mach-O"] = "a macOS library", ELF = "an ELF library" }

local byte = string.byte

-- Unsigned integers of 2, 4 and 8 bytes at (1-based) i of s, big-endian when be; nil past
-- the end. (8 bytes: exact up to 2^53, beyond which no file here reaches.)
local function u16(s, i, be)
  local a, b = byte(s, i, i + 1)
  if not b then return nil end
  if be then return a * 256 + b end
  return b * 256 + a
end

local function u32(s, i, be)
  local a, b, c, d = byte(s, i, i + 3)
  if not d then return nil end
  if be then return ((a * 256 + b) * 256 + c) * 256 + d end
  return ((d * 256 + c) * 256 + b) * 256 + a
end

local function u64(s, i, be)
  local lo, hi
  if be then
    hi, lo = u32(s, i, be), u32(s, i + 4, be)
  else
    lo, hi = u32(s, i, be), u32(s, i + 4, be)
  end
  if not hi then return nil end
  return hi * 4294967296 + lo
end

-- n bytes of f at offset (0-based), or nil when the file ends first.
local function read_at(f, offset, n)
  if n == 0 then return "" end
  if not f:seek("set", offset) then return nil end
  local s = f:read(n)
  if not s or #s < n then return nil end
  return s
end

local function truncated(size, need)
  return ("truncated (%d bytes, its header needs %d)"):format(size, need)
end

-- A table of count entries of entsize bytes at offset, past the end of a file of size
-- bytes: the length it needs, else nil. Tables of thousands of entries are refused (a
-- native module has tens).
local MAX_ENTRIES = 4096

-- ELF (Linux, Android, the BSDs): the program headers (each PT_LOAD segment's file range is
-- mapped) and the section headers.
local function inspect_elf(f, size, h)
  local class, data = byte(h, 5), byte(h, 6)
  if not data then return nil, truncated(size, 52) end -- the smallest header's length
  if (class ~= 1 and class ~= 2) or (data ~= 1 and data ~= 2) then
    return nil, "not a native library (an ELF file of unknown class)"
  end
  local wide, be = class == 2, data == 2
  local ehsize = wide and 64 or 52
  if size < ehsize then return nil, truncated(size, ehsize) end
  local etype, machine = u16(h, 17, be), u16(h, 19, be)
  local phoff, shoff, phentsize, phnum, shentsize, shnum
  if wide then
    phoff, shoff = u64(h, 33, be), u64(h, 41, be)
    phentsize, phnum, shentsize, shnum = u16(h, 55, be), u16(h, 57, be), u16(h, 59, be),
      u16(h, 61, be)
  else
    phoff, shoff = u32(h, 29, be), u32(h, 33, be)
    phentsize, phnum, shentsize, shnum = u16(h, 43, be), u16(h, 45, be), u16(h, 47, be),
      u16(h, 49, be)
  end
  local arch = ELF_MACHINES[machine] or ("machine " .. machine)
  if machine == 8 then arch = wide and "mips64" or "mips" end
  local info = { format = "ELF", arch = arch, bits = wide and 64 or 32 }
  if etype ~= 3 then
    return nil, "not a native library (an ELF file but not a shared object)", info
  end
  if phnum == 0 or phnum > MAX_ENTRIES or shnum > MAX_ENTRIES
     or phentsize < (wide and 56 or 32) or (shnum > 0 and shentsize < (wide and 64 or 40)) then
    return nil, "not a native library (an ELF header out of shape)", info
  end
  local need = math.max(phoff + phnum * phentsize, shoff + shnum * shentsize)
  if need > size then return nil, truncated(size, need), info end
  local ph = read_at(f, phoff, phnum * phentsize)
  if not ph then return nil, truncated(size, phoff + phnum * phentsize), info end
  for k = 0, phnum - 1 do
    local at = k * phentsize + 1
    if u32(ph, at, be) == 1 then -- PT_LOAD
      local offset, filesz
      if wide then
        offset, filesz = u64(ph, at + 8, be), u64(ph, at + 32, be)
      else
        offset, filesz = u32(ph, at + 4, be), u32(ph, at + 16, be)
      end
      need = math.max(need, offset + filesz)
    end
  end
  if need > size then return nil, truncated(size, need), info end
  return info
end

-- PE (Windows): the headers and the section table, then each section's raw data.
local function inspect_pe(f, size, h)
  if size < 64 then return nil, truncated(size, 64) end
  local at = u32(h, 61)
  local coff = read_at(f, at, 24)
  if not coff then
    return nil, at + 24 > size and truncated(size, at + 24) or "not a native library"
  end
  if coff:sub(1, 4) ~= "PE\0\0" then
    return nil, "not a native library (an MS-DOS program)"
  end
  local machine, nsections, optsize, flags = u16(coff, 5), u16(coff, 7), u16(coff, 21),
    u16(coff, 23)
  local opt = read_at(f, at + 24, 2)
  local magic = opt and u16(opt, 1)
  local info = { format = "PE", arch = PE_MACHINES[machine] or ("machine " .. machine),
                 bits = magic == 0x20b and 64 or 32 }
  if math.floor(flags / 0x2000) % 2 ~= 1 then -- IMAGE_FILE_DLL
    return nil, "not a native library (a Windows program, not a DLL)", info
  end
  if nsections > MAX_ENTRIES then
    return nil, "not a native library (a PE header out of shape)", info
  end
  local tables = at + 24 + optsize
  local need = tables + 40 * nsections
  if need > size then return nil, truncated(size, need), info end
  local sections = read_at(f, tables, 40 * nsections)
  if not sections then return nil, truncated(size, need), info end
  for k = 0, nsections - 1 do
    local raw, ptr = u32(sections, 40 * k + 17), u32(sections, 40 * k + 21)
    if raw > 0 then need = math.max(need, ptr + raw) end
  end
  if need > size then return nil, truncated(size, need), info end
  return info
end

-- Mach-O (macOS): the load commands, then each segment's file range. base: where the image
-- starts in the file (a slice of a universal file).
local function inspect_macho(f, size, base)
  local h = read_at(f, base, 32)
  if not h then return nil, truncated(size, base + 32) end
  local m1, m4 = byte(h, 1), byte(h, 4)
  local be = m1 == 0xfe
  local wide = (be and m4 or m1) == 0xcf
  local cputype, filetype, ncmds, sizeofcmds = u32(h, 5, be), u32(h, 13, be), u32(h, 17, be),
    u32(h, 21, be)
  local info = { format = "Mach-O", arch = MACHO_MACHINES[cputype] or ("cpu " .. cputype),
                 bits = wide and 64 or 32 }
  if filetype ~= 6 and filetype ~= 8 then -- MH_DYLIB, MH_BUNDLE
    return nil, "not a native library (a Mach-O file but not a library)", info
  end
  local first = base + (wide and 32 or 28)
  local need = first + sizeofcmds
  if ncmds > MAX_ENTRIES then
    return nil, "not a native library (a Mach-O header out of shape)", info
  end
  if need > size then return nil, truncated(size, need), info end
  local cmds = read_at(f, first, sizeofcmds)
  if not cmds then return nil, truncated(size, need), info end
  local at = 1
  for _ = 1, ncmds do
    local cmd, cmdsize = u32(cmds, at, be), u32(cmds, at + 4, be)
    if not cmdsize or cmdsize < 8 or at - 1 + cmdsize > sizeofcmds then
      return nil, "not a native library (a Mach-O header out of shape)", info
    end
    local offset, filesz
    if cmd == 0x19 then -- LC_SEGMENT_64
      offset, filesz = u64(cmds, at + 40, be), u64(cmds, at + 48, be)
    elseif cmd == 1 then -- LC_SEGMENT
      offset, filesz = u32(cmds, at + 32, be), u32(cmds, at + 36, be)
    end
    if filesz and filesz > 0 then need = math.max(need, base + offset + filesz) end
    at = at + cmdsize
  end
  if need > size then return nil, truncated(size, need), info end
  return info
end

-- A universal (fat) Mach-O file: its slices, each checked; info.arch is the first slice's,
-- info.arches every slice's.
local function inspect_fat(f, size, h)
  local n = u32(h, 5, true)
  if n == 0 or n > 32 then -- a Java class file starts with the same magic
    return nil, "not a native library"
  end
  local need = 8 + 20 * n
  if need > size then return nil, truncated(size, need) end
  local tab = read_at(f, 8, 20 * n)
  local info = { format = "Mach-O", arches = {} }
  for k = 0, n - 1 do
    local offset, len = u32(tab, 20 * k + 9, true), u32(tab, 20 * k + 13, true)
    if offset + len > size then return nil, truncated(size, offset + len), info end
    local slice, why = inspect_macho(f, size, offset)
    if not slice then return nil, why, info end
    info.arches[#info.arches + 1] = slice.arch
    info.arch, info.bits = info.arch or slice.arch, info.bits or slice.bits
  end
  return info
end

--- loader.inspect(path) -> info | nil, reason [, info]: what the native file at path is,
-- read from its header: info.format ("ELF", "PE" or "Mach-O"), info.arch (as in the file
-- names: "x64", "arm64", "x86", "arm", ...; a universal file's first, info.arches all),
-- info.bits. nil and the reason when it is not a native library or is shorter than its
-- header says ("truncated (N bytes, its header needs M)").
function loader.inspect(path)
  local f = io.open(path, "rb")
  if not f then return nil, "no such file" end
  local size = f:seek("end")
  local h = size and read_at(f, 0, math.min(size, 64))
  local info, why, partial
  if not h or size == 0 then
    why = size == 0 and "not a native library (an empty file)" or "unreadable"
  elseif h:sub(1, 4) == "\127ELF" then
    info, why, partial = inspect_elf(f, size, h)
  elseif h:sub(1, 2) == "MZ" then
    info, why, partial = inspect_pe(f, size, h)
  elseif h:sub(1, 4) == "\202\254\186\190" then
    info, why, partial = inspect_fat(f, size, h)
  elseif ({ ["\254\237\250\206"] = 1, ["\206\250\237\254"] = 1, ["\254\237\250\207"] = 1,
            ["\207\250\237\254"] = 1 })[h:sub(1, 4)] then
    info, why, partial = inspect_macho(f, size, 0)
  else
    why = "not a native library (no ELF, PE or Mach-O header)"
  end
  f:close()
  if info then return info end
  return nil, why, partial
end

-- This process's architecture, by the names of the files: LuaJIT's jit.arch; on Windows the
-- process's PROCESSOR_ARCHITECTURE; on Linux the interpreter's own header
-- (/proc/self/exe); else unknown (nil).
local function own_arch(jit, config, procfs)
  if jit and jit.arch then
    return JIT_ARCH[jit.arch] or jit.arch
  end
  if config:sub(1, 1) == "\\" then
    local p = os.getenv("PROCESSOR_ARCHITECTURE")
    return p and WINDOWS_ARCH[p:upper()] or nil
  end
  if procfs then
    local info = loader.inspect("/proc/self/exe")
    return info and info.arch or nil
  end
  return nil
end

-- The systems a process may be on, most likely first (see loader.names).
local function systems_of(facts)
  if facts.love_os then
    return { LOVE_OS[facts.love_os] or (facts.love_os:lower():gsub("%W", "")) }
  elseif facts.jit then
    return { JIT_OS[facts.jit.os] or tostring(facts.jit.os):lower() }
  elseif facts.config:sub(1, 1) == "\\" then
    return { "windows" }
  elseif facts.procfs then
    return { "linux", "macos" }
  end
  return { "macos", "linux" }
end

local function shown_arch(arch)
  return SHOWN_ARCH[arch] or arch
end

--- loader.check(path [, facts]) -> info | nil, reason: loader.inspect, then whether this
-- process can load the file: a format its system's loader takes ("not a library for Linux
-- (a Windows DLL, x86-64)"), and its architecture when the process's is known ("wrong
-- architecture (x86-64 file, this is arm64)").
function loader.check(path, facts)
  facts = facts or loader.facts()
  local info, why = loader.inspect(path)
  if not info then return nil, why end
  local systems, fits, shown = systems_of(facts), false, {}
  for i, os in ipairs(systems) do
    fits = fits or (FORMAT_OF[os] or "ELF") == info.format
    shown[i] = SHOWN_OS[os] or os
  end
  local arches = {}
  for i, arch in ipairs(info.arches or { info.arch }) do arches[i] = shown_arch(arch) end
  if not fits then
    return nil, ("not a library for %s (%s, %s)"):format(table.concat(shown, " or "),
      FORMAT_SHOWN[info.format], table.concat(arches, " + "))
  end
  if facts.arch then
    local match = false
    for _, arch in ipairs(info.arches or { info.arch }) do
      match = match or arch == facts.arch
    end
    if not match then
      return nil, ("wrong architecture (%s file, this is %s)"):format(table.concat(arches, " + "),
        shown_arch(facts.arch))
    end
  end
  return info
end

-- The current interpreter and system, as loader.names and loader.check read them (arch:
-- the process's architecture when it can be told, see own_arch).
function loader.facts()
  local love = rawget(_G, "love")
  local jit, procfs = rawget(_G, "jit"), exists("/proc/version")
  return {
    love_os = love and love.system and love.system.getOS() or nil,
    jit = jit,
    config = package.config,
    version = _VERSION,
    procfs = procfs,
    arch = own_arch(jit, package.config, procfs),
  }
end

--- loader.names([facts]) -> the native file names that can fit, most likely first, and a
-- description of the platform for messages ("LuaJIT on Linux x64").
-- LÖVE names its OS; LuaJIT knows its OS and architecture (jit.os, jit.arch); plain Lua knows
-- only whether it is on Windows (package.config), so every architecture is a candidate, and
-- on another system both Linux (first when /proc exists) and macOS: loader.check refuses a
-- file of the wrong format or architecture, which load() then reports.
function loader.names(facts)
  facts = facts or loader.facts()
  local abi, interp
  if facts.jit then
    abi, interp = "luajit", "LuaJIT"
  else
    local major, minor = tostring(facts.version):match("(%d+)%.(%d+)")
    abi, interp = "lua" .. (major or "?") .. (minor or "?"), tostring(facts.version)
  end
  local systems = systems_of(facts)
  local arches = facts.jit and { facts.jit.arch } or ARCHES
  local names = {}
  for _, os in ipairs(systems) do
    local ext = os == "windows" and "dll" or "so"
    for _, arch in ipairs(arches) do
      names[#names + 1] = ("%s-%s-%s.%s"):format(os, arch, abi, ext)
    end
  end
  local shown = {}
  for i, os in ipairs(systems) do
    shown[i] = SHOWN_OS[os] or os
  end
  local arch = facts.jit and facts.jit.arch or facts.arch
  return names, ("%s on %s%s"):format(interp, table.concat(shown, " or "),
    arch and " " .. arch or "")
end

-- package.searchpath, which Lua 5.1 lacks.
local function search(path, name)
  local file = name:gsub("%.", "/")
  for template in path:gmatch("[^;]+") do
    local candidate = template:gsub("%?", file)
    if exists(candidate) then
      return candidate
    end
  end
  return nil
end

local function folder(path)
  return path:match("^(.*[/\\])") or ""
end

-- Loads path when it exists and its header says this process can load it (loader.check:
-- the system's loader is never handed a truncated file or one for another machine);
-- records why not in looked.
local function open(path, looked, facts)
  if not exists(path) then
    looked[#looked + 1] = path .. " (no such file)"
    return nil
  end
  local fits, why = loader.check(path, facts)
  if not fits then
    looked[#looked + 1] = path .. ": " .. why
    return nil
  end
  local f, err = package.loadlib(path, ENTRY)
  if not f then
    looked[#looked + 1] = path .. ": " .. tostring(err):gsub("%s+$", "")
    return nil
  end
  return f
end

-- A native file inside a .love or a fused executable: the system's loader needs a real file,
-- so it is copied to the save directory, under sat-native/<hash of its content>/ (never
-- under its own path, which the save directory would then shadow): a changed binary gets a
-- new folder, and a copy that differs from the game's is written again.
local function copy_to_save(lfs, rel, name, looked)
  local bytes = lfs.read(rel)
  if not bytes then
    looked[#looked + 1] = rel .. " (unreadable in the game)"
    return nil
  end
  local data = rawget(_G, "love").data
  local stamp = data and data.encode("string", "hex", data.hash("sha1", bytes)):sub(1, 16)
    or tostring(#bytes)
  local target = "sat-native/" .. stamp .. "/" .. name
  local copied = false
  if lfs.getRealDirectory(target) ~= lfs.getSaveDirectory() or lfs.read(target) ~= bytes then
    lfs.createDirectory("sat-native/" .. stamp)
    local ok, err = lfs.write(target, bytes)
    if not ok then
      looked[#looked + 1] = ("%s: cannot copy it to the save directory (%s)"):format(rel,
        tostring(err))
      return nil
    end
    copied = true
  end
  -- older copies of this file go (one still loaded by a running game stays: no harm)
  for _, item in ipairs(lfs.getDirectoryItems("sat-native")) do
    if item ~= stamp and lfs.getInfo("sat-native/" .. item .. "/" .. name) then
      lfs.remove("sat-native/" .. item .. "/" .. name)
      lfs.remove("sat-native/" .. item)
    end
  end
  return lfs.getSaveDirectory() .. "/" .. target, copied
end

-- LÖVE: the native file in the game (a folder), beside the game (next to the .love or the
-- fused executable), or inside it (copied out). dir is where LÖVE found sat/core.lua.
local function from_love(lfs, dir, names, looked, facts)
  local base = lfs.getSourceBaseDirectory()
  local inside = {}
  for _, name in ipairs(names) do
    local rel = dir .. "native/" .. name
    if lfs.getInfo(rel, "file") then
      local real = lfs.getRealDirectory(rel)
      if real ~= lfs.getSaveDirectory() and exists(real .. "/" .. rel) then
        local f = open(real .. "/" .. rel, looked, facts)
        if f then return f, real .. "/" .. rel end
      else
        inside[#inside + 1] = { rel = rel, name = name }
      end
    else
      looked[#looked + 1] = rel .. " (not in the game)"
    end
    local f = open(base .. "/" .. rel, looked, facts)
    if f then return f, base .. "/" .. rel end
  end
  for _, it in ipairs(inside) do
    local path, copied = copy_to_save(lfs, it.rel, it.name, looked)
    local f = path and open(path, looked, facts)
    if f then return f, path, copied end
  end
  return nil
end

-- The folder of sat/core.lua inside a LÖVE game, when LÖVE's require found it there.
local function love_dir(lfs, modname)
  local file = modname:gsub("%.", "/")
  for template in lfs.getRequirePath():gmatch("[^;]+") do
    local candidate = template:gsub("%?", file)
    if lfs.getInfo(candidate, "file") then
      return folder(candidate)
    end
  end
  return nil
end

--- loader.load(modname [, filename]) -> the module sat.core (dist/sat/core.lua calls it with
-- what require gave it). Tries, in order: LÖVE's game (folder, beside, inside), the folder of
-- sat/core.lua on disk, then an installed sat.core on package.cpath. Raises an error that
-- lists every file it looked for when none fits.
function loader.load(modname, filename)
  modname = modname or "sat.core"
  local facts = loader.facts()
  local names, platform = loader.names(facts)
  local looked = {}
  local f, path, copied
  local love = rawget(_G, "love")
  local lfs = love and love.filesystem
  local dir = lfs and love_dir(lfs, modname)
  if dir then
    f, path, copied = from_love(lfs, dir, names, looked, facts)
  end
  if not f then
    local file = type(filename) == "string" and exists(filename) and filename
      or search(package.path, modname)
    if file then
      local d = folder(file)
      local native = d .. "native" .. (d:match("\\$") and "\\" or "/")
      for _, name in ipairs(names) do
        path = native .. name
        f = open(path, looked, facts)
        if f then break end
      end
    end
  end
  if not f then
    local installed = search(package.cpath, modname)
    if installed then
      path = installed
      f = open(path, looked, facts)
    else
      looked[#looked + 1] = "package.cpath (no " .. modname .. " there)"
    end
  end
  if not f then
    error(("sat: no native module fits %s. Looked for:\n\t%s\nA folder made by `make dist` "
      .. "has sat/native/<os>-<arch>-<abi>.<ext> for each platform it was built for; for "
      .. "another, build the module there (make, see docs/love.md) and add it under the "
      .. "first name above."):format(platform, table.concat(looked, "\n\t")), 0)
  end
  loader.path, loader.copied = path, copied or false
  return f(modname)
end

return loader
