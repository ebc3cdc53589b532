#!/usr/bin/env python3
"""End-to-end checks of the windowed octree_demo under a virtual X server, run by CTest.

Usage: check_window.py DEMO CASE SOURCE_DIR [SHARED_DIR]
Skipped (exit 77) where xvfb-run is not installed. Expected values are the script's own
numbers, written out here, never read back from the program.
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

from window_harness import (XK_ESCAPE, expect, finish_demo, isolated_env, open_xtest,
                            read_screenshot, require_xvfb_run, rerun_in_xvfb, run_in_xvfb,
                            script_args, start_demo)  # beside this script

demo, case, source_dir, shared_dir = script_args()
require_xvfb_run()

# Recent files go under XDG_CONFIG_HOME: keep the test out of the user's configuration.
_env = isolated_env()


def run_window(args, timeout=300):
    return run_in_xvfb([demo, *args], _env, timeout=timeout)


def shared_level_copy(tmp, rel):
    """A copy of a shared level (the demo writes import settings beside it), or None."""
    source = os.path.join(shared_dir, "levels", rel)
    if not os.path.exists(source):
        return None
    path = os.path.join(tmp, os.path.basename(rel))
    shutil.copyfile(source, path)
    return path


if case == "script_octree_params_survive_swap":
    # A script sets both octree parameters; a level loaded later in the same run (the panel's
    # loader, here --swap-to after frame 5) is built with the script's values, because the demo
    # keeps one copy of them.
    level = os.path.join(source_dir, "assets", "arena.glb")
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "octree.script")
        with open(script, "w") as f:
            f.write("set triangles_per_leaf 32\nset max_level 10\nat 0 hold forward\nend 1\n")
        stats_path = os.path.join(tmp, "stats.json")
        code, out = run_in_xvfb(
            [demo, level, "--script", script, "--frames", "80", "--no-vsync", "--width", "320",
             "--height", "180", "--no-panel", "--swap-to", level, "--stats-json", stats_path],
            _env, screen="640x360x24")
        expect(code == 0, f"exit {code}", out)
        with open(stats_path) as f:
            stats = json.load(f)
    expect(stats["run"]["last_load_error"] == "", "the swap loaded", out)
    expect(stats["level"]["path"].endswith("arena.glb"), "the swapped-in level is current", out)
    expect(stats["octree"]["trianglesPerLeaf"] == 32,
           f"trianglesPerLeaf {stats['octree']['trianglesPerLeaf']}, the script said 32", out)
    expect(stats["octree"]["maxLevel"] == 10,
           f"maxLevel {stats['octree']['maxLevel']}, the script said 10", out)
    # Meaningful: the swap happened (its load message), not just the first level's build.
    expect(out.count("loaded ") >= 2, "two loads (the first level and the swap)", out)
elif case == "occlusion_screenshots_match":
    # Occlusion culling only leaves out what cannot be seen, so the image must not change: the
    # same poses drawn with it on and off (--no-occlusion) give the same pixels. Each pose is a
    # script (fixed steps per frame, so the props fall the same way in both runs) that flies at
    # a spawn point with props around it, some behind walls.
    with tempfile.TemporaryDirectory() as tmp:
        levels = [(os.path.join(source_dir, "assets", "arena.glb"), [])]
        dm5 = shared_level_copy(tmp, "oa_dm5/oa_dm5.obj")
        if dm5 is None:
            print(f"note: no oa_dm5 under {shared_dir}/levels; the default level only")
        else:
            levels.append((dm5, ["--up", "z", "--scale", "0.0254"]))
        compared = occluded_poses = props_hidden = 0
        for level, flags in levels:
            stats_path = os.path.join(tmp, "spawn.json")
            p = subprocess.run([demo, "--headless", level, *flags, "--stats-json", stats_path],
                               capture_output=True, text=True, timeout=300, env=_env)
            expect(p.returncode == 0, f"headless load of {level}", p.stdout + p.stderr)
            with open(stats_path) as f:
                sx, sy, sz = json.load(f)["level"]["spawn"]
            for yaw, pitch, dx, dz in ((0, 0, 0, 0), (90, -10, 0, 0), (200, 5, 0, 0),
                                       (300, -25, 1.0, -1.0)):
                script = os.path.join(tmp, "pose.script")
                with open(script, "w") as f:
                    f.write(f"spawn {sx + dx} {sy} {sz + dz} {yaw} {pitch}\n")
                    for i in range(24):  # a ring of props at 2.5 to 25 m, many behind walls
                        r = 2.5 + (i % 6) * 4.5
                        a = i * 0.9
                        f.write(f"prop box {sx + r * math.cos(a):.3f} {sy + 1.0:.3f} "
                                f"{sz + r * math.sin(a):.3f} 0.3 0.3 0.3\n")
                    f.write("at 0 fly on\nend 0.1\n")
                images, stats = [], []
                # Occlusion on (with its frame-to-frame history: the pose is held for several
                # frames, so the last frames draw on it), off, on without the history, and on
                # with a work budget small enough to run out (box tests only, then the frustum
                # cull: it may draw more, never less of what is seen).
                for extra in ([], ["--no-occlusion"], ["--no-temporal-coherence"],
                              ["--occlusion-budget", "5000"]):
                    shot = os.path.join(tmp, f"shot{len(images)}.png")
                    sj = os.path.join(tmp, f"stats{len(images)}.json")
                    code, out = run_window([level, *flags, "--script", script, "--no-vsync",
                                            "--no-panel", "--width", "480", "--height", "270",
                                            "--screenshot", shot, "--stats-json", sj, *extra])
                    expect(code == 0, f"exit {code}", out)
                    images.append(read_screenshot(shot))
                    with open(sj) as f:
                        stats.append(json.load(f)["culling"])
                on, off, fresh, tight = stats
                expect(on["occlusion"]["enabled"] and not off["occlusion"]["enabled"],
                       "the flag turned occlusion off", json.dumps(stats))
                expect(on["occlusion"]["temporal_coherence"] and
                       on["occlusion"]["nodes_assumed_visible"] > 0 and
                       not fresh["occlusion"]["temporal_coherence"] and
                       fresh["occlusion"]["nodes_assumed_visible"] == 0 and
                       fresh["occlusion"]["triangles_assumed_visible"] == 0,
                       "the history was used by default, and not with --no-temporal-coherence",
                       json.dumps(stats))
                pose = f"{os.path.basename(level)} yaw {yaw} pitch {pitch}"
                expect(on["occlusion"]["work_budget"] == 600000 and
                       tight["occlusion"]["work_budget"] == 5000 and
                       tight["occlusion"]["budget_boxes_only"] and
                       tight["occlusion"]["budget_exhausted"] and
                       tight["occlusion"]["nodes_past_budget"] > 0 and
                       tight["triangles_drawn"] <= off["triangles_drawn"],
                       f"{pose}: the default budget, and the small one ran out", json.dumps(stats))
                # Same frustum both times: occlusion's frustum-only figure is what the run
                # without it drew, and occlusion never draws more.
                expect(on["occlusion"]["triangles_drawn_frustum_only"] == off["triangles_drawn"],
                       f"{pose}: frustum-only counts agree", json.dumps(stats))
                expect(on["triangles_drawn"] == on["occlusion"]["triangles_drawn"] <=
                       off["triangles_drawn"], f"{pose}: drawn <= frustum only", json.dumps(stats))
                occluded_poses += on["triangles_drawn"] < off["triangles_drawn"]
                props_hidden += on["occlusion"]["props_occluded"]
                (w0, h0, a), (w1, h1, b), (w2, h2, c), (w3, h3, d) = images
                expect((w0, h0) == (w1, h1) == (w2, h2) == (w3, h3) == (480, 270),
                       f"{pose}: screenshot sizes")
                differing = sum(1 for y in range(h0) for x in range(w0)
                                if a[y][x * 4:x * 4 + 3] != b[y][x * 4:x * 4 + 3] or
                                c[y][x * 4:x * 4 + 3] != b[y][x * 4:x * 4 + 3] or
                                d[y][x * 4:x * 4 + 3] != b[y][x * 4:x * 4 + 3])
                # A culled triangle or prop lies strictly behind an occluder in exact arithmetic,
                # so only a depth tie in GL's 24-bit depth buffer (an occluder within depth
                # precision of what it hides, drawn after it) could change a pixel; none occur
                # at these poses with Mesa's llvmpipe, so any difference is a failure.
                expect(differing == 0, f"{pose}: {differing} pixels differ with occlusion on")
                compared += 1
        # Meaningful: occlusion really removed triangles and props in these views.
        expect(occluded_poses >= compared // 2,
               f"occlusion culled triangles in only {occluded_poses} of {compared} poses")
        expect(props_hidden > 0, "no prop was ever occluded: the props' test went unexercised")
        print(f"{compared} poses identical; triangles culled in {occluded_poses}, "
              f"{props_hidden} props occluded")
elif case == "occlusion_key_toggles":
    # X toggles occlusion culling in a running window. The key is sent with the X server's
    # XTEST extension from inside the same virtual display (this script re-runs itself under
    # xvfb-run), then Esc closes the window and the run writes its stats.
    rerun_in_xvfb(_env)
    xt = open_xtest()

    level = os.path.join(source_dir, "assets", "arena.glb")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra, presses in (("on", [], 0), ("on, X", [], 1), ("off", ["--no-occlusion"], 0),
                                     ("off, X", ["--no-occlusion"], 1)):
            sj = os.path.join(tmp, "stats.json")
            proc, seen = start_demo(demo, [level, "--no-vsync", "--no-panel", "--width", "320",
                                           "--height", "180", "--frames", "20000", "--stats-json",
                                           sj, *extra], _env, name=name)
            time.sleep(2)  # a few frames drawn: the window is mapped and takes input
            # Without a window manager, keys go to the window under the pointer.
            xt.move(100, 90)
            time.sleep(0.5)
            for _ in range(presses):
                xt.press(0x0078)  # XK_x
                time.sleep(0.5)
            xt.press(XK_ESCAPE)  # the mouse is not captured, so the window closes
            code, out = finish_demo(proc, seen)
            expect(code == 0, f"{name}: exit {code}", out)
            with open(sj) as f:
                stats = json.load(f)
            expect(stats["run"]["frames"] < 20000, f"{name}: Esc closed the window", out)
            results[name] = stats["culling"]
    for name, c in results.items():
        o = c["occlusion"]
        want = name in ("on", "off, X")
        expect(o["enabled"] == want, f"{name}: occlusion enabled {o['enabled']}, want {want}",
               json.dumps(results))
        expect(o["triangles_drawn"] == c["triangles_drawn"] <= o["triangles_drawn_frustum_only"],
               f"{name}: drawn <= frustum only", json.dumps(results))
        if not want:
            expect(o["triangles_drawn"] == o["triangles_drawn_frustum_only"] and
                   o["nodes_tested"] == 0, f"{name}: off culls nothing", json.dumps(results))
        else:
            expect(o["nodes_tested"] > 0, f"{name}: on tests nodes", json.dumps(results))
else:
    print(f"unknown case {case}")
    sys.exit(2)
print(f"ok [{case}]")
