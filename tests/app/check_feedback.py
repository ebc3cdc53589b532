#!/usr/bin/env python3
"""End-to-end checks of where the windowed octree_demo tells the user how a load went: the
failed load's error (kept level, kept warnings), the toast on the view, the guessed frame, and
the error cleared by the next successful load. Run by CTest under a virtual X server.

Usage: check_feedback.py DEMO CASE SOURCE_DIR
Skipped (exit 77) where xvfb-run is not installed. Expected values are written out here from
what the generated levels are, never read back from the program.
"""
import atexit
import json
import os
import shutil
import tempfile

from window_harness import (XK_ESCAPE, XK_F12, expect, finish_demo, isolated_env, open_xtest,
                            read_screenshot, require_xvfb_run, rerun_in_xvfb, run_in_xvfb,
                            script_args, spawn_demo)  # beside this script

demo, case, source_dir, _ = script_args()
require_xvfb_run()

# Recent files go under XDG_CONFIG_HOME: keep the test out of the user's configuration.
_env = isolated_env()
tmp = tempfile.mkdtemp(prefix="octree-fps-feedback-")
recent_path = os.path.join(_env["XDG_CONFIG_HOME"], "octree-fps", "recent.txt")
atexit.register(shutil.rmtree, tmp, True)

# What a person says of the hall below: Z-up, Quake units, 8,048 u = 204.4 m.
HALL_GUESS = "guessed Z-up, Quake units (0.0254 m): 8,048 units wide -> 204 m"


def run_window(args, timeout=300):
    return run_in_xvfb([demo, "--no-vsync", "--width", "800", "--height", "600", *args], _env,
                       timeout=timeout)


