#!/usr/bin/env python3
"""End-to-end checks of the demo's probe tool (P) in a real window under a virtual X server.

Usage: check_probe.py DEMO CASE SOURCE_DIR [SHARED_DIR]
The script re-runs itself inside xvfb-run and drives the window with synthetic X events through
the XTEST extension (ctypes; no xdotool). Skipped (exit 77) where xvfb-run, libX11 or libXtst is
missing. Expected values are computed here from the level file and the camera pose given on the
command line, never read back from the program.
"""
import json
import math
import os
import shutil
import sys
import tempfile
import time

from window_harness import (XK_ESCAPE, expect, finish_demo, isolated_env, open_xtest,
                            require_xvfb_run, rerun_in_xvfb, script_args, skip,
                            start_demo)  # beside this script

demo, case, source_dir, shared_dir = script_args()
require_xvfb_run()
# Recent files go under XDG_CONFIG_HOME: keep the test out of the user's configuration.
_env = isolated_env()
rerun_in_xvfb(_env)

xt = open_xtest()

XK_P = 0x0070


def run_demo(args, actions):
    """Starts the demo, waits for its window, runs actions(), then Esc; returns (code, output)."""
    proc, seen = start_demo(demo, args, _env)
    time.sleep(2)  # a few frames drawn: the window is mapped and takes input
    actions()
    xt.press(XK_ESCAPE)  # probe mode leaves the mouse free, so Esc closes the window
    return finish_demo(proc, seen)


def obj_triangles(path):
    verts, tris = [], []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "v":
                verts.append(tuple(float(c) for c in parts[1:4]))
            elif parts[0] == "f":
                idx = [int(p.split("/")[0]) - 1 for p in parts[1:]]
                for k in range(1, len(idx) - 1):
                    tris.append((verts[idx[0]], verts[idx[k]], verts[idx[k + 1]]))
    return tris


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def normalize(a):
    n = math.sqrt(dot(a, a))
    return (a[0] / n, a[1] / n, a[2] / n)


def ray_triangle(origin, d, tri):
    """Moller-Trumbore, double precision, two-sided; t or None."""
    v0, v1, v2 = tri
    e1, e2 = sub(v1, v0), sub(v2, v0)
    pvec = cross(d, e2)
    det = dot(e1, pvec)
    if abs(det) < 1e-12:
        return None
    inv = 1.0 / det
    tvec = sub(origin, v0)
    u = dot(tvec, pvec) * inv
    if u < 0.0 or u > 1.0:
        return None
    qvec = cross(tvec, e1)
    v = dot(d, qvec) * inv
    if v < 0.0 or u + v > 1.0:
        return None
    t = dot(e2, qvec) * inv
    return t if t >= 0.0 else None


def pixel_ray(eye, yaw_deg, pitch_deg, fov_rad, width, height, px, py):
    """Direction through the centre of window pixel (px, py) for the README's camera: yaw 0
    looks along -Z, yaw 90 along -X, pitch up positive, Y up, symmetric vertical fov."""
    yaw, pitch = math.radians(yaw_deg), math.radians(pitch_deg)
    forward = (-math.sin(yaw) * math.cos(pitch), math.sin(pitch), -math.cos(yaw) * math.cos(pitch))
    right = normalize(cross(forward, (0.0, 1.0, 0.0)))
    up = cross(right, forward)
    ndc_x = 2.0 * (px + 0.5) / width - 1.0
    ndc_y = 1.0 - 2.0 * (py + 0.5) / height
    th = math.tan(fov_rad / 2.0)
    aspect = width / height
    return normalize(tuple(forward[i] + right[i] * ndc_x * th * aspect + up[i] * ndc_y * th
                           for i in range(3)))


def point_triangle_distance(p, tri):
    """Distance from p to the closed triangle: the nearest of the interior (when p projects
    inside) and the three edges."""
    a, b, c = tri
    nrm = cross(sub(b, a), sub(c, a))
    nn = dot(nrm, nrm)
    best = float("inf")
    if nn > 0.0:
        s = dot(sub(p, a), nrm) / nn
        q = tuple(p[i] - nrm[i] * s for i in range(3))
        inside = all(dot(cross(sub(v1, v0), sub(q, v0)), nrm) >= 0.0
                     for v0, v1 in ((a, b), (b, c), (c, a)))
        if inside:
            best = abs(s) * math.sqrt(nn)
    for v0, v1 in ((a, b), (b, c), (c, a)):
        e = sub(v1, v0)
        ee = dot(e, e)
        u = 0.0 if ee == 0.0 else max(0.0, min(1.0, dot(sub(p, v0), e) / ee))
        q = tuple(v0[i] + e[i] * u for i in range(3))
        best = min(best, math.sqrt(dot(sub(p, q), sub(p, q))))
    return best


