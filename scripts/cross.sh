#!/usr/bin/env bash
# Builds the core for one platform, runs its tests there, and records what must be the same on
# every platform (README "Platforms").
#
#   scripts/cross.sh TARGET [TARGET...]   build-TARGET/: configure, build, test, record
#   scripts/cross.sh --consumer TARGET...    examples/consumer against build-TARGET's installed
#                                            core (find_package) and with add_subdirectory,
#                                            run under the emulator; its output must equal the
#                                            native build's, byte for byte
#   scripts/cross.sh --compare [TARGET...]   compare each build-TARGET/determinism with the
#                                            reference (build/determinism; default: every
#                                            build-*/determinism present)
#
# Targets (each a CMake build folder of its own; OCTREE_FPS_BUILD_APP=OFF):
#   native     the main build/ folder (scripts/build.sh): GCC, SSE2 + AVX2; the reference
#   clang      Clang 14 (Debian's clang), SSE2 + AVX2, with AddressSanitizer and
#              UndefinedBehaviorSanitizer (CI's sanitizer build)
#   scalar     GCC with OCTREE_FPS_SIMD=SCALAR: the plain four-lane fallback, no SSE2, no AVX2
#   aarch64    Linux ARM64 (g++-aarch64-linux-gnu, SIMDe -> NEON), tests under qemu-aarch64
#   mingw      Windows x86-64 (MinGW-w64, posix threads), tests under Wine
#   wasm       WebAssembly (Emscripten, plain four-lane fallback), tests under Node.js
#   wasm-simd  WebAssembly with -msimd128 (SIMDe -> SIMD128), tests under Node.js
#
# "Record" runs, with the target's own binaries (under its emulator): octree_script on the
# scripts in tests/determinism (controller, stairs, props placed, thrown and resting) on the
# bundled arena and on oa_dm5, writing --trace, --props and --props-trace; and octree_bench on
# 10,000 queries of each kind on oa_dm5 (result files). Files go to build-TARGET/determinism/.
# --compare fails on the first file that differs by a byte.
#
# What a target needs is installed by scripts/install-deps.sh --cross (nothing else installs).
# Environment: OCTREE_FPS_SHARED_DIR (the shared levels; without them the oa_dm5 records and the
# real-level tests are skipped), OCTREE_FPS_CROSS_TESTS=all|quick (quick, the default under qemu
# and Wine: the tests on generated geometry plus the oracle on oa_dm1; all: every test),
# OCTREE_FPS_CROSS_JOBS (build jobs, default: nproc).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
shared="${OCTREE_FPS_SHARED_DIR:-$root/../shared}"
[[ -d "$shared" ]] && shared=$(cd "$shared" && pwd)
jobs="${OCTREE_FPS_CROSS_JOBS:-$(nproc)}"
# ccache (CMakeLists.txt) with paths relative to the checkout: another clone reuses the objects.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR=1
toolchains="$root/cmake/toolchains"
# Emscripten's JavaScript passes need Debian's node modules (node-acorn, a dependency of the
# emscripten package) from /usr/share/nodejs: Debian's own node looks there, a node installed
# from elsewhere (NodeSource) does not unless told.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# The emulator a target's programs run under (empty: natively).
emulator_of() {
  case "$1" in
    aarch64) echo "qemu-aarch64 -L /usr/aarch64-linux-gnu" ;;
    mingw) command -v wine64 || echo /usr/lib/wine/wine64 ;;
    wasm | wasm-simd) echo "node --no-experimental-fetch" ;;  # see wasm32-emscripten.cmake
    *) echo "" ;;
  esac
}

# The program file of an executable target NAME in build folder DIR.
program_of() {
  local dir=$1 name=$2
  for f in "$dir/$name" "$dir/$name.exe" "$dir/$name.js"; do
    if [[ -f "$f" ]]; then
      echo "$f"
      return
    fi
  done
  echo "cross.sh: no $name in $dir" >&2
  return 1
}