def box(lo, hi):
    """The six faces of an axis-aligned box as OBJ quads (v lines, f lines, 1-based)."""
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    v = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0),
         (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    f = [(1, 4, 3, 2), (5, 6, 7, 8), (1, 2, 6, 5), (4, 8, 7, 3), (1, 5, 8, 4), (2, 3, 7, 6)]
    return v, f


def write_hall(path):
    """A Quake-style hall: 8,048 u long, 400 deep (Y), 600 high (Z) with storey floors at 200
    and 400: taller in Z than deep in Y, the shape the loader used to call Y-up metres."""
    lines, base = [], 0
    for lo, hi in (((0, 0, 0), (8048, 400, 600)), ((0, 0, 196), (7000, 400, 200)),
                   ((0, 0, 396), (7000, 400, 400))):
        v, f = box(lo, hi)
        lines += [f"v {x} {y} {z}" for x, y, z in v]
        lines += ["f " + " ".join(str(base + i) for i in q) for q in f]
        base += len(v)
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def write_broken(path):
    # Faces that point at vertices the file does not have: the loader must refuse it.
    with open(path, "w") as out:
        out.write("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n")


def error_red_pixels(path, x0, x1, y0, y1):
    """Pixels in the box close to the error text's colour (1.0, 0.45, 0.4): red, not grey."""
    width, height, rows = read_screenshot(path)
    n = 0
    for y in range(y0, min(y1, height)):
        row = rows[y]
        for x in range(x0, min(x1, width)):
            r, g, b = row[4 * x], row[4 * x + 1], row[4 * x + 2]
            n += r > 180 and 70 < g < 150 and 60 < b < 140 and r - g > 80
    return n


hall = os.path.join(tmp, "hall.obj")
broken = os.path.join(tmp, "broken.obj")
write_hall(hall)
write_broken(broken)
stats_path = os.path.join(tmp, "stats.json")

if case == "failed_swap_keeps_level_and_warnings":
    # The hall loads with one warning (its frame was guessed); the swap to a broken file fails.
    # The hall must stay, with its own warning, and the error must be reported. The panel is
    # hidden: the error must still be on the view (the toast), in its red, at the top centre.
    shot = os.path.join(tmp, "shot.png")
    rc, out = run_window([hall, "--frames", "30", "--swap-to", broken, "--no-panel",
                          "--stats-json", stats_path, "--screenshot", shot])
    # A scripted swap that failed ends the run with status 1, after its outputs are written.
    expect(rc == 1, f"exit {rc} (1: the swap failed)", out)
    expect("1 of 1 level load failed" in out, "the end of the run says the swap failed", out)
    # A run that ends itself (--frames) leaves the user's recent levels alone.
    expect(not os.path.exists(recent_path), "no recent.txt written by a --frames run", out)
    with open(stats_path) as f:
        level = json.load(f)["level"]
    expect(level["path"] == hall, "the hall is still the level", out)
    expect("broken.obj" in level["load_error"], "the error names the broken file", out)
    expect(len(level["warnings"]) == 1 and "does not say" in level["warnings"][0],
           f"the hall's one warning (its guessed frame) is kept: {level['warnings']}", out)
    expect(level["frame_guess"] == HALL_GUESS, f"frame_guess: {level['frame_guess']!r}", out)
    red = error_red_pixels(shot, 200, 600, 0, 150)
    expect(red > 40, f"the error's red text at the top centre of the view ({red} pixels)", out)

elif case == "successful_swap_clears_error":
    # arena.glb, then the broken file (fails), then the hall (loads): the error is gone, the
    # hall is current with its own warning, and the toast of the success is not red.
    arena = os.path.join(tmp, "arena.glb")
    shutil.copy(os.path.join(source_dir, "assets", "arena.glb"), arena)
    shot = os.path.join(tmp, "shot.png")
    rc, out = run_window([arena, "--frames", "30", "--swap-to", broken, "--swap-to", hall,
                          "--no-panel", "--stats-json", stats_path, "--screenshot", shot])
    expect(rc == 1, f"exit {rc} (1: one of the swaps failed)", out)
    expect("1 of 2 level loads failed" in out, "the end of the run counts the failed swap", out)
    expect("broken.obj" in out and "kept" in out, "the broken file failed on the way", out)
    with open(stats_path) as f:
        stats = json.load(f)
    level = stats["level"]
    expect(level["path"] == hall, "the hall is the level", out)
    expect(level["load_error"] == "" and stats["run"]["last_load_error"] == "",
           "the error is cleared by the successful load", out)
    expect(len(level["warnings"]) == 1 and "does not say" in level["warnings"][0],
           f"the hall's own warning: {level['warnings']}", out)
    expect(level["frame_guess"] == HALL_GUESS, f"frame_guess: {level['frame_guess']!r}", out)
    expect(level["frame"]["up"] == "z" and abs(level["frame"]["scale"] - 0.0254) < 1e-7,
           "Z-up inches", out)
    red = error_red_pixels(shot, 200, 600, 0, 150)
    expect(red < 10, f"no error's red at the top centre after the success ({red} pixels)", out)

elif case == "dismiss_hides_toast_not_error":
    # The error toast stays until dismissed: find its button in a screenshot (F12), click it
    # with the X server's XTEST extension, and the red is gone from the view while the error
    # stays reported. Re-runs itself inside xvfb-run so the clicks reach the demo's display.
    rerun_in_xvfb(_env)
    import threading
    import time
    xt = open_xtest()
    lines = []

    def screenshot():
        """F12, then the path of the PNG the demo says it wrote."""
        xt.press(XK_F12)
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("screenshot written to "):
                return os.path.join(tmp, line.split("screenshot written to ", 1)[1].strip())
        expect(False, "no screenshot written", "".join(lines))

    # No --frames: a run a person ends (Esc), so it keeps the recent levels (checked below).
    # No octree boxes: their depth colours could pass for the error's red.
    proc = spawn_demo(demo, [hall, "--swap-to", broken, "--no-panel", "--no-octree-overlay",
                             "--no-vsync", "--width",
                             "800", "--height", "600", "--stats-json", stats_path], _env, cwd=tmp)
    # A demo that stops answering (no screenshot line) is killed, so the reads below end.
    watchdog = threading.Timer(150, proc.kill)
    watchdog.daemon = True  # never keeps the check alive itself
    watchdog.start()
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("error: ") and "broken.obj" in line:
            break
    expect(any("broken.obj" in l for l in lines), "the broken swap failed", "".join(lines))
    xt.move(780, 580)  # away from the toast; nothing is under the pointer
    time.sleep(1.5)  # the toast is drawn (auto-sized windows show from their second frame)
    before = screenshot()
    expect(error_red_pixels(before, 100, 700, 0, 150) > 40, "the error toast is shown",
           "".join(lines))
    # The dismiss button: the toast's only blue (ImGui's button colour) at the top centre.
    width, height, rows = read_screenshot(before)
    blue = [(x, y) for y in range(0, 150) for x in range(100, 700)
            if rows[y][4 * x + 2] > rows[y][4 * x] + 50 and rows[y][4 * x + 2] > 90]
    expect(len(blue) > 50, f"the dismiss button is visible ({len(blue)} blue pixels)")
    bx = (min(x for x, _ in blue) + max(x for x, _ in blue)) // 2
    by = (min(y for _, y in blue) + max(y for _, y in blue)) // 2
    xt.move(bx, by)
    time.sleep(0.5)
    xt.button_event(1, True)
    time.sleep(0.5)
    xt.button_event(1, False)
    time.sleep(0.5)  # Dear ImGui 1.86 reads the pointer each frame: release over the button
    xt.move(780, 580)
    time.sleep(1.0)
    after = screenshot()
    red = error_red_pixels(after, 100, 700, 0, 150)
    expect(red == 0, f"the toast is gone after dismiss ({red} red pixels)", "".join(lines))
    xt.press(XK_ESCAPE)  # Esc: the mouse is not captured (the click landed on the toast), so quit
    code, out = finish_demo(proc, lines)
    expect(code == 1, f"exit {code} (1: the --swap-to load failed)", out)
    with open(recent_path) as f:
        recent = f.read().splitlines()
    expect(recent == [hall], f"the loaded level, not the broken one, is remembered: {recent}", out)
    with open(stats_path) as f:
        level = json.load(f)["level"]
    expect(level["path"] == hall and "broken.obj" in level["load_error"],
           "dismissing hides the toast; the error is still reported", out)

else:
    expect(False, f"unknown case {case}")
print(f"ok [{case}]")