def close(a, b, tol):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


if case == "click_hits_triangle":
    # A real click: P enters probe mode, the pointer moves to a known pixel and button 1 is
    # pressed there. The demo's ray must go from the eye through that pixel, and its hit must
    # be the nearest triangle of the level file by this script's own brute-force ray.
    source = os.path.join(shared_dir, "levels", "collision-world", "collision-world.obj")
    if not os.path.exists(source):
        skip(f"no {source}")
    width, height = 640, 360
    eye, yaw, pitch = (-10.0, 6.0, 8.0), 30.0, -15.0
    fov = 1.2  # ViewCamera::verticalFovRadians, the demo's only field of view
    clicks = [(430, 250), (95, 60)]  # right of and below centre; up and left
    triangles = obj_triangles(source)
    expect(len(triangles) == 1788, f"{len(triangles)} triangles in {source}")
    probes = []
    with tempfile.TemporaryDirectory() as tmp:
        level = os.path.join(tmp, "collision-world.obj")
        shutil.copyfile(source, level)
        for px, py in clicks:
            sj = os.path.join(tmp, "stats.json")

            def actions():
                xt.move(width // 2, height // 2)  # the pointer in the window gives it the keys
                time.sleep(0.5)
                xt.press(XK_P)
                time.sleep(0.5)
                xt.move(px, py)
                time.sleep(0.3)
                xt.click()
                time.sleep(1.0)

            code, out = run_demo([level, "--camera", f"{eye[0]},{eye[1]},{eye[2]},{yaw},{pitch}",
                                  "--no-vsync", "--no-panel", "--width", str(width), "--height",
                                  str(height), "--frames", "20000", "--stats-json", sj], actions)
            expect(code == 0, f"exit {code}", out)
            with open(sj) as f:
                stats = json.load(f)
            expect(stats["run"]["frames"] < 20000, "Esc closed the window", out)
            probes.append((px, py, stats, out))
    for px, py, stats, out in probes:
        p = stats.get("probe")
        where = f"click ({px}, {py})"
        expect(p is not None, f"{where}: no probe in the stats (the click did not probe)", out)
        expect(p["active"] and p["shape"] == "ray", f"{where}: probe mode, ray", json.dumps(p))
        expect(p["click_px"] == [px, py] and p["window_px"] == [width, height],
               f"{where}: clicked pixel {p['click_px']} in {p['window_px']}", json.dumps(p))
        expect(close(p["origin"], eye, 1e-3), f"{where}: ray origin {p['origin']}, eye {eye}")
        want_dir = pixel_ray(eye, yaw, pitch, fov, width, height, px, py)
        expect(close(p["direction"], want_dir, 1e-4),
               f"{where}: direction {p['direction']}, the pixel's ray is {want_dir}")
        # Our own nearest hit over every triangle of the file, along our own ray.
        hits = [(t, tri) for tri in triangles
                if (t := ray_triangle(eye, want_dir, tri)) is not None]
        expect(hits, f"{where}: the script's ray misses the level; choose another pixel")
        t_min = min(t for t, _ in hits)
        expect(p["hit"], f"{where}: the demo missed, the level is hit at {t_min:.3f} m")
        expect(abs(p["t"] - t_min) <= 1e-3 * max(1.0, t_min),
               f"{where}: demo's t {p['t']}, nearest hit at {t_min}", json.dumps(p))
        # The reported triangle is a nearest one (an edge pixel may hit two at the same t).
        reported = sorted(tuple(v) for v in p["triangle_vertices"])
        nearest = [sorted(tri) for t, tri in hits if t <= t_min + 1e-4 * max(1.0, t_min)]
        expect(any(all(close(a, b, 1e-4) for a, b in zip(reported, tri)) for tri in nearest),
               f"{where}: triangle {p['triangle']} {reported} is not the nearest, "
               f"which is one of {nearest}", json.dumps(p))
        expect(close(p["point"], tuple(eye[i] + want_dir[i] * t_min for i in range(3)), 1e-3),
               f"{where}: hit point {p['point']}")
        # The octree's work beside brute force: it entered a path of nodes and tested fewer
        # triangles than the level has.
        ray = p["ray"]
        expect(len(p["path"]) >= 2 and p["path"][0] == 0, f"{where}: path {p['path']}")
        expect(0 < ray["triangles_tested"] < len(triangles) // 4,
               f"{where}: {ray['triangles_tested']} triangles tested of {len(triangles)}")
        expect(ray["brute_force_triangles_tested"] == len(triangles),
               f"{where}: brute force tests {ray['brute_force_triangles_tested']}")
        expect(0 < ray["nodes_visited"] < stats["octree"]["nodes"],
               f"{where}: {ray['nodes_visited']} nodes visited")
        print(f"{where}: triangle {p['triangle']} at {p['t']:.3f} m (script: {t_min:.3f} m), "
              f"{ray['nodes_visited']} nodes, {ray['triangles_tested']} triangles tested")
    # Meaningful: the two clicks hit different places.
    expect(not close(probes[0][2]["probe"]["point"], probes[1][2]["probe"]["point"], 0.5),
           "both clicks hit the same point")
elif case == "sphere_overlap_push_out":
    # The sphere probe: a real click in --probe sphere mode places a sphere half sunk at the hit
    # (centre = hit + normal * radius / 2). Every triangle the script finds within the radius
    # must be reported, and the push-out must end clear of the level and touching it.
    source = os.path.join(shared_dir, "levels", "collision-world", "collision-world.obj")
    if not os.path.exists(source):
        skip(f"no {source}")
    width, height = 640, 360
    eye, yaw, pitch = (-6.0, 10.5, -29.0), 15.0, -20.0  # above a flight of steps
    px, py = 384, 224  # a step's edge: ten faces within the radius, six of them near its rim
    radius = 0.5  # ProbeState's default radius
    triangles = obj_triangles(source)
    with tempfile.TemporaryDirectory() as tmp:
        level = os.path.join(tmp, "collision-world.obj")
        shutil.copyfile(source, level)
        sj = os.path.join(tmp, "stats.json")

        def actions():
            xt.move(width // 2, height // 2)
            time.sleep(0.5)
            xt.move(px, py)
            time.sleep(0.3)
            xt.click()
            time.sleep(1.0)

        code, out = run_demo([level, "--probe", "sphere", "--camera",
                              f"{eye[0]},{eye[1]},{eye[2]},{yaw},{pitch}", "--no-vsync",
                              "--no-panel", "--width", str(width), "--height", str(height),
                              "--frames", "20000", "--stats-json", sj], actions)
        expect(code == 0, f"exit {code}", out)
        with open(sj) as f:
            stats = json.load(f)
    p = stats.get("probe")
    expect(p is not None and p["shape"] == "sphere" and "probe_shape" in p,
           "no sphere probe in the stats (the click did not probe)", json.dumps(stats))
    d = pixel_ray(eye, yaw, pitch, 1.2, width, height, px, py)
    hits = [(t, tri) for tri in triangles if (t := ray_triangle(eye, d, tri)) is not None]
    expect(hits, "the script's ray misses the level; choose another pixel")
    t_min, tri = min(hits, key=lambda h: h[0])
    n = normalize(cross(sub(tri[1], tri[0]), sub(tri[2], tri[0])))
    if dot(n, d) > 0:
        n = (-n[0], -n[1], -n[2])  # the side the ray came from
    want_center = tuple(eye[i] + d[i] * t_min + n[i] * radius / 2 for i in range(3))
    shape = p["probe_shape"]
    expect(shape["radius"] == radius, f"radius {shape['radius']}")
    expect(close(shape["center"], want_center, 1e-3),
           f"sphere centre {shape['center']}, the script places it at {want_center}")
    center = shape["center"]
    distances = [point_triangle_distance(center, t) for t in triangles]
    near_edge = [x for x in distances if abs(x - radius) < 1e-4]
    expect(not near_edge, f"a triangle lies within 1e-4 of the sphere's surface: {near_edge}")
    want_overlap = sum(1 for x in distances if x <= radius)
    # Meaningful: faces near the rim, so a sphere tested a little too small would miss some.
    rim = sum(1 for x in distances if 0.8 * radius <= x <= radius)
    expect(want_overlap >= 3 and rim >= 2,
           f"{want_overlap} triangles overlap, {rim} near the rim: choose a busier pixel")
    expect(shape["overlapping"] == want_overlap,
           f"{shape['overlapping']} overlapping triangles reported, the script finds {want_overlap}")
    expect(shape["touching"] and shape["push_out_depth"] > 0.0, "push-out", json.dumps(shape))
    pushed = tuple(center[i] + shape["push_out_normal"][i] * shape["push_out_depth"]
                   for i in range(3))
    clearance = min(point_triangle_distance(pushed, t) for t in triangles)
    # Pushed out, not flung away: clear of every triangle and still touching the nearest.
    expect(radius - 1e-3 <= clearance <= radius + 1e-3,
           f"after the push-out the nearest triangle is {clearance} m from the centre "
           f"(radius {radius})", json.dumps(shape))
    work = shape["work"]
    expect(0 < work["triangles_tested"] < len(triangles) // 4 and work["agrees_with_brute_force"],
           "overlap work", json.dumps(work))
    print(f"sphere at {center}: {want_overlap} triangles overlap, pushed out "
          f"{shape['push_out_depth']:.3f} m, clearance {clearance:.4f} m")
else:
    print(f"unknown case {case}")
    sys.exit(2)
print(f"ok [{case}]")
