--- sat.level_grid: the merging of tile grids, for sat.level (lua/sat/level.lua).
-- Part of sat.level; requires nothing. Works on a grid of W x H cells in a flat array
-- (cell (c, r), 0-based, at index r * W + c + 1), each empty (nil or false) or holding a
-- group value: cells of one group merge together, never with another group's. Everything
-- is in cells: the caller scales to world units. Results come out in reading order (by
-- the top row, then the left column), whatever the mode.
--
-- Rectangles (every mode but the outlines) partition the solid cells exactly: no cell left
-- out, none covered twice, nothing else covered.
--   "none"     a rectangle per cell
--   "rows"     the maximal horizontal runs of each row
--   "columns"  the maximal vertical runs of each column
--   "rects"    the runs of each row, a run merged with the one below it when both span the
--              same columns
--   "greedy"   from the first free cell in reading order, as far right as the row goes,
--              then down while the whole width is free
-- Outlines:
--   outlines(...)  the boundary loops of every region (4-connected cells of one group):
--                  outer ones and holes, for chains
--   simple(...)    every region cut into pieces whose outline is one simple loop (no hole,
--                  no corner where the outline touches itself), for sat.concave
local M = {}

local floor = math.floor

------------------------------------------------------------------------------------------
-- rectangles: four arrays c0, r0, c1, r1 (cells [c0, c1) x [r0, r1)) and g (the group),
-- indexed 1..n

local function newRects()
  return { c0 = {}, r0 = {}, c1 = {}, r1 = {}, g = {}, n = 0 }
end

local function push(R, c0, r0, c1, r1, g)
  local n = R.n + 1
  R.c0[n], R.r0[n], R.c1[n], R.r1[n], R.g[n] = c0, r0, c1, r1, g
  R.n = n
  return n
end

local function each(cells, W, H)
  local R = newRects()
  for r = 0, H - 1 do
    local base = r * W
    for c = 0, W - 1 do
      local g = cells[base + c + 1]
      if g then
        push(R, c, r, c + 1, r + 1, g)
      end
    end
  end
  return R
end

local function columns(cells, W, H, _, ly)
  local R = newRects()
  local start = {} -- column + 1 -> the first row of the run it is in
  for r = 0, H - 1 do
    local base = r * W
    for c = 0, W - 1 do
      local g = cells[base + c + 1]
      -- a run starts here when the cell above is not of its group, or that run is full
      if g and (r == 0 or cells[base - W + c + 1] ~= g or r >= ly[start[c + 1] + 1]) then
        start[c + 1] = r
        local r1, last = r + 1, ly[r + 1]
        while r1 < last and cells[r1 * W + c + 1] == g do
          r1 = r1 + 1
        end
        push(R, c, r, c + 1, r1, g)
      end
    end
  end
  return R
end

--- runRectangles(W, H, runs, merge [, lx, ly]) -> R: the rectangles of "rows" (each run) or "rects"
-- (a run continues the rectangle of the row above when that one spans the same columns and
-- group; rectangles are numbered when they begin, so in reading order, and closed at the
-- first row that does not continue them), from the runs of each row: runs(r, c0, c1, g)
-- fills c0[i], c1[i], g[i] (columns [c0, c1), 0-based, left to right) with the runs of row
-- r (0-based) and returns their count. sat.level.grid gives the runs straight from the
-- rows it is given; the other callers from cells (cellRuns). Runs are cut where lx says,
-- from their left end, and a rectangle stops growing down where ly says (see rectangles).
function M.runRectangles(W, H, runs, merge, lx, ly)
  lx, ly = lx or M.noLimit(W), ly or M.noLimit(H)
  local R = newRects()
  local C0, R0, C1, R1, G = R.c0, R.r0, R.c1, R.r1, R.g
  local n = 0
  local rc0, rc1, rg = {}, {}, {}
  local rows = merge == "rows"
  -- openAt[c + 1]: the last rectangle begun at column c; it is open (the row above ended
  -- it) when its bottom R1 is this row. Each rectangle's R1 is its bottom so far.
  local openAt = {}
  for c = 1, W do
    openAt[c] = false
  end
  for r = 0, H - 1 do
    local m = runs(r, rc0, rc1, rg)
    for i = 1, m do
      local c, c1, g = rc0[i], rc1[i], rg[i]
      while c < c1 do -- the run cut where lx says, from its left end
        local e = lx[c + 1]
        if e > c1 then e = c1 end
        local k = openAt[c + 1]
        if not rows and k and R1[k] == r and C1[k] == e and G[k] == g and r < ly[R0[k] + 1] then
          R1[k] = r + 1
        else
          n = n + 1
          C0[n], R0[n], C1[n], R1[n], G[n] = c, r, e, r + 1, g
          openAt[c + 1] = n
        end
        c = e
      end
    end
  end
  R.n = n
  return R
