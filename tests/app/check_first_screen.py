#!/usr/bin/env python3
"""End-to-end checks of the demo's first screen under a virtual X server, with real X events
(XTEST): F1 shows the key list; C, X, V and R each put their toast on the view; the start
block's headline says the numbers --stats-json reports for the character's queries and the
cull; no line of the panel's text is a sliver a few pixels wide (a column of one or two
characters, an orphaned "(?)"), at 1280x720 and after the window is resized to 800x600.

Usage: check_first_screen.py DEMO CASE SOURCE_DIR [SHARED_DIR]
Skipped (exit 77) where xvfb-run, libX11 or libXtst is missing.
"""
import ctypes
import json
import os
import re
import tempfile
import time

from window_harness import (XK_ESCAPE, XK_F12, expect, finish_demo, isolated_env, open_xtest,
                            read_screenshot, require_xvfb_run, rerun_in_xvfb, run_in_xvfb,
                            script_args, start_demo)  # beside this script

demo, case, source_dir, _ = script_args()
demo = os.path.abspath(demo)
require_xvfb_run()
_env = isolated_env(prefix="octree-fps-first-screen-")
arena = os.path.join(source_dir, "assets", "arena.glb")

XK_F1 = 0xFFBE


def num(text):  # "1,048" -> 1048
    return int(text.replace(",", ""))


XK_C, XK_X, XK_V, XK_R, XK_O, XK_T = 0x0063, 0x0078, 0x0076, 0x0072, 0x006F, 0x0074
XK_Q, XK_B = 0x0071, 0x0062


def narrow_text_rows(path, panel, min_width):
    """Rows of text in the panel's rectangle narrower than min_width pixels. A text row is a
    run of screen rows holding bright pixels (text is light on the dark panel), bounded by rows
    with none; its width is from its leftmost to its rightmost bright pixel."""
    width, height, rows = read_screenshot(path)
    x0 = int(panel["x"]) + 8
    x1 = min(width, int(panel["x"] + panel["width"]) - 22)  # left of the scrollbar
    y0, y1 = int(panel["y"]) + 22, min(height, int(panel["y"] + panel["height"]) - 4)
    bands, current = [], None
    for y in range(y0, y1):
        row = rows[y]
        xs = [x for x in range(x0, x1)
              if min(row[4 * x], row[4 * x + 1], row[4 * x + 2]) > 120]
        if xs:
            if current is None:
                current = [y, y, min(xs), max(xs)]
            else:
                current[1] = y
                current[2] = min(current[2], min(xs))
                current[3] = max(current[3], max(xs))
        elif current is not None:
            bands.append(current)
            current = None
    if current is not None:
        bands.append(current)
    # Text rows only (a glyph row is 6 to 14 px tall); a checkbox tick or a slider grab is not
    # light grey on both its ends the way a text row is, and sits in a taller band anyway.
    text = [b for b in bands if 5 <= b[1] - b[0] + 1 <= 14]
    return [b for b in text if b[3] - b[2] + 1 < min_width], len(text)


