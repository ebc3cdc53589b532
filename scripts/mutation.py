#!/usr/bin/env python3
"""Mutation run: does the test suite catch plausible one-line bugs in the core?

Usage:
  scripts/mutation.py [--build-dir DIR] [--only ID,ID,...] [--list] [--jobs N]

Each mutant in scripts/mutants.json names a core source file, an exact snippet that must occur
in it once, the replacement (the bug), and why it is plausible. For each mutant, one at a time:
the snippet is replaced, the test executables are rebuilt incrementally, the whole CTest suite
runs (stopping at the first failure), and the file is restored, whatever happens. A mutant is
  killed    when a test fails (or times out),
  survived  when every test passes: the suite cannot tell the bug from the code,
  stale     when its snippet is no longer in the file (the code moved on: update the mutant),
  invalid   when the mutated code does not compile (the mutant is not a plausible bug).
The kill rate is killed / (killed + survived).

It edits the working tree it runs in: run it in a checkout you are not editing (a `git
worktree` of the commit to test). The build directory (default build-mutation/) is configured on first use with the tests only
(no demo, no benchmarks). A run over every mutant takes a while (each rebuild relinks every
test executable): it is a tool for before a release or after a large change, not for every CI
run. Exit status 0 when the kill rate is at least --min-kill-rate (default 0.95).
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, timeout=None, **kw):
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, **kw)


def configure(build_dir):
    if os.path.isfile(os.path.join(build_dir, "build.ninja")):
        return
    p = run(["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
             "-DOCTREE_FPS_BUILD_APP=OFF", "-DOCTREE_FPS_BUILD_BENCH=OFF"])
    if p.returncode != 0:
        sys.exit("mutation: configure failed:\n" + p.stdout + p.stderr)


def build(build_dir, jobs):
    return run(["cmake", "--build", build_dir, "-j", str(jobs)])


def test(build_dir, jobs, timeout):
    # --stop-on-failure needs CTest 3.18; the first failing test is enough to kill a mutant.
    try:
        p = run(["ctest", "--test-dir", build_dir, "-j", str(jobs), "--stop-on-failure",
                 "--timeout", "300"], timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "suite timed out"
    failed = [line.strip() for line in p.stdout.splitlines() if "***Failed" in line or "(Failed)" in line
              or "***Timeout" in line or "Exception" in line]
    return p.returncode == 0, (failed[0] if failed else p.stdout.strip().splitlines()[-1] if p.stdout else "")


def main():
    # A stopped run must still restore the file it mutated: SIGTERM unwinds like Ctrl-C, through
    # the `finally` that writes the original back.
    def interrupted(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")
    signal.signal(signal.SIGTERM, interrupted)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-mutation"))
    ap.add_argument("--mutants", default=os.path.join(ROOT, "scripts", "mutants.json"))
    ap.add_argument("--only", default="", help="comma-separated mutant ids")
    ap.add_argument("--list", action="store_true", help="list the mutants and whether they apply")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--suite-timeout", type=int, default=1800)
    ap.add_argument("--min-kill-rate", type=float, default=0.95)
    args = ap.parse_args()

    with open(args.mutants) as f:
        mutants = json.load(f)
    ids = [m["id"] for m in mutants]
    if len(set(ids)) != len(ids):
        sys.exit("mutation: duplicate mutant ids in " + args.mutants)
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - set(ids)
        if unknown:
            sys.exit("mutation: unknown mutant ids: " + ", ".join(sorted(unknown)))
        mutants = [m for m in mutants if m["id"] in wanted]

    def applies(m):
        with open(os.path.join(ROOT, m["file"])) as f:
            return f.read().count(m["find"]) == 1

    if args.list:
        for m in mutants:
            print(f"{m['id']:28} {'ok   ' if applies(m) else 'STALE'} {m['file']}: {m['why']}")
        return 0

    build_dir = os.path.abspath(args.build_dir)
    configure(build_dir)
    base = build(build_dir, args.jobs)
    if base.returncode != 0:
        sys.exit("mutation: the unmutated tree does not build:\n" + base.stdout[-3000:])
    ok, why = test(build_dir, args.jobs, args.suite_timeout)
    if not ok:
        sys.exit(f"mutation: the unmutated suite fails ({why}); fix that first")

    results = []
    for m in mutants:
        path = os.path.join(ROOT, m["file"])
        with open(path) as f:
            original = f.read()
        start = time.time()
        if original.count(m["find"]) != 1:
            results.append((m, "stale", "snippet not found exactly once"))
        else:
            try:
                with open(path, "w") as f:
                    f.write(original.replace(m["find"], m["replace"]))
                b = build(build_dir, args.jobs)
                if b.returncode != 0:
                    results.append((m, "invalid", "does not compile"))
                else:
                    passed, why = test(build_dir, args.jobs, args.suite_timeout)
                    results.append((m, "survived" if passed else "killed", why))
            finally:
                with open(path, "w") as f:
                    f.write(original)
        m_, status, detail = results[-1]
        print(f"{m['id']:28} {status:9} {time.time() - start:5.0f} s  {detail}", flush=True)

    # Leave the build matching the sources again.
    build(build_dir, args.jobs)
    killed = sum(1 for _, s, _ in results if s == "killed")
    survived = [m["id"] for m, s, _ in results if s == "survived"]
    counted = killed + len(survived)
    rate = killed / counted if counted else 0.0
    print(f"\n{killed} killed, {len(survived)} survived, "
          f"{sum(1 for _, s, _ in results if s == 'stale')} stale, "
          f"{sum(1 for _, s, _ in results if s == 'invalid')} invalid: kill rate {rate:.1%}")
    if survived:
        print("survivors (the suite cannot see these bugs): " + ", ".join(survived))
    return 0 if rate >= args.min_kill_rate else 1


if __name__ == "__main__":
    sys.exit(main())
