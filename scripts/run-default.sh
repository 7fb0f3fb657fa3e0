#!/usr/bin/env bash
# The README's main-job command: installs the Debian packages, builds, and runs the
# DDIO and SPFS study on the default machine (sim/studies/main.json: six patterns, 8-
# and 8192-byte records, contiguous and random-blocks layouts, five trials per cell;
# SPFS's record-at-a-time 8-byte cells left out), printing the table with the
# published values where they exist. Extra arguments go
# to `starfish study` (e.g. --set workload.trials=2, --json result.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh >/dev/null
exec "${STARFISH_BUILD_DIR:-build}/sim/starfish" study main "$@"
