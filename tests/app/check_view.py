#!/usr/bin/env python3
"""End-to-end checks of the demo's view (overlays, legends, crosshair, saved settings) under a
virtual X server, run by CTest as app.view.<case>.

Usage: check_view.py DEMO CASE SOURCE_DIR [SHARED_DIR]
Skipped (exit 77) where xvfb-run is not installed. Every run gets its own XDG_CONFIG_HOME, so a
user's saved settings never reach these tests. Expected values are worked out here from the
rules the README states, never read back from the program.
"""
import json
import os
import shutil
import sys
import tempfile
import time

from window_harness import (XK_ESCAPE, expect, finish_demo, open_xtest, read_screenshot,
                            require_xvfb_run, rerun_in_xvfb, run_in_xvfb, script_args,
                            start_demo)  # beside this script

demo, case, source_dir, shared_dir = script_args()
require_xvfb_run()

arena = os.path.join(source_dir, "assets", "arena.glb")
SMALL = ["--no-vsync", "--width", "480", "--height", "270"]


def env_with(config, **extra):
    env = dict(os.environ, XDG_CONFIG_HOME=config, **extra)
    env.pop("OCTREE_FPS_NO_SETTINGS", None)
    env.update(extra)
    return env


def run(config, args, env_extra=None, screen="800x600x24"):
    """Runs the demo for a few frames; returns (exit code, output, stats)."""
    stats_path = os.path.join(config, "stats.json")
    if os.path.exists(stats_path):
        os.remove(stats_path)
    code, out = run_in_xvfb([demo, *args, "--stats-json", stats_path],
                            env_with(config, **(env_extra or {})), screen=screen)
    stats = None
    if os.path.exists(stats_path):
        with open(stats_path) as f:
            stats = json.load(f)
    return code, out, stats


def write_settings(config, text):
    folder = os.path.join(config, "octree-fps")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "settings.json")
    with open(path, "w") as f:
        f.write(text)
    return path