if case == "headline_matches_stats":
    # A scripted walk: the character's queries run every step. The start block's numbers are
    # read from its text (view.headline.lines) and compared with the run's own report of the
    # character's last step and the frame's cull, which stats_json.cpp writes from the
    # controller and the cull, not from the panel.
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "walk.script")
        with open(script, "w") as f:
            f.write("at 0 hold forward\nend 1.0\n")
        sj = os.path.join(tmp, "stats.json")
        code, out = run_in_xvfb([demo, arena, "--no-vsync", "--width", "800", "--height", "600",
                                 "--script", script, "--stats-json", sj], _env)
        expect(code == 0, f"exit {code}", out)
        with open(sj) as f:
            st = json.load(f)
    lines = st["view"]["headline"]["lines"]
    m = re.fullmatch(r"character: the octree tested ([\d,]+) boxes and ([\d,]+) triangles; "
                     r"brute force would test ([\d,]+)", lines[0])
    expect(m, f"the character line: {lines[0]!r}")
    last = st["controller"]["last_step"]
    triangles = st["level"]["triangles"]  # the collision triangles the octree holds
    expect(num(m.group(1)) == last["nodes_visited"] and
           num(m.group(2)) == last["triangles_tested"],
           f"headline {lines[0]!r} vs the last step {last}")
    expect(last["queries"] > 0 and last["triangles_tested"] > 0,
           f"the walk ran queries that tested triangles: {last}")
    cull = st["culling"]
    expect(num(m.group(3)) == last["queries"] * triangles,
           f"brute force = queries x triangles: {lines[0]!r}, {last}, {triangles}")
    m = re.fullmatch(r"culling: the octree tested ([\d,]+) boxes to pick ([\d,]+) triangles to "
                     r"draw; brute force would test ([\d,]+)", lines[1])
    expect(m, f"the culling line: {lines[1]!r}")
    expect(num(m.group(1)) == cull["nodes_visited"] and
           num(m.group(2)) == cull["triangles_drawn"] and
           num(m.group(3)) == cull["triangles_total"], f"headline {lines[1]!r} vs {cull}")
    expect(0 < cull["triangles_drawn"] < cull["triangles_total"],
           f"the cull drew some and not all: {cull}")

elif case == "keys_show_help_and_toasts":
    rerun_in_xvfb(_env)
    xt = open_xtest()
    with tempfile.TemporaryDirectory() as tmp:
        sj = os.path.join(tmp, "stats.json")
        proc, seen = start_demo(demo, [arena, "--no-vsync", "--width", "800", "--height", "600",
                                       "--frames", "20000", "--stats-json", sj], _env, cwd=tmp)
        time.sleep(2)
        xt.move(600, 300)  # over the view, right of the panel
        time.sleep(0.5)
        for key in (XK_C, XK_X, XK_V, XK_R):
            xt.press(key)
            time.sleep(0.6)
        # C, X and V again (culling back on and following the camera), Q and B, then O and T:
        # T's toast is the one on the view at the end, its numbers the last frame's.
        for key in (XK_C, XK_X, XK_V, XK_Q, XK_B, XK_O, XK_T):
            xt.press(key)
            time.sleep(0.6)
        xt.press(XK_F1)
        time.sleep(0.6)
        code, out = None, None
        xt.press(XK_F12)  # a screenshot with the help shown
        time.sleep(1.5)
        xt.press(XK_ESCAPE)  # closes the help first
        time.sleep(0.5)
        xt.press(XK_F1)  # and F1 opens it again: it is shown at the end
        time.sleep(0.6)
        xt.press(XK_ESCAPE)  # closes it
        time.sleep(0.5)
        xt.press(XK_ESCAPE)  # quits
        code, out = finish_demo(proc, seen)
        expect(code == 0, f"exit {code}", out)
        with open(sj) as f:
            st = json.load(f)
    v = st["view"]
    toasts = v["toasts"]
    for want in ("frustum culling off (C)", "occlusion culling off (X)", "culling frozen (V)",
                 "respawned at the spawn point (R)", "frustum culling on (C)",
                 "occlusion culling on (X)", "culling follows the camera again (V)",
                 "octree boxes off (O)", "wireframe on (T)",
                 "query view on (Q): what the character's queries touched", "props grid on (B)"):
        expect(want in toasts, f"toast {want!r} shown: {toasts}", out)
    # The toast on the view at the end is T's, with the frame's numbers: the triangles the cull
    # drew, of the level's drawable ones.
    cull = st["culling"]
    t = v["toast"]
    m = re.fullmatch(r"([\d,]+) of ([\d,]+) triangles drawn as outlines", t["detail"])
    expect(t["title"] == "wireframe on (T)" and m, f"T's toast at the end: {t}", out)
    expect(num(m.group(1)) == cull["triangles_drawn"] and
           num(m.group(2)) == cull["triangles_total"], f"T's numbers {t} vs {cull}", out)
    expect(not v["octree_boxes"]["shown"] and v["octree_boxes"]["drawn"] == 0,
           f"O turned the boxes off: {v['octree_boxes']}", out)
    expect(not v["help_shown"], "Esc closed the key list", json.dumps(v))
    expect(st["run"]["frames"] < 20000, "Esc quit after the help was closed", out)
    shots = [l for l in out.splitlines() if l.startswith("screenshot written to ")]
    expect(shots, "F12 wrote a screenshot", out)