configure() {  # configure TARGET DIR
  local target=$1 dir=$2
  # RelWithDebInfo's -O2 without its -g: the same code as the native build, in half the
  # compile time (the cross builds run in CI on two cores).
  local args=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG"
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" -DOCTREE_FPS_BUILD_APP=OFF
    -DOCTREE_FPS_BUILD_TESTS=ON -DOCTREE_FPS_BUILD_BENCH=ON -DOCTREE_FPS_BUILD_MICROBENCH=OFF
    -DOCTREE_FPS_INSTALL=ON -DOCTREE_FPS_WERROR=ON "-DOCTREE_FPS_SHARED_DIR=$shared")
  case "$target" in
    # The core's suites only: the level loader's (Assimp) run in the native build.
    clang)
      args+=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DOCTREE_FPS_SANITIZE=ON
        -DCMAKE_DISABLE_FIND_PACKAGE_assimp=ON)
      ;;
    scalar) args+=(-DOCTREE_FPS_SIMD=SCALAR -DCMAKE_DISABLE_FIND_PACKAGE_assimp=ON) ;;
    aarch64) args+=("-DCMAKE_TOOLCHAIN_FILE=$toolchains/aarch64-linux-gnu.cmake") ;;
    mingw) args+=("-DCMAKE_TOOLCHAIN_FILE=$toolchains/x86_64-w64-mingw32.cmake") ;;
    wasm) args+=("-DCMAKE_TOOLCHAIN_FILE=$toolchains/wasm32-emscripten.cmake") ;;
    wasm-simd)
      args+=("-DCMAKE_TOOLCHAIN_FILE=$toolchains/wasm32-emscripten.cmake" -DOCTREE_FPS_WASM_SIMD=ON)
      ;;
    *)
      echo "cross.sh: unknown target '$target'" >&2
      usage
      ;;
  esac
  cmake -S "$root" -B "$dir" "${args[@]}" >"$dir.configure.log" 2>&1 ||
    {
      cat "$dir.configure.log"
      return 1
    }
  grep "four-lane kernels" "$dir.configure.log" || true
}

run_tests() {  # run_tests TARGET DIR
  local target=$1 dir=$2
  local mode="${OCTREE_FPS_CROSS_TESTS:-}"
  if [[ -z "$mode" ]]; then
    case "$target" in
      aarch64 | mingw) mode=quick ;;
      *) mode=all ;;
    esac
  fi
  local filter=()
  if [[ "$mode" == quick ]]; then
    # Emulated: everything on generated geometry, and of the real-level tests only the oracle
    # comparison on oa_dm1 (the full real-level suites run on the native targets).
    filter=(-E "oa_dm5|collision.world|ons.reborn|RealLevel|Soak|Scaling|Huge")
  fi
  # Wine prints its own start-up chatter on stderr; keep it out of the log's way.
  local rc=0 repeat=()
  if [[ "$target" == mingw ]]; then
    # One wineserver for the whole run (it stays 30 s after the last program exits): under
    # -j 2, two test programs starting a server at once sometimes fail before main() with no
    # output. A test that fails twice is a failure; once, a Wine start-up race.
    local wineserver
    wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
    "$wineserver" -p30 2>/dev/null || true
    repeat=(--repeat until-pass:2)
  fi
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    WINEDEBUG=-all ctest --test-dir "$dir" -j "$jobs" --output-on-failure "${filter[@]}" \
    "${repeat[@]}" >"$dir/cross-tests.log" 2>&1 || rc=$?
  grep -vE '^ +Start |Test +#[0-9]+: .* Passed' "$dir/cross-tests.log" || true
  tests_summary "$dir/cross-tests.log" >"$dir/cross-tests.txt"
  return $rc
}

# "PASSED TOTAL" from a CTest log (its "N% tests passed, F tests failed out of T" line).
tests_summary() {
  python3 -c '
import re, sys
m = re.search(r"tests passed, (\d+) tests? failed out of (\d+)", open(sys.argv[1]).read())
print(int(m.group(2)) - int(m.group(1)), m.group(2)) if m else print("? ?")' "$1"
}

# Query files are made once per shared folder copy (genqueries.py is deterministic).
queries_dir() {
  local q="$root/build-determinism-inputs"
  mkdir -p "$q"
  if [[ -f "$shared/levels/oa_dm5/oa_dm5.obj" && ! -f "$q/oa_dm5.queries" ]]; then
    python3 "$shared/bench/genqueries.py" "$shared/levels/oa_dm5/oa_dm5.obj" "$q/oa_dm5.queries" \
      --n 10000 --seed 1 >/dev/null
  fi
  echo "$q"
}

# The bundled level's collision triangles as OBJ, exported by the native build's loader.
arena_obj() {
  local q=$1
  if [[ ! -f "$q/arena.obj" ]]; then
    local exporter="$root/build/octree_export_collision_obj"
    if [[ ! -x "$exporter" ]]; then
      echo "cross.sh: build/octree_export_collision_obj is missing: run scripts/build.sh first" >&2
      return 1
    fi
    "$exporter" "$root/assets/arena.glb" "$q/arena.obj"
  fi
  echo "$q/arena.obj"
}

