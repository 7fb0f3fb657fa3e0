#!/usr/bin/env bash
# The README's main-job command: installs the Debian packages, builds, and runs the
# paper's comparison on the default machine (sim/studies/main.json: SPFS, 2PIO, DDIO
# without and with presort on 14 pattern/record cells of both layouts, five trials
# per cell; SPFS's record-at-a-time 8-byte cells left out), printing the per-cell
# table and the methods side by side with the published values, errors and ratios
# to SPFS. Extra arguments go to `starfish study` (e.g. --set workload.trials=2,
# --json result.json). Every step shows its progress; the README gives the time
# each one takes.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${STARFISH_BUILD_DIR:-build}
start=$SECONDS

echo "run-default: step 1 of 3, the Debian packages (scripts/install-deps.sh)"
bash scripts/install-deps.sh

echo "run-default: step 2 of 3, the starfish executable (scripts/build.sh)"
options=()
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  # A new build directory leaves the Verilog engines out (-DSTARFISH_RTL=OFF): the
  # study does not use them and their Verilated models are most of the build.
  # `bash scripts/build.sh -DSTARFISH_RTL=ON` adds them; scripts/test.sh does.
  options=(-DSTARFISH_RTL=OFF)
fi
bash scripts/build.sh --target starfish "${options[@]}"

echo "run-default: step 3 of 3, the study main ($((SECONDS - start)) s so far)"
exec "$build_dir/sim/starfish" study main "$@"
