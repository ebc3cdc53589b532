#!/usr/bin/env python3
"""Sorts the fuzzer's findings into bugs in this project and bugs inside Assimp 5.2.5.

    triage.py FUZZ_BINARY ARTIFACT...      exit 1 when any finding is the project's
    triage.py --self-test                  sorts the recorded stacks in SAMPLES

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
                     r"/sysdeps/|/libio/|\b__GI_|\b__libc_|\b_IO_|\bfseek\b|\bfread\b|\blseek|"
                     # POSIX threads (a hang caught in thread-local storage lookups made for the
                     # allocator or Assimp's logger names nptl/./nptl/pthread_getspecific.c first)
                     r"\bnptl/|\bpthread_")
# A source location given as a relative path comes from a system library's debug info (glibc's
# is "nptl/./nptl/...", "string/...", "malloc/..."): this project is compiled from absolute paths,
# so a relative location is never ours.
SOURCE_LINE = re.compile(r":\d+(?::\d+)?$")
RELATIVE_SOURCE = re.compile(r"^[A-Za-z_][\w.+-]*/\S*:\d+")
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
    return classify_report(text)


def classify_report(text):
    """("assimp" | "project", why) from a sanitizer or libFuzzer report's first deciding frame.

    A timeout is a sample of wherever the loop was when the alarm rang: when that is one of the
    project's callbacks (the progress handler, the in-memory IO system) called from inside
    libassimp.so, the loop is Assimp's (its frames are further down the same stack), so a hang's
    first project frame decides only when no Assimp frame lies below it. A crash is decided by
    its first frame as it stands."""
    timeout = "libFuzzer: timeout" in text
    summary = next((l for l in text.splitlines() if "ERROR:" in l or "SUMMARY" in l), "").strip()
    first = None
    for line in text.splitlines():
        m = FRAME.match(line)
        if not m:
            continue
        fn, loc = m.group("fn") or "", (m.group("where") or "").strip()
        where = (fn + " " + loc).strip()
        if RUNTIME.search(where) or STDLIB.match(fn) or RELATIVE_SOURCE.match(loc):
            continue
        # Outside libassimp.so, a frame without a source line is a stub or runtime code of our
        # binary, such as a sanitizer's interceptor of a C library function (strncmp, memcpy)
        # that Assimp called: the project's own code is built with debug information, so its
        # frames always name their file and line.
        if "libassimp.so" not in where and not SOURCE_LINE.search(loc):
            continue
        assimp = "libassimp.so" in where
        if first is None:
            first = where
            if assimp or not timeout:
                return ("assimp" if assimp else "project"), summary + " | first frame: " + where
        elif assimp:
            return "assimp", summary + " | in a callback from Assimp: " + first
    if first is not None:
        return "project", summary + " | first frame: " + first
    return "project", "no stack frame found in the report"


# Stacks as CI's fuzz step printed them (addresses shortened); each once decided, or would decide,
# wrongly without the rule noted. --self-test checks that each is sorted as written.
SAMPLES = [
    ("assimp", "glibc thread-local lookup under Assimp's PLY loop (CI, 2026-12-02)", """
==2722== ERROR: libFuzzer: timeout after 11 seconds
    #0 0x7f10a1 in pthread_getspecific nptl/./nptl/pthread_getspecific.c:54:9
    #1 0x7f10b2  (/lib/x86_64-linux-gnu/libassimp.so.5+0x4a1b2c)
    #2 0x55e0c3 in octree_fps::level::importScene(std::span<unsigned char const>) /check/work/main/src/level/assimp_import.cpp:88:3
"""),
    ("assimp", "glibc memmove symbolized by its source file", """
==1== ERROR: libFuzzer: timeout after 11 seconds
    #0 0x7f20a1 in __memmove_avx_unaligned_erms string/../sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S:317
    #1 0x7f20b2 in malloc malloc/malloc.c:3287:7
    #2 0x7f20c3  (/lib/x86_64-linux-gnu/libassimp.so.5+0x1234)
"""),
    ("assimp", "a std::string function instantiated in the fuzz binary (timeout-ea0a11c7.smd)", """
==3== ERROR: libFuzzer: timeout after 11 seconds
    #0 0x55e0a1 in std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_append(char const*, unsigned long) (/check/build-fuzz/fuzz_level_load+0x1a2b)
    #1 0x7f30b2 in std::ostream::write(char const*, long) (/lib/x86_64-linux-gnu/libstdc++.so.6+0x14b)
    #2 0x7f30c3  (/lib/x86_64-linux-gnu/libassimp.so.5+0x99)
"""),
    ("assimp", "Assimp's overflow caught in ASan's strncmp interceptor (CI, 2026-12-02)", """
==23915==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60d000001032 at pc 0x562813a1b39d
    #0 0x55a10981539c in strncmp (/work/ci-clone/build-fuzz/fuzz_level_load+0x11339c) (BuildId: 660191b7373cb16a909a80a165ca4ddc6bf60dec)
    #1 0x7fb5229477d2  (/lib/x86_64-linux-gnu/libassimp.so.5+0x7477d2) (BuildId: e4829eb60459b5ac4cad963cb7d1ae36f864bc15)
    #9 0x55a1098de56c in ofps::loader::importScene(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&) /work/ci-clone/build-fuzz/../src/level/assimp_import.cpp:124:35
"""),
    ("project", "a crash in the project's own code", """
==4==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011
    #0 0x55e0a1 in octree_fps::Octree::build(std::span<octree_fps::Triangle const>) /check/work/main/src/octree_fps/octree/octree_build.cpp:120:9
    #1 0x7f30c3  (/lib/x86_64-linux-gnu/libassimp.so.5+0x99)
"""),
    ("assimp", "a hang caught in the project's progress callback, called by Assimp's loop", """
==6== ERROR: libFuzzer: timeout after 11 seconds
    #0 0x55e0a1 in (anonymous namespace)::ProgressBridge::UpdateFileRead(int, int) /check/work/main/src/level/assimp_import.cpp:33:5
    #1 0x7f30c3  (/lib/x86_64-linux-gnu/libassimp.so.5+0x99)
    #2 0x55e0c3 in octree_fps::level::importScene(std::span<unsigned char const>) /check/work/main/src/level/assimp_import.cpp:88:3
"""),
    ("project", "a hang in the project's own loop (Assimp not below it)", """
==7== ERROR: libFuzzer: timeout after 11 seconds
    #0 0x55e0a1 in octree_fps::Octree::build(std::span<octree_fps::Triangle const>) /check/work/main/src/octree_fps/octree/octree_build.cpp:120:9
    #1 0x55e0c3 in LLVMFuzzerTestOneInput /check/work/main/tests/fuzz/fuzz_level_load.cpp:40:3
"""),
    ("project", "a crash in the project's callback, called by Assimp", """
==8==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000
    #0 0x55e0a1 in (anonymous namespace)::OverlayIOSystem::Open(char const*, char const*) /check/work/main/src/level/assimp_import.cpp:63:5
    #1 0x7f30c3  (/lib/x86_64-linux-gnu/libassimp.so.5+0x99)
"""),
    ("project", "a report with no stack (a failed check names its problem)", """
==5== ERROR: libFuzzer: deadly signal
"""),
]


def self_test():
    bad = 0
    for want, what, text in SAMPLES:
        got, why = classify_report(text)
        print("%s %-8s %s (%s)" % ("ok  " if got == want else "FAIL", got, what, why))
        bad += got != want
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
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
