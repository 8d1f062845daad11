---@meta sat
-- sat's public API for lua-language-server (LuaLS): types, signatures and short docs for
-- `require("sat")`, never loaded at run time. Point LuaLS's `workspace.library` at this
-- folder (README.md, "Install").
--
-- Adding to the API? Add its definition here in the same change: spec/types_spec.lua checks
-- both ways that every public function, method, field and result table of the live module
-- has a definition here and that every definition names something that exists, with the
-- parameter count of Lua functions (docs/development.md, "Editor support"). A method is a
-- `function Class:name(...) end` line under its class (with every parameter: another way to
-- call it is an `---@overload`, naming `self` for a method), a field a `---@field` line.

---@alias sat.Kind "polygon"|"circle"|"segment"|"capsule"|"compound"

---Points as flat coordinates `{x1, y1, x2, y2, ...}` or as vecs `{vec, vec, ...}`.
---@alias sat.Points number[]|sat.Vec[]

---A filter of a query: a truthy result keeps the shape.
---@alias sat.QueryFilter fun(shape: sat.Shape): any

---What `world:move` does at another shape: stop and slide along it (the default), stop
---there, pass through it and report it, go on with the rest of the motion reflected about the
---contact normal, a name given to `world:addResponse`, or `nil`: ignore it.
---@alias sat.MoveType "slide"|"touch"|"cross"|"bounce"|string

---A response of the game's own (`world:addResponse`): called when the moving shape meets the
---other, before it stops there; returns the motion to carry on with (`0, 0` stops it there),
---or nothing to let the shape through (reported, then ignored for the rest of the move).
---@alias sat.ResponseFn fun(c: sat.Contact): (number?, number?)

---@alias sat.MoveFilter fun(shape: sat.Shape, other: sat.Shape): sat.MoveType?

---The world filter: `false` keeps the pair from colliding (`a` was added first).
---@alias sat.PairFilter fun(a: sat.Shape, b: sat.Shape): any

---@alias sat.PairHandler fun(a: sat.Shape, b: sat.Shape, r: sat.Response)

---@alias sat.ExitHandler fun(a: sat.Shape, b: sat.Shape)

-- ---- vectors ------------------------------------------------------------------------------

---A 2D vector. `x` and `y` are readable and writable (finite numbers only); no other field can
---be set. Operators: `a + b`, `a - b`, `-a`, `a * n`, `n * a`, `a / n`, `a == b`, `tostring`.
---@class sat.Vec
---@field x number
---@field y number
---@operator add(sat.Vec): sat.Vec
---@operator sub(sat.Vec): sat.Vec
---@operator unm: sat.Vec
---@operator mul(number): sat.Vec
---@operator div(number): sat.Vec
local Vec = {}

---A new equal vec.
---@return sat.Vec
function Vec:clone() end

---@return number x
---@return number y
function Vec:unpack() end

---`v.x*w.x + v.y*w.y`
---@param w sat.Vec
---@return number
function Vec:dot(w) end

---`v.x*w.y - v.y*w.x`
---@param w sat.Vec
---@return number
function Vec:cross(w) end

---The length (without overflow).
---@return number
function Vec:len() end

---The squared length.
---@return number
function Vec:len2() end

---The distance between the two points.
---@param w sat.Vec
---@return number
function Vec:dist(w) end

---The unit vec of the same direction; the zero vector gives the zero vector.
---@return sat.Vec
function Vec:normalized() end

---`vec(-y, x)`
---@return sat.Vec
function Vec:perp() end

---Turned counter-clockwise (y up) by `a` radians.
---@param a number
---@return sat.Vec
function Vec:rotated(a) end

---The projection onto the line of `w` (a zero `w` gives the zero vector).
---@param w sat.Vec
---@return sat.Vec
function Vec:projectOn(w) end

---`v - 2 (v . n) n`, `n` normalized first (a zero `n` gives `v`).
---@param n sat.Vec
---@return sat.Vec
function Vec:reflect(n) end

-- ---- shapes -------------------------------------------------------------------------------

