#!/usr/bin/env bash
# Installs every Debian 12 package starfish-sc needs. Idempotent: packages that
# are already present are skipped, so running it twice costs one dpkg query.
# Prints a line per phase and per step of its progress (scripts/progress.sh); on a
# fresh machine the installation takes minutes (README.md, "Two commands").
set -euo pipefail
source "$(dirname "$0")/progress.sh"

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
  # scripts/check_python.sh (CTest python_lint).
  pyflakes3
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

echo "install-deps: installing ${#missing[@]} packages and what they need: ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
start=$SECONDS
echo "install-deps: apt-get update (the package lists)"
"${sudo_cmd[@]}" apt-get update -qq 2>&1 | heartbeat install-deps
echo "install-deps: apt-get install (download, then unpack and configure)"
# apt-get's own lines (dpkg's, a few per package) go to a log that is shown when it
# fails; its status lines become the progress lines. Errors (stderr) always show.
log=$(mktemp -t starfish-install-deps.XXXXXX)
if ! "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends -o APT::Status-Fd=1 \
  "${missing[@]}" | apt_progress "$log" | heartbeat install-deps; then
  echo "install-deps: apt-get install failed; the end of its output (all of it in $log):" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
rm -f "$log"
echo "install-deps: ${#missing[@]} packages installed in $((SECONDS - start)) s"