end

-- The runs function of runRectangles for a grid of cells.
local function cellRuns(cells, W)
  return function(r, rc0, rc1, rg)
    local base = r * W
    local m = 0
    local c = 0
    while c < W do
      local g = cells[base + c + 1]
      if g then
        local c1 = c + 1
        while c1 < W and cells[base + c1 + 1] == g do
          c1 = c1 + 1
        end
        m = m + 1
        rc0[m], rc1[m], rg[m] = c, c1, g
        c = c1
      else
        c = c + 1
      end
    end
    return m
  end
end

local function rows(cells, W, H, lx, ly)
  return M.runRectangles(W, H, cellRuns(cells, W), "rows", lx, ly)
end

local function rects(cells, W, H, lx, ly)
  return M.runRectangles(W, H, cellRuns(cells, W), "rects", lx, ly)
end

local function greedy(cells, W, H, lx, ly)
  local R = newRects()
  local used = {}
  for r = 0, H - 1 do
    local base = r * W
    for c = 0, W - 1 do
      local i = base + c + 1
      local g = cells[i]
      if g and not used[i] then
        local c1, lastc = c + 1, lx[c + 1]
        while c1 < lastc and cells[base + c1 + 1] == g and not used[base + c1 + 1] do
          c1 = c1 + 1
        end
        local r1, lastr = r + 1, ly[r + 1]
        while r1 < lastr do
          local b = r1 * W
          local full = true
          for cc = c, c1 - 1 do
            local j = b + cc + 1
            if cells[j] ~= g or used[j] then
              full = false
              break
            end
          end
          if not full then
            break
          end
          r1 = r1 + 1
        end
        for rr = r, r1 - 1 do
          local b = rr * W
          for cc = c, c1 - 1 do
            used[b + cc + 1] = true
          end
        end
        push(R, c, r, c1, r1, g)
      end
    end
  end
  return R
end

M.RECT_MODES = { none = each, rows = rows, columns = columns, rects = rects, greedy = greedy }

--- noLimit(n) -> a limit array that limits nothing: n for every start.
function M.noLimit(n)
  local t = {}
  for i = 1, n do t[i] = n end
  return t
end

--- rectangles(cells, W, H, mode [, lx, ly]) -> R: R.c0[k], R.r0[k], R.c1[k], R.r1[k],
-- R.g[k] for k = 1..R.n, in reading order. lx[c + 1] is the last column (exclusive) a
-- rectangle starting at column c may reach, ly[r + 1] the last row (both default: none).
function M.rectangles(cells, W, H, mode, lx, ly)
  return M.RECT_MODES[mode](cells, W, H, lx or M.noLimit(W), ly or M.noLimit(H))
end

