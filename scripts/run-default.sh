#!/usr/bin/env bash
# The README's main-job command: installs the Debian packages, builds, and runs
# `starfish run` on the default configuration. Extra arguments go to `starfish run`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh >/dev/null
exec "${STARFISH_BUILD_DIR:-build}/sim/starfish" run "$@"
