#!/usr/bin/env bash
# Configuration fuzzing on demand (docs/configuration.md, "Fuzzing"): runs the CTest
# fuzz test (tests/config/test_config_fuzz.cpp) on many more inputs than CI does.
#   bash scripts/fuzz_config.sh [INPUTS] [SEED]
# INPUTS (default 1000000) go through the loader in process; one in 200 also through
# `starfish config` and one in 2000 through a tiny `starfish run`. Builds first
# (into $STARFISH_BUILD_DIR, default build).
set -euo pipefail
cd "$(dirname "$0")/.."
inputs=${1:-1000000}
seed=${2:-1}
build_dir=${STARFISH_BUILD_DIR:-build}
bash scripts/build.sh >/dev/null
start=$(date +%s)
STARFISH_FUZZ_INPUTS=$inputs STARFISH_FUZZ_SEED=$seed \
    "$build_dir/tests/test_config_fuzz" --report_level=short -- "$build_dir/sim/starfish"
echo "fuzz_config: $inputs inputs, seed $seed, $(($(date +%s) - start)) s"
