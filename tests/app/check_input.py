#!/usr/bin/env python3
"""End-to-end input checks of the windowed octree_demo: synthetic X key events (the X server's
XTEST extension, through ctypes) sent to the real window under a virtual X server.

Usage: check_input.py DEMO CASE SOURCE_DIR [SHARED_DIR]
Skipped (exit 77) where xvfb-run, libX11 or libXtst is missing. The script re-runs itself under
xvfb-run so that it sends its events inside the same virtual display as the demo.
"""
import glob
import json
import os
import shutil
import sys
import tempfile
import time

from window_harness import (XK_ESCAPE, XK_F12, expect, finish_demo, isolated_env, open_xtest,
                            read_screenshot, require_xvfb_run, rerun_in_xvfb, script_args,
                            start_demo)  # beside this script

demo, case, source_dir, _ = script_args()
require_xvfb_run()
# Recent files go under XDG_CONFIG_HOME: keep the test out of the user's configuration.
_env = isolated_env(prefix="octree-fps-input-config-")
# The re-run's own limit (600 s) is above CTest's TIMEOUT (300 s), which ends the test first.
rerun_in_xvfb(_env, timeout=600)

xt = open_xtest()

XK_SPACE, XK_BACKSPACE, XK_RETURN, XK_CONTROL_L = 0x0020, 0xFF08, 0xFF0D, 0xFFE3


def type_fast(text):
    """Every character pressed and released with no pause: at 10 fps a whole word arrives
    between two frames. Lowercase letters, digits, '/' and '.' map to their keysyms directly."""
    for ch in text:
        xt.key(ord(ch), True)
        xt.key(ord(ch), False)


def f12_screenshot(folder, previous):
    """F12 makes the demo write screenshots/octree-fps-TIME.png in its working folder; returns
    the new file's pixels once it is complete."""
    xt.key(XK_F12, True)
    xt.key(XK_F12, False)
    for _ in range(100):
        time.sleep(0.2)
        new = sorted(set(glob.glob(os.path.join(folder, "screenshots", "*.png"))) - previous)
        if new:
            time.sleep(0.5)  # written in one go after the frame; let it finish
            previous.add(new[0])
            return read_screenshot(new[0])
    expect(False, "F12 wrote no screenshot")


def bands(image, test, xs):
    """(first, last) row ranges where every column in xs passes test(r, g, b)."""
    width, height, rows = image
    out, start = [], None
    for y in range(height):
        hit = all(test(*rows[y][x * 4:x * 4 + 3]) for x in xs)
        if hit and start is None:
            start = y
        elif not hit and start is not None:
            out.append((start, y - 1))
            start = None
    return out


# Dear ImGui's dark style over the panel's background: a collapsing header is a blue band
# across the whole panel; a text field's frame is a darker blue band that stops before its
# label.
def is_header(r, g, b):
    return 30 <= r <= 50 and 55 <= g <= 85 and 85 <= b <= 130 and b - r >= 45


def is_frame(r, g, b):
    return 25 <= r <= 45 and 42 <= g <= 65 and 65 <= b <= 95 and b - r >= 35


def close_demo(proc, seen):
    # The mouse is not captured, so Esc closes the window; a second one in case the first only
    # left a text field that was still active. Held over several frames, so that a build that
    # loses taps still closes and reports what it got.
    for _ in range(2):
        if proc.poll() is None:
            xt.tap(XK_ESCAPE, 0.4)
            time.sleep(0.8)
    code, out = finish_demo(proc, seen)
    expect(code == 0, f"exit {code}", out)
    return out


if case == "space_tap_low_fps":
    # At 10 frames per second a frame looks at the keys every 100 ms; a tap of 3 ms falls
    # between two looks. Every tap must still jump once.
    taps = 5
    level = os.path.join(source_dir, "assets", "arena.glb")
    with tempfile.TemporaryDirectory() as tmp:
        sj = os.path.join(tmp, "stats.json")
        proc, seen = start_demo(demo, [level, "--max-fps", "10", "--no-vsync", "--no-panel",
                                       "--width", "320", "--height", "180", "--frames",
                                       "100000", "--stats-json", sj], _env)
        time.sleep(2.5)  # the window is mapped and the character stands on the floor
        # Without a window manager, keys go to the window under the pointer.
        xt.move(100, 90)
        time.sleep(0.5)
        for _ in range(taps):
            xt.tap(XK_SPACE, 0.003)
            # Long enough to land again: a 1.2 m jump takes 0.7 s of simulated time, and at
            # 10 fps the fixed-step clock runs at most 8 steps of 1/120 s a frame (2/3 speed;
            # slower still on a loaded machine).
            time.sleep(3.0)
        out = close_demo(proc, seen)
        with open(sj) as f:
            stats = json.load(f)
    run, jumps = stats["run"], stats["controller"]["jumps"]
    # Meaningful only if the frames really were slow: the taps were shorter than a frame.
    expect(run["mean_frame_ms"] > 80.0, f"mean frame {run['mean_frame_ms']:.1f} ms: --max-fps 10 "
           "did not slow the frames", json.dumps(run))
    expect(jumps == taps, f"{jumps} jumps for {taps} taps of 3 ms at 10 fps", json.dumps(stats))
    print(f"{taps} taps, {jumps} jumps; mean frame {run['mean_frame_ms']:.1f} ms")
