#!/usr/bin/env bash
# Formats the project's own C++ (src, tests, bench, examples) with the repository's .clang-format.
#   scripts/format.sh           rewrite files in place
#   scripts/format.sh --check   change nothing; list every file that differs and exit 1 (CI)
# external/ (vendored code) is never touched. The clang-format version is pinned to Debian 12's
# (14) because another version formats some constructs differently and would fail the check.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fmt=$(command -v clang-format-14 || true)
if [[ -z "$fmt" ]]; then
  echo "format: clang-format-14 is not installed (scripts/install-deps.sh --ci installs it)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files -- 'include/*.h' 'src/*.h' 'src/*.cpp' 'tests/*.h' 'tests/*.cpp' \
  'bench/*.h' 'bench/*.cpp' 'examples/*.h' 'examples/*.cpp')
case "${1:-}" in
  --check)
    bad=()
    for f in "${files[@]}"; do
      if ! "$fmt" --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
    done
    if ((${#bad[@]})); then
      printf 'format: %d of %d files differ from .clang-format (run scripts/format.sh):\n' \
        "${#bad[@]}" "${#files[@]}" >&2
      printf '  %s\n' "${bad[@]}" >&2
      exit 1
    fi
    echo "format: ${#files[@]} files match .clang-format"
    ;;
  "") "$fmt" -i "${files[@]}" ;;
  *) echo "format: unknown option '$1' (use --check or nothing)" >&2; exit 2 ;;
esac