------------------------------------------------------------------------------------------
-- outlines
--
-- The boundary of a region as directed unit edges between lattice points (x, y),
-- 0 <= x <= W, 0 <= y <= H, point key y * (W + 1) + x, each edge with the region on its left
-- as seen on a y-down screen (so an outer loop runs counter-clockwise there, a hole
-- clockwise). Directions: 0 east, 1 south, 2 west, 3 north; a left turn is d -> (d + 3) % 4.
-- A point has one edge leaving it, or two where the region touches itself at a corner (two
-- of its cells meeting diagonally, the other two cells not its own): a loop turns left
-- there, staying with the cell it follows.

local DX = { [0] = 1, 0, -1, 0 }
local DY = { [0] = 0, 1, 0, -1 }

-- The 4-connected regions (cells of one group) among the n cells of list (cell indices in
-- reading order): a list of { cells = sorted list, n = count, g = group }, in reading order
-- of their first cells.
local function regions(cells, W, H, list, n)
  local inList = {}
  for k = 1, n do inList[list[k]] = true end
  local label, out, stack = {}, {}, {}
  for k = 1, n do
    local i = list[k]
    if not label[i] then
      local g = cells[i]
      local id = #out + 1
      local found, m = {}, 0
      label[i] = id
      local sp = 1
      stack[1] = i
      while sp > 0 do
        local j = stack[sp]
        sp = sp - 1
        m = m + 1
        found[m] = j
        local r = floor((j - 1) / W)
        local c = j - 1 - r * W
        if c > 0 and not label[j - 1] and inList[j - 1] and cells[j - 1] == g then
          label[j - 1] = id; sp = sp + 1; stack[sp] = j - 1
        end
        if c < W - 1 and not label[j + 1] and inList[j + 1] and cells[j + 1] == g then
          label[j + 1] = id; sp = sp + 1; stack[sp] = j + 1
        end
        if r > 0 and not label[j - W] and inList[j - W] and cells[j - W] == g then
          label[j - W] = id; sp = sp + 1; stack[sp] = j - W
        end
        if r < H - 1 and not label[j + W] and inList[j + W] and cells[j + W] == g then
          label[j + W] = id; sp = sp + 1; stack[sp] = j + W
        end
      end
      table.sort(found)
      out[id] = { cells = found, n = m, g = g }
    end
  end
  return out
end

-- The region's boundary edges, in the order of its cells (each cell's top, right, bottom,
-- left): ekeys/edirs, and out1/out2 (point key -> direction of the edge leaving it, the
-- second one where there are two). Returns the edge count and whether some point has two.
local function regionEdges(reg, W, H, ekeys, edirs, out1, out2)
  local list, member = reg.cells, {}
  for k = 1, reg.n do member[list[k]] = true end
  local P = W + 1
  local ne, pinched = 0, false
  local function add(key, d)
    ne = ne + 1
    ekeys[ne], edirs[ne] = key, d
    if out1[key] == nil then
      out1[key] = d
    else
      out2[key] = d
      pinched = true
    end
  end
  for k = 1, reg.n do
    local i = list[k]
    local r = floor((i - 1) / W)
    local c = i - 1 - r * W
    local key = r * P + c -- the cell's top-left point
    if r == 0 or not member[i - W] then add(key + 1, 2) end          -- top: west
    if c == W - 1 or not member[i + 1] then add(key + P + 1, 3) end  -- right: north
    if r == H - 1 or not member[i + W] then add(key + P, 0) end      -- bottom: east
    if c == 0 or not member[i - 1] then add(key, 1) end              -- left: south
  end
  return ne, pinched
end

