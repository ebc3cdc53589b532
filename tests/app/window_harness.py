"""The window tests' harness: what check_feedback.py, check_input.py, check_probe.py,
check_view.py and check_window.py share to run the real octree_demo in a window under a virtual
X server (xvfb-run) and drive it with synthetic X events (the XTEST extension, through ctypes;
no xdotool). One copy, imported by every check script beside it (like png_rgba.py), so that how
a window test starts, isolates, drives and stops the demo is written and fixed once. Each
script keeps its own checks, expected values, timings and messages.

What it offers:
- script_args(): DEMO CASE SOURCE_DIR [SHARED_DIR] from the command line (SHARED_DIR:
  $OCTREE_FPS_SHARED_DIR, else the fourth argument, else SOURCE_DIR/../shared).
- expect(), skip(): a "FAIL [case]: ..." line and exit 1; a "...: skipped" line and exit 77,
  the tests' SKIP_RETURN_CODE. require_xvfb_run() skips where xvfb-run is not installed.
- isolated_env(): the environment with an XDG_CONFIG_HOME of its own, removed at exit, so that
  the demo's recent files and saved settings never reach the user's configuration (nor one
  test's another's). OCTREE_FPS_NO_SETTINGS is passed on as it is: CI sets it, and a script
  that tests the settings file removes it itself (check_view.py).
- run_in_xvfb(): one command in a fresh virtual display (xvfb-run -a); its exit code and output.
- rerun_in_xvfb(): the script re-runs itself inside xvfb-run, so that the X events it sends
  reach the display the demo's window is on; returns at once in that inner run.
- open_xtest(): libX11 and libXtst through ctypes (skipped where either is missing) and the
  virtual display: key, press, tap, move, click and button events.
- spawn_demo(), start_demo(), finish_demo(): the demo with its output piped, waiting for its
  window (the "OpenGL" line), and collecting its exit code and whole output at the end.
- read_screenshot(): one of the demo's PNG screenshots decoded (png_rgba.py), FAIL if it is not
  one.
"""
import atexit
import ctypes
import ctypes.util
import os
import shutil
import subprocess
import sys
import tempfile
import time

from png_rgba import read_png_rgba  # beside this module

# Set in the script's own re-run inside xvfb-run (rerun_in_xvfb).
_INNER = "OCTREE_FPS_WINDOW_TEST_INNER"

XK_ESCAPE, XK_F12 = 0xFF1B, 0xFFC9

_case = None  # for the FAIL lines; set by script_args()


def script_args():
    """(demo, case, source_dir, shared_dir) from `check_X.py DEMO CASE SOURCE_DIR [SHARED_DIR]`."""
    global _case
    demo, case, source_dir = sys.argv[1:4]
    _case = case
    shared_dir = os.environ.get("OCTREE_FPS_SHARED_DIR",
                                sys.argv[4] if len(sys.argv) > 4
                                else os.path.join(source_dir, "..", "shared"))
    return demo, case, source_dir, shared_dir


def expect(cond, message, output=""):
    if not cond:
        print(f"FAIL [{_case}]: {message}\n--- output ---\n{output}")
        sys.exit(1)


def skip(reason):
    print(f"{reason}: skipped")
    sys.exit(77)


def require_xvfb_run():
    if shutil.which("xvfb-run") is None:
        skip("xvfb-run not found")


def isolated_env(prefix="octree-fps-test-config-"):
    """os.environ with a new, empty XDG_CONFIG_HOME (the demo's recent files and saved settings
    go there), removed when the script exits. Every process of a test (the outer script and its
    re-run inside xvfb-run) gets its own."""
    config = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, config, True)
    return dict(os.environ, XDG_CONFIG_HOME=config)


