#!/usr/bin/env python3
"""Rays cut short of their nearest hit: a query file for measuring what a ray's walk costs when
it already knows its answer.

usage: rays_to_hit.py QUERIES RESULTS OUT [--keep FRACTION]

QUERIES is a query file (../shared/bench/FORMAT.md) and RESULTS the result file octree_bench
wrote for it (one line per query, same order). OUT gets the file's rays only, each ray that hit
with its tmax lowered to FRACTION (default 0.9999) of its hit distance; rays that missed keep
their tmax. No ray of OUT hits anything, so an engine answering OUT tests every box and triangle
in front of the hit and none behind it: the work of a walk with a perfect order, which a
nearest-hit walk approaches but cannot beat on the same tree. Comparing an engine's rate on OUT
with its rate on QUERIES splits its cost into "the tree in front of the hit" and "finding out
that the hit is the nearest" (bench/micro/RESULTS.md, ninth pass).

Exit status: 0 ok, 2 bad input (the message says which file and line).
"""
import argparse
import sys


def fail(message):
    sys.stderr.write("rays_to_hit.py: %s\n" % message)
    sys.exit(2)


def read_lines(path):
    """The file's lines without comments ('#' to the end of the line) and blank lines."""
    try:
        with open(path) as f:
            return [ln.split("#", 1)[0] for ln in f.read().splitlines()
                    if ln.split("#", 1)[0].strip()]
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror))


def cut_rays(queries, results, keep, qpath="QUERIES", rpath="RESULTS"):
    """The ray lines of `queries` with tmax cut to keep x the hit distance of `results`."""
    if len(queries) != len(results):
        fail("%s has %d queries but %s has %d results: not the results of these queries"
             % (qpath, len(queries), rpath, len(results)))
    out = []
    for n, (q, r) in enumerate(zip(queries, results), start=1):
        qf, rf = q.split(), r.split()
        if qf[0] != rf[0]:
            fail("line %d: query is '%s' but result is '%s'" % (n, qf[0], rf[0]))
        if qf[0] != "ray":
            continue
        if len(qf) != 8 or len(rf) not in (2, 4) or rf[1] not in ("0", "1"):
            fail("line %d: malformed ray query or result" % n)
        if rf[1] == "1":
            if len(rf) != 4:
                fail("line %d: a hit needs 'ray 1 t tri'" % n)
            try:
                t = float(rf[2])
            except ValueError:
                fail("line %d: hit distance '%s' is not a number" % (n, rf[2]))
            if not t >= 0.0:
                fail("line %d: hit distance %s is negative or NaN" % (n, rf[2]))
            qf[7] = repr(t * keep)
        out.append(" ".join(qf))
    return out


def main():
    ap = argparse.ArgumentParser(description="Rays of QUERIES cut short of their nearest hit.")
    ap.add_argument("queries")
    ap.add_argument("results")
    ap.add_argument("out")
    ap.add_argument("--keep", type=float, default=0.9999,
                    help="share of the hit distance kept (0 < FRACTION < 1; default 0.9999)")
    a = ap.parse_args()
    if not 0.0 < a.keep < 1.0:
        fail("--keep must lie strictly between 0 and 1, not %s" % a.keep)
    rays = cut_rays(read_lines(a.queries), read_lines(a.results), a.keep, a.queries, a.results)
    if not rays:
        fail("%s has no ray queries" % a.queries)
    try:
        with open(a.out, "w") as f:
            f.write("\n".join(rays) + "\n")
    except OSError as e:
        fail("cannot write %s: %s" % (a.out, e.strerror))
    print("%d rays written to %s" % (len(rays), a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
