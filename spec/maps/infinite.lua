-- An infinite map in Tiled's Lua export format (by hand), for spec/level_tiled_spec.lua:
-- tile layers stored in chunks of 4 x 4 (x, y in tiles, negative too), one layer as Lua
-- arrays and one as base64 (uncompressed: little-endian 32-bit GIDs). The wall and the
-- floor of "ground" cross chunk edges and merge across them.
return {
  version = "1.10",
  luaversion = "5.1",
  tiledversion = "1.10.2",
  class = "",
  orientation = "orthogonal",
  renderorder = "right-down",
  width = 30,
  height = 20,
  tilewidth = 16,
  tileheight = 16,
  nextlayerid = 3,
  nextobjectid = 1,
  properties = {},
  tilesets = {
    {
      name = "ground",
      firstgid = 1,
      class = "",
      tilewidth = 16,
      tileheight = 16,
      spacing = 0,
      margin = 0,
      columns = 1,
      image = "ground.png",
      imagewidth = 16,
      imageheight = 16,
      objectalignment = "unspecified",
      tileoffset = { x = 0, y = 0 },
      grid = { orientation = "orthogonal", width = 16, height = 16 },
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
      width = 30,
      height = 20,
      id = 1,
      name = "ground",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = { ["collidable"] = true },
      encoding = "lua",
      chunks = {
        {
          x = -4, y = -4, width = 4, height = 4,
          data = {
            1, 0, 0, 0,
            1, 0, 0, 0,
            1, 0, 0, 0,
            1, 0, 0, 0
          }
        },
        {
          x = 0, y = -4, width = 4, height = 4,
          data = {
            0, 0, 0, 0,
            0, 0, 0, 0,
            0, 0, 0, 0,
            0, 0, 0, 0
          }
        },
        {
          x = -4, y = 0, width = 4, height = 4,
          data = {
            1, 1, 1, 1,
            0, 0, 0, 0,
            0, 0, 0, 0,
            0, 0, 0, 0
          }
        },
        {
          x = 0, y = 0, width = 4, height = 4,
          data = {
            1, 1, 1, 1,
            0, 0, 0, 0,
            0, 0, 0, 0,
            0, 0, 0, 0
          }
        }
      }
    },
    {
      type = "tilelayer",
      x = 0,
      y = 0,
      width = 30,
      height = 20,
      id = 2,
      name = "packed",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = { ["collidable"] = true },
      encoding = "base64",
      chunks = {
        {
          -- 0 0 0 0 / 0 1 1 0 / 0 1 1 0 / 0 0 0 0
          x = 0, y = 4, width = 4, height = 4,
          data = "AAAAAAAAAAAAAAAAAAAAAAAAAAABAAAAAQAAAAAAAAAAAAAAAQAAAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="
        }
      }
    }
  }
}