def run_in_xvfb(command, env, screen="800x600x24", timeout=300):
    """(exit code, stdout + stderr) of `command` run to its end in a fresh virtual display."""
    p = subprocess.run(["xvfb-run", "-a", "-s", f"-screen 0 {screen}", *command],
                       capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout + p.stderr


def rerun_in_xvfb(env=None, timeout=300):
    """Outside a virtual display: runs this script again, with the same arguments, inside
    xvfb-run (environment `env`, default os.environ), prints what it printed and exits with its
    code. Inside (that re-run): returns, and the script goes on to send its X events."""
    if os.environ.get(_INNER) is not None:
        return
    code, out = run_in_xvfb([sys.executable, os.path.abspath(sys.argv[0]), *sys.argv[1:]],
                            dict(os.environ if env is None else env, **{_INNER: "1"}),
                            timeout=timeout)
    print(out)
    sys.exit(code)


class XTest:
    """Synthetic input on the virtual display. Without a window manager, keys go to the window
    under the pointer: move() over the demo's window first."""

    def __init__(self, xlib, xtest, display):
        self._xlib, self._xtest, self._display = xlib, xtest, display

    def _code(self, keysym):
        return self._xlib.XKeysymToKeycode(self._display, keysym)

    def key(self, keysym, down):
        """One key event (down or up), sent at once."""
        self._xtest.XTestFakeKeyEvent(self._display, self._code(keysym), 1 if down else 0, 0)
        self._xlib.XFlush(self._display)

    def press(self, keysym):
        """Down and up, sent together."""
        code = self._code(keysym)
        self._xtest.XTestFakeKeyEvent(self._display, code, 1, 0)
        self._xtest.XTestFakeKeyEvent(self._display, code, 0, 0)
        self._xlib.XFlush(self._display)

    def tap(self, keysym, hold_s):
        """Press and release, `hold_s` apart: shorter than a frame, the key is up again before the
        demo's next frame looks."""
        self.key(keysym, True)
        time.sleep(hold_s)
        self.key(keysym, False)

    def move(self, x, y):
        """The pointer to (x, y) on the screen (the window's top left corner is at 0, 0)."""
        self._xtest.XTestFakeMotionEvent(self._display, -1, x, y, 0)
        self._xlib.XFlush(self._display)

    def button_event(self, number, down):
        """One pointer button event (down or up), sent at once."""
        self._xtest.XTestFakeButtonEvent(self._display, number, 1 if down else 0, 0)
        self._xlib.XFlush(self._display)

    def click(self, number=1):
        """A click of an X pointer button, down and up sent together (1 left; 4 and 5 are the
        wheel, up and down)."""
        self._xtest.XTestFakeButtonEvent(self._display, number, 1, 0)
        self._xtest.XTestFakeButtonEvent(self._display, number, 0, 0)
        self._xlib.XFlush(self._display)


def open_xtest():
    """The X libraries bound through ctypes and the display ($DISPLAY, set by xvfb-run).
    Skipped (77) where libX11 or libXtst is not installed; FAIL if the display does not open."""
    x11, xtst = ctypes.util.find_library("X11"), ctypes.util.find_library("Xtst")
    if x11 is None or xtst is None:
        skip("libX11 or libXtst not found")
    xlib, xtest = ctypes.CDLL(x11), ctypes.CDLL(xtst)
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xlib.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    xlib.XFlush.argtypes = [ctypes.c_void_p]
    xtest.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                        ctypes.c_ulong]
    xtest.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                           ctypes.c_int, ctypes.c_ulong]
    xtest.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                           ctypes.c_ulong]
    display = xlib.XOpenDisplay(None)
    expect(display, "cannot open the virtual display")
    return XTest(xlib, xtest, display)


def spawn_demo(demo, args, env, cwd=None):
    """The demo started with stdout and stderr in one pipe, read line by line as it runs."""
    return subprocess.Popen([demo, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=env, cwd=cwd)


def start_demo(demo, args, env, cwd=None, name=None):
    """(process, lines read so far) once the demo's window is open: it loads the level, then
    opens the window and says which OpenGL it got. FAIL "no window" ("NAME: no window") if its
    output ends first."""
    proc = spawn_demo(demo, args, env, cwd)
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if line.startswith("OpenGL"):
            break
    expect(any(l.startswith("OpenGL") for l in seen),
           f"{name}: no window" if name else "no window", "".join(seen))
    return proc, seen


def finish_demo(proc, seen, timeout=120):
    """(exit code, whole output) once the demo has ended, killed if it has not within
    `timeout` seconds; `seen` is what was already read from its output."""
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return proc.returncode, "".join(seen) + out


def read_screenshot(path):
    """(width, height, rows of RGBA bytes) of one of the demo's screenshots (png_rgba.py)."""
    try:
        return read_png_rgba(path)
    except ValueError as e:
        expect(False, str(e))
