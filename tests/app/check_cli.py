#!/usr/bin/env python3
"""End-to-end checks of octree_demo's command line, run by CTest.

Usage: check_cli.py DEMO CASE SOURCE_DIR SHARED_DIR
Each case runs the real binary with --headless and checks its exit status, its messages and
its --stats-json output against values that come from outside the program (SOURCES.md counts).
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

demo, case, source_dir, shared_dir = sys.argv[1:5]
shared_dir = os.environ.get("OCTREE_FPS_SHARED_DIR", shared_dir)


# The demo remembers --up/--scale choices and recent files under XDG_CONFIG_HOME: keep the
# tests from writing into the user's own configuration.
_config = tempfile.mkdtemp(prefix="octree-fps-test-config-")
_env = dict(os.environ, XDG_CONFIG_HOME=_config)
atexit.register(shutil.rmtree, _config, True)


def run(*args, timeout=240, env=None):
    p = subprocess.run([demo, *args], capture_output=True, text=True, timeout=timeout,
                       env=env or _env)
    return p.returncode, p.stdout + p.stderr


def expect(cond, message, output=""):
    if not cond:
        print(f"FAIL [{case}]: {message}\n--- output ---\n{output}")
        sys.exit(1)


def stats_for(level, *flags):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "stats.json")
        code, text = run("--headless", "--stats-json", out, level, *flags)
        expect(code == 0, f"exit {code} for {level}", text)
        with open(out) as f:
            return json.load(f), text


if case == "help":
    code, text = run("--help")
    expect(code == 0, "--help exits 0", text)
    for flag in ("--frames", "--screenshot", "--stats-json", "--headless", "--up", "--scale"):
        expect(flag in text, f"--help lists {flag}", text)
elif case == "bad_flag":
    code, text = run("--headless", "--no-such-flag")
    expect(code == 2, f"unknown flag exits 2 (got {code})", text)
    expect("no-such-flag" in text, "the message names the bad flag", text)
    # A switch given a value says it takes none (CLI11 alone said "disallowed flag override").
    for flag in ("--no-view-smoothing", "--no-occlusion"):
        code, text = run("--headless", flag + "=false")
        expect(code == 2, f"{flag}=false exits 2 (got {code})", text)
        expect(f"error: {flag} takes no value" in text, f"{flag}=false says why", text)
    code, text = run("--help")
    expect("--no-view-smoothing" in text, "--help lists --no-view-smoothing", text)
elif case == "bad_value":
    for args in (["--frames", "-3"], ["--up", "x"], ["--scale", "0"], ["--camera", "1,2"],
                 ["--camera", "1,nan,3"], ["--width", "abc"], ["--occlusion-budget", "-1"],
                 ["--occlusion-budget", "lots"], ["--occlusion-budget", "5000000000"],
                 ["--occlusion-budget", "4294967295"], ["--occlusion-budget", "1e5"]):
        code, text = run("--headless", *args)
        expect(code == 2, f"{args} exits 2 (got {code})", text)
        if args == ["--width", "abc"]:
            expect("whole number" in text and "'abc'" in text and "not in range" not in text,
                   "a non-number is called one (quoted), not out of range", text)
        if args == ["--frames", "-3"]:
            expect("must lie from 0 to 100000000" in text, "an out-of-range number says so", text)
        if args[0] == "--occlusion-budget":
            expect("whole number of work units" in text and f"'{args[1]}'" in text,
                   "the message says what the budget takes and quotes the value", text)
elif case == "missing_level":
    code, text = run("--headless", "/nonexistent/dir/level.glb")
    expect(code == 1, f"missing level exits 1 (got {code})", text)
    expect("/nonexistent/dir/level.glb" in text, "the error names the file", text)
    expect("Segmentation" not in text and "Aborted" not in text, "no crash", text)
elif case == "directory_level":
    code, text = run("--headless", source_dir)
    expect(code == 1, f"a directory exits 1 (got {code})", text)
elif case == "stats_default":
    stats, text = stats_for(os.path.join(source_dir, "assets", "arena.glb"))
    level = stats["level"]
    expect(level["triangles"] > 100, "the default level has triangles", text)
    lo, hi = level["bounds"]
    expect(all(lo[i] < hi[i] for i in range(3)), "bounds are a real box", json.dumps(level))
    expect(hi[1] - lo[1] < hi[0] - lo[0], "the arena is wider than tall (Y up)", json.dumps(level))
    # scripts/make_default_level.py: one collider box (UCX_fence, 6 faces = 12 triangles) is
    # not drawn; the fence, grass and banner are drawn but never collide.
    expect(level["collider_only_triangles"] == 12, "UCX_fence's 12 triangles are not drawn",
           json.dumps(level))
    expect(level["drawn_triangles"] + level["collider_only_triangles"] == level["triangles"],
           "every triangle is drawn or a collider's", json.dumps(level))
    expect(level["visual_only_triangles"] > 0, "the nocollide decoration is counted",
           json.dumps(level))
elif case == "stats_shared_levels":
    # Triangle counts from ../shared/levels/SOURCES.md (degenerate triangles included).
    levels = [("collision-world/collision-world.glb", 1788, []),
              ("collision-world/collision-world.obj", 1788, []),
              ("oa_dm1/oa_dm1.obj", 7460, ["--up", "z", "--scale", "0.0254"]),
              ("oa_dm5/oa_dm5.obj", 40542, ["--up", "z", "--scale", "0.0254"])]
    if not os.path.isdir(os.path.join(shared_dir, "levels")):
        # Like the other real-level tests: skipped (CTest shows it) when the shared folder is
        # not there; point OCTREE_FPS_SHARED_DIR at it.
        print(f"SKIP [{case}]: no shared levels at {shared_dir}/levels "
              "(set OCTREE_FPS_SHARED_DIR)")
        sys.exit(77)
    # The demo remembers --up/--scale in LEVEL.import.json beside the level: load copies, so
    # nothing is written into the shared folder and no stray settings file there steers a run.
    copies = tempfile.mkdtemp(prefix="octree-fps-test-levels-")
    atexit.register(shutil.rmtree, copies, True)
    for rel, triangles, flags in levels:
        source = os.path.join(shared_dir, "levels", rel)
        expect(os.path.exists(source), f"shared level {source} exists")
        beside = source + ".import.json"
        before = os.stat(beside).st_mtime_ns if os.path.exists(beside) else None
        path = os.path.join(copies, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copyfile(source, path)
        stats, text = stats_for(path, *flags)
        if flags:
            expect(os.path.exists(path + ".import.json"),
                   f"--up/--scale were remembered beside the copy ({path}.import.json)", text)
        after = os.stat(beside).st_mtime_ns if os.path.exists(beside) else None
        expect(after == before, f"nothing was written beside the shared level ({beside})", text)
        expect(stats["level"]["triangles"] == triangles,
               f"{rel}: {stats['level']['triangles']} triangles, SOURCES.md says {triangles}", text)
        lo, hi = stats["level"]["bounds"]
        height = hi[1] - lo[1]
        expect(height < max(hi[0] - lo[0], hi[2] - lo[2]),
               f"{rel}: Y extent {height} should be the smallest (right way up)", text)
elif case == "script_trace":
    # docs/script-format.md: header, a t = 0 row, then one row per fixed step until `end`.
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "walk.script")
        with open(script, "w") as f:
            f.write("set tick_hz 100\nspawn 0 0 8 0\nat 0 hold forward\nat 0.5 tap jump\n"
                    "at 1 release forward\nend 1.5\n")
        trace = os.path.join(tmp, "trace.csv")
        code, text = run("--headless", "--script", script, "--trace", trace)
        expect(code == 0, f"scripted run exits 0 (got {code})", text)
        rows = open(trace).read().splitlines()
        expect(rows[0] == "t,x,y,z,vx,vy,vz,grounded,crouched,flying,respawned",
               "trace header is docs/script-format.md's", rows[0])
        expect(len(rows) == 1 + 1 + 150, f"1 + 150 steps at 100 Hz, got {len(rows) - 1} rows")
        first = rows[1].split(",")
        expect([float(v) for v in first[1:4]] == [0.0, 0.0, 8.0], "t = 0 row is the spawn", rows[1])
        times = [float(r.split(",")[0]) for r in rows[1:]]
        expect(all(b > a for a, b in zip(times, times[1:])), "times increase")
        expect(abs(times[-1] - 1.5) < 1e-9, f"last row at end time, got {times[-1]}")
        zs = [float(r.split(",")[3]) for r in rows[1:]]
        expect(zs[-1] < 8.0 - 2.0, f"walking forward (yaw 0 = -Z) moved the feet along -Z: {zs[-1]}")
        code2, _ = run("--headless", "--script", script, "--trace", trace + "2")
        expect(open(trace).read() == open(trace + "2").read(), "same script, same trace")
        # The example walk the README shows (assets/walk.script) runs, goes north through the
        # doorway (the wall at z = 20, arena.features.json) and then west.
        shipped = os.path.join(source_dir, "assets", "walk.script")
        walk = os.path.join(tmp, "walk.csv")
        code3, text3 = run("--headless", "--script", shipped, "--trace", walk,
                           os.path.join(source_dir, "assets", "arena.glb"))
        expect(code3 == 0, f"assets/walk.script runs (got {code3})", text3)
        rows = [r.split(",") for r in open(walk).read().splitlines()[1:]]
        expect(abs(float(rows[-1][0]) - 7.0) < 1e-9, "the walk ends at 7 s", rows[-1])
        expect(max(float(r[3]) for r in rows) > 21.0, "the walk passed the doorway (z > 21)")
        expect(float(rows[-1][1]) < -15.0, f"then went west (x = {rows[-1][1]})")
elif case == "bad_script":
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "bad.script")
        with open(script, "w") as f:
            f.write("at 0 hold forward\nat 1 hold jmp\nend 2\n")
        code, text = run("--headless", "--script", script)
        expect(code == 2, f"bad script exits 2 (got {code})", text)
        expect("bad.script:2" in text, "the error names the file and line", text)
        # The script is checked before the level is read, so a typo costs no wait for a large
        # level: the demo's "loaded LEVEL: ..." line must not appear. Windowed runs check it
        # before opening a window too, so no display is needed to see the error.
        level = os.path.join(source_dir, "assets", "arena.glb")
        missing = os.path.join(tmp, "missing.script")
        no_display = {k: v for k, v in _env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        for mode in (["--headless"], []):
            for path, named in ((script, "bad.script:2"), (missing, "missing.script")):
                args = [*mode, level, "--script", path]
                code, text = run(*args, env=no_display)
                expect(code == 2, f"{args} exits 2 (got {code})", text)
                expect(named in text, f"the error names {named}", text)
                expect("loaded " not in text, f"{args}: the script fails before the level loads",
                       text)
                expect("GLFW" not in text, f"{args}: and before a window is opened", text)
        code, text = run("--headless", "--trace", os.path.join(tmp, "t.csv"))
        expect(code == 2, f"--trace without --script exits 2 (got {code})", text)
elif case == "props_files":
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "props.script")
        with open(script, "w") as f:
            f.write("prop sphere 0 3 4 0.3\nprop box 1 2 4 0.4 0.4 0.4\n"
                    "at 0 look 0 -10\nat 0.2 throw\nend 1\n")
        props, ptrace = os.path.join(tmp, "p.csv"), os.path.join(tmp, "pt.csv")
        code, text = run("--headless", "--script", script, "--props", props, "--props-trace", ptrace)
        expect(code == 0, f"props run exits 0 (got {code})", text)
        rows = open(props).read().splitlines()
        expect(rows[0] == "id,shape,x,y,z,vx,vy,vz,hx,hy,hz,resting,removed", "props header", rows[0])
        expect([r.split(",")[1] for r in rows[1:]] == ["sphere", "box", "sphere"],
               "two placed props then one thrown, in id order", "\n".join(rows))
        sphere = [float(v) for v in rows[1].split(",")[2:5]]
        expect(0.25 < sphere[1] < 0.35, f"the dropped sphere rests on the floor: y={sphere[1]}")
        trows = open(ptrace).read().splitlines()
        expect(trows[0] == "t,id,x,y,z", "props trace header", trows[0])
        expect(len(trows) > 1 + 120 * 2, f"a row per prop per step, got {len(trows) - 1}")
        # --spawn-props with a script: the spawned props join the script's (they used to be
        # dropped without a word when the script started its props world): placed, spawned,
        # thrown, in id order.
        code, text = run("--headless", "--script", script, "--props", props, "--spawn-props", "25")
        expect(code == 0, f"props run with --spawn-props exits 0 (got {code})", text)
        rows = open(props).read().splitlines()[1:]
        expect(len(rows) >= 2 + 20 + 1, f"placed + spawned + thrown props, got {len(rows)}",
               "\n".join(rows))
        expect([r.split(",")[1] for r in rows[:2]] == ["sphere", "box"], "placed props first",
               "\n".join(rows))
        thrown = rows[-1].split(",")
        expect(thrown[1] == "sphere" and abs(float(thrown[8]) - 0.15) < 1e-6,
               "the thrown sphere (default radius 0.15) last", rows[-1])
elif case == "occlusion_flag":
    # --no-occlusion is a plain switch: a value it cannot take, or a misspelt positive form,
    # is a command-line error (exit 2) that names the flag.
    for args, named in ((["--no-occlusion=maybe"], "no-occlusion"), (["--occlusion"], "occlusion"),
                        (["--no-occlusion=off"], "no-occlusion")):
        code, text = run("--headless", *args)
        expect(code == 2, f"{args} exits 2 (got {code})", text)
        expect(named in text, f"the message names {named}", text)
    # Headless draws nothing: the flag is accepted with a warning, and "culling" says there is
    # no view (null), as props.visible does.
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "stats.json")
        code, text = run("--headless", "--no-occlusion", "--stats-json", out,
                         os.path.join(source_dir, "assets", "arena.glb"))
        expect(code == 0, f"--headless --no-occlusion exits 0 (got {code})", text)
        expect("--no-occlusion ignored" in text, "a warning says the flag does nothing here", text)
        with open(out) as f:
            stats = json.load(f)
        expect("culling" in stats and stats["culling"] is None, "culling is null headless",
               json.dumps(stats))
    # --occlusion-budget too: accepted headless with a warning that it does nothing there.
    for value in ("20000", "none", "0"):
        code, text = run("--headless", "--occlusion-budget", value,
                         os.path.join(source_dir, "assets", "arena.glb"))
        expect(code == 0, f"--headless --occlusion-budget {value} exits 0 (got {code})", text)
        expect("--occlusion-budget ignored" in text,
               "a warning says the budget does nothing here", text)
    code, text = run("--help")
    expect("--no-occlusion" in text, "--help lists --no-occlusion", text)
    expect("--occlusion-budget" in text, "--help lists --occlusion-budget", text)
elif case == "far_origin":
    # The same staircase level at the origin and 100 km from it (x and z; OBJ in Y-up metres):
    # the loader moves the far one into a local frame and says so (load line, --stats-json
    # level.origin_offset); a script written in each file's own coordinates walks down and back
    # up the same way: every trace row within 1 cm of the origin run's, offset removed (the far
    # file's x and z are floats at 100 km: 7.8 mm apart), grounded on the same rows but a few.
    def stairs_obj(path, ox, oz):
        boxes = [(-10.0, -1.0, -10.0, 10.0, 0.0, 10.0)]  # floor, top at y = 0
        for i in range(6):  # risers of 0.2 m, treads of 0.3 m, down along +Z from z = 0
            boxes.append((-2.0, 0.0, -4.0, 2.0, 0.2 * (6 - i), 0.3 * i))
        boxes.append((2.0, 0.0, -4.0, 2.5, 3.0, 3.0))  # a wall beside them
        lines, n = [], 0
        for (x0, y0, z0, x1, y1, z1) in boxes:
            c = [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)]
            for (x, y, z) in c:
                lines.append(f"v {x + ox:.6f} {y:.6f} {z + oz:.6f}")
            for q in ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4),
                      (1, 5, 7, 3)):
                a, b, cc, d = (n + k + 1 for k in q)
                lines.append(f"f {a} {b} {cc}")
                lines.append(f"f {a} {cc} {d}")
            n += 8
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")

    def walk(tmp, name, ox, oz):
        level = os.path.join(tmp, name + ".obj")
        stairs_obj(level, ox, oz)
        script = os.path.join(tmp, name + ".script")
        with open(script, "w") as f:
            f.write(f"spawn {ox:.3f} 1.2 {oz - 2.5:.3f} 180\n"
                    "at 0.2 hold forward\nat 1.6 look 0 0\nat 2.9 release forward\nend 3.1\n")
        trace = os.path.join(tmp, name + ".csv")
        stats = os.path.join(tmp, name + ".json")
        code, text = run("--headless", "--script", script, "--trace", trace, "--stats-json",
                         stats, level)
        expect(code == 0, f"{name}: exit {code}", text)
        with open(trace) as f:
            rows = [r.split(",") for r in f.read().split("\n")[1:] if r]
        with open(stats) as f:
            return rows, json.load(f), text

    with tempfile.TemporaryDirectory() as tmp:
        near, near_stats, _ = walk(tmp, "near", 0.0, 0.0)
        far, far_stats, far_text = walk(tmp, "far", 100000.0, -100000.0)
    expect(near_stats["level"]["origin_offset"] == [0, 0, 0], "no offset near the origin",
           json.dumps(near_stats["level"]))
    expect(far_stats["level"]["origin_offset"] == [100000, 0, -100000],  # x and z only
           "the far level's offset is reported", json.dumps(far_stats["level"]))
    expect("origin offset (100000, 0, -100000)" in far_text, "the load line says so", far_text)
    b = far_stats["level"]["bounds"]
    expect(abs(b[0][0] - 99990) < 0.01 and abs(b[1][2] - (-99990)) < 0.01,
           "bounds in the file's coordinates", json.dumps(b))
    expect(len(near) == len(far) and len(near) > 100, f"rows {len(near)} vs {len(far)}")
    worst, grounded_diff = 0.0, 0
    for r0, r1 in zip(near, far):
        dx = float(r1[1]) - 100000.0 - float(r0[1])
        dy = float(r1[2]) - float(r0[2])
        dz = float(r1[3]) + 100000.0 - float(r0[3])
        worst = max(worst, (dx * dx + dy * dy + dz * dz) ** 0.5)
        grounded_diff += r0[7] != r1[7]
    expect(worst <= 0.01, f"the far walk strays {worst * 100:.2f} cm from the near one")
    # Far positions are written with enough digits to name the simulation's float (local values
    # of 1 m and more): minus the offset, the value read back and its two float neighbours,
    # written the same way, differ (at 100 km "%.9g" alone keeps 1 mm, where local floats of a
    # few metres are 0.2 micrometres apart).
    import math
    import struct

    def f32(v):
        return struct.unpack("f", struct.pack("f", v))[0]

    def neighbours(x):
        bits = struct.unpack("I", struct.pack("f", x))[0]
        return [struct.unpack("f", struct.pack("I", b))[0] for b in (bits - 1, bits + 1)]

    bad = []
    for text, offset in [(r[1], 100000.0) for r in far] + [(r[3], -100000.0) for r in far]:
        local = f32(float(text) - offset)
        if abs(local) < 1.0:
            continue  # below 1 m the written resolution (1e-9 m here) is coarser than a float's
        digits = 9 + int(math.log10(abs(offset))) + 1
        fmt = lambda v: "%.*g" % (digits, v + offset)
        if fmt(local) != text or any(fmt(n) == text for n in neighbours(local)):
            bad.append(text)
    expect(not bad, f"{len(bad)} far positions do not name their float, e.g. {bad[:3]}")
    expect(grounded_diff <= 3, f"grounded differs on {grounded_diff} rows")
    # It went down and came back up: the walk is not trivially equal.
    ys = [float(r[2]) for r in near]
    expect(min(ys) < 0.05 and ys[-1] > 1.0, f"down to {min(ys)} and back to {ys[-1]}")
    fx = far_stats["controller"]["feet"]
    expect(abs(fx[0] - 100000.0) < 3.0 and abs(fx[2] + 100000.0) < 4.0,
           "controller feet in the file's coordinates", json.dumps(fx))
    print(f"far origin: worst {worst * 1000:.2f} mm, grounded differs on {grounded_diff} rows")
else:
    expect(False, f"unknown case {case}")
print(f"ok [{case}]")
