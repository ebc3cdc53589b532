#!/usr/bin/env python3
"""End-to-end input checks of the windowed octree_demo: synthetic X key events (the X server's
XTEST extension, through ctypes) sent to the real window under a virtual X server.

Usage: check_input.py DEMO CASE SOURCE_DIR [SHARED_DIR]
Skipped (exit 77) where xvfb-run, libX11 or libXtst is missing. The script re-runs itself under
xvfb-run so that it sends its events inside the same virtual display as the demo.
"""
import ctypes
import ctypes.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

demo, case, source_dir = sys.argv[1:4]

if shutil.which("xvfb-run") is None:
    print("xvfb-run not found: skipped")
    sys.exit(77)

_config = tempfile.mkdtemp(prefix="octree-fps-input-config-")
# Recent files go under XDG_CONFIG_HOME: keep the test out of the user's configuration.
_env = dict(os.environ, XDG_CONFIG_HOME=_config)

if os.environ.get("OCTREE_INPUT_INNER") is None:
    p = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 800x600x24", sys.executable,
                        os.path.abspath(__file__), *sys.argv[1:]],
                       capture_output=True, text=True, timeout=600,
                       env=dict(_env, OCTREE_INPUT_INNER="1"))
    print(p.stdout + p.stderr)
    shutil.rmtree(_config, True)
    sys.exit(p.returncode)


def expect(cond, message, output=""):
    if not cond:
        print(f"FAIL [{case}]: {message}\n--- output ---\n{output}")
        sys.exit(1)


x11, xtst = ctypes.util.find_library("X11"), ctypes.util.find_library("Xtst")
if x11 is None or xtst is None:
    print("libX11 or libXtst not found: skipped")
    sys.exit(77)
xlib, xtest = ctypes.CDLL(x11), ctypes.CDLL(xtst)
xlib.XOpenDisplay.restype = ctypes.c_void_p
xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
xlib.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
xlib.XFlush.argtypes = [ctypes.c_void_p]
xtest.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
xtest.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                       ctypes.c_ulong]
display = xlib.XOpenDisplay(None)
expect(display, "cannot open the virtual display")

XK_SPACE, XK_ESCAPE = 0x0020, 0xFF1B


def key(keysym, down):
    xtest.XTestFakeKeyEvent(display, xlib.XKeysymToKeycode(display, keysym), 1 if down else 0, 0)
    xlib.XFlush(display)


def tap(keysym, hold_s):
    """Press and release, `hold_s` apart: shorter than a frame, the key is up again before the
    demo's next frame looks."""
    key(keysym, True)
    time.sleep(hold_s)
    key(keysym, False)


def start_demo(args):
    proc = subprocess.Popen([demo, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=_env)
    seen = []
    # The demo loads the level, then opens the window and says which OpenGL it got.
    for line in proc.stdout:
        seen.append(line)
        if line.startswith("OpenGL"):
            break
    expect(any(l.startswith("OpenGL") for l in seen), "no window", "".join(seen))
    return proc, seen


def close_demo(proc, seen):
    key(XK_ESCAPE, True)  # the mouse is not captured, so Esc closes the window
    key(XK_ESCAPE, False)
    try:
        out, _ = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    out = "".join(seen) + out
    expect(proc.returncode == 0, f"exit {proc.returncode}", out)
    return out


if case == "space_tap_low_fps":
    # At 10 frames per second a frame looks at the keys every 100 ms; a tap of 3 ms falls
    # between two looks. Every tap must still jump once.
    taps = 5
    level = os.path.join(source_dir, "assets", "arena.glb")
    with tempfile.TemporaryDirectory() as tmp:
        sj = os.path.join(tmp, "stats.json")
        proc, seen = start_demo([level, "--max-fps", "10", "--no-vsync", "--no-panel", "--width",
                                 "320", "--height", "180", "--frames", "100000",
                                 "--stats-json", sj])
        time.sleep(2.5)  # the window is mapped and the character stands on the floor
        # Without a window manager, keys go to the window under the pointer.
        xtest.XTestFakeMotionEvent(display, -1, 100, 90, 0)
        xlib.XFlush(display)
        time.sleep(0.5)
        for _ in range(taps):
            tap(XK_SPACE, 0.003)
            # Long enough to land again: a 1.2 m jump takes 0.7 s of simulated time, and at
            # 10 fps the fixed-step clock runs at most 8 steps of 1/120 s a frame (2/3 speed).
            time.sleep(2.0)
        out = close_demo(proc, seen)
        with open(sj) as f:
            stats = json.load(f)
    run, jumps = stats["run"], stats["controller"]["jumps"]
    # Meaningful only if the frames really were slow: the taps were shorter than a frame.
    expect(run["mean_frame_ms"] > 80.0, f"mean frame {run['mean_frame_ms']:.1f} ms: --max-fps 10 "
           "did not slow the frames", json.dumps(run))
    expect(jumps == taps, f"{jumps} jumps for {taps} taps of 3 ms at 10 fps", json.dumps(stats))
    print(f"{taps} taps, {jumps} jumps; mean frame {run['mean_frame_ms']:.1f} ms")
else:
    print(f"unknown case {case}")
    sys.exit(2)
print(f"ok [{case}]")
