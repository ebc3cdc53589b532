#!/usr/bin/env python3
"""Generates the bundled default level, assets/arena.glb, and its feature list,
assets/arena.features.json (world coordinates of every feature, for scenario tests).

Python 3 standard library only; deterministic (same bytes on every run).

    scripts/make_default_level.py [OUT_DIR]      # default OUT_DIR: <repo>/assets

Frame: glTF's own, right-handed, Y up, metres. The floor top is y = 0. Yaw 0 looks along -Z.

The level doubles as test geometry for the character controller. Layout seen from above
(x to the right, z towards the viewer; the spawn at (0, 0, 8) looks along -Z, at the stairs and
ramps):

    z = -30 +------------------------------------------------------------+  outer walls 6 m
            |  stairs 10/20/30/45 cm    thin wall    ramps 15/30/45/60 deg |
            |  (x -27..-13, z -6..-2)   (z = -4)     (x 2.5..20.5, z < -2) |
    z =   0 |                                   spawn (0,0,8)             |
            |        fence_nocollide + UCX_fence (z = 6)  pillars (x 20..24)|
            |  crouch corridor (x -26..-18)      pit (x,z 10..14)         |
    z =  20 |  overhang (x -14..-8)  doorway wall (z = 20)  ledge 1 m      |
            |                                       void shaft (x,z 24..27)|
    z = +30 +------------------------------------------------------------+

Naming conventions exercised (see src/level/level_conventions.md): nodes or materials whose
name contains `nocollide` are drawn but do not collide (the `decor_nocollide` group passes it
to its children); `UCX_fence` collides but is not drawn; the node `spawn` is the spawn point.
The pillars are one mesh used by four nodes (instancing). The floor has an embedded PNG
texture; every other material is a base colour.
"""
import json
import math
import os
import struct
import sys
import zlib

# ---------------------------------------------------------------------------------------------
# Geometry helpers. All faces are wound counter-clockwise seen from the front (glTF's rule);
# add_quad/add_tri check the winding against the wanted normal and fix it.


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def norm(a):
    n = math.sqrt(dot(a, a))
    return (a[0] / n, a[1] / n, a[2] / n)


def r6(v):
    """Round so the output does not depend on float noise in the arithmetic above."""
    return round(v, 6) + 0.0


