#!/usr/bin/env bash
# The README's test command: installs the Debian packages, builds everything and
# runs the whole test suite through CTest, ending with CTest's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh "$@"
build_dir=${STARFISH_BUILD_DIR:-build}
cd "$build_dir"
ctest --output-on-failure -j "${STARFISH_JOBS:-$(nproc)}" --timeout 1500
