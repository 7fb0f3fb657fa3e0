#!/usr/bin/env bash
# Installs every Debian 12 package starfish-sc needs. Idempotent: packages that
# are already present are skipped, so running it twice costs one dpkg query.
set -euo pipefail

packages=(
  cmake ninja-build g++ gcc pkg-config make
  libsystemc-dev
  verilator
  # Verilator's FST writer (--rtl-fst and --ni-dma-fst, docs/rtl.md).
  zlib1g-dev
  libboost-test-dev
  nlohmann-json3-dev
  libcli11-dev
  gtkwave xvfb xauth
  python3 python3-matplotlib python3-numpy
  ccache clang-format
  binutils
  # The Slurm cluster test (tests/cli/test_slurm_cluster.cpp) starts its own
  # munged, slurmctld and slurmd on loopback (docs/cluster.md).
  munge slurmctld slurmd slurm-client
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
