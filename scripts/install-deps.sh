#!/usr/bin/env bash
# Installs every Debian package octree-fps needs to build, test and run headless.
# Idempotent: packages already present are skipped, so a second run costs one dpkg query.
# Every other path (README Quick start, .ci/run, scripts/*) calls this script; nothing
# else installs anything.
#
#   scripts/install-deps.sh            required packages
#   scripts/install-deps.sh --peers    also Embree 3 and Bullet for `octree_bench --compare`
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config python3
  libglfw3-dev libglm-dev libassimp-dev libimgui-dev python3-glad
  libstb-dev libcli11-dev nlohmann-json3-dev googletest libgtest-dev libgmock-dev libbenchmark-dev
  libgl-dev libgl1-mesa-dri xvfb xauth
)
if [[ "${1:-}" == "--peers" ]]; then
  packages+=(libembree-dev libbullet-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  sudo_cmd=(sudo)
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
