#!/usr/bin/env python3
"""Derives the Debian packages a build of octree-fps really uses, and checks that
scripts/install-deps.sh installs them.

Usage: scripts/derive_deps.py [BUILD_DIR]      (default: build/, after scripts/build.sh)

What the build read, found from the build itself rather than from memory:
  headers    every header the compiler read outside the repository (ninja's dependency log,
             `ninja -t deps`, which records the compiler's own -MD output);
  libraries  every library file on a link line: absolute paths and -lNAME (resolved the way
             the linker does, `g++ -print-file-name`);
  cmake      every package config / find module directory the configure step used (the
             *_DIR entries of CMakeCache.txt) and every program it found (FILEPATH entries);
  runtime    every shared library the built programs load (`ldd`).
Each file is mapped to its package with `dpkg -S`.

The rule checked (exit status 1 and the missing packages named when it fails):
  - a package whose headers or link-time libraries the build uses directly must be listed in
    install-deps.sh by name, unless it is part of the compiler toolchain that build-essential
    brings. Relying on another package's dependencies is how zlib1g-dev went missing: Assimp's
    CMake package names libz.so, but libassimp-dev does not depend on zlib1g-dev.
  - every other package (programs, cmake files, runtime libraries) must be listed or come in
    through the dependencies of a listed package (`apt-cache depends --recurse`).
Packages needed only to run (Xvfb, Mesa's software GL driver, loaded with dlopen) cannot be
seen in the build; install-deps.sh lists them with the reason beside each.
"""
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(*args, check=True):
    return subprocess.run(args, capture_output=True, text=True, check=check).stdout


def listed_packages():
    # The optional peers (--peers: Embree, Bullet) count as listed: the benchmarks build against
    # them only when they are installed, and then install-deps.sh --peers is what installed them.
    return set(sh(os.path.join(ROOT, "scripts", "install-deps.sh"), "--peers", "--list").split())


def outside(path, build_dir):
    real = os.path.realpath(path)
    return not (real.startswith(ROOT + os.sep) or real.startswith(build_dir + os.sep))


def headers(build_dir):
    found = set()
    for line in sh("ninja", "-C", build_dir, "-t", "deps").splitlines():
        if line.startswith("    "):
            path = line.strip()
            if os.path.isabs(path) and outside(path, build_dir):
                found.add(path)
    return found


def libraries(build_dir):
    found = set()
    for command in sh("ninja", "-C", build_dir, "-t", "commands").splitlines():
        if " -c " in command or " -o " not in command:
            continue
        try:
            tokens = shlex.split(command)
        except ValueError:
            continue
        for tok in tokens:
            if tok.startswith("-l") and len(tok) > 2:
                for suffix in (".so", ".a"):
                    path = sh("g++", f"-print-file-name=lib{tok[2:]}{suffix}").strip()
                    if os.path.isabs(path):
                        found.add(path)
                        break
            elif os.path.isabs(tok) and re.search(r"\.(so(\.\d+)*|a)$", tok) and outside(tok, build_dir):
                found.add(tok)
    return found


def cmake_inputs(build_dir):
    found = set()
    with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
        for line in f:
            m = re.match(r"([A-Za-z0-9_]+):(PATH|FILEPATH|INTERNAL|STRING)=(/.+)$", line.strip())
            if not m or m.group(3).startswith(ROOT):
                continue
            name, kind, value = m.groups()
            if name.endswith("_DIR") and os.path.isdir(value):
                # One file of the config directory stands for the package that owns it.
                files = sorted(os.listdir(value))
                if files:
                    found.add(os.path.join(value, files[0]))
            elif kind == "FILEPATH" and os.path.isfile(value) and os.access(value, os.X_OK):
                found.add(value)
    return found


