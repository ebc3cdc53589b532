#!/usr/bin/env python3
"""The README's "Platforms" table, from what scripts/cross.sh left in the build folders.

usage: scripts/platforms_table.py [ROOT]   (ROOT: the checkout, default: this script's parent)

For each target folder (build/ is the native reference, build-TARGET/ the others) it reads
  cross-tests.txt              "PASSED TOTAL" written by cross.sh after CTest (native: build/'s
                               own CTest log, Testing/Temporary/LastTest.log, is not used: run
                               scripts/cross.sh native after scripts/test.sh)
  determinism/                 the recorded traces and result files
  determinism-info/*.json      octree_bench's JSON (SIMD kernel, queries per second)
  CMakeCache.txt               the compiler
and prints one Markdown row per target: compiler, SIMD path, tests passed, whether every
recorded file equals build/determinism byte for byte, and oa_dm5's queries per second over the
whole mix (50,000 queries: ray, any-hit ray, sphere, capsule, box). Under qemu and Wine the rate
is marked emulated (it measures the emulator); under Node.js it is given with its ratio to the
native x86-64 rate measured right after it (determinism-info/native.bench.json).
"""
import filecmp
import json
import os
import re
import sys

ORDER = ["native", "clang", "scalar", "aarch64", "mingw", "wasm", "wasm-simd"]
NAMES = {
    "native": "Linux x86-64",
    "clang": "Linux x86-64 (ASan + UBSan)",
    "scalar": "Linux x86-64, OCTREE_FPS_SIMD=SCALAR",
    "aarch64": "Linux ARM64 (qemu-aarch64)",
    "mingw": "Windows x86-64 (Wine)",
    "wasm": "WebAssembly (Node.js)",
    "wasm-simd": "WebAssembly + SIMD128 (Node.js)",
}
EMULATED = {"aarch64", "mingw"}


def folder(root, target):
    return os.path.join(root, "build" if target == "native" else "build-" + target)


def compiler(build):
    # The compiler and its version, as CMake found them.
    info = os.path.join(build, "CMakeFiles")
    name, version = "?", "?"
    for d in os.listdir(info) if os.path.isdir(info) else []:
        f = os.path.join(info, d, "CMakeCXXCompiler.cmake")
        if os.path.exists(f):
            text = open(f).read()
            v = re.search(r'set\(CMAKE_CXX_COMPILER_VERSION "([^"]+)"\)', text)
            c = re.search(r'set\(CMAKE_CXX_COMPILER "([^"]+)"\)', text)
            version = v.group(1) if v else version
            name = os.path.basename(c.group(1)) if c else name
    if "em++" in name:
        return "Emscripten em++ (Clang %s)" % version
    return "%s %s" % (name, version)


def bench(build):
    info = os.path.join(build, "determinism-info", "oa_dm5.bench.json")
    if not os.path.exists(info):
        return None
    return json.load(open(info))


def rate(b):
    kinds = b["kinds"].values()
    return sum(k["count"] for k in kinds) / (sum(k["total_ms"] for k in kinds) / 1000.0)


def identical(ref, other):
    if not os.path.isdir(other):
        return "not recorded"
    names = sorted(os.listdir(ref))
    same = [n for n in names if os.path.exists(os.path.join(other, n)) and
            filecmp.cmp(os.path.join(ref, n), os.path.join(other, n), shallow=False)]
    return "yes (%d files)" % len(names) if len(same) == len(names) else \
        "NO: %s differ" % ", ".join(sorted(set(names) - set(same)))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    ref = os.path.join(folder(root, "native"), "determinism")
    native = bench(folder(root, "native"))
    print("| target | compiler | four-lane path (octree kernels) | tests passed | traces and "
          "result files identical | oa_dm5 queries/s |")
    print("|---|---|---|---|---|---|")
    for t in ORDER:
        b_dir = folder(root, t)
        if not os.path.isdir(os.path.join(b_dir, "determinism")):
            continue
        b = bench(b_dir)
        tests = "?"
        tf = os.path.join(b_dir, "cross-tests.txt")
        if os.path.exists(tf):
            passed, total = open(tf).read().split()[:2]
            tests = "%s of %s" % (passed, total)
            if t in EMULATED:
                tests += " (generated geometry + oa_dm1)"
        simd = b["simd"] if b else "?"
        q = "?"
        if b:
            q = "{:,.0f}".format(rate(b))
            if t in EMULATED:
                q += " (emulated)"
            elif t.startswith("wasm") and native:
                # The native rate measured right after this target's, in the same run.
                same_run = os.path.join(b_dir, "determinism-info", "native.bench.json")
                ref_rate = rate(json.load(open(same_run))) if os.path.exists(same_run) \
                    else rate(native)
                q += " (%.2fx native)" % (rate(b) / ref_rate)
            elif t == "clang":
                q += " (sanitizers)"
        same = "reference" if t == "native" else identical(ref, os.path.join(b_dir, "determinism"))
        print("| %s | %s | %s | %s | %s | %s |" % (NAMES[t], compiler(b_dir), simd, tests, same, q))


if __name__ == "__main__":
    main()
