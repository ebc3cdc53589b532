#!/usr/bin/env bash
# Runs octree_bench --oracle --compare on the shared levels and writes one JSON per level.
#
#   bench/tool/run_levels.sh BUILD_DIR [OUT_DIR]
#
# Query files: ../shared/bench/genqueries.py, 10000 queries of each kind, seed 1, the character
# radius from ../shared/levels/SOURCES.md (0.35 m for collision-world, 16 u for the Quake levels).
# Levels come from the shared folder (OCTREE_FPS_SHARED_DIR, default ../shared beside the
# checkout), ons-reborn included; a level that is not there is skipped with a message.
# Generated query and result files go to WORK_DIR (default a temporary directory), never the repo.
set -euo pipefail
build=${1:?usage: run_levels.sh BUILD_DIR [OUT_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${2:-$repo/bench/results}
shared=${OCTREE_FPS_SHARED_DIR:-$repo/../shared}
work=${WORK_DIR:-$(mktemp -d)}
n=${QUERIES_PER_KIND:-10000}
bench=$build/octree_bench
[[ -x $bench ]] || bench=$build/bench/tool/octree_bench
mkdir -p "$out" "$work"

run() {  # name obj radius
  local name=$1 obj=$2 radius=$3
  if [[ ! -f $obj ]]; then
    echo "skip $name: $obj not found" >&2
    return
  fi
  python3 "$shared/bench/genqueries.py" "$obj" "$work/$name.queries" --n "$n" --seed 1 \
    --radius "$radius"
  echo "== $name" >&2
  "$bench" "$obj" "$work/$name.queries" "$work/$name.results" --oracle --oracle-limit "${ORACLE_LIMIT:-2000}" --compare \
    --json "$out/$name.json" ${BENCH_ARGS:-} >/dev/null
}

run collision-world "$shared/levels/collision-world/collision-world.obj" 0.35
run oa_dm1 "$shared/levels/oa_dm1/oa_dm1.obj" 16
run oa_dm5 "$shared/levels/oa_dm5/oa_dm5.obj" 16
run ons-reborn "$shared/levels/ons-reborn/ons-reborn.obj" 16
