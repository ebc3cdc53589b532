#!/usr/bin/env python3
"""CTest bench.tool.oracle: octree_bench --oracle on a small query file must agree with brute
force on every non-grazing query (the tool's exit status says so), write one result line per
query and print the JSON fields of FORMAT.md. Then rays_to_hit.py cuts the rays short of their
hits, and octree_bench must find no hit on them (nearest or any-hit) while still agreeing with
brute force: the file the ninth pass measured the walk's bound with is what it claims to be.

usage: smoke_test.py OCTREE_BENCH GENQUERIES.py LEVEL.obj WORKDIR
OCTREE_FPS_EMULATOR, when set, is the command OCTREE_BENCH runs under (a cross build's qemu,
Wine or node).
"""
import json
import os
import shlex
import subprocess
import sys


def main():
    bench, genqueries, level, work = sys.argv[1:5]
    bench = shlex.split(os.environ.get("OCTREE_FPS_EMULATOR", "")) + [bench]
    os.makedirs(work, exist_ok=True)
    queries = os.path.join(work, "smoke.queries")
    results = os.path.join(work, "smoke.results")
    subprocess.run([sys.executable, genqueries, level, queries, "--n", "500", "--seed", "7",
                    "--radius", "0.35"], check=True)
    run = subprocess.run(bench + [level, queries, results, "--oracle", "--rounds", "1", "--quiet"],
                         capture_output=True, text=True)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        print("octree_bench exited with %d" % run.returncode)
        return 1
    out = json.loads(run.stdout)
    for key in ("triangles", "build_ms", "bytes", "kinds", "oracle"):
        assert key in out, "missing JSON field " + key
    for kind in ("ray", "sphere", "capsule", "box"):
        k = out["kinds"][kind]
        for key in ("count", "total_ms", "queries_per_second", "hits"):
            assert key in k, "missing %s.%s" % (kind, key)
        assert k["count"] == 500, k
        # The sample is meaningful: a fair share of the queries touch something.
        assert 0.2 * k["count"] <= k["hits"] <= k["count"], (kind, k["hits"])
        agreement = out["oracle"]["kinds"][kind]["octree_agreement"]
        assert agreement["disagree_other"] == 0, (kind, agreement)
    with open(results) as f:
        lines = f.read().splitlines()
    assert len(lines) == 2000, len(lines)
    cut = os.path.join(work, "smoke_cut.queries")
    subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                 "rays_to_hit.py"), queries, results, cut],
                   check=True)
    run = subprocess.run(bench + [level, cut, os.path.join(work, "smoke_cut.results"), "--oracle",
                          "--rounds", "1", "--quiet"], capture_output=True, text=True)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        print("octree_bench exited with %d on the cut rays" % run.returncode)
        return 1
    cut_out = json.loads(run.stdout)
    with open(cut) as f:
        cut_rays = len(f.read().splitlines())
    # Rays that start on a triangle (hit at 0) cannot be cut and are left out: a few at most.
    assert 490 <= cut_rays <= 500, cut_rays
    for kind in ("ray", "ray_any"):
        k = cut_out["kinds"][kind]
        assert k["count"] == cut_rays, (kind, k)
        assert k["hits"] == 0, ("cut rays must not hit", kind, k["hits"])
    assert cut_out["oracle"]["kinds"]["ray"]["octree_agreement"]["disagree_other"] == 0
    # Misuse is refused with status 2 and a message: the two inputs swapped, and the results of
    # another query file with the same number of lines (seed 8 instead of 7).
    other_q = os.path.join(work, "other.queries")
    other_r = os.path.join(work, "other.results")
    subprocess.run([sys.executable, genqueries, level, other_q, "--n", "500", "--seed", "8",
                    "--radius", "0.35"], check=True)
    subprocess.run(bench + [level, other_q, other_r, "--rounds", "1", "--quiet"], check=True,
                   capture_output=True)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rays_to_hit.py")
    for args, words in (([results, queries], "swapped"), ([queries, other_r], "not the result")):
        bad = subprocess.run([sys.executable, script] + args + [os.path.join(work, "bad.q")],
                             capture_output=True, text=True)
        assert bad.returncode == 2 and words in bad.stderr, (args, bad.returncode, bad.stderr)
    print("ok: %d triangles, agreement %s" % (out["triangles"], {
        k: out["oracle"]["kinds"][k]["octree_agreement"]["agreement"]
        for k in ("ray", "sphere", "capsule", "box")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