elif case in ("path_field_typing_low_fps", "path_field_enter_loads", "path_field_click_then_t"):
    # Text typed into the panel's Level path field at 10 fps arrives whole: characters typed
    # faster than the frames, a Ctrl+A tap (select all, so the typing replaces the path) and a
    # Backspace tap that are over between two frames. The field's text goes to --stats-json.
    level = os.path.join(source_dir, "assets", "arena.glb")
    with tempfile.TemporaryDirectory() as tmp:
        sj = os.path.join(tmp, "stats.json")
        proc, seen = start_demo(demo, [level, "--max-fps", "10", "--no-vsync", "--width", "800",
                                       "--height", "600", "--frames", "100000", "--stats-json",
                                       sj], _env, cwd=tmp)
        time.sleep(2.5)
        xt.move(200, 300)  # over the panel
        time.sleep(0.5)
        for _ in range(80):  # to the panel's end, where the Level section is
            xt.click(5)
        time.sleep(1.0)
        shots = set()
        image = f12_screenshot(tmp, shots)
        # The panel is about 340 px wide: sample the header rows inside it.
        header_xs = (30, 150, 300)
        headers = bands(image, is_header, header_xs)
        expect(headers, "no collapsing header found in the screenshot")
        level_header = headers[-1]  # "Level" is the panel's last section
        fields = [f for f in bands(image, is_frame, (30, 150)) if f[0] > level_header[1]]
        if not fields:  # the section is closed: open it and scroll to the end again
            xt.move(100, (level_header[0] + level_header[1]) // 2)
            time.sleep(0.3)
            xt.click(1)
            time.sleep(1.0)
            xt.move(200, 300)
            for _ in range(80):
                xt.click(5)
            time.sleep(1.0)
            image = f12_screenshot(tmp, shots)
            level_header = bands(image, is_header, header_xs)[-1]
            fields = [f for f in bands(image, is_frame, (30, 150)) if f[0] > level_header[1]]
        expect(fields, "no text field under the Level header")
        first, last = fields[0]
        xt.move(100, (first + last) // 2)
        time.sleep(0.3)
        xt.click(1)  # into the path field
        if case == "path_field_click_then_t":
            # 't' right after the click, inside the same 100 ms frame: the field takes it as
            # text (Ctrl+A below replaces it); it must not toggle wireframe (T).
            xt.tap(ord("t"), 0.003)
        time.sleep(1.0)
        xt.key(XK_CONTROL_L, True)
        time.sleep(0.4)
        xt.tap(ord("a"), 0.003)  # Ctrl+A: select the current path
        time.sleep(0.4)
        xt.key(XK_CONTROL_L, False)
        time.sleep(0.4)
        # Enter loads what was typed: a level that exists for path_field_enter_loads (a copy of
        # the arena under a name of its own), a path that does not for the typing case.
        # type_fast knows no Shift: the folder's name must not hold '_' (which Python's temporary
        # names may, typed as '-'), so it is letters and digits only, removed at the end.
        folder = os.path.join(tempfile.gettempdir(), f"ofpstyped{os.getpid()}")
        wanted = os.path.join(folder, "level.glb")
        shutil.rmtree(folder, ignore_errors=True)
        if case == "path_field_enter_loads":
            os.makedirs(folder)
            shutil.copyfile(level, wanted)
        type_fast(wanted[:-4] + "q")
        time.sleep(0.6)
        xt.tap(XK_BACKSPACE, 0.003)  # takes the q back
        time.sleep(0.6)
        type_fast(".glb")
        time.sleep(0.6)
        xt.tap(XK_RETURN, 0.003)  # Enter: leaves the field and loads (Esc would restore)
        time.sleep(3.0 if case == "path_field_enter_loads" else 0.6)
        out = close_demo(proc, seen)
        shutil.rmtree(folder, ignore_errors=True)
        with open(sj) as f:
            stats = json.load(f)
    if case == "path_field_click_then_t":
        expect(not stats["view"]["wireframe"] and "wireframe on (T)" not in stats["view"]["toasts"],
               f"the 't' typed after the click went to the field: {stats['view']}", out)
    typed = stats["ui"]["path_field"]
    expect(typed == wanted, f"path field '{typed}', typed '{wanted}'", out)
    print(f"path field: {typed}")
    if case == "path_field_enter_loads":
        expect(stats["level"]["path"] == wanted, f"Enter loaded {stats['level']['path']}", out)
        expect(f"Loaded level.glb" in stats["view"]["toasts"],
               f"the load's toast: {stats['view']['toasts']}", out)
    else:
        expect(stats["level"]["path"] == level, "a path that does not exist loads nothing", out)
else:
    print(f"unknown case {case}")
    sys.exit(2)
print(f"ok [{case}]")
