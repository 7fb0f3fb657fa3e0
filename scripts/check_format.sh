#!/bin/bash
# Every tracked C and C++ source is formatted per .clang-format (docs/developing.md).
#
#   scripts/check_format.sh [--fix]
#
# Lists the files that differ (clang-format --dry-run) and exits 1, or with --fix
# rewrites them. Exit 77 (CTest: skipped) when clang-format or git is missing, or
# when the sources are not a git checkout (a source archive).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 2
source scripts/tracked_files.sh
tracked_files check_format clang-format '*.c' '*.h' '*.cpp' '*.hpp'
if [ "${1:-}" = "--fix" ]; then
    clang-format -i "${files[@]}"
    exit 0
fi
# One clang-format process for all files (one per file spends seconds starting
# them); each violation it reports starts with "FILE:LINE:COL: error:".
report=$(clang-format --dry-run -Werror "${files[@]}" 2>&1)
rc=$?
mapfile -t bad < <(printf '%s\n' "$report" |
    sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if [ $rc -ne 0 ] && [ ${#bad[@]} -eq 0 ]; then
    echo "check_format: clang-format failed:" >&2
    printf '%s\n' "$report" >&2
    exit 1
fi
if [ ${#bad[@]} -ne 0 ]; then
    echo "check_format: ${#bad[@]} of ${#files[@]} files differ from .clang-format (scripts/check_format.sh --fix rewrites them):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
fi
echo "check_format: ${#files[@]} files formatted per .clang-format"
