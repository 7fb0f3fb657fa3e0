#!/usr/bin/env bash
# Configures and builds starfish-sc into ./build (or $STARFISH_BUILD_DIR).
#   bash scripts/build.sh [--target NAME]... [cmake options...]
# Without --target it builds everything (the starfish command, every test and
# bench); scripts/run-default.sh asks for `--target starfish` only. It shows the
# build's step count as it goes ([finished/total], ninja's own), and a line at least
# every 20 s while a long step runs (scripts/progress.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh
build_dir=${STARFISH_BUILD_DIR:-build}
jobs=${STARFISH_JOBS:-$(nproc)}
targets=()
while [ "${1:-}" = --target ]; do
  targets+=(--target "$2")
  shift 2
done
generator=()
if command -v ninja >/dev/null 2>&1 && [ ! -f "$build_dir/Makefile" ]; then generator=(-G Ninja); fi
build_type=${STARFISH_BUILD_TYPE:-RelWithDebInfo}
start=$SECONDS
echo "build: configuring $build_dir ($build_type)"
# CMake's report goes nowhere; its warnings and errors (stderr) are shown.
cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE="$build_type" "$@" 2>&1 >/dev/null |
  heartbeat build
what=${targets[*]:-everything}
echo "build: building ${what//--target /} with $jobs jobs"
cmake --build "$build_dir" -j "$jobs" "${targets[@]}" 2>&1 | heartbeat build
echo "build: done in $((SECONDS - start)) s"
