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

-- The current interpreter and system, as loader.names reads them.
function loader.facts()
  local love = rawget(_G, "love")
  return {
    love_os = love and love.system and love.system.getOS() or nil,
    jit = rawget(_G, "jit"),
    config = package.config,
    version = _VERSION,
    procfs = exists("/proc/version"),
  }
end

--- loader.names([facts]) -> the native file names that can fit, most likely first, and a
-- description of the platform for messages ("LuaJIT on Linux x64").
-- LÖVE names its OS; LuaJIT knows its OS and architecture (jit.os, jit.arch); plain Lua knows
-- only whether it is on Windows (package.config), so every architecture is a candidate, and
-- on another system both Linux (first when /proc exists) and macOS: the system's loader
-- refuses a file of the wrong kind, which load() then reports.
function loader.names(facts)
  facts = facts or loader.facts()
  local abi, interp
  if facts.jit then
    abi, interp = "luajit", "LuaJIT"
  else
    local major, minor = tostring(facts.version):match("(%d+)%.(%d+)")
    abi, interp = "lua" .. (major or "?") .. (minor or "?"), tostring(facts.version)
  end
  local systems, arches
  if facts.love_os then
    systems = { LOVE_OS[facts.love_os] or (facts.love_os:lower():gsub("%W", "")) }
  elseif facts.jit then
    systems = { JIT_OS[facts.jit.os] or tostring(facts.jit.os):lower() }
  elseif facts.config:sub(1, 1) == "\\" then
    systems = { "windows" }
  elseif facts.procfs then
    systems = { "linux", "macos" }
  else
    systems = { "macos", "linux" }
  end
  if facts.jit then
    arches = { facts.jit.arch }
  else
    arches = ARCHES
  end
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
  return names, ("%s on %s%s"):format(interp, table.concat(shown, " or "),
    facts.jit and " " .. facts.jit.arch or "")
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

-- Loads path when it exists; records why not in looked.
local function open(path, looked)
  if not exists(path) then
    looked[#looked + 1] = path .. " (no such file)"
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
local function from_love(lfs, dir, names, looked)
  local base = lfs.getSourceBaseDirectory()
  local inside = {}
  for _, name in ipairs(names) do
    local rel = dir .. "native/" .. name
    if lfs.getInfo(rel, "file") then
      local real = lfs.getRealDirectory(rel)
      if real ~= lfs.getSaveDirectory() and exists(real .. "/" .. rel) then
        local f = open(real .. "/" .. rel, looked)
        if f then return f, real .. "/" .. rel end
      else
        inside[#inside + 1] = { rel = rel, name = name }
      end
    else
      looked[#looked + 1] = rel .. " (not in the game)"
    end
    local f = open(base .. "/" .. rel, looked)
    if f then return f, base .. "/" .. rel end
  end
  for _, it in ipairs(inside) do
    local path, copied = copy_to_save(lfs, it.rel, it.name, looked)
    local f = path and open(path, looked)
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
  local names, platform = loader.names()
  local looked = {}
  local f, path, copied
  local love = rawget(_G, "love")
  local lfs = love and love.filesystem
  local dir = lfs and love_dir(lfs, modname)
  if dir then
    f, path, copied = from_love(lfs, dir, names, looked)
  end
  if not f then
    local file = type(filename) == "string" and exists(filename) and filename
      or search(package.path, modname)
    if file then
      local d = folder(file)
      local native = d .. "native" .. (d:match("\\$") and "\\" or "/")
      for _, name in ipairs(names) do
        path = native .. name
        f = open(path, looked)
        if f then break end
      end
    end
  end
  if not f then
    local installed = search(package.cpath, modname)
    if installed then
      path = installed
      f = open(path, looked)
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