record() {  # record TARGET DIR
  local target=$1 dir=$2
  local emu
  emu=$(emulator_of "$target")
  local script bench
  script=$(program_of "$dir" octree_script)
  bench=$(program_of "$dir" octree_bench)
  local q out="$dir/determinism"
  q=$(queries_dir)
  rm -rf "$out"
  mkdir -p "$out"
  local arena
  arena=$(arena_obj "$q")
  # shellcheck disable=SC2086  # $emu is a command with arguments
  run() { WINEDEBUG=-all $emu "$@"; }
  for s in "$root"/tests/determinism/arena_*.script; do
    local name
    name=$(basename "$s" .script)
    run "$script" "$arena" --script "$s" --trace "$out/$name.trace.csv" --props "$out/$name.props.csv" \
      --props-trace "$out/$name.props-trace.csv"
  done
  if [[ -f "$shared/levels/oa_dm5/oa_dm5.obj" ]]; then
    for s in "$root"/tests/determinism/oa_dm5_*.script; do
      local name
      name=$(basename "$s" .script)
      run "$script" "$shared/levels/oa_dm5/oa_dm5.obj" --up z --scale 0.0254 --script "$s" \
        --trace "$out/$name.trace.csv" --props "$out/$name.props.csv" \
        --props-trace "$out/$name.props-trace.csv"
    done
    run "$bench" "$shared/levels/oa_dm5/oa_dm5.obj" "$q/oa_dm5.queries" "$out/oa_dm5.results" \
      --rounds 3 --build-rounds 1 --json "$out/oa_dm5.bench.json" --quiet >/dev/null
    if [[ "$target" == wasm* && -x "$root/build/octree_bench" ]]; then
      # WebAssembly's rate is reported as a ratio to native x86-64 measured in the same run:
      # the native tool right after, on the same queries (platforms_table.py reads both).
      mkdir -p "$dir/determinism-info"
      "$root/build/octree_bench" "$shared/levels/oa_dm5/oa_dm5.obj" "$q/oa_dm5.queries" \
        --rounds 3 --build-rounds 1 --json "$dir/determinism-info/native.bench.json" \
        --quiet >/dev/null
    fi
  else
    echo "cross.sh: no shared levels at $shared: oa_dm5 not recorded" >&2
  fi
  # The timings are not part of the comparison: keep the bench JSON aside.
  mkdir -p "$dir/determinism-info"
  mv "$out"/*.bench.json "$dir/determinism-info/" 2>/dev/null || true
  (cd "$out" && sha256sum -- * >"../determinism.sha256")
  echo "recorded $(ls "$out" | wc -l) files in $out"
}

compare() {  # compare [TARGET...]
  local ref="$root/build/determinism"
  [[ -d "$ref" ]] || {
    echo "cross.sh --compare: no reference $ref (scripts/cross.sh native)" >&2
    return 1
  }
  local dirs=()
  if (($# == 0)); then
    for d in "$root"/build-*/determinism; do [[ -d "$d" ]] && dirs+=("$d"); done
  else
    for t in "$@"; do dirs+=("$root/build-$t/determinism"); done
  fi
  local failed=0
  for d in "${dirs[@]}"; do
    local bad=0
    for f in "$ref"/*; do
      local other="$d/$(basename "$f")"
      if [[ ! -f "$other" ]]; then
        echo "MISSING $other"
        bad=1
      elif ! cmp -s "$f" "$other"; then
        echo "DIFFERS $other (first difference: $(cmp "$f" "$other" 2>&1 | head -1))"
        bad=1
      fi
    done
    if ((bad)); then failed=1; else echo "identical to build/determinism: $d ($(ls "$ref" | wc -l) files)"; fi
  done
  return $failed
}

toolchain_of() {
  case "$1" in
    aarch64) echo "$toolchains/aarch64-linux-gnu.cmake" ;;
    mingw) echo "$toolchains/x86_64-w64-mingw32.cmake" ;;
    wasm | wasm-simd) echo "$toolchains/wasm32-emscripten.cmake" ;;
    *) echo "" ;;
  esac
}

# consumer TARGET: examples/consumer as an engine on that platform would build it, twice: against
# the core installed from build-TARGET (find_package with <package>_DIR, the plain toolchain file
# and nothing else) and with add_subdirectory of this checkout. Both outputs must equal the
# output of the same program built natively.
consumer() {
  local target=$1
  local dir="$root/build-$target" tc work
  tc=$(toolchain_of "$target")
  [[ -n "$tc" ]] || {
    echo "cross.sh --consumer: $target is not a cross target" >&2
    return 1
  }
  [[ -f "$dir/CMakeCache.txt" ]] || {
    echo "cross.sh --consumer: build $target first (scripts/cross.sh $target)" >&2
    return 1
  }
  work="$dir/consumer"
  rm -rf "$work"
  mkdir -p "$work"
  local emu
  emu=$(emulator_of "$target")
  echo "=== $target consumer: native reference"
  cmake -S "$root/examples/consumer" -B "$work/native" -G Ninja \
    -DOCTREE_FPS_SOURCE_DIR="$root" >/dev/null
  cmake --build "$work/native" -j "$jobs" >/dev/null
  "$work/native/consumer" >"$work/native.txt"
  echo "=== $target consumer: install the core from build-$target"
  cmake --install "$dir" --prefix "$work/prefix" >/dev/null
  local how
  for how in package subdirectory; do
    local args=(-G Ninja "-DCMAKE_TOOLCHAIN_FILE=$tc")
    if [[ "$how" == package ]]; then
      args+=("-Doctree_fps_DIR=$work/prefix/lib/cmake/octree_fps")
    else
      args+=("-DOCTREE_FPS_SOURCE_DIR=$root")
    fi
    [[ "$target" == wasm-simd ]] && args+=(-DOCTREE_FPS_WASM_SIMD=ON)
    echo "=== $target consumer: $how"
    cmake -S "$root/examples/consumer" -B "$work/$how" "${args[@]}" >"$work/$how.configure.log" 2>&1 ||
      {
        cat "$work/$how.configure.log"
        return 1
      }
    cmake --build "$work/$how" -j "$jobs" >/dev/null
    local program
    program=$(program_of "$work/$how" consumer)
    # shellcheck disable=SC2086  # $emu is a command with arguments
    # Windows' C runtime writes text-mode stdout with CR LF line ends: compare the text.
    WINEDEBUG=-all $emu "$program" | tr -d '\r' >"$work/$how.txt"
    if cmp -s "$work/native.txt" "$work/$how.txt"; then
      echo "same output as native ($(wc -l <"$work/$how.txt") lines)"
    else
      diff "$work/native.txt" "$work/$how.txt" || true
      echo "cross.sh --consumer: $target ($how) answers differently from native" >&2
      return 1
    fi
  done
}

(($# > 0)) || usage
if [[ "$1" == --consumer ]]; then
  shift
  for t in "$@"; do consumer "$t"; done
  exit 0
fi
if [[ "$1" == --compare ]]; then
  shift
  compare "$@"
  exit $?
fi
# One target's failure does not hide the others' results: each runs, the failures are listed.
failed_targets=()
build_target() {  # build_target TARGET: configure, build, test, record (native: record only)
  local target=$1 dir
  if [[ "$target" == native ]]; then
    dir="$root/build"
    [[ -x "$dir/octree_script" ]] || {
      echo "cross.sh native: build/ has no octree_script: run scripts/build.sh first" >&2
      return 1
    }
    # The native suite is scripts/test.sh's full CTest run: its last log is the count.
    if [[ -f "$dir/Testing/Temporary/LastTest.log" ]]; then
      local total failed=0
      total=$(ctest --test-dir "$dir" -N | sed -n 's/^Total Tests: //p')
      [[ -f "$dir/Testing/Temporary/LastTestsFailed.log" ]] &&
        failed=$(wc -l <"$dir/Testing/Temporary/LastTestsFailed.log")
      echo "$((total - failed)) $total" >"$dir/cross-tests.txt"
    fi
  else
    dir="$root/build-$target"
    mkdir -p "$dir"
    echo "=== $target: configure"
    configure "$target" "$dir" || return 1
    echo "=== $target: build"
    cmake --build "$dir" -j "$jobs" || return 1
    echo "=== $target: tests"
    run_tests "$target" "$dir" || return 1
  fi
  echo "=== $target: record"
  record "$target" "$dir"
}
for target in "$@"; do
  start=$(date +%s)
  if ! build_target "$target"; then
    failed_targets+=("$target")
    echo "=== $target: FAILED after $(($(date +%s) - start)) s"
    continue
  fi
  echo "=== $target: done in $(($(date +%s) - start)) s"
done
if ((${#failed_targets[@]} > 0)); then
  echo "cross.sh: failed: ${failed_targets[*]}" >&2
  exit 1
fi
