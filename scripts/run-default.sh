#!/usr/bin/env bash
# The README's main-job command: installs the Debian packages, builds, and runs the
# paper's comparison on the default machine (sim/studies/main.json: SPFS, 2PIO, DDIO
# without and with presort on 14 pattern/record cells of both layouts, five trials
# per cell; SPFS's record-at-a-time 8-byte cells left out), printing the per-cell
# table and the methods side by side with the published values, errors and ratios
# to SPFS. Extra arguments go to `starfish study` (e.g. --set workload.trials=2,
# --json result.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh >/dev/null
exec "${STARFISH_BUILD_DIR:-build}/sim/starfish" study main "$@"
