#!/usr/bin/env python3
"""End-to-end checks of octree_demo's command line, run by CTest.

Usage: check_cli.py DEMO CASE SOURCE_DIR SHARED_DIR
Each case runs the real binary with --headless and checks its exit status, its messages and
its --stats-json output against values that come from outside the program (SOURCES.md counts).
"""
import json
import os
import subprocess
import sys
import tempfile

demo, case, source_dir, shared_dir = sys.argv[1:5]
shared_dir = os.environ.get("OCTREE_FPS_SHARED_DIR", shared_dir)


def run(*args, timeout=240):
    p = subprocess.run([demo, *args], capture_output=True, text=True, timeout=timeout)
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
elif case == "bad_value":
    for args in (["--frames", "-3"], ["--up", "x"], ["--scale", "0"], ["--camera", "1,2"],
                 ["--camera", "1,nan,3"], ["--width", "abc"]):
        code, text = run("--headless", *args)
        expect(code == 2, f"{args} exits 2 (got {code})", text)
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
elif case == "stats_shared_levels":
    # Triangle counts from ../shared/levels/SOURCES.md (degenerate triangles included).
    levels = [("collision-world/collision-world.glb", 1788, []),
              ("collision-world/collision-world.obj", 1788, []),
              ("oa_dm1/oa_dm1.obj", 7460, ["--up", "z", "--scale", "0.0254"]),
              ("oa_dm5/oa_dm5.obj", 40542, ["--up", "z", "--scale", "0.0254"])]
    for rel, triangles, flags in levels:
        path = os.path.join(shared_dir, "levels", rel)
        expect(os.path.exists(path), f"shared level {path} exists")
        stats, text = stats_for(path, *flags)
        expect(stats["level"]["triangles"] == triangles,
               f"{rel}: {stats['level']['triangles']} triangles, SOURCES.md says {triangles}", text)
        lo, hi = stats["level"]["bounds"]
        height = hi[1] - lo[1]
        expect(height < max(hi[0] - lo[0], hi[2] - lo[2]),
               f"{rel}: Y extent {height} should be the smallest (right way up)", text)
else:
    expect(False, f"unknown case {case}")
print(f"ok [{case}]")
