#!/usr/bin/env bash
# Quick start 1: install what is missing, build, and launch the demo on the bundled default
# level (or on the level and flags given: scripts/demo.sh path/to/level.glb --up z).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
exec "${BUILD_DIR:-$root/build}/octree_demo" "$@"
