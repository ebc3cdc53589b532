#!/usr/bin/env python3
"""Sorts the fuzzer's findings into bugs in this project and bugs inside Assimp 5.2.5.

    triage.py FUZZ_BINARY ARTIFACT...      exit 1 when any finding is the project's

Each artifact (crash-*, timeout-*, oom-*, leak-*) is replayed alone; the first stack frame of the
report that is not the C library, the sanitizer runtime, libFuzzer or an allocator is looked up:
in libassimp.so it is Assimp's (its importers crash, assert or loop on damaged files, and the
loader cannot reach inside them: they are listed, and kept for the record, but do not fail CI);
anywhere else, or a report without a stack (a failed fuzz check names its problem), it is ours.
"""
import os
import re
import subprocess
import sys

RUNTIME = re.compile(r"libc\.so|libc-|libstdc\+\+|ld-linux|__sanitizer|__asan|__ubsan|__lsan|"
                     r"__interceptor|fuzzer::|LLVMFuzzer|operator new|operator delete|"
                     r"\babort\b|\braise\b|pthread_kill|malloc|calloc|realloc|free\b|_Unwind|"
                     r"__cxa_|std::terminate|__gnu_cxx::__verbose_terminate|"
                     # glibc frames symbolized by their sources rather than by libc.so (a hang
                     # caught inside read/seek names io/../sysdeps/.../read.c first)
                     r"/sysdeps/|/libio/|\b__GI_|\b__libc_|\b_IO_|\bfseek\b|\bfread\b|\blseek")
# The C++ standard library's templates are instantiated in the fuzz binary too, and a call from
# libstdc++.so (a stringbuf Assimp writes to) can land in that copy: such a frame names a std::
# function at an address in our binary. It is library code whoever runs it, so it never decides.
STDLIB = re.compile(r"(std|__gnu_cxx|__cxxabiv1)::")
FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+\s+(?:in (?P<fn>.*?) )?\(?(?P<where>[^()]*?)(?:\+0x[0-9a-f]+)?\)?(?: \(BuildId.*)?$")


def classify(binary, artifact):
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    try:
        out = subprocess.run([binary, "-timeout=10", "-rss_limit_mb=2048", artifact],
                             capture_output=True, text=True, errors="replace", timeout=120, env=env)
        text = out.stdout + out.stderr
        if out.returncode == 0:
            return "gone", "no longer reproduces"
    except subprocess.TimeoutExpired:
        return "project", "replay did not finish in 120 s"
    if "FUZZ CHECK FAILED: " in text:
        return "project", text[text.index("FUZZ CHECK FAILED: "):].splitlines()[0]
    if "ai_assert failure" in text:
        line = next(l for l in text.splitlines() if "ai_assert failure" in l)
        return "assimp", line.strip()
    for line in text.splitlines():
        m = FRAME.match(line)
        if not m:
            continue
        where = (m.group("fn") or "") + " " + (m.group("where") or "")
        if RUNTIME.search(where) or STDLIB.match(m.group("fn") or ""):
            continue
        # A frame without a name outside libassimp.so is a stub or runtime code of our binary
        # (the project's own code is built with symbols, so its frames always have names).
        if not m.group("fn") and "libassimp.so" not in where:
            continue
        kind = "assimp" if "libassimp.so" in where else "project"
        summary = next((l for l in text.splitlines() if "ERROR:" in l or "SUMMARY" in l), "")
        return kind, summary.strip() + " | first frame: " + where.strip()
    return "project", "no stack frame found in the report"


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    binary, artifacts = sys.argv[1], sys.argv[2:]
    ours = 0
    for a in artifacts:
        kind, why = classify(binary, a)
        print("%-8s %s: %s" % (kind, os.path.basename(a), why))
        ours += kind == "project"
    print("triage: %d finding(s), %d in project code" % (len(artifacts), ours))
    return 1 if ours else 0


if __name__ == "__main__":
    sys.exit(main())
