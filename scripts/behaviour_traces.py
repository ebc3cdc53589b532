#!/usr/bin/env python3
"""Writes the demo's behaviour record: character and props traces and --stats-json (timings
removed) for the bundled arena and every shared level, headless and windowed, so that a
refactor can prove it changed nothing.

  scripts/behaviour_traces.py --demo OLD/octree_demo --out /tmp/before
  scripts/behaviour_traces.py --demo build/octree_demo --out /tmp/after
  scripts/behaviour_traces.py --compare /tmp/before /tmp/after

Levels are copied to a temporary folder first (the demo writes import settings beside a level;
nothing is written into the shared folder). Windowed runs need xvfb-run. The script walks,
turns, jumps and throws; --spawn-props scatters props so the props step and cull have work.
"""
import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# No spawn line: each level's own spawn search places the character. A throw every 1/8 s gives
# the props step, the props' collisions and the props cull work on every level.
MOVES = [(0, "hold forward"), (1.0, "turn -60 5"), (1.5, "tap jump"), (2.0, "hold sprint"),
         (3.0, "release sprint"), (3.0, "turn 120 -10"), (3.5, "hold crouch"),
         (4.2, "release crouch"), (4.5, "release forward")]
THROWS = [(t / 8, "throw") for t in range(1, 37)]
SCRIPT = "".join(f"at {t:g} {what}\n"
                 for t, what in sorted(MOVES + THROWS, key=lambda e: e[0])) + "end 5\n"

# Keys whose values are measured times (or depend on them): left out of the comparison.
TIMING_WORDS = ("ms", "time", "fps", "seconds", "_us", "us_", "elapsed", "per_frame", "rate")


def levels(shared):
    out = [("arena", os.path.join(ROOT, "assets", "arena.glb"))]
    base = os.path.join(shared, "levels")
    for name in ("collision-world", "oa_dm1", "oa_dm5", "ons-reborn"):
        folder = os.path.join(base, name)
        for ext in (".glb", ".obj"):
            path = os.path.join(folder, name + ext)
            if os.path.exists(path):
                out.append((name, path))
                break
    return out


def strip_timings(value):
    if isinstance(value, dict):
        return {
            k: strip_timings(v)
            for k, v in value.items()
            if not any(w in k.lower() for w in TIMING_WORDS)
        }
    if isinstance(value, list):
        return [strip_timings(v) for v in value]
    return value


def record(demo, out, shared):
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="behaviour-")
    script = os.path.join(work, "walk.script")
    with open(script, "w") as f:
        f.write(SCRIPT)
    failures = 0
    for name, source in levels(shared):
        level = os.path.join(work, os.path.basename(source))
        shutil.copy(source, level)
        for mode in ("headless", "windowed"):
            tag = f"{name}.{mode}"
            args = [demo, "--no-settings", "--script", script,
                    "--trace", os.path.join(out, tag + ".trace.csv"),
                    "--props-trace", os.path.join(out, tag + ".props-trace.csv"),
                    "--props", os.path.join(out, tag + ".props.csv"),
                    "--stats-json", os.path.join(work, tag + ".json")]
            if mode == "headless":
                args.append("--headless")
            else:
                args = ["xvfb-run", "-a", "-s", "-screen 0 1280x900x24"] + args
            args.append(level)
            run = subprocess.run(args, capture_output=True, text=True, timeout=600)
            if run.returncode != 0:
                print(f"{tag}: exit {run.returncode}\n{run.stderr[-2000:]}", file=sys.stderr)
                failures += 1
                continue
            with open(os.path.join(work, tag + ".json")) as f:
                # The temporary folder's name differs per run: it is not behaviour.
                stats = strip_timings(json.loads(f.read().replace(work, "<work>")))
            with open(os.path.join(out, tag + ".stats.json"), "w") as f:
                json.dump(stats, f, indent=1, sort_keys=True)
            print(f"{tag}: recorded")
    shutil.rmtree(work)
    return failures


def compare(a, b):
    names = sorted(set(os.listdir(a)) | set(os.listdir(b)))
    differ = 0
    for n in names:
        pa, pb = os.path.join(a, n), os.path.join(b, n)
        if not (os.path.exists(pa) and os.path.exists(pb)):
            print(f"only in one record: {n}")
            differ += 1
        elif not filecmp.cmp(pa, pb, shallow=False):
            print(f"differs: {n}")
            differ += 1
    print(f"{len(names) - differ} of {len(names)} files byte-identical")
    return differ


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--demo", help="octree_demo binary to record with")
    p.add_argument("--out", help="folder for the record")
    p.add_argument("--shared", default=os.environ.get("OCTREE_FPS_SHARED_DIR",
                                                      os.path.join(ROOT, "..", "shared")))
    p.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    a = p.parse_args()
    if a.compare:
        return 1 if compare(*a.compare) else 0
    if not a.demo or not a.out:
        p.error("--demo and --out, or --compare")
    return 1 if record(a.demo, a.out, a.shared) else 0


if __name__ == "__main__":
    sys.exit(main())
