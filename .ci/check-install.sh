#!/usr/bin/env bash
# The core as a consumer gets it (README, "Use the core in your engine"):
#  1. configure the core alone (app, tests, benchmarks OFF), build it, `cmake --install` it into
#     a temporary prefix; the exported targets carry no compile option or GLM define;
#  2. every installed public header compiles alone against that prefix with default flags (so
#     none includes a header that was left behind), and with strict warnings (GCC, and Clang
#     when installed);
#  3. examples/consumer builds against the prefix with find_package and DEFAULT compiler flags
#     (no build type, no -ffp-contract, no GLM define), runs, and its answers are checked;
#  4. the same example builds with pkg-config (octree_fps.pc) and with add_subdirectory of this
#     checkout, which must not look for Assimp, GLFW, GTest or Google Benchmark;
#  5. a core source refuses -ffast-math.
# Usage: .ci/check-install.sh [work-dir]   (default: a new temporary folder, removed on success)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work"
prefix="$work/prefix"
cxx=${CXX:-c++}
jobs=$(nproc)

echo "-- 1. build and install the core into $prefix"
cmake -S "$root" -B "$work/core" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOCTREE_FPS_WERROR=ON \
  -DOCTREE_FPS_BUILD_APP=OFF -DOCTREE_FPS_BUILD_TESTS=OFF -DOCTREE_FPS_BUILD_BENCH=OFF >/dev/null
cmake --build "$work/core" -j "$jobs"
cmake --install "$work/core" --prefix "$prefix" >/dev/null
for f in lib/liboctree_core.a lib/liboctree_obj.a include/octree_fps/version.h \
  include/octree_fps/spatial/octree.h lib/cmake/octree_fps/octree_fpsConfig.cmake \
  lib/cmake/octree_fps/octree_fpsConfigVersion.cmake lib/pkgconfig/octree_fps.pc \
  share/doc/octree_fps/README.md share/doc/octree_fps/docs/script-format.md \
  share/doc/octree_fps/bench/micro/OCCLUSION_RESULTS.md; do
  [[ -f "$prefix/$f" ]] || { echo "not installed: $f" >&2; exit 1; }
done
if grep -rnE 'fp-contract|GLM_FORCE|INTERFACE_COMPILE_OPTIONS' "$prefix/lib/cmake/octree_fps"; then
  echo "the exported targets force compile options or GLM settings on consumers" >&2
  exit 1
fi
if find "$prefix/include" -name 'simd*.h' | grep .; then
  echo "a SIMD helper header was installed (internal: simd helpers stay in src/, only include/ is installed)" >&2
  exit 1
fi
echo "installed $(find "$prefix/include" -name '*.h' | wc -l) headers"

echo "-- 2. every installed header compiles alone"
# Internal headers installed because a public one includes them (*_inl.h: the inline half of
# their public header) are not for direct inclusion; they are compiled through that header.
headers=$(cd "$prefix/include" && find octree_fps -name '*.h' ! -name '*_inl.h' | sort)
check_alone() {  # check_alone HEADER FLAGS...: one translation unit that includes only HEADER
  local header=$1
  shift
  printf '#include <%s>\n' "$header" | "$cxx" -std=c++20 "$@" -I"$prefix/include" -x c++ \
    -fsyntax-only - || { echo "does not compile alone ($*): $header" >&2; return 1; }
}
export -f check_alone
export prefix cxx
echo "$headers" | xargs -P "$jobs" -I{} bash -c 'check_alone {}'
echo "$headers" | xargs -P "$jobs" -I{} bash -c 'check_alone {} -Wall -Wextra -Wpedantic -Werror'
if command -v clang++ >/dev/null; then  # the other compiler engines use, strict too
  echo "$headers" | cxx=clang++ xargs -P "$jobs" -I{} bash -c \
    'check_alone {} -Wall -Wextra -Wpedantic -Werror'
fi
echo "$(echo "$headers" | wc -l) headers compile alone"

