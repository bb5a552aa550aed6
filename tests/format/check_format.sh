#!/usr/bin/env bash
# Every C++ source and header in the tree (core, app, cli, mpi, bench, tests) is as clang-format
# formats it with the project's .clang-format. Pinned to clang-format-14 (Debian 12): another
# version formats a few constructs differently. Prints each file that differs and the command that
# formats it; fails if there is one.
#
#   tests/format/check_format.sh CLANG_FORMAT SOURCE_DIR
set -euo pipefail
tool=${1:?usage: check_format.sh CLANG_FORMAT SOURCE_DIR}
cd "${2:?usage: check_format.sh CLANG_FORMAT SOURCE_DIR}"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- '*.cpp' '*.h')
else
  mapfile -t files < <(find core app cli mpi bench tests -name '*.cpp' -o -name '*.h' | sort)
fi
[ "${#files[@]}" -gt 0 ] || { echo "check_format: no C++ files found under $PWD" >&2; exit 1; }
drift=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue  # deleted in the work tree, not yet in the index
  "$tool" --dry-run --Werror "$f" >/dev/null 2>&1 || drift+=("$f")
done
echo "${#files[@]} files checked with $("$tool" --version | head -1), ${#drift[@]} differ"
if [ "${#drift[@]}" -gt 0 ]; then
  printf '  %s\n' "${drift[@]}"
  echo "format them with: $tool -i ${drift[*]}"
  exit 1
fi
