#!/bin/bash
# Every tracked Python file passes pyflakes: no unused import or variable, no
# undefined name, no f-string without a placeholder (docs/developing.md).
#
#   scripts/check_python.sh
#
# Exit 1 and the findings when a file fails. Exit 77 (CTest: skipped) when
# pyflakes3 or git is missing, or when the sources are not a git checkout (a
# source archive). scripts/install-deps.sh installs pyflakes3.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 2
source scripts/tracked_files.sh
tracked_files check_python pyflakes3 '*.py'
if [ ${#files[@]} -eq 0 ]; then
    echo "check_python: no tracked Python files" >&2
    exit 1
fi
if ! report=$(pyflakes3 "${files[@]}" 2>&1); then
    echo "check_python: pyflakes found problems in the tracked Python files:" >&2
    printf '%s\n' "$report" >&2
    exit 1
fi
echo "check_python: ${#files[@]} Python files pass pyflakes"
