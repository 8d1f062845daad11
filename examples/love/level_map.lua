-- The LÖVE demo's level, in Tiled's Lua export format (Tiled 1.10), read by level.lua
-- with sat.level.tiled. 36 x 32 tiles of 20 (720 x 640, y down).
--   "walls"   a tile layer: the arena's border, merged into four boxes
--   "solids"  objects: a long wall, slopes (polygons), a rotated square, a rock, a ledge and
--             a ramp (polylines: chains), a concave star, a chain slope, two round posts
--   "zones"   sensors the player crosses
-- Every layer is solid by STI's convention (the property collidable = true); the property
-- role ("wall" or "zone") becomes a field of each shape, which the demo reads. To add to
-- the level, add an object to a layer (or a layer: give it collidable and role). The
-- tileset's image is not shipped: the demo draws the shapes themselves (sat.debug).
return {
  version = "1.10",
  luaversion = "5.1",
  tiledversion = "1.10.2",
  class = "",
  orientation = "orthogonal",
  renderorder = "right-down",
  width = 36,
  height = 32,
  tilewidth = 20,
  tileheight = 20,
  nextlayerid = 4,
  nextobjectid = 15,
  properties = {},
  tilesets = {
    {
      name = "walls",
      firstgid = 1,
      class = "",
      tilewidth = 20,
      tileheight = 20,
      spacing = 0,
      margin = 0,
      columns = 1,
      image = "walls.png",
      imagewidth = 20,
      imageheight = 20,
      objectalignment = "unspecified",
      tileoffset = { x = 0, y = 0 },
      grid = { orientation = "orthogonal", width = 20, height = 20 },
      properties = {},
      wangsets = {},
      tilecount = 1,
      tiles = {}
    }
  },
  layers = {
    {
      type = "tilelayer",
      x = 0,
      y = 0,
      width = 36,
      height = 32,
      id = 1,
      name = "walls",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = { ["collidable"] = true, ["role"] = "wall" },
      encoding = "lua",
      data = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
      }
    },
    {
      type = "objectgroup",
      draworder = "topdown",
      id = 2,
      name = "solids",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = { ["collidable"] = true, ["role"] = "wall" },
      objects = {
        {
          id = 1, name = "wall-mid", type = "", shape = "rectangle",
          x = 300, y = 80, width = 24, height = 320, rotation = 0, visible = true,
          properties = {}
        },
        {
          id = 2, name = "slope-45", type = "", shape = "polygon",
          x = 16, y = 440, width = 0, height = 0, rotation = 0, visible = true,
          polygon = {
            { x = 0, y = 0 },
            { x = 184, y = 184 },
            { x = 0, y = 184 }
          },
          properties = {}
        },
        {
          id = 3, name = "slope-shallow", type = "", shape = "polygon",
          x = 520, y = 624, width = 0, height = 0, rotation = 0, visible = true,
          polygon = {
            { x = 0, y = 0 },
            { x = 184, y = -104 },
            { x = 184, y = 0 }
          },
          properties = {}
        },
        {
          id = 4, name = "hexagon", type = "", shape = "polygon",
          x = 466.819, y = 129.401, width = 0, height = 0, rotation = 0, visible = true,
          polygon = {
            { x = 0, y = 0 },
            { x = -26.551, y = 27.186 },
            { x = -63.37, y = 17.784 },
            { x = -73.638, y = -18.802 },
            { x = -47.087, y = -45.988 },
            { x = -10.268, y = -36.586 }
          },
          properties = {}
        },
        {
          id = 5, name = "diamond", type = "", shape = "rectangle",
          x = 640, y = 264.645, width = 50, height = 50, rotation = 45, visible = true,
          properties = {}
        },
        {
          id = 6, name = "rock", type = "", shape = "polygon",
          x = 175.424, y = 165.943, width = 0, height = 0, rotation = 0, visible = true,
          polygon = {
            { x = 0, y = 0 },
            { x = 47.475, y = -41.786 },
            { x = 80.051, y = 9.583 },
            { x = 41.786, y = 47.476 }
          },
          properties = {}
        },
        {
          id = 7, name = "ledge", type = "", shape = "polyline",
          x = 40, y = 60, width = 0, height = 0, rotation = 0, visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 160, y = 0 }
          },
          properties = {}
        },
        {
          id = 8, name = "ramp", type = "", shape = "polyline",
          x = 590, y = 470, width = 0, height = 0, rotation = 0, visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 110, y = -70 }
          },
          properties = {}
        },
        {
          id = 9, name = "concave-rock", type = "", shape = "polygon",
          x = 289.392, y = 490.639, width = 0, height = 0, rotation = 0, visible = true,
          polygon = {
            { x = 0, y = 0 },
            { x = -24.805, y = 2.171 },
            { x = -33.882, y = 25.357 },
            { x = -43.612, y = 2.437 },
            { x = -68.469, y = 0.969 },
            { x = -49.677, y = -15.367 },
            { x = -55.963, y = -39.461 },
            { x = -34.619, y = -26.637 },
            { x = -13.646, y = -40.06 },
            { x = -19.247, y = -15.798 }
          },
          properties = {}
        },
        {
          id = 10, name = "chain-slope", type = "", shape = "polyline",
          x = 340, y = 62, width = 0, height = 0, rotation = 0, visible = true,
          polyline = {
            { x = 0, y = 0 },
            { x = 60, y = -22 },
            { x = 120, y = -10 },
            { x = 180, y = -32 },
            { x = 240, y = -18 }
          },
          properties = {}
        },
        {
          id = 11, name = "pillar", type = "", shape = "ellipse",
          x = 596, y = 96, width = 48, height = 48, rotation = 0, visible = true,
          properties = {}
        },
        {
          id = 12, name = "post", type = "", shape = "ellipse",
          x = 454, y = 332, width = 36, height = 36, rotation = 0, visible = true,
          properties = {}
        }
      }
    },
    {
      type = "objectgroup",
      draworder = "topdown",
      id = 3,
      name = "zones",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = { ["collidable"] = true, ["role"] = "zone" },
      objects = {
        {
          id = 13, name = "zone-a", type = "", shape = "rectangle",
          x = 40, y = 280, width = 140, height = 100, rotation = 0, visible = true,
          properties = {}
        },
        {
          id = 14, name = "zone-b", type = "", shape = "ellipse",
          x = 520, y = 160, width = 80, height = 80, rotation = 0, visible = true,
          properties = {}
        }
      }
    }
  }
}
