#!/usr/bin/env python3
"""Checks that every #include "..." in src/ and include/ runs down the layer order, with no
folder loop. The public headers (include/octree_fps/...) and the sources (src/...) form one tree:
octree_fps/spatial is one folder whether a file sits in include/ or src/.

Layers, lowest first (a file may include its own folder and any lower layer):
  0 octree_fps/geometry, octree_fps/io (the OBJ reader: plain geometry input), and the files
    at octree_fps/ itself (version.h, exactness_checks.cpp)
  1 octree_fps/spatial
  2 octree_fps/culling
  3 octree_fps/controller, octree_fps/props
  4 scenario, level, render
  5 app
Folders on the same layer may include each other only without forming a loop. System and
third-party headers (<...>, or "..." that resolve to no file under src/) are not checked.

Usage: check_layers.py [SRC_DIR]   (default: the src/ beside this script's folder)
Exit status 0 when clean; 1 with one line per offending include (file:line: what is wrong).
"""
import os
import re
import sys

LAYERS = {
    "octree_fps": 0,  # files at the library's root: version.h, the build's exactness checks
    "octree_fps/geometry": 0,
    "octree_fps/io": 0,
    "octree_fps/spatial": 1,
    "octree_fps/culling": 2,
    "octree_fps/controller": 3,
    "octree_fps/props": 3,
    "scenario": 4,
    "level": 4,
    "render": 4,
    "app": 5,
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_EXT = (".h", ".hpp", ".cpp", ".cc", ".inl")


def folder_of(rel_path):
    """The layer folder holding a path relative to src/, or None."""
    best = None
    for folder in LAYERS:
        if rel_path == folder or rel_path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def resolve(roots, including_dir, name):
    """Path relative to its root (include/ or src/) of an included file, or None when it is not
    under one of them."""
    for base in [including_dir] + roots:
        path = os.path.normpath(os.path.join(base, name))
        if not os.path.isfile(path):
            continue
        for root in roots:
            if os.path.commonpath([path, root]) == root:
                return os.path.relpath(path, root).replace(os.sep, "/")
    return None


def find_loops(edges):
    """Folder cycles (each a list of folders, first repeated last) in the folder graph."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    loops, state, stack = [], {}, []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                loops.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return loops


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "src"))
    roots = [src]
    include = os.path.join(os.path.dirname(src), "include")
    if os.path.isdir(include):
        roots.insert(0, include)
    errors = []
    edges = {}  # (from folder, to folder) -> first "file:line"
    walked = [(top, root, files) for top in roots for root, _, files in os.walk(top)]
    for top, root, files in walked:
        label = os.path.basename(top)
        for name in sorted(files):
            if not name.endswith(SOURCE_EXT):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, top).replace(os.sep, "/")
            folder = folder_of(rel)
            if folder is None:
                errors.append(f"{label}/{rel}:1: in no layer folder (add it to LAYERS in {__file__})")
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = resolve(roots, root, m.group(1))
                    if target is None:
                        continue  # not a project header
                    to = folder_of(target)
                    where = f"{label}/{rel}:{number}"
                    if to is None:
                        errors.append(f"{where}: includes {target}, which is in no layer folder")
                        continue
                    if to == folder:
                        continue
                    if LAYERS[to] > LAYERS[folder]:
                        errors.append(f"{where}: {folder} (layer {LAYERS[folder]}) includes "
                                      f"{target} from {to} (layer {LAYERS[to]}): upward")
                    edges.setdefault((folder, to), where)
    for loop in find_loops(edges):
        steps = ", ".join(f"{a} -> {b} at {edges[(a, b)]}" for a, b in zip(loop, loop[1:]))
        errors.append(f"folder loop: {steps}")
    for e in errors:
        print(e)
    if errors:
        print(f"check_layers: {len(errors)} problem(s)", file=sys.stderr)
        return 1
    print(f"check_layers: {len(edges)} folder dependencies, all downward, no loop")
    return 0


if __name__ == "__main__":
    sys.exit(main())
