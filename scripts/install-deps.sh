#!/usr/bin/env bash
# Installs every Debian package octree-fps needs to build, test and run headless.
# Idempotent: packages already present are skipped, so a second run costs one dpkg query.
# Every other path (README Quick start, .ci/run, scripts/*) calls this script; nothing
# else installs anything.
#
#   scripts/install-deps.sh            required packages
#   scripts/install-deps.sh --peers    also Embree 3 and Bullet for `octree_bench --compare`
#   scripts/install-deps.sh --ci       also what .ci/run itself uses (debootstrap; clang for the
#                                      fuzz target)
#   scripts/install-deps.sh --cross    also the cross toolchains and emulators of scripts/cross.sh
#                                      (README "Platforms"): Clang, GCC for ARM64, MinGW-w64,
#                                      Emscripten, Node.js, qemu-user, Wine
#   scripts/install-deps.sh --web      also what scripts/web.sh needs: Emscripten, Node.js and npm
#                                      (npm ci: the page's assimpjs, src/app/web, and the browser
#                                      tests' driver, tests/web), Chromium
#                                      (headless, WebGL2 through SwiftShader), tinygltf (the page's
#                                      glTF reader), brotli (the site's compressed size), dpkg-dev
#                                      and a deb-src line for bookworm (apt-get source imgui: Dear
#                                      ImGui's .cpp files, compiled for WebAssembly)
#   scripts/install-deps.sh --web-bench  also what bench/web/run.sh needs: Emscripten, Node.js and
#                                      npm, Chromium (the page's run), then bench/web's npm
#                                      packages from its lock file (three, three-mesh-bvh,
#                                      puppeteer-core: npm ci)
#   scripts/install-deps.sh --list     print the packages and install nothing (with --peers,
#                                      --ci or --cross: those too)
#
# The build's packages are checked, not remembered: scripts/derive_deps.py maps every header,
# library, CMake package and program the build used to its Debian package and fails when one is
# not listed here (CI runs it after every build).
set -euo pipefail

packages=(
  # toolchain and build tools
  build-essential cmake ninja-build ccache pkg-config python3
  # libraries whose headers or link-time files the build reads directly
  libglfw3-dev libglm-dev libassimp-dev libimgui-dev libstb-dev libcli11-dev nlohmann-json3-dev
  libgl-dev googletest libgtest-dev libgmock-dev libbenchmark-dev
  # on Assimp's link line through its CMake package (libassimp-dev does not depend on zlib1g-dev)
  zlib1g-dev libminizip-dev libdraco-dev
  # the glTF loader's EXT_meshopt_compression decoder (src/level/gltf_extensions.cpp)
  libmeshoptimizer-dev
  # SSE2 intrinsics on every platform (src/octree_fps/geometry/simd4.h): the four-lane path off
  # x86-64, and the portable fallback the tests prove against SSE2 on x86-64
  libsimde-dev
  # glad's generator, run at build time (cmake/Glad.cmake)
  python3-glad
  # test inputs: gltfpack writes the optimized glTF the loader must read, and Assimp's own
  # test corpus (/usr/share/assimp/models) must load or fail cleanly (tests/level)
  gltfpack assimp-testmodels
  # only at run time, invisible to the build: Mesa's software OpenGL driver (dlopen'ed by
  # libGL), and the virtual X server for the no-display path (xvfb-run needs xauth)
  libgl1-mesa-dri xvfb xauth
)
list_only=0
web_sources=0
web_bench=0
for arg in "$@"; do
  case "$arg" in
    --peers) packages+=(libembree-dev libbullet-dev) ;;
    # CI's bounded fuzz run (tests/fuzz): clang and its libFuzzer/sanitizer runtimes
    --ci) packages+=(debootstrap clang libclang-rt-14-dev clang-format) ;;
    # scripts/cross.sh: compilers for the other platforms, and what runs their programs here
    --cross)
      packages+=(clang g++-aarch64-linux-gnu g++-mingw-w64-x86-64-posix emscripten nodejs
        qemu-user wine64)
      ;;
    --web)
      packages+=(emscripten nodejs chromium libtinygltf-dev dpkg-dev brotli)
      # Debian's nodejs comes without npm; a Node.js from elsewhere (NodeSource) brings its own.
      command -v npm >/dev/null || packages+=(npm)
      web_sources=1
      ;;
    # bench/web/run.sh (benchmarks, not run in CI): the JavaScript peers come from npm, pinned by
    # bench/web/package-lock.json, so they are installed here after the Debian packages.
    --web-bench)
      packages+=(emscripten nodejs chromium)
      command -v npm >/dev/null || packages+=(npm)
      web_bench=1
      ;;
    --list) list_only=1 ;;
    *)
      echo "install-deps: unknown option '$arg' (use --peers, --ci, --cross, --web, --web-bench and/or --list)" >&2
      exit 2
      ;;
  esac
done
if ((list_only)); then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  sudo_cmd=(sudo)
fi

# Dear ImGui for WebAssembly: Debian's libimgui-dev holds the headers and an x86-64 libimgui.a
# only, so scripts/web.sh compiles the library from Debian's own source package (apt-get source
# imgui), which needs a deb-src line. Added once, for bookworm's main component only.
if ((web_sources)) && ! apt-cache showsrc imgui 2>/dev/null | grep -q '^Package: imgui'; then
  # deb822 form with the same Signed-By as Debian's own entry (apt refuses two values for one
  # source).
  src_list=/etc/apt/sources.list.d/octree-fps-deb-src.sources
  echo "install-deps: adding $src_list (deb-src for apt-get source imgui)" >&2
  printf '%s\n' "Types: deb-src" "URIs: http://deb.debian.org/debian" "Suites: bookworm" \
    "Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
    "${sudo_cmd[@]}" tee "$src_list" >/dev/null
  "${sudo_cmd[@]}" apt-get update -qq
fi

if ((${#missing[@]} > 0)); then
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages, exactly as each folder's package-lock.json pins them; a folder is skipped when
# its node_modules already holds every locked version (npm writes node_modules/.package-lock.json
# on install).
npm_ci_locked() {
  local dir="$1"
  if ! node -e '
    const fs = require("fs");
    const want = JSON.parse(fs.readFileSync(process.argv[1], "utf8")).packages;
    const have = JSON.parse(fs.readFileSync(process.argv[2], "utf8")).packages;
    for (const k of Object.keys(want)) if (k && want[k].version !== have[k]?.version) process.exit(1);
  ' "$dir/package-lock.json" "$dir/node_modules/.package-lock.json" 2>/dev/null; then
    echo "install-deps: npm ci in ${dir#"$repo"/}" >&2
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}
repo="$(cd "$(dirname "$0")/.." && pwd)"
# The page's assimpjs (src/app/web) and the page tests' puppeteer-core (tests/web).
if ((web_sources)); then
  npm_ci_locked "$repo/src/app/web"
  npm_ci_locked "$repo/tests/web"
fi
if ((web_bench)); then
  npm_ci_locked "$repo/bench/web"
fi
