#!/usr/bin/env bash
# Formats the C/C++ sources git tracks with clang-format and .clang-format.
#   scripts/format.sh          rewrites the files in place
#   scripts/format.sh --check  changes nothing; exit 1 naming each file that is not formatted
# Third-party code and test data (candidates, evasion corpora) are left as written.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=fix
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *) echo "usage: scripts/format.sh [--check]" >&2; exit 2 ;;
esac
clang_format=$(command -v clang-format || command -v clang-format-14 || true)
if [ -z "$clang_format" ]; then
  echo "format.sh: clang-format not found (apt-get install clang-format)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files -- 'src/*.h' 'src/*.cpp' 'src/*.c' 'include/*.h' 'tests/*.h' 'tests/*.cpp' \
  'bench/*.h' 'bench/*.cpp' 'python/*.c' 'python/*.cpp' | grep -v '/testdata/')
if [ "$mode" = fix ]; then
  "$clang_format" -i --style=file "${files[@]}"
  exit 0
fi
# One clang-format over every file; it names each line it would change.
if report=$("$clang_format" --style=file --dry-run --Werror "${files[@]}" 2>&1); then
  exit 0
fi
named=$(grep -o '^[^:]*:[0-9]*:[0-9]*: error' <<<"$report" | cut -d: -f1 | sort -u || true)
if [ -z "$named" ]; then
  echo "$report" >&2  # clang-format failed for another reason (a file it could not read)
  exit 2
fi
sed 's/$/: not formatted (scripts\/format.sh rewrites it)/' <<<"$named"
exit 1
