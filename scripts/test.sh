#!/usr/bin/env bash
# Quick start 2: install what is missing, build, and run the whole test suite with CTest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
ctest --test-dir "${BUILD_DIR:-$root/build}" -j "$(nproc)" --output-on-failure