version=$(sed -n 's/^project(octree_fps VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
check_output() {  # check_output LOG: the example's answers on floor_and_step.obj
  python3 - "$1" "$version" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
# version.h is generated from project(VERSION).
assert text.startswith(f"octree_fps {sys.argv[2]}\n"), (text.splitlines()[:1], sys.argv[2])
def nums(key):
    m = re.search(r"^" + key + r":(.*)$", text, re.M)
    assert m, f"no '{key}:' line in:\n{text}"
    return m.group(1), [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", m.group(1))]
line, _ = nums("built")
assert "triangles=8 " in line, line  # 4 quads in the file
# Straight down from y = 2 onto the floor: t = 2 exactly, normal +Y (toward the origin).
line, v = nums("ray")
assert line.startswith(" hit") and v[0] == 2.0 and v[2] == 0.0 and v[4:7] == [0.0, 1.0, 0.0], line
# trianglesPerLeaf 2 makes a tree: the ray tests fewer triangles than brute force would.
line, v = nums("ray stats")
assert v[1] < v[2], line
# The capsule's back (z = 1 + 0.35) reaches the wall at z = 5 after 3.65 m of 5 m, face on.
line, v = nums("sweep")
assert line.startswith(" toi") and abs(v[0] - 3.65 / 5) < 1e-3 and v[3] < -0.999, line
# Sunk into the floor at z = 2 from x = -1 to 1: inside one of the floor's two triangles only
# (the quad's diagonal is x = z), far from the riser and the wall.
line, v = nums("overlap")
assert v[0] == 1, line
# 1.5 s forward from z = 3: up the 0.25 m step (feet a skin above it), grounded, z < -1.
line, v = nums("controller")
feet_y, feet_z, grounded = v[2], v[3], v[4]
assert 0.25 < feet_y < 0.3 and feet_z < -1 and grounded == 1, line
print("example answers as expected")
PY
}

echo "-- 3. examples/consumer with find_package, default compiler flags"
env -u CXXFLAGS -u CPPFLAGS cmake -S "$root/examples/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/consumer"
if grep -E 'ffp-contract|GLM_FORCE|ffast-math' "$work/consumer/build.ninja"; then
  echo "the consumer's compile lines carry options from the package" >&2
  exit 1
fi
"$work/consumer/consumer" | tee "$work/consumer.log"
check_output "$work/consumer.log"

echo "-- 4a. the same example through pkg-config"
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs octree_fps)
echo "pkg-config: $flags"
# shellcheck disable=SC2086  # word splitting of the flags is intended
"$cxx" -std=c++20 -DCONSUMER_LEVEL="\"$root/examples/consumer/floor_and_step.obj\"" \
  "$root/examples/consumer/main.cpp" $flags -o "$work/consumer-pc"
"$work/consumer-pc" >"$work/consumer-pc.log"
check_output "$work/consumer-pc.log"

echo "-- 4b. the same example with add_subdirectory of this checkout"
env -u CXXFLAGS -u CPPFLAGS cmake -S "$root/examples/consumer" -B "$work/consumer-sub" -G Ninja \
  -DOCTREE_FPS_SOURCE_DIR="$root" >/dev/null
if grep -iE '^(assimp|glfw3|GTest|benchmark)_DIR:' "$work/consumer-sub/CMakeCache.txt"; then
  echo "add_subdirectory looked for a dependency of the app, tests or benchmarks" >&2
  exit 1
fi
cmake --build "$work/consumer-sub"
"$work/consumer-sub/consumer" >"$work/consumer-sub.log"
check_output "$work/consumer-sub.log"

echo "-- 5. a core source refuses -ffast-math"
if "$cxx" -std=c++20 -ffast-math -fsyntax-only "$root/src/octree_fps/exactness_checks.cpp" \
  2>/dev/null; then
  echo "src/octree_fps/exactness_checks.cpp compiled under -ffast-math" >&2
  exit 1
fi
echo "refused"

[[ $# -ge 1 ]] || rm -rf "$work"
echo "install check passed"
