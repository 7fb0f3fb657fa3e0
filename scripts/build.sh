#!/usr/bin/env bash
# Configures and builds starfish-sc into ./build (or $STARFISH_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${STARFISH_BUILD_DIR:-build}
jobs=${STARFISH_JOBS:-$(nproc)}
generator=()
if command -v ninja >/dev/null 2>&1 && [ ! -f "$build_dir/Makefile" ]; then generator=(-G Ninja); fi
cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE="${STARFISH_BUILD_TYPE:-RelWithDebInfo}" "$@" >/dev/null
cmake --build "$build_dir" -j "$jobs"