class Mesh:
    def __init__(self, name, material, with_uv=False, uv_scale=0.25):
        self.name = name
        self.material = material
        self.with_uv = with_uv
        self.uv_scale = uv_scale
        self.pos, self.nrm, self.uv, self.idx = [], [], [], []

    def _vert(self, p, n):
        self.pos.append(tuple(r6(c) for c in p))
        self.nrm.append(tuple(r6(c) for c in n))
        # Planar world-space mapping on the face's dominant axis.
        ax = max(range(3), key=lambda k: abs(n[k]))
        u, v = [(0, 2), (0, 2), (0, 1)][ax] if ax != 0 else (2, 1)
        self.uv.append((r6(p[u] * self.uv_scale), r6(p[v] * self.uv_scale)))
        return len(self.pos) - 1

    def add_poly(self, pts, normal):
        """Convex planar polygon, fan-triangulated, facing `normal`."""
        n = norm(cross(sub(pts[1], pts[0]), sub(pts[2], pts[0])))
        if dot(n, normal) < 0:
            pts = list(reversed(pts))
        normal = norm(normal)
        base = [self._vert(p, normal) for p in pts]
        for k in range(1, len(base) - 1):
            self.idx += [base[0], base[k], base[k + 1]]

    def add_box(self, lo, hi, skip=()):
        """Axis-aligned box, outward faces. `skip`: faces to leave out, e.g. {'-y'}."""
        x0, y0, z0 = lo
        x1, y1, z1 = hi
        faces = {
            '+x': ([(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)], (1, 0, 0)),
            '-x': ([(x0, y0, z0), (x0, y1, z0), (x0, y1, z1), (x0, y0, z1)], (-1, 0, 0)),
            '+y': ([(x0, y1, z0), (x1, y1, z0), (x1, y1, z1), (x0, y1, z1)], (0, 1, 0)),
            '-y': ([(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)], (0, -1, 0)),
            '+z': ([(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)], (0, 0, 1)),
            '-z': ([(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0)], (0, 0, -1)),
        }
        for key in ('+x', '-x', '+y', '-y', '+z', '-z'):
            if key not in skip:
                self.add_poly(*faces[key])

    def add_cylinder(self, radius, height, sides=16):
        """Vertical prism around the local origin, from y = 0 to y = height."""
        ring = [(radius * math.cos(2 * math.pi * k / sides), radius * math.sin(2 * math.pi * k / sides))
                for k in range(sides)]
        for k in range(sides):
            (ax, az), (bx, bz) = ring[k], ring[(k + 1) % sides]
            mid = ((ax + bx) / 2, 0, (az + bz) / 2)
            self.add_poly([(ax, 0, az), (bx, 0, bz), (bx, height, bz), (ax, height, az)], mid)
        self.add_poly([(x, height, z) for x, z in ring], (0, 1, 0))
        self.add_poly([(x, 0, z) for x, z in ring], (0, -1, 0))

    def add_ramp(self, x0, x1, z_foot, run, height):
        """Wedge rising along -Z from (y 0, z_foot) to (y height, z_foot - run)."""
        zt = z_foot - run
        self.add_poly([(x0, 0, z_foot), (x1, 0, z_foot), (x1, height, zt), (x0, height, zt)],
                      (0, run, height))
        self.add_poly([(x0, 0, z_foot), (x0, 0, zt), (x0, height, zt)], (-1, 0, 0))
        self.add_poly([(x1, 0, z_foot), (x1, 0, zt), (x1, height, zt)], (1, 0, 0))
        self.add_poly([(x0, 0, zt), (x1, 0, zt), (x1, height, zt), (x0, height, zt)], (0, 0, -1))
        self.add_poly([(x0, 0, z_foot), (x1, 0, z_foot), (x1, 0, zt), (x0, 0, zt)], (0, -1, 0))


# ---------------------------------------------------------------------------------------------
# The level. Every number that a scenario test may need goes into `features` as well.

ARENA = 30.0          # inner half-size: the floor inside the walls is x, z in [-30, 30]
WALL_H = 6.0
SLAB = 1.0            # floor slab thickness (y from -1 to 0)
PIT = (10.0, 14.0)    # pit x and z range
PIT_DEPTH = 2.0
SHAFT = (24.0, 27.0)  # bottomless shaft x and z range (to the kill plane)
# The controller's defaults (include/octree_fps/controller/controller_params.h) the features are sized for.
CHARACTER = {'radius': 0.35, 'height': 1.8, 'crouch_height': 1.0, 'step_height': 0.35,
             'max_slope_deg': 45.0, 'jump_height': 1.22}
STEP = CHARACTER['step_height']
SLOPE = CHARACTER['max_slope_deg']

materials = [
    # name, base colour (linear RGBA), textured
    ('floor', (0.55, 0.55, 0.55, 1.0), True),
    ('wall', (0.70, 0.68, 0.62, 1.0), False),
    ('stairs', (0.85, 0.55, 0.20, 1.0), False),
    ('ramp', (0.25, 0.45, 0.80, 1.0), False),
    ('thin_wall', (0.80, 0.20, 0.20, 1.0), False),
    ('corridor', (0.50, 0.35, 0.60, 1.0), False),
    ('pillar', (0.90, 0.90, 0.85, 1.0), False),
    ('ledge', (0.30, 0.65, 0.35, 1.0), False),
    ('pit', (0.35, 0.30, 0.28, 1.0), False),
    ('decor_nocollide', (0.30, 0.80, 0.30, 1.0), False),
    ('fence_wood', (0.55, 0.40, 0.25, 1.0), False),
    ('collider', (1.00, 0.00, 1.00, 0.5), False),
]
MAT = {m[0]: i for i, m in enumerate(materials)}

