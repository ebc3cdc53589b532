#!/usr/bin/env python3
"""Holds the public headers (include/octree_fps/) to the package's rule on references:

- a document a header cites by path (README, CONTRIBUTING.md, docs/..., bench/micro/...) must be
  one cmake/InstallCore.cmake installs (OCTREE_FPS_CITED_DOCS), so it resolves in the package;
- any other file of the repository (tests/, src/, cmake/, scripts/, ...) is named as "the
  repository's ...", so a reader of the installed header knows it is not in the package;
- no path leaves the repository (../).

Exit status 0 when every reference keeps the rule, else 1 with one line per reference that does
not (file:line: the reference and what is wrong).
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "include" / "octree_fps"
INSTALL = ROOT / "cmake" / "InstallCore.cmake"

PATH = re.compile(r"(?<![\w./-])(\.\./[\w./-]+|(?:bench|docs|tests|scripts|src|cmake|examples|"
                  r"assets|shaders|\.ci)/[\w./-]*[\w/]|[A-Z][A-Z_]+\.md|README|CONTRIBUTING)")


def cited_docs():
    text = INSTALL.read_text()
    m = re.search(r"set\(OCTREE_FPS_CITED_DOCS(.*?)\)", text, re.S)
    if not m:
        sys.exit(f"{INSTALL}: no OCTREE_FPS_CITED_DOCS list")
    return set(m.group(1).split())


def main():
    docs = cited_docs()
    names = {pathlib.Path(d).name for d in docs} | {"README", "CONTRIBUTING"}
    problems = []
    count = 0
    for header in sorted(INCLUDE.rglob("*.h")):
        rel = header.relative_to(ROOT)
        previous = ""  # the comment line before: "the repository's" may end it
        for n, line in enumerate(header.read_text().splitlines(), 1):
            if "//" not in line:
                previous = ""
                continue
            comment = line[line.index("//"):]
            for m in PATH.finditer(comment):
                ref = m.group(1).rstrip(".")
                count += 1
                before = comment[:m.start()]
                if not before.lstrip("/ ").strip():
                    before = previous
                if ref.startswith("../"):
                    problems.append(f"{rel}:{n}: '{ref}' leaves the repository")
                elif ref in docs or ref in names:
                    continue
                elif before.rstrip().endswith("repository's"):
                    if not (ROOT / ref).exists():
                        problems.append(f"{rel}:{n}: '{ref}' does not exist in the repository")
                else:
                    problems.append(f"{rel}:{n}: '{ref}' is neither an installed document "
                                    f"(OCTREE_FPS_CITED_DOCS) nor named as the repository's")
            previous = comment
    return report(docs, problems, count)


def report(docs, problems, count):
    for d in docs:
        if not (ROOT / d).exists():
            problems.append(f"{INSTALL.relative_to(ROOT)}: cited document '{d}' does not exist")
    for p in problems:
        print(p)
    print(f"check_header_refs: {count} references in include/octree_fps, "
          f"{len(problems)} against the rule")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
