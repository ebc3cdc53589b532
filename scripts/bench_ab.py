#!/usr/bin/env python3
"""Compares two builds of octree_microbench on the same machine: runs the benchmarks matching a
filter with the old and the new binary in turn (old, new, old, new, ...), so that drift in the
machine's speed hits both alike, and prints each benchmark's median CPU time per binary, the
new/old ratio, the spread between rounds (the noise a ratio must beat) and the ratio of the
fastest rounds (the least disturbed by other load).

  scripts/bench_ab.py OLD/octree_microbench build/octree_microbench 'BM_Grid|Sphere/' --rounds 3
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile


def run(binary, pattern, min_time):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([binary, f"--benchmark_filter={pattern}", f"--benchmark_min_time={min_time}",
                        f"--benchmark_out={out.name}", "--benchmark_out_format=json"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        data = json.load(open(out.name))
    return {b["name"]: b["cpu_time"] for b in data["benchmarks"] if b.get("run_type") != "aggregate"
            and "error_occurred" not in b}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("filter")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--min-time", default="0.2")
    a = p.parse_args()
    times = {"old": {}, "new": {}}
    for r in range(a.rounds):
        for tag, binary in (("old", a.old), ("new", a.new)):
            for name, t in run(binary, a.filter, a.min_time).items():
                times[tag].setdefault(name, []).append(t)
        print(f"round {r + 1} of {a.rounds} done", file=sys.stderr)
    print(f"{'benchmark':56} {'old':>10} {'new':>10} {'new/old':>8} {'spread':>7} {'min n/o':>8}")
    for name in sorted(set(times["old"]) & set(times["new"])):
        o, n = times["old"][name], times["new"][name]
        mo, mn = statistics.median(o), statistics.median(n)
        # Spread: the largest relative distance of a round from its binary's median.
        spread = max(max(abs(x - mo) / mo for x in o), max(abs(x - mn) / mn for x in n))
        # The fastest round of each is the least disturbed by other load on the machine.
        print(f"{name:56} {mo:10.4g} {mn:10.4g} {mn / mo:8.3f} {100 * spread:6.1f}% "
              f"{min(n) / min(o):8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