-- Follows the loops of the edges (each edge leads to the one leaving its end point, the
-- left turn where two leave); returns them as flat point lists {x1, y1, ...}, a point
-- where the loop turns only, the first loop the one through the region's first cell's top
-- edge (the outer one); and the key of a point where two edges leave, if any.
local function traceLoops(ne, W, ekeys, edirs, out1, out2)
  local P = W + 1
  local used, loops, pinch = {}, {}, nil
  local keys, dirs = {}, {}
  for e = 1, ne do
    local k0, d0 = ekeys[e], edirs[e]
    if not used[k0 * 4 + d0] then
      local m = 0
      local key, d = k0, d0
      repeat
        used[key * 4 + d] = true
        m = m + 1
        keys[m], dirs[m] = key, d
        key = key + DX[d] + DY[d] * P
        local d2 = out2[key]
        if d2 == nil then
          d = out1[key]
        else
          pinch = pinch or key
          local left = (d + 3) % 4
          if out1[key] == left then d = left else d = d2 end
        end
      until key == k0 and d == d0
      local pts, np, prev = {}, 0, dirs[m]
      for i = 1, m do
        local di = dirs[i]
        if di ~= prev then
          np = np + 2
          pts[np - 1], pts[np] = keys[i] % P, floor(keys[i] / P)
        end
        prev = di
      end
      loops[#loops + 1] = pts
    end
  end
  return loops, pinch
end

M.regions = regions

local function solidList(cells, W, H)
  local list, n = {}, 0
  for i = 1, W * H do
    if cells[i] then
      n = n + 1
      list[n] = i
    end
  end
  return list, n
end

--- outlines(cells, W, H) -> list of { points = {x1, y1, ...}, g = group }: every boundary
-- loop of every region (outer loops and holes), in cells, each loop closed (the last point
-- joins the first), a vertex where the boundary turns only; by region in reading order.
function M.outlines(cells, W, H)
  local out = {}
  local list, n = solidList(cells, W, H)
  for _, reg in ipairs(regions(cells, W, H, list, n)) do
    local ekeys, edirs, out1, out2 = {}, {}, {}, {}
    local ne = regionEdges(reg, W, H, ekeys, edirs, out1, out2)
    for _, pts in ipairs((traceLoops(ne, W, ekeys, edirs, out1, out2))) do
      out[#out + 1] = { points = pts, g = reg.g }
    end
  end
  return out
end

--- simple(cells, W, H) -> list of { points = {x1, y1, ...}, g = group }: the regions cut
-- into pieces each bounded by one simple loop (counter-clockwise on a y-down screen). A
-- region whose outline touches itself at a corner is cut along the row line through that
-- corner; one with a hole, along the row line at the top of its highest hole (which opens
-- the hole into a notch of the piece below); the pieces are cut again until simple. A cut
-- runs along a whole row line, so the pieces partition the region's cells. Pieces come in
-- reading order of their first cells.
function M.simple(cells, W, H)
  local out = {}
  local P = W + 1
  local list, n = solidList(cells, W, H)
  local queue = regions(cells, W, H, list, n)
  local qi = 1
  while qi <= #queue do
    local reg = queue[qi]
    queue[qi] = false
    qi = qi + 1
    local ekeys, edirs, out1, out2 = {}, {}, {}, {}
    local ne = regionEdges(reg, W, H, ekeys, edirs, out1, out2)
    local loops, pinch = traceLoops(ne, W, ekeys, edirs, out1, out2)
    if #loops == 1 and pinch == nil then
      out[#out + 1] = { points = loops[1], g = reg.g, first = reg.cells[1] }
    else
      local cut
      if pinch ~= nil then
        cut = floor(pinch / P)
      else
        cut = math.huge
        for li = 2, #loops do
          local pts = loops[li]
          for p = 2, #pts, 2 do
            if pts[p] < cut then cut = pts[p] end
          end
        end
      end
      local above, na, below, nb = {}, 0, {}, 0
      for k = 1, reg.n do
        local i = reg.cells[k]
        if floor((i - 1) / W) < cut then
          na = na + 1
          above[na] = i
        else
          nb = nb + 1
          below[nb] = i
        end
      end
      for _, part in ipairs(regions(cells, W, H, above, na)) do queue[#queue + 1] = part end
      for _, part in ipairs(regions(cells, W, H, below, nb)) do queue[#queue + 1] = part end
    end
  end
  table.sort(out, function(a, b) return a.first < b.first end)
  return out
end

return M
