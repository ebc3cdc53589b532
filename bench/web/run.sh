#!/usr/bin/env bash
# The octree in WebAssembly against three.js's Octree and three-mesh-bvh (bench/README.md
# "WebAssembly against three.js Octree and three-mesh-bvh"). A benchmark, not a test: CI does
# not run it.
#
#   bench/web/run.sh [--passes N] [--rounds N] [--levels "oa_dm5 ons-reborn"] [--page]
#                    [--work DIR]
#
# 1. installs what is missing (scripts/install-deps.sh --web-bench: Emscripten, Node.js, npm,
#    Chromium, bench/web's locked npm packages);
# 2. builds octree_bench natively (build-bench/, Release, unless OCTREE_BENCH_NATIVE names a
#    built one) and for WebAssembly with and without SIMD128 (build-wasm-simd/, build-wasm/:
#    only the octree_bench target, -O2 as scripts/cross.sh builds them; NODERAWFS, so the tool
#    reads the host's files under Node.js), and with --page a browser build (build-wasm-page/:
#    the same objects linked for a page, files through Emscripten's in-memory FS);
# 3. writes the query files (../shared/bench/genqueries.py, 10000 of each kind, seed 1, radius
#    16 as bench/tool/run_levels.sh) into WORK (default build-webbench/);
# 4. runs N passes (default 3), each one fresh process per engine and level, in turn: the native
#    tool (its result file is the reference), the WASM tool with SIMD128, without, the JS peers
#    under Node.js (peers.mjs, --ref the native results), and with --page the WASM tool and the
#    peers in headless Chromium (page.mjs). Passes repeat the whole set so that the spread
#    between them shows the load on the machine;
# 5. prints the markdown tables (report.mjs): median over the passes, [min-max].
#
# Levels come from the shared folder (OCTREE_FPS_SHARED_DIR, default ../shared beside the
# checkout); nothing is written there.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
shared=${OCTREE_FPS_SHARED_DIR:-$root/../shared}
passes=3
rounds=7
levels="oa_dm5 ons-reborn"
page=0
work=$root/build-webbench
while (($# > 0)); do
  case "$1" in
    --passes) passes=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --levels) levels=$2; shift 2 ;;
    --page) page=1; shift ;;
    --work) work=$2; shift 2 ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
jobs=${OCTREE_FPS_BENCH_JOBS:-1}
# Emscripten's JavaScript passes need Debian's node modules (see scripts/cross.sh).
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR=1

scripts/install-deps.sh --web-bench

# --- builds ---------------------------------------------------------------------------------
native=${OCTREE_BENCH_NATIVE:-}
if [[ -z "$native" ]]; then
  cmake -S . -B build-bench -G Ninja -DOCTREE_FPS_BUILD_APP=OFF -DOCTREE_FPS_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=Release "-DOCTREE_FPS_SHARED_DIR=$shared" >/dev/null
  cmake --build build-bench --target octree_bench -j "$jobs"
  native=$root/build-bench/octree_bench
fi
wasm_build() {  # wasm_build DIR [CMAKE ARGS...]: octree_bench only, as scripts/cross.sh configures
  local dir=$1
  shift
  mkdir -p "$dir"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" \
    -DOCTREE_FPS_BUILD_APP=OFF -DOCTREE_FPS_BUILD_TESTS=OFF -DOCTREE_FPS_BUILD_BENCH=ON \
    -DOCTREE_FPS_BUILD_MICROBENCH=OFF -DOCTREE_FPS_INSTALL=OFF "-DOCTREE_FPS_SHARED_DIR=$shared" \
    "-DCMAKE_TOOLCHAIN_FILE=$root/cmake/toolchains/wasm32-emscripten.cmake" "$@" >"$dir/webbench-configure.log" 2>&1 ||
    { cat "$dir/webbench-configure.log"; return 1; }
  cmake --build "$dir" --target octree_bench -j "$jobs"
}
mkdir -p "$work"
wasm_build build-wasm-simd -DOCTREE_FPS_WASM_SIMD=ON
wasm_build build-wasm
if ((page)); then
  # A page has no host file system: the same compile flags as build-wasm-simd (ccache reuses its
  # objects), linked as a module the page instantiates, with the in-memory FS and callMain.
  wasm_build build-wasm-page -DOCTREE_FPS_WASM_SIMD=ON \
    "-DCMAKE_EXE_LINKER_FLAGS=-fexceptions -msimd128 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sTOTAL_STACK=8MB -sMODULARIZE=1 -sEXPORT_NAME=OctreeBench -sINVOKE_RUN=0 -sEXIT_RUNTIME=0 -sFORCE_FILESYSTEM=1 -sENVIRONMENT=web -sEXPORTED_RUNTIME_METHODS=FS,callMain"
fi

# --- query files ----------------------------------------------------------------------------
for level in $levels; do
  obj=$shared/levels/$level/$level.obj
  [[ -f "$obj" ]] || { echo "run.sh: $obj not found" >&2; exit 1; }
  [[ -f "$work/$level.queries" ]] ||
    python3 "$shared/bench/genqueries.py" "$obj" "$work/$level.queries" --n 10000 --seed 1 --radius 16
done

# --- passes ---------------------------------------------------------------------------------
runs=$work/runs
rm -rf "$runs"
for ((p = 1; p <= passes; p++)); do
  for level in $levels; do
    obj=$shared/levels/$level/$level.obj
    q=$work/$level.queries
    out=$runs/p$p/$level
    mkdir -p "$out"
    echo "== pass $p/$passes: $level" >&2
    "$native" "$obj" "$q" "$out/octree-native.results" --rounds "$rounds" --build-rounds 1 \
      --json "$out/octree-native.json" --quiet >/dev/null
    for v in wasm-simd wasm; do
      node --no-experimental-fetch "build-$v/octree_bench.js" "$obj" "$q" "$out/octree-$v.results" \
        --rounds "$rounds" --build-rounds 1 --json "$out/octree-$v.json" --quiet >/dev/null
      # The core's answers are the same bits on every platform (CONTRIBUTING.md): check it here.
      cmp -s "$out/octree-native.results" "$out/octree-$v.results" ||
        echo "run.sh: $v answers differ from native on $level" >&2
    done
    node bench/web/peers.mjs "$obj" "$q" --out "$out/node" --ref "$out/octree-native.results" \
      --rounds "$rounds" --json "$out/peers-node.json" >/dev/null
    if ((page)); then
      node bench/web/page.mjs "$obj" "$q" --wasm build-wasm-page --out "$out/page" \
        --ref "$out/octree-native.results" --rounds "$rounds" --json "$out/page.json" >/dev/null
    fi
  done
done
# shellcheck disable=SC2086  # one argument per level is intended
node bench/web/report.mjs "$runs" $levels | tee "$work/report.md"
