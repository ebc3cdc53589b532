#!/usr/bin/env bash
# Installs what is missing, then configures and builds octree-fps into build/ (or $BUILD_DIR).
# Extra CMake arguments: OCTREE_FPS_CMAKE_ARGS="-DOCTREE_FPS_WERROR=ON" scripts/build.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build_dir=${BUILD_DIR:-"$root/build"}
shared_arg=()
if [[ -n "${OCTREE_FPS_SHARED_DIR:-}" ]]; then
  shared_arg=(-DOCTREE_FPS_SHARED_DIR="$OCTREE_FPS_SHARED_DIR")
fi
# shellcheck disable=SC2086  # word splitting of the extra arguments is intended
cmake -S "$root" -B "$build_dir" -G Ninja "${shared_arg[@]}" ${OCTREE_FPS_CMAKE_ARGS:-} >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