meshes = []       # Mesh objects, index = glTF mesh index
nodes = []        # dicts: name, mesh (index or None), translation
features = {}


def node(name, mesh=None, translation=None, rotation=None):
    n = {'name': name}
    if mesh is not None:
        n['mesh'] = mesh
    if translation is not None:
        n['translation'] = [r6(c) for c in translation]
    if rotation is not None:
        n['rotation'] = [r6(c) for c in rotation]
    nodes.append(n)
    return len(nodes) - 1


def mesh_node(name, mesh):
    meshes.append(mesh)
    return node(name, len(meshes) - 1)


def rect_cells(outer, holes):
    """Splits the rectangle `outer` (x0, z0, x1, z1) minus `holes` into rectangles."""
    xs = sorted({outer[0], outer[2]} | {h[k] for h in holes for k in (0, 2)})
    zs = sorted({outer[1], outer[3]} | {h[k] for h in holes for k in (1, 3)})
    cells = []
    for j in range(len(zs) - 1):
        run = None
        for i in range(len(xs) - 1):
            cx, cz = (xs[i] + xs[i + 1]) / 2, (zs[j] + zs[j + 1]) / 2
            inside_hole = any(h[0] < cx < h[2] and h[1] < cz < h[3] for h in holes)
            if not inside_hole:
                run = [run[0], xs[i + 1]] if run else [xs[i], xs[i + 1]]
            elif run:
                cells.append((run[0], zs[j], run[1], zs[j + 1]))
                run = None
        if run:
            cells.append((run[0], zs[j], run[1], zs[j + 1]))
    return cells


