#!/usr/bin/env bash
# The README's test command: installs the Debian packages, builds everything and
# runs the whole test suite through CTest, ending with CTest's summary line.
#   bash scripts/test.sh [--sanitizers] [cmake options for scripts/build.sh ...]
# --sanitizers (what CI runs, .ci/run): after that pass, builds again with
# AddressSanitizer and UBSan (-DSTARFISH_SANITIZE=ON) into a separate build
# directory ($STARFISH_SANITIZE_BUILD_DIR, default build-sanitize) and runs the whole
# suite under it (docs/developing.md, "Sanitizers"). Each pass prints its time.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizers=0
if [ "${1:-}" = "--sanitizers" ]; then
  sanitizers=1
  shift
fi
bash scripts/install-deps.sh
jobs=${STARFISH_JOBS:-$(nproc)}

# run_pass NAME BUILD_DIR [cmake options...]: build everything, then CTest. The RTL
# engines are always in: a build directory scripts/run-default.sh made has them off.
run_pass() {
  local name=$1 dir=$2
  shift 2
  local start=$SECONDS
  STARFISH_BUILD_DIR=$dir bash scripts/build.sh -DSTARFISH_RTL=ON "$@"
  local built=$SECONDS
  (cd "$dir" && ctest --output-on-failure -j "$jobs" --timeout 1500)
  echo "test.sh: $name pass: build $((built - start)) s, tests $((SECONDS - built)) s"
}

run_pass normal "${STARFISH_BUILD_DIR:-build}" "$@"
if [ "$sanitizers" = 1 ]; then
  # Leak checking stays off: SystemC keeps its kernel objects until exit and the
  # trial processes leave through _exit. Any other report aborts the test.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  # The build type's optimisation keeps the instrumented suite fast enough for CI.
  run_pass sanitizer "${STARFISH_SANITIZE_BUILD_DIR:-build-sanitize}" -DSTARFISH_SANITIZE=ON "$@"
fi
