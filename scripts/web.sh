#!/usr/bin/env bash
# The demo in a browser (README "In the browser"): builds octree_demo with Emscripten for WebGL2
# into build-web/ and serves it.
#
#   scripts/web.sh               install what is missing, build, serve build-web/site on
#                                http://127.0.0.1:8080/ (Python's http.server; Ctrl-C stops it)
#   scripts/web.sh --build-only  install and build; print the site's compressed size
#   scripts/web.sh --test        install, build, and run the page's tests in headless Chromium
#                                (tests/web/page_test.mjs; CI's web step)
#   --port N                     serve on another port
#
# build-web/site/ is a static site (index.html, octree_demo.js, .wasm, .data holding the default
# level and the shaders): any web host serves it as is.
# What it needs (scripts/install-deps.sh --web): Debian's Emscripten, Node.js, Chromium, tinygltf,
# and Dear ImGui's Debian source package (apt-get source imgui, unpacked into build-web/deps:
# libimgui-dev has headers and an x86-64 library only).
# Environment: OCTREE_FPS_WEB_JOBS (build jobs, default: nproc).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=serve
port=8080
while (($#)); do
  case "$1" in
    --build-only) mode=build ;;
    --test) mode=test ;;
    --port)
      port=$2
      shift
      ;;
    *)
      sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
      exit 2
      ;;
  esac
  shift
done
jobs="${OCTREE_FPS_WEB_JOBS:-$(nproc)}"
build="$root/build-web"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR=1
# Emscripten's JavaScript passes need Debian's node modules (see scripts/cross.sh).
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"

scripts/install-deps.sh --web

# Dear ImGui's sources: the same version as the installed headers (libimgui-dev's source
# package), unpacked once.
imgui_version=$(dpkg-query -W -f='${source:Version}' libimgui-dev)
imgui_dir="$build/deps/imgui-$imgui_version"
if [[ ! -f "$imgui_dir/imgui.cpp" ]]; then
  rm -rf "$build/deps/unpack"
  mkdir -p "$build/deps/unpack"
  echo "web.sh: apt-get source imgui=$imgui_version" >&2
  (cd "$build/deps/unpack" && apt-get source -qq "imgui=$imgui_version" >/dev/null 2>&1) ||
    (cd "$build/deps/unpack" && apt-get source "imgui=$imgui_version")
  src=$(find "$build/deps/unpack" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  rm -rf "$imgui_dir"
  mv "$src" "$imgui_dir"
  rm -rf "$build/deps/unpack"
fi

mkdir -p "$build"
# Configured once; again when the cache predates a setting below (SIMD128 came later).
if [[ ! -f "$build/build.ninja" ]] || ! grep -q '^OCTREE_FPS_WASM_SIMD:BOOL=ON' "$build/CMakeCache.txt"; then
  cmake -S "$root" -B "$build" -G Ninja \
    "-DCMAKE_TOOLCHAIN_FILE=$root/cmake/toolchains/wasm32-emscripten.cmake" \
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
    "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG" -DOCTREE_FPS_BUILD_APP=ON \
    -DOCTREE_FPS_WASM_SIMD=ON -DOCTREE_FPS_BUILD_TESTS=OFF -DOCTREE_FPS_BUILD_BENCH=OFF -DOCTREE_FPS_INSTALL=OFF \
    -DOCTREE_FPS_WERROR=ON "-DOCTREE_FPS_IMGUI_SOURCE_DIR=$imgui_dir" >"$build/configure.log" 2>&1 ||
    {
      cat "$build/configure.log"
      exit 1
    }
fi
cmake --build "$build" -j "$jobs"

site="$build/site"
# What a visitor downloads, compressed as a web host would send it (gzip -9, brotli -q 11).
total=(0 0 0)
for name in index.html octree_demo.js octree_demo.wasm octree_demo.data; do
  f="$site/$name"
  raw=$(wc -c <"$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  br=$(brotli -q 11 -c "$f" | wc -c)
  total=($((total[0] + raw)) $((total[1] + gz)) $((total[2] + br)))
  printf '  %-18s %9d bytes, gzip -9 %9d, brotli %9d\n' "$name" "$raw" "$gz" "$br"
done
awk -v r="${total[0]}" -v g="${total[1]}" -v b="${total[2]}" -v s="$site" 'BEGIN {
  printf "web.sh: %s: %.2f MB, %.2f MB with gzip -9, %.2f MB with brotli\n", s, r / 1e6, g / 1e6, b / 1e6 }'
# Assimp for the page (fetched only when a dropped level is neither glTF nor OBJ).
if [[ -f "$site/assimpjs/assimpjs.wasm" ]]; then
  araw=0 agz=0 abr=0
  for f in "$site/assimpjs/assimpjs.js" "$site/assimpjs/assimpjs.wasm"; do
    araw=$((araw + $(wc -c <"$f")))
    agz=$((agz + $(gzip -9 -c "$f" | wc -c)))
    abr=$((abr + $(brotli -q 11 -c "$f" | wc -c)))
  done
  awk -v r="$araw" -v g="$agz" -v b="$abr" 'BEGIN {
    printf "web.sh: on demand, assimpjs/: %.2f MB, %.2f MB with gzip -9, %.2f MB with brotli\n", r / 1e6, g / 1e6, b / 1e6 }'
fi

case "$mode" in
  build) ;;
  test)
    node tests/web/page_test.mjs "$site"
    ;;
  serve)
    echo "web.sh: serving $site at http://127.0.0.1:$port/ (Ctrl-C stops)"
    exec python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port"
    ;;
esac