def build():
    root_children = []

    # Floor slab: top and bottom faces cell by cell, outer edges, and the slab edges around
    # the two holes (pit and shaft), all in one textured mesh.
    e = ARENA + 1.0
    holes = [(PIT[0], PIT[0], PIT[1], PIT[1]), (SHAFT[0], SHAFT[0], SHAFT[1], SHAFT[1])]
    floor = Mesh('floor', MAT['floor'], with_uv=True)
    for x0, z0, x1, z1 in rect_cells((-e, -e, e, e), holes):
        floor.add_poly([(x0, 0, z0), (x1, 0, z0), (x1, 0, z1), (x0, 0, z1)], (0, 1, 0))
        floor.add_poly([(x0, -SLAB, z0), (x1, -SLAB, z0), (x1, -SLAB, z1), (x0, -SLAB, z1)], (0, -1, 0))
    for (x0, z0, x1, z1), inward in [((-e, -e, e, e), False)] + [(h, True) for h in holes]:
        s = -1 if inward else 1  # hole edges face into the hole
        floor.add_poly([(x1, -SLAB, z0), (x1, 0, z0), (x1, 0, z1), (x1, -SLAB, z1)], (s, 0, 0))
        floor.add_poly([(x0, -SLAB, z0), (x0, 0, z0), (x0, 0, z1), (x0, -SLAB, z1)], (-s, 0, 0))
        floor.add_poly([(x0, -SLAB, z1), (x1, -SLAB, z1), (x1, 0, z1), (x0, 0, z1)], (0, 0, s))
        floor.add_poly([(x0, -SLAB, z0), (x1, -SLAB, z0), (x1, 0, z0), (x0, 0, z0)], (0, 0, -s))
    root_children.append(mesh_node('floor', floor))
    features['floor'] = {'top_y': 0.0, 'slab_bottom_y': -SLAB, 'x_range': [-ARENA, ARENA],
                         'z_range': [-ARENA, ARENA], 'texture': 'embedded PNG checker, 0.5 m squares'}

    walls = Mesh('outer_walls', MAT['wall'])
    walls.add_box((-e, 0, -e), (e, WALL_H, -ARENA), skip={'-y'})
    walls.add_box((-e, 0, ARENA), (e, WALL_H, e), skip={'-y'})
    walls.add_box((-e, 0, -ARENA), (-ARENA, WALL_H, ARENA), skip={'-y'})
    walls.add_box((ARENA, 0, -ARENA), (e, WALL_H, ARENA), skip={'-y'})
    root_children.append(mesh_node('outer_walls', walls))
    features['outer_walls'] = {'inner_faces': {'x': [-ARENA, ARENA], 'z': [-ARENA, ARENA]},
                               'height': WALL_H, 'thickness': 1.0}

    # Stairs: 5 steps each, tread 0.4 m, 2 m wide, climbing towards -Z from z = -2, then a 2 m
    # landing at the top height.
    features['stairs'] = []
    for xc, rise in [(-26.0, 0.10), (-22.0, 0.20), (-18.0, 0.30), (-14.0, 0.45)]:
        cm = int(round(rise * 100))
        st = Mesh('stairs_%dcm' % cm, MAT['stairs'])
        steps, tread, z0 = 5, 0.4, -2.0
        for k in range(1, steps + 1):
            st.add_box((xc - 1, 0, z0 - k * tread), (xc + 1, k * rise, z0 - (k - 1) * tread), skip={'-y'})
        top = steps * rise
        zl = z0 - steps * tread
        st.add_box((xc - 1, 0, zl - 2.0), (xc + 1, top, zl), skip={'-y'})
        root_children.append(mesh_node('stairs_%dcm' % cm, st))
        features['stairs'].append({
            'name': 'stairs_%dcm' % cm, 'rise': rise, 'steps': steps, 'tread': tread,
            'x_range': [xc - 1, xc + 1], 'first_riser_z': z0, 'climb_direction': [0, 0, -1],
            'step_top_y': [r6(k * rise) for k in range(1, steps + 1)],
            'landing_y': r6(top), 'landing_z_range': [r6(zl - 2.0), r6(zl)],
            'approach_from': [xc, 0.0, 0.0], 'landing_centre': [xc, r6(top), r6(zl - 1.0)],
            'expect': 'walks up' if rise <= STEP else 'blocked without jumping'})

    # Ramps: 3 m wide, rising 2 m towards -Z from z = -2, then a 2 m landing.
    features['ramps'] = []
    for xc, deg in [(4.0, 15), (9.0, 30), (14.0, 45), (19.0, 60)]:
        height, z0 = 2.0, -2.0
        run = height / math.tan(math.radians(deg))
        rp = Mesh('ramp_%ddeg' % deg, MAT['ramp'])
        rp.add_ramp(xc - 1.5, xc + 1.5, z0, run, height)
        rp.add_box((xc - 1.5, 0, z0 - run - 2.0), (xc + 1.5, height, z0 - run), skip={'-y'})
        root_children.append(mesh_node('ramp_%ddeg' % deg, rp))
        features['ramps'].append({
            'name': 'ramp_%ddeg' % deg, 'angle_deg': deg, 'x_range': [xc - 1.5, xc + 1.5],
            'foot_z': z0, 'top_z': r6(z0 - run), 'top_y': height, 'climb_direction': [0, 0, -1],
            'landing_z_range': [r6(z0 - run - 2.0), r6(z0 - run)],
            'approach_from': [xc, 0.0, 0.0], 'landing_centre': [xc, height, r6(z0 - run - 1.0)],
            'expect': ('walks up' if deg < SLOPE else
                       'edge case: equals the default max_slope' if deg == SLOPE else
                       'slides back, not walkable')})

    # A 1 cm thin wall: a fast character must not tunnel through it.
    tw = Mesh('thin_wall_1cm', MAT['thin_wall'])
    tw.add_box((-10.0, 0, -4.005), (-4.0, 3.0, -3.995), skip={'-y'})
    root_children.append(mesh_node('thin_wall_1cm', tw))
    features['thin_wall'] = {'name': 'thin_wall_1cm', 'x_range': [-10.0, -4.0],
                             'z_range': [-4.005, -3.995], 'height': 3.0, 'thickness': 0.01,
                             'walk_into_from': [-7.0, 0.0, 0.0], 'direction': [0, 0, -1],
                             'expect': 'blocked at any speed (no tunnelling)'}

    # Low corridor along X: 2 m wide inside, 1.2 m clear height: crouch to pass.
    cor = Mesh('crouch_corridor', MAT['corridor'])
    cor.add_box((-26.0, 0, 11.7), (-18.0, 1.2, 12.0), skip={'-y'})
    cor.add_box((-26.0, 0, 14.0), (-18.0, 1.2, 14.3), skip={'-y'})
    cor.add_box((-26.0, 1.2, 11.7), (-18.0, 1.5, 14.3))
    root_children.append(mesh_node('crouch_corridor', cor))
    features['crouch_corridor'] = {'name': 'crouch_corridor', 'x_range': [-26.0, -18.0],
                                   'inner_z_range': [12.0, 14.0], 'clear_height': 1.2,
                                   'roof_y_range': [1.2, 1.5], 'enter_from': [-16.0, 0.0, 13.0],
                                   'exit_to': [-28.0, 0.0, 13.0], 'direction': [-1, 0, 0],
                                   'expect': 'passes crouched (1.0 m), blocked standing (1.8 m)'}

    # Wall with a narrow doorway (0.8 m: passes a 0.35 m radius capsule) and a gap too narrow
    # to pass (0.5 m).
    dw = Mesh('doorway_wall', MAT['wall'])
    for x0, x1 in [(-6.0, -2.4), (-1.6, 1.75), (2.25, 6.0)]:
        dw.add_box((x0, 0, 19.9), (x1, 3.0, 20.1), skip={'-y'})
    for x0, x1 in [(-2.4, -1.6), (1.75, 2.25)]:
        dw.add_box((x0, 2.0, 19.9), (x1, 3.0, 20.1))
    root_children.append(mesh_node('doorway_wall', dw))
    features['doorway'] = {'name': 'doorway_wall', 'wall_z_range': [19.9, 20.1],
                           'wall_x_range': [-6.0, 6.0], 'wall_height': 3.0,
                           'door_x_range': [-2.4, -1.6], 'door_width': 0.8, 'door_height': 2.0,
                           'walk_through_from': [-2.0, 0.0, 17.0], 'direction': [0, 0, 1],
                           'expect': 'passes (0.7 m capsule, 5 cm each side)'}
    features['narrow_gap'] = {'name': 'doorway_wall', 'x_range': [1.75, 2.25], 'width': 0.5,
                              'height': 2.0, 'z_range': [19.9, 20.1], 'passable': False,
                              'walk_into_from': [2.0, 0.0, 17.0], 'direction': [0, 0, 1],
                              'expect': 'blocked'}

    # Pillars: one mesh, four nodes (instancing).
    pillar = Mesh('pillar', MAT['pillar'])
    pillar.add_cylinder(0.5, 4.0)
    meshes.append(pillar)
    pm = len(meshes) - 1
    features['pillars'] = []
    for i, (x, z) in enumerate([(20.0, 4.0), (24.0, 4.0), (20.0, 8.0), (24.0, 8.0)]):
        root_children.append(node('pillar_%d' % (i + 1), pm, (x, 0.0, z)))
        features['pillars'].append({'name': 'pillar_%d' % (i + 1), 'centre': [x, 0.0, z],
                                    'radius': 0.5, 'height': 4.0, 'sides': 16})

    # Pit 2 m deep with stairs of 0.25 m rises back up along its +Z side (so it is no trap).
    pit = Mesh('pit', MAT['pit'])
    a, b = PIT
    bottom = -PIT_DEPTH
    pit.add_box((a - 0.5, bottom - 0.5, a - 0.5), (b + 0.5, bottom, b + 0.5))
    for lo, hi in [((a - 0.5, bottom, a - 0.5), (a, -SLAB, b + 0.5)),
                   ((b, bottom, a - 0.5), (b + 0.5, -SLAB, b + 0.5)),
                   ((a, bottom, a - 0.5), (b, -SLAB, a)),
                   ((a, bottom, b), (b, -SLAB, b + 0.5))]:
        pit.add_box(lo, hi)
    for j in range(1, 9):
        pit.add_box((a, bottom, b - 1.0), (a + (9 - j) * 0.4, bottom + j * 0.25, b), skip={'-y'})
    root_children.append(mesh_node('pit', pit))
    features['pit'] = {'name': 'pit', 'x_range': list(PIT), 'z_range': list(PIT),
                       'bottom_y': bottom, 'depth': PIT_DEPTH, 'fall_in_at': [12.0, 0.0, 11.5],
                       'exit_stairs': {'x_range': [a, a + 3.2], 'z_range': [b - 1.0, b],
                                       'rise': 0.25, 'tread': 0.4, 'steps': 8,
                                       'climb_direction': [-1, 0, 0]}}

    features['void_shaft'] = {'x_range': list(SHAFT), 'z_range': list(SHAFT),
                              'note': 'bottomless: a character falls to the kill plane and respawns',
                              'fall_in_at': [25.5, 0.0, 25.5]}

    ledge = Mesh('jump_ledge_1m', MAT['ledge'])
    ledge.add_box((16.0, 0, 18.0), (19.0, 1.0, 21.0), skip={'-y'})
    root_children.append(mesh_node('jump_ledge_1m', ledge))
    features['jump_ledge'] = {'name': 'jump_ledge_1m', 'x_range': [16.0, 19.0],
                              'z_range': [18.0, 21.0], 'top_y': 1.0,
                              'jump_from': [17.5, 0.0, 16.5], 'direction': [0, 0, 1],
                              'expect': 'blocked walking, reached by a jump (1.22 m)'}

    ov = Mesh('overhang', MAT['ledge'])
    ov.add_box((-14.0, 0, 26.5), (-8.0, 3.0, 27.0), skip={'-y'})
    ov.add_box((-14.0, 2.0, 23.0), (-8.0, 2.3, 26.5))
    root_children.append(mesh_node('overhang', ov))
    features['overhang'] = {'name': 'overhang', 'slab_x_range': [-14.0, -8.0],
                            'slab_z_range': [23.0, 26.5], 'underside_y': 2.0, 'top_y': 2.3,
                            'back_wall_z_range': [26.5, 27.0], 'stand_under_at': [-11.0, 0.0, 25.0],
                            'expect': 'standing fits (0.2 m spare); a jump hits the head'}

    # Visual-only decoration: the group's name carries `nocollide` to its children.
    grass = Mesh('grass', MAT['decor_nocollide'])
    for gx, gz in [(2.0, 12.0), (3.0, 13.5), (-2.0, 11.0), (1.0, 15.0), (-3.0, 14.0)]:
        for ang in (0.0, math.pi / 2):
            dx, dz = 0.35 * math.cos(ang), 0.35 * math.sin(ang)
            for sgn in (1, -1):  # two-sided
                pts = [(gx - dx, 0, gz - dz), (gx + dx, 0, gz + dz), (gx + dx, 0.6, gz + dz), (gx - dx, 0.6, gz - dz)]
                pts = [tuple(r6(c) for c in p) for p in pts]
                pts = pts if sgn > 0 else list(reversed(pts))
                nrm = (sgn * -dz, 0, sgn * dx)
                grass.add_poly(pts, nrm)
    meshes.append(grass)
    gm = len(meshes) - 1
    banner = Mesh('banner', MAT['decor_nocollide'])
    banner.add_poly([(-2.0, 2.0, -29.95), (2.0, 2.0, -29.95), (2.0, 5.0, -29.95), (-2.0, 5.0, -29.95)], (0, 0, 1))
    meshes.append(banner)
    bm = len(meshes) - 1
    g1 = node('grass_tufts', gm)
    b1 = node('banner', bm)
    decor = node('decor_nocollide')
    nodes[decor]['children'] = [g1, b1]
    root_children.append(decor)
    features['decoration_nocollide'] = {
        'node': 'decor_nocollide', 'children': ['grass_tufts', 'banner'],
        'grass_tufts_at': [[2.0, 0.0, 12.0], [3.0, 0.0, 13.5], [-2.0, 0.0, 11.0], [1.0, 0.0, 15.0],
                           [-3.0, 0.0, 14.0]], 'grass_height': 0.6,
        'banner': {'x_range': [-2.0, 2.0], 'y_range': [2.0, 5.0], 'z': -29.95}}

    # A visual fence that does not collide, and the invisible box that does.
    fence = Mesh('fence', MAT['fence_wood'])
    for k in range(7):
        x = -10.0 + k
        fence.add_box((x - 0.04, 0, 5.96), (x + 0.04, 1.0, 6.04), skip={'-y'})
    for y in (0.45, 0.85):
        fence.add_box((-10.0, y, 5.98), (-4.0, y + 0.08, 6.02))
    root_children.append(mesh_node('fence_nocollide', fence))
    ucx = Mesh('UCX_fence', MAT['collider'])
    ucx.add_box((-10.05, 0, 5.95), (-3.95, 1.0, 6.05))
    root_children.append(mesh_node('UCX_fence', ucx))
    features['invisible_collider'] = {'node': 'UCX_fence', 'x_range': [-10.05, -3.95],
                                      'z_range': [5.95, 6.05], 'height': 1.0,
                                      'visual_node': 'fence_nocollide',
                                      'walk_into_from': [-7.0, 0.0, 8.0], 'direction': [0, 0, -1]}

    spawn = node('spawn', translation=(0.0, 0.0, 8.0))
    root_children.append(spawn)
    features['spawn'] = {'node': 'spawn', 'position': [0.0, 0.0, 8.0], 'yaw_deg': 0.0,
                         'looks_along': [0, 0, -1]}

    root = node('arena')
    nodes[root]['children'] = root_children
    return root