---A shape: its position is its centroid; rotation and scale pivot about it. A shape takes any
---Lua field (`player.tag = "player"`), except the names of its methods. The field `oneway`, a
---vec, makes it one-way in a world's moves: solid only for a shape moving along that direction
---(the motion it stops; `sat.vec(0, 1)` for a floor, y down) that did not overlap it when its
---move began.
---@class sat.Shape
---@field category integer the bit set the shape is in (default 1; the low 32 bits are kept)
---@field mask integer the categories it meets (default 0xFFFFFFFF)
---@field onEnter? fun(self: sat.Shape, other: sat.Shape, r: sat.Response) a pair begins (`r.a` is self)
---@field onStay? fun(self: sat.Shape, other: sat.Shape, r: sat.Response) a pair lasts (`world:step`)
---@field onExit? fun(self: sat.Shape, other: sat.Shape) a pair ends (also on `world:remove`)
---@field [string] any
local Shape = {}

---Moves the position (the centroid) to `(x, y)`.
---@param x number
---@param y number
---@return self
function Shape:moveTo(x, y) end

---Moves the shape by `(dx, dy)`.
---@param dx number
---@param dy number
---@return self
function Shape:move(dx, dy) end

---The position: the centroid (a circle's centre, a segment's or capsule's midpoint).
---@return number x
---@return number y
function Shape:position() end

---Sets the rotation, in radians, about the position or, given one, about the pivot
---`(cx, cy)` (the position moves on the circle about it).
---@param a number
---@param cx? number the pivot, with `cy`
---@param cy? number
---@return self
function Shape:setRotation(a, cx, cy) end

---Turns the shape by `da` radians about its position or, given one, about the pivot `(cx, cy)`.
---@param da number
---@param cx? number the pivot, with `cy`
---@param cy? number
---@return self
function Shape:rotate(da, cx, cy) end

---The rotation in radians, as given.
---@return number
function Shape:rotation() end

---Multiplies the size by `f > 0` about the position (`sx, sy`: equal, no non-uniform scale).
---@param f number
---@param sy? number must equal `f`
---@return self
function Shape:scale(f, sy) end

---The world bounding box.
---@return number x1
---@return number y1
---@return number x2
---@return number y2
function Shape:bbox() end

---`true` inside or on the boundary.
---@param x number
---@param y number
---@return boolean
function Shape:contains(x, y) end

---The area (0 for a point or a segment; a compound's: its parts' added).
---@return number
function Shape:area() end

---@return sat.Kind
function Shape:kind() end

---An independent copy (geometry, transform, category, mask, a shallow copy of the fields).
---@return self
function Shape:clone() end

---Where the segment from `(x1, y1)` to `(x2, y2)` first enters the shape, as a fraction `t` in
---[0, 1], and the surface normal there; `nil` when it misses. Starting inside hits at `t = 0`.
---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@return number? t
---@return number nx
---@return number ny
function Shape:raycast(x1, y1, x2, y2) end

---`true, mx, my` (the MTV moving this shape out of `other`), or `false, 0, 0`.
---Allocates nothing.
---@param other sat.Shape
---@return boolean hit
---@return number mx
---@return number my
function Shape:collidesWith(other) end

---A convex polygon (also what `sat.box` makes).
---@class sat.Polygon: sat.Shape
local Polygon = {}

---The world coordinates as a flat list `{x1, y1, x2, y2, ...}`, for `love.graphics.polygon`;
---fills and returns `t` when given.
---@param t? number[]
---@return number[]
function Polygon:vertices(t) end

---A circle (`sat.point`: radius 0).
---@class sat.Circle: sat.Shape
local Circle = {}

---The world radius.
---@return number
function Circle:radius() end

---Sets the radius, `r >= 0`.
---@param r number
---@return self
function Circle:setRadius(r) end

---A segment, without thickness.
---@class sat.Segment: sat.Shape
local Segment = {}

---The endpoints in world coordinates, in the order given.
---@return number x1
---@return number y1
---@return number x2
---@return number y2
function Segment:endpoints() end

---The points within a radius of a segment (`scale` scales the radius too).
---@class sat.Capsule: sat.Shape
local Capsule = {}

---The endpoints of its segment in world coordinates, in the order given.
---@return number x1
---@return number y1
---@return number x2
---@return number y2
function Capsule:endpoints() end

---The world radius.
---@return number
function Capsule:radius() end

---Sets the radius, `r >= 0`.
---@param r number
---@return self
function Capsule:setRadius(r) end

---One rigid shape made of convex parts (`sat.concave`, `sat.compound`, `sat.chain`); against
---anything it is the union of its parts.
---@class sat.Compound: sat.Shape
local Compound = {}

---New shapes: copies of the parts in world coordinates.
---@return sat.Shape[]
function Compound:parts() end

---A concave outline: its outline (counter-clockwise, y up); a chain: its points; fills and
---returns `t` when given. A compound of other parts: an error.
---@param t? number[]
---@return number[]
function Compound:vertices(t) end

-- ---- results ------------------------------------------------------------------------------

---What `sat.collide` gives (and `world:collisions`, the callbacks): `normal` is a unit vec from
---`a` toward `b`, `mtv = -normal * overlap` moves `a` out of `b`.
---@class sat.Response
---@field a sat.Shape
---@field b sat.Shape
---@field overlap number the depth, >= 0 (0 when touching)
---@field normal sat.Vec
---@field mtv sat.Vec
---@field aInB boolean `a` lies wholly inside `b`
---@field bInA boolean `b` lies wholly inside `a`
---@field part? integer in the world's results: `b`'s part in contact when it is a compound (its index in `parts()`)
---@field ownPart? integer the same for `a`

---One collision of `world:move`: a response (`a` the moving shape, `b` the other) and more.
---@class sat.Collision: sat.Response
---@field other sat.Shape the shape met (`b`)
---@field type sat.MoveType what the filter answered
---@field x number where the moving shape was when it met the other
---@field y number

---A hit of `world:querySegment`: where the segment enters the shape.
---@class sat.SegmentHit
---@field shape sat.Shape
---@field t number the fraction of the segment, in [0, 1]
---@field x number
---@field y number
---@field nx number the surface normal there
---@field ny number
---@field part? integer the part hit, when the shape is a compound (its index in `parts()`)

---A hit of `world:queryCast`: where the moving shape first touches another.
---@class sat.CastHit
---@field shape sat.Shape
---@field t number the fraction of the motion, in [0, 1] (0: overlapping at the start)
---@field x number the contact point
---@field y number
---@field nx number the normal, from the moving shape toward the other
---@field ny number
---@field mx number the move to the touch
---@field my number
---@field part? integer the other's part hit, when it is a compound (its index in `parts()`)
---@field ownPart? integer the moving shape's own part, when it is a compound

---What a response function (`world:addResponse`) is given: a table the move reuses (read it
---during the call).
---@class sat.Contact
---@field world sat.World
---@field shape sat.Shape the moving shape
---@field other sat.Shape
---@field type string the response's name
---@field nx number the contact normal, unit, from the shape toward the other
---@field ny number
---@field overlap number > 0 when the shape overlapped the other (it is first pushed out), else 0
---@field x number where the shape is at the contact
---@field y number
---@field vx number the motion left after the contact
---@field vy number
---@field dx number the whole motion of the move
---@field dy number
---@field part? integer the other's part met, when it is a compound
---@field ownPart? integer the shape's own part met
---@field pressed number[] the normals `nx1, ny1, nx2, ny2, ...` of the surfaces the shape stopped against since it last moved
---@field npressed integer how many

---The options of `world:push`.
---@class sat.PushOptions
---@field up? sat.Vec|false the platform's up (default `sat.vec(0, -1)`); `false`: carry nothing
---@field maxSlope? number the steepest a rider's support may be, radians (default 50 degrees)
---@field filter? sat.MoveFilter the moves of the shapes carried and pushed (the platform is ignored)
---@field carried? sat.Shape[] a table to fill and return
---@field pushed? sat.Shape[]
---@field crushed? sat.Shape[]

---The options of `world:mover`.
---@class sat.MoverOptions
---@field up? sat.Vec the way up (default `sat.vec(0, -1)`, y down)
---@field maxSlope? number the steepest ground, radians from 0 to pi / 2 (default 50 degrees)
---@field snap? number how far down a move that ended off the ground may reach for it, and how high a step it walks up (default 0)

---A character's moves (`world:mover`): `world:move` with the ground rules of a platformer.
---@class sat.Mover
---@field world sat.World
---@field shape sat.Shape
---@field up sat.Vec writable, read at every move
---@field maxSlope number writable
---@field snap number writable
---@field grounded boolean the last move ended on the ground
---@field ground? sat.Shape that ground
---@field normal sat.Vec the ground's normal, toward the shape (`(0, 0)` off the ground)
local Mover = {}

---`world:move` of the shape with the ground rules: ground (no steeper than `maxSlope`) takes
---only the motion pressing into it along up (no drift standing, a walk keeps its pace across
---a slope); a steeper surface is a wall; a move that began on the ground and ended off it,
---not going up, reaches down by up to `snap` for ground; one kept from going across walks up
---a step (or a slope's foot) up to `snap` high.
---@param dx number
---@param dy number
---@param filter? sat.MoveFilter
---@param cols? sat.Collision[]
---@return number x
---@return number y
---@return sat.Collision[] cols
---@overload fun(self: sat.Mover, dx: number, dy: number, cols: sat.Collision[]): number, number, sat.Collision[]
function Mover:move(dx, dy, filter, cols) end

---What `mover:move` would do, changing nothing (the mover's fields neither).
---@param dx number
---@param dy number
---@param filter? sat.MoveFilter
---@param cols? sat.Collision[]
---@return number x
---@return number y
---@return sat.Collision[] cols
---@overload fun(self: sat.Mover, dx: number, dy: number, cols: sat.Collision[]): number, number, sat.Collision[]
function Mover:check(dx, dy, filter, cols) end

---How a pair test went (`sat.explain`); `tostring` prints it as a table.
---@class sat.Explanation
---@field a sat.Shape
---@field b sat.Shape
---@field hit boolean
---@field axes sat.ExplainAxis[] every axis, in the order tried
---@field deciding? integer the index of the first separating axis, or of the one that gave the MTV
---@field overlap? number on a hit: exactly `sat.collide`'s
---@field normal? sat.Vec on a hit: exactly `sat.collide`'s
---@field containment? number on a hit: the extra distance for a contained shape, else 0

---@class sat.ExplainAxis
---@field nx number
---@field ny number
---@field from "a"|"b" the shape the axis came from
---@field feature string e.g. `"edge 2"`, `"vertex 3"`, `"centre"`
---@field aMin number a's projection on the axis
---@field aMax number
---@field bMin number b's projection
---@field bMax number
---@field overlap number signed: negative is a gap
---@field separates boolean

-- ---- the world ----------------------------------------------------------------------------

---A spatial-hash world: queries, enter/stay/exit callbacks, filters and movement.
---@class sat.World
local World = {}

---Adds a shape; `"static"` shapes never pair with each other. An error if already there.
---@generic T: sat.Shape
---@param shape T
---@param kind? "static"
---@return T
function World:add(shape, kind) end

---Removes a shape, firing exit for each pair it was in.
---@generic T: sat.Shape
---@param shape T
---@return T
function World:remove(shape) end

---@param shape sat.Shape
---@return boolean
function World:has(shape) end

---`true` when added with `"static"` (false when not in the world).
---@param shape sat.Shape
---@return boolean
function World:isStatic(shape) end

---The number of shapes.
---@return integer
function World:count() end

---The shapes, in insertion order; fills and returns `t` when given.
---@param t? sat.Shape[]
---@return sat.Shape[]
function World:shapes(t) end

---@return number
function World:cellSize() end

---The levels of cells holding shapes, ascending (for debug views).
---@param t? integer[]
---@return integer[]
function World:levels(t) end

---The cells in use at a level (default 0) as a flat list `cx, cy, count, ...` (for debug views).
---@param level? integer
---@param t? number[]
---@return number[]
function World:cells(level, t) end

---The shapes containing the point (boundary included), in insertion order.
---@param x number
---@param y number
---@param filter? sat.QueryFilter
---@param t? sat.Shape[] a table to fill and return
---@return sat.Shape[]
---@overload fun(self: sat.World, x: number, y: number, t: sat.Shape[]): sat.Shape[]
function World:queryPoint(x, y, filter, t) end

---The shapes overlapping or touching the rectangle (top-left corner, size >= 0).
---@param x number
---@param y number
---@param w number
---@param h number
---@param filter? sat.QueryFilter
---@param t? sat.Shape[] a table to fill and return
---@return sat.Shape[]
---@overload fun(self: sat.World, x: number, y: number, w: number, h: number, t: sat.Shape[]): sat.Shape[]
function World:queryRect(x, y, w, h, filter, t) end

---Every shape the segment meets, sorted along it (ties in insertion order).
---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@param filter? sat.QueryFilter
---@param t? sat.SegmentHit[] a table to fill and return (its hit tables reused)
---@return sat.SegmentHit[]
---@overload fun(self: sat.World, x1: number, y1: number, x2: number, y2: number, t: sat.SegmentHit[]): sat.SegmentHit[]
function World:querySegment(x1, y1, x2, y2, filter, t) end

---The shapes overlapping or touching it (not itself; it need not be in the world).
---@param shape sat.Shape
---@param filter? sat.QueryFilter
---@param t? sat.Shape[] a table to fill and return
---@return sat.Shape[]
---@overload fun(self: sat.World, shape: sat.Shape, t: sat.Shape[]): sat.Shape[]
function World:queryShape(shape, filter, t) end

---The broad phase's candidates: shapes whose bounding boxes overlap or touch the shape's.
---@param shape sat.Shape
---@param filter? sat.QueryFilter
---@param t? sat.Shape[] a table to fill and return
---@return sat.Shape[]
---@overload fun(self: sat.World, shape: sat.Shape, t: sat.Shape[]): sat.Shape[]
function World:neighbors(shape, filter, t) end

---The responses of the shape with every shape it collides with (`r.a` is the shape), filtered
---as `step` filters.
---@param shape sat.Shape
---@param t? sat.Response[] a table to fill and return (its response tables reused)
---@return sat.Response[]
function World:collisions(shape, t) end

---Sets the handler of an event (one per event; `nil` removes it): `fn(a, b, r)`, for exit
---`fn(a, b)`.
---@param event "enter"|"stay"
---@param fn sat.PairHandler?
---@return self
---@overload fun(self: sat.World, event: "exit", fn: sat.ExitHandler?): sat.World
function World:on(event, fn) end

---Sets the world filter (`nil` removes it).
---@param fn sat.PairFilter?
---@return self
function World:setFilter(fn) end

---Finds every colliding pair and fires exit, then enter or stay, in pair order.
---@return integer pairs the number of colliding pairs
function World:step() end

---Moves a shape of the world by `(dx, dy)`, sliding along (or stopping at, or crossing) what it
---meets, without tunnelling.
---@param shape sat.Shape
---@param dx number
---@param dy number
---@param filter? sat.MoveFilter
---@param cols? sat.Collision[] a table to fill and return (its collision tables reused)
---@return number x the final position
---@return number y
---@return sat.Collision[] cols what it met, in order, each other shape once
---@overload fun(self: sat.World, shape: sat.Shape, dx: number, dy: number, cols: sat.Collision[]): number, number, sat.Collision[]
function World:move(shape, dx, dy, filter, cols) end

---What `world:move` would do (the same position and collisions, bit for bit), changing
---nothing: the shape stays, and the next step sees no change.
---@param shape sat.Shape
---@param dx number
---@param dy number
---@param filter? sat.MoveFilter
---@param cols? sat.Collision[]
---@return number x where the move would end
---@return number y
---@return sat.Collision[] cols
---@overload fun(self: sat.World, shape: sat.Shape, dx: number, dy: number, cols: sat.Collision[]): number, number, sat.Collision[]
function World:check(shape, dx, dy, filter, cols) end

---Every shape the shape would touch moving by `(dx, dy)`, with no response, in the order met;
---those it overlaps at the start at `t = 0`. Any shape, in the world or not (never itself).
---@param shape sat.Shape
---@param dx number
---@param dy number
---@param filter? sat.QueryFilter
---@param t? sat.CastHit[] a table to fill and return (its hit tables reused)
---@return sat.CastHit[]
---@overload fun(self: sat.World, shape: sat.Shape, dx: number, dy: number, t: sat.CastHit[]): sat.CastHit[]
function World:queryCast(shape, dx, dy, filter, t) end

---A response of the game's own, for the move filters to answer with `name` (a built-in's name
---replaces it in this world).
---@param name string
---@param fn sat.ResponseFn
---@return sat.World self
function World:addResponse(name, fn) end

---Moves the shape as a platform, a door or a crusher (nothing stops it): what stands on it is
---carried, what is in its way pushed (each sliding against the rest of the world), what
---cannot get out crushed (moved out of it by the minimum translation, and listed).
---@param shape sat.Shape
---@param dx number
---@param dy number
---@param options? sat.PushOptions
---@return sat.Shape[] carried
---@return sat.Shape[] pushed
---@return sat.Shape[] crushed
function World:push(shape, dx, dy, options) end

---A character mover for a shape of this world (ground, slopes, snap).
---@param shape sat.Shape
---@param options? sat.MoverOptions
---@return sat.Mover
function World:mover(shape, options) end

---A hash of everything that decides the world's future (every shape's exact transform, kind
---and geometry, static flag, filter bits, the membership and its order, the pairs told): equal
---worlds give equal digests on every platform and backend (docs/determinism.md).
---@return string digest 16 hex digits
function World:digest() end

---What `restore` puts back: the membership in order, static flags, exact transforms, filter
---bits, the pairs told. Not the game's own fields, the handlers or the setFilter function.
---@class sat.Snapshot

---Copies the world's state into `t` (reused with no garbage) or a new table.
---@param t? sat.Snapshot
---@return sat.Snapshot snap
function World:snapshot(t) end

---Puts back the state `snap` took: shapes added since leave, those removed come back in their
---order; no event fires. Replaying the same calls then gives the same bits and events.
---@param snap sat.Snapshot
---@return self
function World:restore(snap) end

-- ---- sat.debug ----------------------------------------------------------------------------

---A colour `{r, g, b [, a]}` in LÖVE 11's 0..1 range.
---@alias sat.debug.Color number[]

---@class sat.debug.Colors
---@field shape sat.debug.Color outlines
---@field fill sat.debug.Color interiors
---@field bbox sat.debug.Color
---@field cell sat.debug.Color a cell in use
---@field cellFill sat.debug.Color per shape touching the cell
---@field normal sat.debug.Color
---@field mtv sat.debug.Color
---@field a sat.debug.Color explain: the first shape
---@field b sat.debug.Color explain: the second shape
---@field axis sat.debug.Color explain: the axes
---@field gap sat.debug.Color explain: a separating gap
---@field contact sat.debug.Color explain: the contact points

---Overrides of `sat.debug.colors` for one call.
---@class sat.debug.ColorOverrides
---@field shape? sat.debug.Color
---@field fill? sat.debug.Color
---@field bbox? sat.debug.Color
---@field cell? sat.debug.Color
---@field cellFill? sat.debug.Color
---@field normal? sat.debug.Color
---@field mtv? sat.debug.Color
---@field a? sat.debug.Color
---@field b? sat.debug.Color
---@field axis? sat.debug.Color
---@field gap? sat.debug.Color
---@field contact? sat.debug.Color

---@class sat.debug.DrawWorldOptions
---@field shapes? boolean outlines of every shape (default true)
---@field fill? boolean fill them too
---@field bboxes? boolean bounding boxes
---@field cells? boolean the hash cells in use, drawn first
---@field contacts? boolean the normal and MTV of every colliding pair
---@field responses? sat.Response[] draw these responses instead of asking the world
---@field color? fun(shape: sat.Shape): sat.debug.Color? a per-shape colour
---@field colors? sat.debug.ColorOverrides
---@field normalLength? number
---@field mtvScale? number

---@class sat.debug.ResponseOptions
---@field normalLength? number the normal's drawn length (default `sat.debug.normalLength`)
---@field mtvScale? number the MTV's scale (default 1)
---@field colors? sat.debug.ColorOverrides `normal` and `mtv`

---A cell of the spatial hash in use (`sat.debug.cells`).
---@class sat.debug.Cell
---@field x number the top-left corner, in world units
---@field y number
---@field size number
---@field count integer the shapes filed in it
---@field cx integer cell coordinates
---@field cy integer
---@field level integer

---Drawing helpers for LÖVE (loaded on first access of `sat.debug`); `cells` and `contacts`
---work without LÖVE. Sizes are in world units.
---@class sat.debug
---@field colors sat.debug.Colors the default colours (change them in place)
---@field normalLength number
---@field arrowHead number
---@field arrowWidth number
---@field mtvMin number an MTV shorter than this is not drawn
---@field capSteps integer points along each round end of a capsule
---@field partAlpha number a compound's parts drawn at this fraction of its alpha
---@field axisGap number explain: the first ruler this far beyond the shapes
---@field axisStep number explain: a nearly parallel axis's ruler this much farther
---@field axisSpread number explain: "nearly parallel", in radians
---@field barOffset number explain: a projection this far off its ruler
---@field barWidth number explain: and this wide
---@field contactRadius number explain: contact points this big
---@field explainFill number explain: the shapes' fill alpha
local Debug = {}

---Draws every shape of the world; returns the number of pairs drawn.
---@param world sat.World
---@param options? sat.debug.DrawWorldOptions
---@return integer
function Debug.drawWorld(world, options) end

---@param shape sat.Shape
---@param mode? "line"|"fill"
---@param color? sat.debug.Color
function Debug.drawShape(shape, mode, color) end

---@param shape sat.Shape
---@param color? sat.debug.Color
function Debug.drawBBox(shape, color) end

---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@param color? sat.debug.Color
function Debug.drawArrow(x1, y1, x2, y2, color) end

---Draws a response's normal and MTV from the contact.
---@param r sat.Response
---@param options? sat.debug.ResponseOptions
function Debug.drawResponse(r, options) end

---@param world sat.World
---@param color? sat.debug.Color
---@param fillColor? sat.debug.Color
function Debug.drawCells(world, color, fillColor) end

---Draws how the pair test of `a` and `b` went, its rulers about `(x, y)`; returns the
---explanation.
---@param a sat.Shape
---@param b sat.Shape
---@param x? number
---@param y? number
---@return sat.Explanation
function Debug.explain(a, b, x, y) end

---The hash cells in use (no LÖVE needed).
---@param world sat.World
---@return sat.debug.Cell[]
function Debug.cells(world) end

---Every colliding pair's response once, in world order (no LÖVE needed).
---@param world sat.World
---@return sat.Response[]
function Debug.contacts(world) end

-- ---- sat.level ----------------------------------------------------------------------------

---How tiles are merged: rectangles (`"rects"`: each row's runs, merged down where the next
---row's run spans the same columns; `"greedy"`; `"rows"`; `"columns"`; `"none"`: a box per
---tile), or outlines (`"concave"`: a `sat.concave` per piece of a region, cut where it has a
---hole or touches itself; `"chain"`: every boundary loop as a closed `sat.chain`, the surface
---only).
---@alias sat.level.Merge "rects"|"greedy"|"rows"|"columns"|"none"|"concave"|"chain"

---@class sat.level.GridOptions
---@field solid? table|fun(value: any, col: integer, row: integer): any which values are solid: a set or a test (default: a character other than " " and ".", a value other than nil, false and 0)
---@field merge? sat.level.Merge default `"rects"`
---@field maxSpan? number the most tiles a merged rectangle spans along x and y (`math.huge`: no limit); by default as many as keep it within two of the world's hash cells
---@field static? boolean `false`: added as moving shapes (default `true`)
---@field fields? table fields given to every shape
---@field x? number where the grid's top-left corner is (default 0)
---@field y? number

---@class sat.level.TiledOptions
---@field merge? sat.level.Merge for tile layers (default `"rects"`)
---@field maxSpan? number as for `grid`
---@field static? boolean `false`: added as moving shapes (default `true`)
---@field fields? table fields given to every shape
---@field x? number moves the whole map
---@field y? number
---@field property? string the property that makes a layer, tile or object solid (default `"collidable"`, STI's)
---@field ellipseSides? integer the vertices of an ellipse that is not round (a multiple of 4 from 4 to 64, default 24)

---Level geometry from tile grids and Tiled maps (loaded on first access of `sat.level`).
---@class sat.level
local Level = {}

---The solid tiles of a grid (rows of characters or of values), merged into few shapes whose
---union is exactly the solid area, added to the world; the shapes in reading order.
---@param world sat.World
---@param grid (string|any[])[]
---@param tileW number
---@param tileH number
---@param options? sat.level.GridOptions
---@return sat.Shape[]
function Level.grid(world, grid, tileW, tileH, options) end

---A Tiled map (its Lua export, a decoded JSON export, or an STI map) as shapes added to the
---world: what STI's `collidable = true` (on a layer, a tile or an object) makes solid; tile
---layers merged. Each shape gets `name`, `type`/`class`, `id` and the custom properties as
---fields. Returns the shapes and the warnings (what was skipped, and why).
---@param world sat.World
---@param map table
---@param options? sat.level.TiledOptions
---@return sat.Shape[] shapes
---@return string[] warnings
function Level.tiled(world, map, options) end

-- ---- the module ---------------------------------------------------------------------------

---The core in use: the C module, or the pure-Lua backend's module with the same keys
---(`sat.core.test` and `sat.core.collide` are always the core's own functions).
---@class sat.core
---@field _VERSION string
local core = {}

---A vector; missing coordinates are 0.
---@param x? number
---@param y? number
---@return sat.Vec
function core.vec(x, y) end

---A circle centred at `(x, y)`, `r >= 0`.
---@param x number
---@param y number
---@param r number
---@return sat.Circle
function core.circle(x, y, r) end

---A circle of radius 0.
---@param x number
---@param y number
---@return sat.Circle
function core.point(x, y) end

---A convex polygon (either winding; points closer than 1e-9 of its size merged, collinear
---ones dropped).
---@param ... number x1, y1, x2, y2, ...
---@return sat.Polygon
---@overload fun(points: sat.Points): sat.Polygon
function core.polygon(...) end

---The rectangle with top-left corner `(x, y)` and size `w, h > 0`, as a polygon.
---@param x number
---@param y number
---@param w number
---@param h number
---@return sat.Polygon
function core.box(x, y, w, h) end

---The segment between two different points.
---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@return sat.Segment
function core.segment(x1, y1, x2, y2) end

---The points within `r >= 0` of the segment.
---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@param r number
---@return sat.Capsule
function core.capsule(x1, y1, x2, y2, r) end

---Any simple outline (concave or convex, either winding) as one compound of convex parts.
---@param ... number x1, y1, x2, y2, ...
---@return sat.Compound
---@overload fun(points: sat.Points): sat.Compound
function core.concave(...) end

---One rigid compound of copies of the shapes.
---@param shapes sat.Shape[]
---@return sat.Compound
function core.compound(shapes) end

---A compound of the segments between consecutive points; `closed`: back to the first.
---@param points sat.Points
---@param closed? boolean
---@return sat.Compound
function core.chain(points, closed) end

---`true` when the shapes overlap or touch. Allocates nothing.
---@param a sat.Shape
---@param b sat.Shape
---@return boolean
function core.test(a, b) end

---A response, or `nil` when apart; given `response` (a table, or a response returned before),
---fills and returns it, reusing its vecs.
---@param a sat.Shape
---@param b sat.Shape
---@param response? sat.Response|table
---@return sat.Response?
function core.collide(a, b, response) end

---Where the shapes touch: `n` = 0 (apart), 1 or 2 points.
---@param a sat.Shape
---@param b sat.Shape
---@return integer n
---@return number x1 (absent when n is 0)
---@return number y1
---@return number x2 (absent when n is 0 or 1)
---@return number y2
function core.contacts(a, b) end

---When `a` moving by `(dx, dy)` (and `b` by `(bdx, bdy)`) first touches `b`: `t` in [0, 1],
---the normal and the contact point; `nil` when it never does.
---@param a sat.Shape
---@param dx number
---@param dy number
---@param b sat.Shape
---@param bdx? number
---@param bdy? number
---@return number? t
---@return number nx
---@return number ny
---@return number x
---@return number y
function core.sweep(a, dx, dy, b, bdx, bdy) end

---How the pair test went: every axis, both projections, the verdict.
---@param a sat.Shape
---@param b sat.Shape
---@return sat.Explanation
function core.explain(a, b) end

---`true` for a shape, never an error.
---@param v any
---@return boolean
function core.isShape(v) end

---`true` for a vec, never an error.
---@param v any
---@return boolean
function core.isVec(v) end

---@class sat: sat.core
---@field _VERSION string `"sat 0.1.0"`
---@field _DESCRIPTION string
---@field _LICENSE string `"MIT"`
---@field core sat.core the core in use: the C module or the pure-Lua backend's
---@field backend "native"|"lua" which core runs: forced by `SAT_BACKEND` (a global set before the first `require("sat")`, else the environment variable)
---@field nativeError string|false why the native module did not load (its loader's message), when sat fell back on the pure backend
---@field debug sat.debug the LÖVE drawing helpers, loaded on first access
---@field level sat.level levels from tile grids and Tiled maps, loaded on first access
local sat = {}

---A new world, cell size default 64 (about a typical shape's size), from 1e-100 to 1e150.
---@param cellSize? number
---@return sat.World
function sat.world(cellSize) end

return sat