elif case in ("panel_text_rows", "panel_text_rows_resized"):
    # The panel's text at 1280x720 (every section open that is open at first start), then the
    # same window made 800x600 by the X server (XResizeWindow, no window manager): the panel
    # follows the window's height and still has no sliver of text.
    rerun_in_xvfb(_env)
    xt = open_xtest()
    with tempfile.TemporaryDirectory() as tmp:
        sj = os.path.join(tmp, "stats.json")
        proc, seen = start_demo(demo, [arena, "--no-vsync", "--width", "1280", "--height", "720",
                                       "--frames", "20000", "--stats-json", sj], _env, cwd=tmp)
        time.sleep(2.5)
        if case == "panel_text_rows_resized":
            xlib = xt._xlib
            xlib.XDefaultRootWindow.restype = ctypes.c_ulong
            xlib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
            xlib.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong,
                                        ctypes.POINTER(ctypes.c_ulong),
                                        ctypes.POINTER(ctypes.c_ulong),
                                        ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
                                        ctypes.POINTER(ctypes.c_uint)]
            xlib.XResizeWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_uint,
                                           ctypes.c_uint]
            root = xlib.XDefaultRootWindow(xt._display)
            r, p, n = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_uint()
            children = ctypes.POINTER(ctypes.c_ulong)()
            xlib.XQueryTree(xt._display, root, ctypes.byref(r), ctypes.byref(p),
                            ctypes.byref(children), ctypes.byref(n))
            expect(n.value >= 1, "the demo's window under the root")
            for i in range(n.value):  # the demo's is the only top-level window here
                xlib.XResizeWindow(xt._display, children[i], 800, 600)
            xlib.XFlush(xt._display)
            time.sleep(2.0)
        xt.move(1000 if case == "panel_text_rows" else 700, 500)
        time.sleep(0.5)
        xt.press(XK_F12)
        time.sleep(2.0)
        xt.press(XK_ESCAPE)
        code, out = finish_demo(proc, seen)
        expect(code == 0, f"exit {code}", out)
        with open(sj) as f:
            st = json.load(f)
        shots = [l.split("screenshot written to ", 1)[1].strip() for l in out.splitlines()
                 if l.startswith("screenshot written to ")]
        expect(shots, "F12 wrote a screenshot", out)
        shot = os.path.join(tmp, shots[-1])
        w, h, _ = read_screenshot(shot)
        panel = st["view"]["panel"]
        if case == "panel_text_rows_resized":
            expect((w, h) == (800, 600), f"the window is 800x600 after the resize: {w}x{h}", out)
            expect(abs(panel["height"] - (600 - 20)) <= 1,
                   f"the panel follows the window's height: {panel}", out)
        else:
            expect((w, h) == (1280, 720), f"screenshot {w}x{h}", out)
        # ImGui's font: about 7 px a character; three characters is a sliver.
        narrow, rows = narrow_text_rows(shot, panel, 21)
        expect(rows > 20, f"only {rows} text rows found in the panel {panel}")
        expect(not narrow, f"{len(narrow)} text rows narrower than 3 characters "
               f"(top, bottom, left, right): {narrow[:8]}")
        print(f"{rows} text rows, none narrower than 3 characters")

else:
    expect(False, f"unknown case {case}")
print(f"ok [{case}]")
