#!/usr/bin/env python3
"""End-to-end checks of the windowed octree_demo under a virtual X server, run by CTest.

Usage: check_window.py DEMO CASE SOURCE_DIR
Skipped (exit 77) where xvfb-run is not installed. Expected values are the script's own
numbers, written out here, never read back from the program.
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

demo, case, source_dir = sys.argv[1:4]
if shutil.which("xvfb-run") is None:
    print("xvfb-run not found: skipped")
    sys.exit(77)

# Recent files go under XDG_CONFIG_HOME: keep the test out of the user's configuration.
_config = tempfile.mkdtemp(prefix="octree-fps-test-config-")
_env = dict(os.environ, XDG_CONFIG_HOME=_config)
atexit.register(shutil.rmtree, _config, True)


def expect(cond, message, output=""):
    if not cond:
        print(f"FAIL [{case}]: {message}\n--- output ---\n{output}")
        sys.exit(1)


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
        p = subprocess.run(
            ["xvfb-run", "-a", "-s", "-screen 0 640x360x24", demo, level, "--script", script,
             "--frames", "80", "--no-vsync", "--width", "320", "--height", "180", "--no-panel",
             "--swap-to", level, "--stats-json", stats_path],
            capture_output=True, text=True, timeout=300, env=_env)
        out = p.stdout + p.stderr
        expect(p.returncode == 0, f"exit {p.returncode}", out)
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
else:
    print(f"unknown case {case}")
    sys.exit(2)
print(f"ok [{case}]")
