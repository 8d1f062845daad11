-- A test map in Tiled's Lua export format (written by hand, as Tiled 1.10 writes it), for
-- spec/level_tiled_spec.lua: every kind of layer and object sat.level.tiled reads. The
-- spec computes each shape it must give by hand; the comments say what each thing is for.
-- GIDs with flip flags: 2147483648 horizontal, 1073741824 vertical, 536870912 diagonal.
return {
  version = "1.10",
  luaversion = "5.1",
  tiledversion = "1.10.2",
  class = "",
  orientation = "orthogonal",
  renderorder = "right-down",
  width = 8,
  height = 6,
  tilewidth = 16,
  tileheight = 16,
  nextlayerid = 12,
  nextobjectid = 40,
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
      columns = 4,
      image = "ground.png",
      imagewidth = 64,
      imageheight = 32,
      objectalignment = "unspecified",
      tileoffset = { x = 0, y = 0 },
      grid = { orientation = "orthogonal", width = 16, height = 16 },
      properties = {},
      wangsets = {},
      tilecount = 8,
      tiles = {
        -- id 0 (gid 1): a plain tile, no entry
        -- id 1 (gid 2): ice, a kind of its own
        { id = 1, type = "ice", properties = { ["surface"] = "ice" } },
        -- id 2 (gid 3): a slope, rising to the right, drawn in the collision editor
        {
          id = 2,
          properties = { ["slope"] = 45 },
          objectGroup = {
            type = "objectgroup",
            draworder = "index",
            id = 2,
            name = "",
            class = "",
            visible = true,
            opacity = 1,
            offsetx = 0,
            offsety = 0,
            parallaxx = 1,
            parallaxy = 1,
            properties = {},
            objects = {
              {
                id = 1, name = "", type = "", shape = "polygon",
                x = 0, y = 0, width = 0, height = 0, rotation = 0, visible = true,
                polygon = { { x = 0, y = 16 }, { x = 16, y = 0 }, { x = 16, y = 16 } },
                properties = {}
              }
            }
          }
        },
        -- id 3 (gid 4): a half-height block and a round bumper above it
        {
          id = 3,
          objectGroup = {
            type = "objectgroup",
            draworder = "index",
            id = 3,
            name = "",
            visible = true,
            opacity = 1,
            offsetx = 0,
            offsety = 0,
            properties = {},
            objects = {
              {
                id = 1, name = "", type = "", shape = "rectangle",
                x = 0, y = 8, width = 16, height = 8, rotation = 0, visible = true,
                properties = {}
              },
              {
                id = 2, name = "bumper", type = "", shape = "ellipse",
                x = 4, y = 0, width = 8, height = 8, rotation = 0, visible = true,
                properties = { ["bumper"] = true }
              }
            }
          }
        },
        -- id 4 (gid 5): a one-way platform tile, solid in any layer
        { id = 4, properties = { ["collidable"] = true, ["oneway"] = true } },
        -- id 5 (gid 6): decoration, taken out of a solid layer
        { id = 5, properties = { ["collidable"] = false } },
        -- id 6 (gid 7): spikes: a collision shape solid in itself, wherever the tile is
        {
          id = 6,
          objectGroup = {
            type = "objectgroup",
            draworder = "index",
            name = "",
            visible = true,
            opacity = 1,
            offsetx = 0,
            offsety = 0,
            properties = {},
            objects = {
              {
                id = 1, name = "spikes", type = "hazard", shape = "rectangle",
                x = 2, y = 12, width = 12, height = 4, rotation = 0, visible = true,
                properties = { ["collidable"] = true, ["damage"] = 1 }
              }
            }
          }
        }
      }
    },
    {
      -- a second tileset: tiles of 32 x 32 on the map's 16 x 16 cells
      name = "big",
      firstgid = 9,
      class = "",
      tilewidth = 32,
      tileheight = 32,
      spacing = 0,
      margin = 0,
      columns = 1,
      image = "big.png",
      imagewidth = 32,
      imageheight = 32,
      objectalignment = "unspecified",
      tileoffset = { x = 0, y = 0 },
      grid = { orientation = "orthogonal", width = 32, height = 32 },
      properties = {},
      wangsets = {},
      tilecount = 1,
      tiles = {
        { id = 0, properties = { ["collidable"] = true } }
      }
    }
  },
  layers = {
    {
      -- 1: solid walls and floors, merged; tiles with collision shapes, flipped
      type = "tilelayer",
      x = 0,
      y = 0,
      width = 8,
      height = 6,
      id = 1,
      name = "walls",
      class = "terrain",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = { ["collidable"] = true, ["role"] = "wall" },
      encoding = "lua",
      data = {
        1, 1, 1, 1, 0, 0, 2, 2,
        1, 0, 0, 1, 0, 0, 2, 2,
        1, 0, 3, 6, 0, 2147483651, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 1,
        1, 1073741827, 536870915, 3758096388, 0, 4, 0, 1,
        1, 1, 1, 1, 1, 1, 1, 1
      }
    },
    {
      -- 2: a group, solid, with offsets and a layer inside it taken out again
      type = "group",
      id = 2,
      name = "platforms",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 100,
      offsety = 50,
      parallaxx = 0.5,
      parallaxy = 1,
      properties = { ["collidable"] = true },
      layers = {
        {
          -- 2.1: one-way tiles (merged in rows only) over a plain row
          type = "tilelayer",
          x = 0,
          y = 0,
          width = 4,
          height = 3,
          id = 3,
          name = "ledges",
          class = "",
          visible = false,
          opacity = 1,
          offsetx = 4,
          offsety = 0,
          parallaxx = 1,
          parallaxy = 1,
          properties = {},
          encoding = "lua",
          data = {
            5, 5, 5, 0,
            5, 5, 5, 0,
            1, 1, 1, 1
          }
        },
        {
          type = "group",
          id = 4,
          name = "inner",
          class = "",
          visible = true,
          opacity = 1,
          offsetx = 2,
          offsety = 3,
          parallaxx = 1,
          parallaxy = 1,
          properties = {},
          layers = {
            {
              -- 2.2.1: not solid (its own false over the group's true), but for the door
              type = "objectgroup",
              draworder = "topdown",
              id = 5,
              name = "markers",
              class = "",
              visible = true,
              opacity = 1,
              offsetx = 0,
              offsety = 0,
              parallaxx = 1,
              parallaxy = 1,
              properties = { ["collidable"] = false },
              objects = {
                {
                  id = 20, name = "spawn", type = "", shape = "point",
                  x = 5, y = 6, width = 0, height = 0, rotation = 0, visible = true,
                  properties = {}
                },
                {
                  id = 21, name = "door", type = "", shape = "rectangle",
                  x = 10, y = 0, width = 8, height = 16, rotation = 0, visible = true,
                  properties = { ["collidable"] = true }
                }
              }
            }
          }
        }
      }
    },
    {
      -- 3: not solid: the spikes' own shape and a collidable tile of another size only
      type = "tilelayer",
      x = 0,
      y = 0,
      width = 4,
      height = 2,
      id = 6,
      name = "decor",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      encoding = "lua",
      data = {
        7, 1, 0, 9,
        0, 0, 0, 0
      }
    },
    {
      -- 4: every kind of object
      type = "objectgroup",
      draworder = "topdown",
      id = 7,
      name = "objects",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = { ["collidable"] = true },
      objects = {
        {
          id = 1, name = "crate", type = "box", shape = "rectangle",
          x = 10, y = 200, width = 30, height = 10, rotation = 0, visible = true,
          properties = {}
        },
        {
          id = 2, name = "tilted", type = "", shape = "rectangle",
          x = 100, y = 100, width = 40, height = 20, rotation = 30, visible = true,
          properties = {}
        },
        {
          id = 3, name = "upright", type = "", shape = "rectangle",
          x = 200, y = 50, width = 20, height = 10, rotation = 90, visible = true,
          properties = {}
        },
        {
          id = 4, name = "ball", type = "", shape = "ellipse",
          x = 50, y = 60, width = 20, height = 20, rotation = 0, visible = true,
          properties = {}
        },
        {
          id = 5, name = "egg", type = "", shape = "ellipse",
          x = 0, y = 150, width = 40, height = 20, rotation = 0, visible = true,
          properties = {}
        },
        {
          id = 6, name = "wedge", type = "", shape = "polygon",
          x = 300, y = 300, width = 0, height = 0, rotation = 0, visible = true,
          polygon = { { x = 0, y = 0 }, { x = 30, y = 0 }, { x = 0, y = 30 } },
          properties = {}
        },
        {
          id = 7, name = "ell", type = "", shape = "polygon",
          x = 400, y = 300, width = 0, height = 0, rotation = 0, visible = true,
          polygon = {
            { x = 0, y = 0 }, { x = 30, y = 0 }, { x = 30, y = 10 }, { x = 10, y = 10 },
            { x = 10, y = 30 }, { x = 0, y = 30 }
          },
          properties = {}
        },
        {
          id = 8, name = "hill", type = "", shape = "polyline",
          x = 500, y = 300, width = 0, height = 0, rotation = 0, visible = true,
          polyline = { { x = 0, y = 0 }, { x = 20, y = -10 }, { x = 40, y = 0 } },
          properties = {}
        },
        {
          id = 9, name = "pin", type = "", shape = "point",
          x = 600, y = 300, width = 0, height = 0, rotation = 0, visible = true,
          properties = {}
        },
        {
          -- the slope tile, flipped horizontally, drawn 32 x 32
          id = 10, name = "ramp", type = "", shape = "rectangle",
          x = 300, y = 200, width = 32, height = 32, rotation = 0, gid = 2147483651, visible = true,
          properties = {}
        },
        {
          -- a plain tile, turned a quarter about its bottom-left corner
          id = 11, name = "block", type = "", shape = "rectangle",
          x = 400, y = 100, width = 16, height = 16, rotation = 90, gid = 1, visible = true,
          properties = {}
        },
        {
          id = 12, name = "label", type = "", shape = "text",
          x = 10, y = 10, width = 80, height = 20, rotation = 0, visible = true,
          text = "Hello",
          properties = {}
        },
        {
          -- properties that cannot all be fields
          id = 13, name = "plat", type = "", shape = "rectangle",
          x = 700, y = 0, width = 10, height = 10, rotation = 0, visible = true,
          properties = { ["move"] = 5, ["name"] = "bad", ["oneway"] = "up", ["speed"] = 3 }
        },
        {
          id = 14, name = "ghost", type = "", shape = "rectangle",
          x = 800, y = 0, width = 5, height = 5, rotation = 0, visible = true,
          properties = { ["collidable"] = false }
        }
      }
    },
    {
      -- 5: not solid, but for one object
      type = "objectgroup",
      draworder = "topdown",
      id = 8,
      name = "sensors",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      objects = {
        {
          id = 30, name = "trigger", type = "zone", shape = "rectangle",
          x = 0, y = 400, width = 10, height = 10, rotation = 0, visible = true,
          properties = { ["collidable"] = true }
        },
        {
          id = 31, name = "idle", type = "", shape = "rectangle",
          x = 20, y = 400, width = 10, height = 10, rotation = 0, visible = true,
          properties = {}
        }
      }
    },
    {
      -- 6: an image layer cannot be solid (its size is the image's)
      type = "imagelayer",
      image = "sky.png",
      id = 9,
      name = "sky",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      repeatx = false,
      repeaty = false,
      properties = { ["collidable"] = true }
    }
  }
}
