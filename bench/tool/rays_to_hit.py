#!/usr/bin/env python3
"""Rays cut short of their nearest hit: a query file for measuring what a ray's walk costs when
it already knows its answer.

usage: rays_to_hit.py QUERIES RESULTS OUT [--keep FRACTION]

QUERIES is a query file (../shared/bench/FORMAT.md) and RESULTS the result file octree_bench
wrote for it (one line per query, same order). OUT gets the file's rays only, each ray that hit
with its tmax lowered to FRACTION (default 0.9999) of its hit distance; rays that missed keep
their tmax; rays that hit at distance 0 (they start on a triangle) cannot be cut and are left
out (the count is printed). No ray of OUT hits anything, so an engine answering OUT tests every box and triangle
in front of the hit and none behind it: the work of a walk with a perfect order, which a
nearest-hit walk approaches but cannot beat on the same tree. Comparing an engine's rate on OUT
with its rate on QUERIES splits its cost into "the tree in front of the hit" and "finding out
that the hit is the nearest" (bench/micro/RESULTS.md, ninth pass).

Exit status: 0 ok, 2 bad input (the message says which file and line). A result file of another
query file is refused when the line counts or kinds differ or a hit lies beyond its ray's tmax;
that catches most mix-ups, not all: the check that counts is that an engine finds no hit on OUT.
"""
import argparse
import os
import sys


def fail(message):
    sys.stderr.write("rays_to_hit.py: %s\n" % message)
    sys.exit(2)


def read_lines(path):
    """(line number in the file, text without its comment) for every line that is not blank or
    only a comment ('#' to the end of the line)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror))
    except UnicodeDecodeError:
        fail("%s is not a text file" % path)
    lines = []
    for n, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0]
        if body.strip():
            lines.append((n, body))
    return lines


def looks_like_result(fields):
    return fields[0] == "ray" and len(fields) in (2, 4) and fields[1] in ("0", "1")


def cut_rays(queries, results, keep, qpath="QUERIES", rpath="RESULTS"):
    """The ray lines of `queries` with tmax cut to keep x the hit distance of `results`, and the
    number of rays left out because they hit at distance 0 (they cannot be cut short)."""
    if len(queries) != len(results):
        fail("%s has %d queries but %s has %d results: not the results of these queries"
             % (qpath, len(queries), rpath, len(results)))
    out = []
    at_zero = 0
    for (qn, q), (rn, r) in zip(queries, results):
        qf, rf = q.split(), r.split()
        where = "%s:%d and %s:%d" % (qpath, qn, rpath, rn)
        if qf[0] != rf[0]:
            fail("%s: query is '%s' but result is '%s'" % (where, qf[0], rf[0]))
        if qf[0] != "ray":
            continue
        if len(qf) != 8:
            hint = " (are QUERIES and RESULTS swapped?)" if looks_like_result(qf) else ""
            fail("%s:%d: a ray query has 8 fields, this one %d%s" % (qpath, qn, len(qf), hint))
        if not looks_like_result(rf):
            fail("%s:%d: not a ray result ('ray 0' or 'ray 1 t tri')" % (rpath, rn))
        if rf[1] == "0":
            out.append(" ".join(qf))
            continue
        if len(rf) != 4:
            fail("%s:%d: a hit needs 'ray 1 t tri'" % (rpath, rn))
        try:
            t = float(rf[2])
            tmax = float(qf[7])
        except ValueError:
            fail("%s: hit distance '%s' or tmax '%s' is not a number" % (where, rf[2], qf[7]))
        if not t >= 0.0:
            fail("%s:%d: hit distance %s is negative or NaN" % (rpath, rn, rf[2]))
        # A hit beyond the ray's own tmax cannot be an answer to this query: the result file
        # belongs to another query file (this catches most such mix-ups, not all; the cut
        # file's own check is that an engine finds no hit on it).
        if t > tmax * (1.0 + 1e-5):
            fail("%s: hit at %s beyond the ray's tmax %s: %s is not the result file of %s"
                 % (where, rf[2], qf[7], rpath, qpath))
        if t == 0.0:
            at_zero += 1  # starts on a triangle: no tmax keeps it from hitting
            continue
        qf[7] = repr(t * keep)
        out.append(" ".join(qf))
    return out, at_zero


def main():
    ap = argparse.ArgumentParser(description="Rays of QUERIES cut short of their nearest hit.")
    ap.add_argument("queries")
    ap.add_argument("results")
    ap.add_argument("out")
    ap.add_argument("--keep", type=float, default=0.9999, metavar="FRACTION",
                    help="share of the hit distance kept (0 < FRACTION < 1; default 0.9999)")
    a = ap.parse_args()
    if not 0.0 < a.keep < 1.0:
        fail("--keep must lie strictly between 0 and 1, not %s" % a.keep)
    if os.path.exists(a.out) and any(os.path.samefile(a.out, p)
                                     for p in (a.queries, a.results) if os.path.exists(p)):
        fail("OUT %s is one of the input files; give another name" % a.out)
    rays, at_zero = cut_rays(read_lines(a.queries), read_lines(a.results), a.keep, a.queries,
                             a.results)
    if not rays:
        fail("%s has no ray queries that can be cut" % a.queries)
    try:
        with open(a.out, "w") as f:
            f.write("\n".join(rays) + "\n")
    except OSError as e:
        fail("cannot write %s: %s" % (a.out, e.strerror))
    print("%d rays written to %s" % (len(rays), a.out)
          + ("; %d left out: they hit at distance 0 (they start on a triangle)" % at_zero
             if at_zero else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
