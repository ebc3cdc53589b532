#!/usr/bin/env bash
# Quick start 1: install what is missing, build, and launch the demo on the bundled default
# level (or on the level and flags given: scripts/demo.sh path/to/level.glb --up z).
#
# Without a display (no DISPLAY or WAYLAND_DISPLAY: a server, a container, CI) a run that ends
# by itself (--frames N, or a --script) is started under xvfb-run, the virtual X server that
# install-deps.sh installs, with Mesa's software OpenGL. --headless needs no display at all.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" --quiet
demo="${BUILD_DIR:-$root/build}/octree_demo"

if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  exec "$demo" "$@"
fi
ends=0
for arg in "$@"; do
  case "$arg" in
    --headless | --help | -h) exec "$demo" "$@" ;;
    --frames | --frames=* | --script | --script=*) ends=1 ;;
  esac
done
if ((ends == 0)); then
  cat >&2 <<'TXT'
demo.sh: there is no display (DISPLAY is not set), so the demo cannot open a window.
  A run that stops by itself works without one, under a virtual X server:
    scripts/demo.sh --frames 60 --screenshot shot.png
  or without any OpenGL at all:
    scripts/demo.sh --headless --stats-json stats.json
TXT
  exit 2
fi
# Software OpenGL is slow: vsync only slows it further.
exec xvfb-run -a -s "-screen 0 1280x720x24" "$demo" --no-vsync "$@"
