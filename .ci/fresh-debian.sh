#!/usr/bin/env bash
# Runs the README's Quick start, exactly as written, on a freshly bootstrapped Debian 12 with
# nothing but git added, so that a package the install script forgets fails CI instead of a new
# user's first try.
#
#   .ci/fresh-debian.sh [COMMIT]        (default: HEAD of this checkout)
#
# - The base system is `debootstrap --variant=minbase bookworm` from this machine's own apt
#   mirror. It is cached as a tarball in $OCTREE_FPS_CI_CACHE (default
#   /var/cache/octree-fps-ci) and unpacked anew for every run, so nothing the project installs
#   survives from one run to the next. Delete the tarball to bootstrap again.
# - The chroot gets this machine's apt sources and DNS settings, and git (the one package a
#   user needs to clone). It runs in a private mount namespace: /proc, /dev and the shared
#   folder are mounted for the chroot only and vanish with it.
# - The commit is cloned to /src/octree-fps; the team's shared folder, when there is one, is
#   mounted READ-ONLY at /src/shared (../shared from the clone), so a test that writes there
#   fails here.
# - Then, with no DISPLAY, as root: scripts/test.sh, and the README's no-display line; the
#   screenshot must have content (scripts/check_screenshot.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$root" rev-parse "${1:-HEAD}")
cache=${OCTREE_FPS_CI_CACHE:-/var/cache/octree-fps-ci}
base="$cache/bookworm-minbase.tar.gz"
shared="${OCTREE_FPS_SHARED_DIR:-$root/../shared}"

# The machine's Debian mirror: the first deb.sources URI, or the first `deb` line.
mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -m1 /debian$ || true)
if [[ -z "$mirror" ]]; then
  mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
fi
mirror=${mirror:-http://deb.debian.org/debian}

if [[ ! -s "$base" ]]; then
  echo "fresh-debian: bootstrapping Debian bookworm (minbase) from $mirror into the cache"
  mkdir -p "$cache"
  boot=$(mktemp -d "$cache/boot.XXXXXX")
  debootstrap --variant=minbase bookworm "$boot" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { tail -20 "$cache/debootstrap.log"; rm -rf "$boot"; exit 1; }
  tar -C "$boot" -czf "$base.part" .
  mv "$base.part" "$base"
  rm -rf "$boot"
fi

work=$(mktemp -d /var/tmp/octree-fps-fresh.XXXXXX)
cleanup() { rm -rf --one-file-system "$work"; }
trap cleanup EXIT
sys="$work/root"
mkdir -p "$sys"
tar -C "$sys" -xzf "$base"

# This machine's apt sources and name resolution.
rm -rf "$sys/etc/apt/sources.list" "$sys/etc/apt/sources.list.d" "$sys/etc/apt/apt.conf.d"
cp -a /etc/apt/sources.list.d /etc/apt/apt.conf.d "$sys/etc/apt/"
[[ -f /etc/apt/sources.list ]] && cp /etc/apt/sources.list "$sys/etc/apt/sources.list"
cp /etc/resolv.conf /etc/hosts "$sys/etc/"

# The commit to test, as a bare repository the chroot clones from.
git clone -q --bare "$root" "$sys/src/origin.git"
mkdir -p "$sys/src/shared"

cat >"$sys/src/quickstart.sh" <<EOF
#!/bin/bash
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
echo "--- a user's only step before the README: apt-get install git"
apt-get update -qq
apt-get install -y -qq --no-install-recommends git ca-certificates >/dev/null
git clone -q /src/origin.git /src/octree-fps
cd /src/octree-fps
git checkout -q $commit
echo "--- README Quick start 2: scripts/test.sh"
scripts/test.sh
echo "--- README no-display line: scripts/demo.sh --frames 60 --screenshot shot.png"
scripts/demo.sh --frames 60 --screenshot shot.png
python3 scripts/check_screenshot.py shot.png
EOF
chmod +x "$sys/src/quickstart.sh"

# A private mount namespace: every mount below ends when the chroot's shell does.
unshare --mount --propagation private /bin/bash -euo pipefail -c '
  sys=$1 shared=$2
  mount -t proc proc "$sys/proc"
  mount --rbind /dev "$sys/dev"
  mount -t tmpfs tmpfs "$sys/dev/shm"
  mount -t tmpfs tmpfs "$sys/tmp"
  if [[ -d "$shared/levels" ]]; then
    mount --bind "$shared" "$sys/src/shared"
    mount -o remount,bind,ro "$sys/src/shared"
  else
    echo "fresh-debian: no shared folder at $shared; the real-level tests skip" >&2
  fi
  exec env -i HOME=/root TERM=dumb LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    chroot "$sys" /src/quickstart.sh
' fresh-debian "$sys" "$shared"
echo "fresh-debian: the Quick start passed on a fresh Debian bookworm"
