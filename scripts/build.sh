#!/usr/bin/env bash
# Installs what is missing, then configures and builds octree-fps into build/ (or $BUILD_DIR).
# Extra CMake arguments: OCTREE_FPS_CMAKE_ARGS="-DOCTREE_FPS_WERROR=ON" scripts/build.sh
#   scripts/build.sh --quiet   print nothing when everything is up to date (demo.sh)
set -euo pipefail
quiet=0
if [[ "${1:-}" == --quiet ]]; then quiet=1; fi
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build_dir=${BUILD_DIR:-"$root/build"}
shared_arg=()
if [[ -n "${OCTREE_FPS_SHARED_DIR:-}" ]]; then
  shared_arg=(-DOCTREE_FPS_SHARED_DIR="$OCTREE_FPS_SHARED_DIR")
fi
# shellcheck disable=SC2086  # word splitting of the extra arguments is intended
cmake -S "$root" -B "$build_dir" -G Ninja "${shared_arg[@]}" ${OCTREE_FPS_CMAKE_ARGS:-} >/dev/null
if ((quiet == 0)); then
  cmake --build "$build_dir" -j "$(nproc)"
  exit
fi
# An up-to-date build still re-checks the CONFIGURE_DEPENDS globs and says "no work to do" on
# every run. Those two lines are held back until another line shows that something is being
# built (or failed): then they and everything after are printed as they come, so a long build
# still shows its progress. Errors keep their place; ninja's status is the pipeline's.
cmake --build "$build_dir" -j "$(nproc)" |
  awk '!passing && /Re-checking globbed directories|^ninja: no work to do\.$/ {
         held = held $0 "\n"
         next
       }
       !passing { printf "%s", held; passing = 1 }
       { print; fflush() }'
