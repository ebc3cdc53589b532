#!/usr/bin/env python3
"""A count written with grouped(v, buf) (or a time with microseconds(v, buf)) lives in buf until
the next call on it: one statement that passes the same buffer twice prints one number twice
(the Culling section once said "brute force: 190 triangles tested", its node count). This reads
every statement of the demo's sources and fails on any that does.

  check_number_buffers.py SOURCE_DIR
"""
import glob
import os
import re
import sys

root = sys.argv[1]
call = re.compile(r"\b(?:grouped|microseconds)\((?:[^()]|\([^()]*\))*?,\s*(\w+)\)")
bad = []
files = sorted(glob.glob(os.path.join(root, "src", "app", "**", "*.cpp"), recursive=True))
for path in files:
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r"[^;{}]*;", text):
        buffers = call.findall(m.group(0))
        twice = sorted({b for b in buffers if buffers.count(b) > 1})
        if twice:
            line = text.count("\n", 0, m.start()) + 1
            bad.append(f"{os.path.relpath(path, root)}:{line}: buffer {', '.join(twice)} used twice")
if not files:
    sys.exit(f"no sources under {root}/src/app")
if bad:
    print("\n".join(bad))
    sys.exit(1)
print(f"{len(files)} files: every statement gives each number its own buffer")