with tempfile.TemporaryDirectory(prefix="octree-fps-view-") as config:
    if case == "settings_file_and_overrides":
        # A saved file turns views on; --no-settings and the environment variable ignore it;
        # a flag beats it for the run.
        written = json.dumps({"grid_view": True, "octree_boxes": True, "wireframe": True,
                              "show_panel": True, "crosshair": False})
        write_settings(config, written)
        base = [arena, "--frames", "3", *SMALL]
        code, out, st = run(config, base)
        expect(code == 0 and st, f"exit {code}", out)
        v = st["view"]
        expect(v["grid"]["shown"] and v["octree_boxes"]["shown"] and v["wireframe"],
               "the file's views are on", json.dumps(v))
        expect(not v["crosshair"] and v["panel_shown"], "crosshair off, panel on", json.dumps(v))
        expect(v["settings_file"] == os.path.join(config, "octree-fps", "settings.json"),
               "the file under XDG_CONFIG_HOME", json.dumps(v))
        for name, args, extra in (("--no-settings", base + ["--no-settings"], None),
                                  ("env", base, {"OCTREE_FPS_NO_SETTINGS": "1"})):
            code, out, st = run(config, args, extra)
            expect(code == 0 and st, f"{name}: exit {code}", out)
            v = st["view"]
            # The defaults: octree boxes on (the first screen shows them), the rest off.
            expect(not v["grid"]["shown"] and v["octree_boxes"]["shown"] and
                   not v["wireframe"] and v["crosshair"] and v["settings_file"] == "",
                   f"{name}: defaults, no file", json.dumps(v))
        code, out, st = run(config, base + ["--no-panel"])
        expect(code == 0 and st and not st["view"]["panel_shown"], "--no-panel beats the file",
               out)
        expect(st["view"]["grid"]["shown"], "the rest of the file still applies", out)
        # Runs that end themselves never write the file: it is as we wrote it.
        script = os.path.join(config, "idle.script")
        with open(script, "w") as f:
            f.write("at 0 fly on\nend 0.1\n")
        code, out, st = run(config, [arena, "--script", script, "--no-panel", *SMALL])
        expect(code == 0, f"script run: exit {code}", out)
        with open(os.path.join(config, "octree-fps", "settings.json")) as f:
            expect(f.read() == written, "the file was left alone (byte for byte)")
    elif case == "malformed_settings_warn_once":
        for text in ("{\"grid_view\": tru", "[1, 2]", "{\"panel_width\": \"wide\"}"):
            path = write_settings(config, text)
            code, out, st = run(config, [arena, "--frames", "3", *SMALL])
            expect(code == 0 and st, f"{text!r}: exit {code} (no crash)", out)
            warnings = [l for l in out.splitlines() if "warning" in l and path in l]
            expect(len(warnings) == 1, f"{text!r}: one warning naming the file", out)
            v = st["view"]
            expect(not v["grid"]["shown"] and v["crosshair"] and v["panel_shown"],
                   f"{text!r}: defaults", json.dumps(v))
    elif case == "default_depth_range":
        # After a load the boxes show three depths around the middle of the tree (README);
        # the arena's tree is small, so nothing moves it shallower.
        write_settings(config, json.dumps({"octree_boxes": True, "octree_visible_only": False}))
        code, out, st = run(config, [arena, "--frames", "3", *SMALL])
        expect(code == 0 and st, f"exit {code}", out)
        depth = st["octree"]["depth"]
        expect(depth >= 4, f"arena tree depth {depth}: too shallow for this check", out)
        o = st["view"]["octree_boxes"]
        want = (depth // 2 - 1, depth // 2 + 1)
        expect((o["min_depth"], o["max_depth"]) == want, f"range {o}, want {want}", json.dumps(st))
        expect(st["view"]["lines"] > 0, "boxes drawn", json.dumps(st["view"]))
        # --octree-overlay keeps the user's range.
        code, out, st = run(config, [arena, "--frames", "3", "--octree-overlay", "1:2", *SMALL])
        o = st["view"]["octree_boxes"]
        expect(code == 0 and (o["min_depth"], o["max_depth"]) == (1, 2), f"range {o}", out)
        # A large real level: the range holds at most 1500 boxes (all nodes drawn here).
        dm5 = os.path.join(shared_dir, "levels", "oa_dm5", "oa_dm5.obj")
        if os.path.exists(dm5):
            level = os.path.join(config, "oa_dm5.obj")
            shutil.copyfile(dm5, level)
            code, out, st = run(config, [level, "--up", "z", "--scale", "0.0254", "--frames", "3",
                                         *SMALL])
            o = st["view"]["octree_boxes"]
            expect(code == 0 and o["max_depth"] - o["min_depth"] == 2, f"three depths {o}", out)
            expect(o["max_depth"] <= st["octree"]["depth"] // 2 + 1, f"not deeper than the middle "
                   f"{o}, depth {st['octree']['depth']}", out)
            expect(st["view"]["lines"] <= 1500 * 12, f"{st['view']['lines']} lines", out)
        else:
            print(f"note: no oa_dm5 under {shared_dir}/levels; the arena only")
    elif case == "grid_view_query":
        # The grid view on a level with props: the query's work is at most brute force's, and
        # it tests a few cells, not all of them.
        write_settings(config, json.dumps({"grid_view": True, "grid_query_radius": 4.0}))
        code, out, st = run(config, [arena, "--frames", "3", "--spawn-props", "3000",
                                     "--camera", "0,6,0,0,-60", *SMALL])
        expect(code == 0 and st, f"exit {code}", out)
        g = st["view"]["grid"]
        expect(g["shown"] and 0 < g["objects"] <= 3000, f"objects {g}", json.dumps(st["props"]))
        expect(0 < g["occupied_cells"] <= g["objects"], f"cells {g}")
        expect(g["brute_force_checks"] == g["objects"], f"brute force tests every object {g}")
        expect(g["hits"] <= g["objects_tested"] <= g["brute_force_checks"], f"work {g}")
        expect(0 < g["cells_tested"] < g["occupied_cells"], f"a few cells tested {g}")
        expect(st["view"]["lines"] >= 12 * g["occupied_cells"], f"a box per cell {st['view']}")
    elif case == "crosshair_pixels":
        # The crosshair changes pixels near the view's centre and nowhere else.
        shots = []
        for crosshair in (True, False):
            write_settings(config, json.dumps({"crosshair": crosshair}))
            shot = os.path.join(config, f"shot{int(crosshair)}.png")
            code, out, st = run(config, [arena, "--frames", "3", "--no-panel",
                                         "--camera", "0,3,0,30,-5", "--screenshot", shot, *SMALL])
            expect(code == 0, f"exit {code}", out)
            shots.append(read_screenshot(shot))
        (w, h, a), (_, _, b) = shots
        near = far = 0
        for y in range(h):
            for x in range(w):
                if a[y][x * 4:x * 4 + 3] != b[y][x * 4:x * 4 + 3]:
                    if abs(x - w / 2) <= 12 and abs(y - h / 2) <= 12:
                        near += 1
                    else:
                        far += 1
        expect(near >= 16 and far == 0, f"{near} pixels differ at the centre, {far} elsewhere")
    elif case == "query_view_contacts":
        # Walking on the arena's floor with the Q view on: the queries entered nodes, the capsule
        # (the controller's default radius, 0.35 m) touches at least the floor it stands on.
        script = os.path.join(config, "walk.script")
        with open(script, "w") as f:
            # 240 Hz: four steps a frame; the view shows the last one's queries.
            f.write("set tick_hz 240\nat 0 hold forward\nend 1\n")
        code, out, st = run(config, [arena, "--script", script, "--query-overlay", *SMALL])
        expect(code == 0 and st, f"exit {code}", out)
        q = st["view"]["query_view"]
        expect(st["controller"]["grounded"], "the walk ends on the ground", json.dumps(st))
        expect(q["shown"] and q["nodes"] > 0, f"nodes entered {q}")
        # The headline counts the last step's box tests; the Q view draws the nodes that step
        # entered (each entered node's box was tested), so never more, and distinct ones.
        h = st["view"]["headline"]
        expect(q["nodes"] <= q["entered"] <= h["query_boxes"],
               f"Q view {q} against the headline's last step {h}")
        expect(q["contacts"] >= 1, f"the floor under the feet is a contact {q}")
        expect(abs(q["capsule_radius"] - 0.35) < 1e-6, f"capsule radius {q}")
    elif case == "settings_saved_on_exit":
        # B (grid view) and O (octree boxes, on by default: O hides them) pressed in a running
        # window, then Esc: the file holds both, and the next start shows the grid, no boxes. Keys go through the X server's XTEST
        # extension from inside the same virtual display (this script re-runs itself there).
        rerun_in_xvfb()
        xt = open_xtest()
        proc, seen = start_demo(demo, [arena, "--no-panel", *SMALL], env_with(config))
        time.sleep(2)
        xt.move(100, 90)  # keys go to the window under it
        time.sleep(0.5)
        for keysym in (0x0062, 0x006F, XK_ESCAPE):  # XK_b, XK_o, then Esc
            xt.press(keysym)
            time.sleep(0.4)
        code, out = finish_demo(proc, seen)
        expect(code == 0, f"exit {code}", out)
        path = os.path.join(config, "octree-fps", "settings.json")
        expect(os.path.exists(path), "settings written at exit", out)
        with open(path) as f:
            saved = json.load(f)
        expect(saved["grid_view"] is True and saved["octree_boxes"] is False,
               f"B and O saved: {saved}")
        # --no-panel was a flag: the file keeps the panel as it was (shown).
        expect(saved["show_panel"] is True, f"the flag's value not saved: {saved}")
        code, out, st = run(config, [arena, "--frames", "3", *SMALL])
        v = st["view"] if st else {}
        expect(code == 0 and v["grid"]["shown"] and not v["octree_boxes"]["shown"],
               "the next start shows the grid and no boxes", out)
    else:
        print(f"unknown case {case}")
        sys.exit(2)
print(f"ok [{case}]")