# ---------------------------------------------------------------------------------------------
# PNG and GLB writers.


def png_rgba(width, height, pixel):
    rows = b''.join(b'\x00' + b''.join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(tag, data):
        c = struct.pack('>I', len(data)) + tag + data
        return c + struct.pack('>I', zlib.crc32(tag + data) & 0xFFFFFFFF)

    ihdr = struct.pack('>IIBBBBB', width, height, 8, 6, 0, 0, 0)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) +
            chunk(b'IDAT', zlib.compress(rows, 9)) + chunk(b'IEND', b''))


def checker_png():
    def px(x, y):
        on = ((x // 8) + (y // 8)) % 2 == 0
        g = 200 if on else 150
        return (g, g, g, 255)
    return png_rgba(64, 64, px)


def write_glb(path, root):
    bin_data = bytearray()
    buffer_views, accessors = [], []

    def add_view(data, target=None):
        while len(bin_data) % 4:
            bin_data.append(0)
        view = {'buffer': 0, 'byteOffset': len(bin_data), 'byteLength': len(data)}
        if target:
            view['target'] = target
        bin_data.extend(data)
        buffer_views.append(view)
        return len(buffer_views) - 1

    def add_accessor(values, comps, ctype, target, minmax=False):
        fmt = {5126: 'f', 5125: 'I'}[ctype]
        flat = [c for v in values for c in (v if comps > 1 else (v,))]
        view = add_view(struct.pack('<%d%s' % (len(flat), fmt), *flat), target)
        acc = {'bufferView': view, 'componentType': ctype, 'count': len(values),
               'type': {1: 'SCALAR', 2: 'VEC2', 3: 'VEC3'}[comps]}
        if minmax:
            acc['min'] = [min(v[k] for v in values) for k in range(comps)]
            acc['max'] = [max(v[k] for v in values) for k in range(comps)]
        accessors.append(acc)
        return len(accessors) - 1

    gl_meshes = []
    for m in meshes:
        attrs = {'POSITION': add_accessor(m.pos, 3, 5126, 34962, minmax=True),
                 'NORMAL': add_accessor(m.nrm, 3, 5126, 34962)}
        if m.with_uv:
            attrs['TEXCOORD_0'] = add_accessor(m.uv, 2, 5126, 34962)
        ind = add_accessor(m.idx, 1, 5125, 34963)
        gl_meshes.append({'name': m.name, 'primitives': [
            {'attributes': attrs, 'indices': ind, 'material': m.material, 'mode': 4}]})

    png_view = add_view(checker_png())
    gl_materials = []
    for name, color, textured in materials:
        pbr = {'baseColorFactor': list(color), 'metallicFactor': 0.0, 'roughnessFactor': 0.9}
        if textured:
            pbr['baseColorTexture'] = {'index': 0}
        mat = {'name': name, 'pbrMetallicRoughness': pbr}
        if color[3] < 1.0:
            mat['alphaMode'] = 'BLEND'
        gl_materials.append(mat)

    while len(bin_data) % 4:
        bin_data.append(0)
    gltf = {
        'asset': {'version': '2.0', 'generator': 'octree-fps scripts/make_default_level.py'},
        'scene': 0,
        'scenes': [{'name': 'arena', 'nodes': [root]}],
        'nodes': nodes,
        'meshes': gl_meshes,
        'materials': gl_materials,
        'images': [{'bufferView': png_view, 'mimeType': 'image/png', 'name': 'floor_checker'}],
        'samplers': [{'magFilter': 9728, 'minFilter': 9986, 'wrapS': 10497, 'wrapT': 10497}],
        'textures': [{'sampler': 0, 'source': 0}],
        'accessors': accessors,
        'bufferViews': buffer_views,
        'buffers': [{'byteLength': len(bin_data)}],
    }
    js = json.dumps(gltf, separators=(',', ':'), sort_keys=True).encode('utf-8')
    while len(js) % 4:
        js += b' '
    total = 12 + 8 + len(js) + 8 + len(bin_data)
    with open(path, 'wb') as f:
        f.write(struct.pack('<III', 0x46546C67, 2, total))
        f.write(struct.pack('<II', len(js), 0x4E4F534A) + js)
        f.write(struct.pack('<II', len(bin_data), 0x004E4942) + bytes(bin_data))
    return sum(len(m.idx) // 3 for m in meshes)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'assets')
    os.makedirs(out_dir, exist_ok=True)
    root = build()
    glb = os.path.join(out_dir, 'arena.glb')
    write_glb(glb, root)
    # Triangle count as a loader sees it: instanced meshes once per node.
    uses = {}
    for n in nodes:
        if 'mesh' in n:
            uses[n['mesh']] = uses.get(n['mesh'], 0) + 1
    tris = sum(len(meshes[i].idx) // 3 * k for i, k in uses.items())
    lo = min(p[1] for m in meshes for p in m.pos)
    doc = {
        'level': 'arena.glb',
        'generator': 'scripts/make_default_level.py',
        'frame': 'right-handed, Y up, metres; floor top y = 0; yaw 0 looks along -Z, 90 along -X',
        'triangles': tris,
        'bounds': {'min': [-ARENA - 1.0, lo, -ARENA - 1.0], 'max': [ARENA + 1.0, WALL_H, ARENA + 1.0]},
        'kill_plane_y': lo - 50.0,
        'sized_for_character': CHARACTER,
        'features': features,
    }
    with open(os.path.join(out_dir, 'arena.features.json'), 'w', newline='\n') as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write('\n')
    print('wrote %s: %d triangles, %d meshes, %d nodes' % (glb, tris, len(meshes), len(nodes)))


if __name__ == '__main__':
    main()