def runtime_libraries(build_dir):
    found = set()
    for dirpath, _, files in os.walk(build_dir):
        if "CMakeFiles" in dirpath:
            continue
        for name in files:
            path = os.path.join(dirpath, name)
            if not os.access(path, os.X_OK) or name.endswith((".so", ".sh", ".py")):
                continue
            with open(path, "rb") as f:
                if f.read(4) != b"\x7fELF":
                    continue
            for line in sh("ldd", path, check=False).splitlines():
                m = re.search(r"=> (/\S+)", line)
                if m:
                    found.add(m.group(1))
    return found


def dpkg_index():
    """path -> package for every file dpkg has installed (its *.list files), read once."""
    index = {}
    info = "/var/lib/dpkg/info"
    for name in os.listdir(info):
        if not name.endswith(".list"):
            continue
        pkg = name[:-5].split(":")[0]
        with open(os.path.join(info, name), errors="replace") as f:
            for line in f:
                index.setdefault(line.rstrip("\n"), pkg)
    return index


def owners(paths, index):
    """Maps each path to the package that owns it. A versioned library on a link line
    (libfoo.so.1.2, as CMake's imported targets name them) stands for the development package
    that owns its link name libfoo.so beside it, since that is what a build needs installed.
    Merged /usr: dpkg may know a file under /lib or /usr/lib, so both are tried, and then the
    file a symlink resolves to."""
    result = {}
    for path in sorted(paths):
        norm = os.path.normpath(path)
        candidates = []
        m = re.match(r"(.*/lib[^/]+\.so)\.[0-9.]+$", norm)
        if m and os.path.exists(m.group(1)):
            candidates.append(m.group(1))
        candidates += [norm, os.path.realpath(norm)]
        for c in list(candidates):
            if c.startswith(("/usr/lib/", "/usr/bin/", "/usr/sbin/")):
                candidates.append(c[4:])
            elif c.startswith(("/lib/", "/lib64/", "/bin/", "/sbin/")):
                candidates.append("/usr" + c)
        result[path] = next((index[c] for c in candidates if c in index), None)
    return result


def closure(packages):
    out = sh("apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests",
             "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances", *sorted(packages),
             check=False)
    return {line.strip().split(":")[0] for line in out.splitlines()
            if line and not line[0].isspace() and not line.startswith("<")}


def main():
    build_dir = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
    if not os.path.isfile(os.path.join(build_dir, "build.ninja")):
        sys.exit(f"derive_deps: {build_dir} is not a configured Ninja build (run scripts/build.sh)")
    listed = listed_packages()
    toolchain = closure({"build-essential"})
    everything = closure(listed)
    categories = {
        "headers": headers(build_dir),
        "libraries": libraries(build_dir),
        "cmake": cmake_inputs(build_dir),
        "runtime": runtime_libraries(build_dir),
    }
    index = dpkg_index()
    missing = {}
    unowned = []
    for category, paths in categories.items():
        by_pkg = {}
        for path, pkg in owners(paths, index).items():
            if pkg is None:
                unowned.append(path)
            else:
                by_pkg.setdefault(pkg, []).append(path)
        direct = category in ("headers", "libraries")
        print(f"{category}: {len(paths)} files from {len(by_pkg)} packages")
        for pkg in sorted(by_pkg):
            if pkg in listed:
                how = "listed"
            elif pkg in toolchain:
                how = "toolchain (build-essential)"
            elif not direct and pkg in everything:
                how = "dependency of a listed package"
            else:
                how = "MISSING"
                missing.setdefault(pkg, by_pkg[pkg][0])
            print(f"  {pkg:32} {how:32} e.g. {by_pkg[pkg][0]}")
    if unowned:
        print("files no package owns (built or installed by hand?):")
        for path in unowned[:20]:
            print("  " + path)
    if missing:
        print("\nscripts/install-deps.sh does not install:")
        for pkg, example in sorted(missing.items()):
            print(f"  {pkg} (for {example})")
        return 1
    print("\nscripts/install-deps.sh installs every package this build uses.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
