#!/bin/bash
# Bit-identity of two builds on every shipped study (docs/developing.md,
# "Bit-identical results"), at a size that fits a working session: one trial per
# cell and, where the study does not set it itself, a 2 MB file.
#
#   scripts/check_identity.sh BEFORE_BINARY AFTER_BINARY [OUTDIR] [STUDY ...]
#
# Runs each study with both binaries (one trial process each, side by side) and
# compares the result JSONs with scripts/compare_results.py (studies computed from
# another's results have nothing to simulate and are left out). Studies whose cells
# are too large for that (lu-paper*: N = 1024; sensitivity-file-size: 1000 MB
# files), named or not, are replaced by runs of the same kind at a small size: LU
# at N = 512 on both file systems, and the 10 MB cells of the file-size sweep.
# Exit status 0 when everything is identical, 1 when something differs or fails.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 BEFORE_BINARY AFTER_BINARY [OUTDIR] [STUDY ...]" >&2
    exit 2
fi
before=$1
after=$2
out=${3:-$(mktemp -d /tmp/check_identity.XXXXXX)}
shift $(($# > 2 ? 3 : 2))
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 2
mkdir -p "$out"

# The studies too large for a session (lu-paper*: N = 1024; sensitivity-file-size:
# 1000 MB files) are replaced by the small runs at the end, whether they are named
# or come from the full list.
named=("$@")
studies=()
standins=0
if [ ${#named[@]} -eq 0 ]; then
    standins=1
    for f in sim/studies/*.json; do
        name=$(basename "$f" .json)
        if ! grep -q '"from"' "$f"; then # else computed from another study's results
            named+=("$name")
        fi
    done
fi
for name in "${named[@]}"; do
    case "$name" in
    lu-paper* | sensitivity-file-size)
        [ $# -gt 0 ] && echo "$name: too large to run twice here; its small stand-in runs below"
        standins=1
        ;;
    *) studies+=("$name") ;;
    esac
done

small=(--set workload.trials=1 --set workload.file_mb=2)
status=0
compare() { # label
    if python3 scripts/compare_results.py "$out/$1.before.json" "$out/$1.after.json" \
        >"$out/$1.compare" 2>&1; then
        echo "$1: $(tail -1 "$out/$1.compare" | sed 's/^compare_results: //')"
    else
        echo "$1: DIFFERENT (see $out/$1.compare)"
        head -5 "$out/$1.compare"
        status=1
    fi
}
pair() { # label, then the starfish arguments after the binary
    local label=$1
    shift
    local start=$SECONDS
    "$before" "$@" --json "$out/$label.before.json" >"$out/$label.before.log" 2>&1 &
    local pid=$!
    "$after" "$@" --json "$out/$label.after.json" >"$out/$label.after.log" 2>&1
    local rc_after=$?
    wait $pid
    local rc_before=$?
    if [ $rc_before -ne 0 ] || [ $rc_after -ne 0 ]; then
        echo "$label: FAILED (exit $rc_before before, $rc_after after; logs in $out)"
        status=1
        return
    fi
    compare "$label"
    echo "  ($((SECONDS - start)) s)"
}

# CHECK_IDENTITY_RUNS_ONLY=1: only the small runs that stand in for the two large studies.
if [ "${CHECK_IDENTITY_RUNS_ONLY:-0}" != 1 ]; then
    for s in "${studies[@]}"; do
        pair "$s" study "$s" --no-cache -j 1 "${small[@]}"
    done
fi
if [ $standins = 1 ]; then
    for fs in ddio spfs; do
        pair "lu-$fs" run --set workload.kind=lu --set lu.n=512 --set lu.slab_cols=32 \
            --set fs.kind=$fs --set machine.cp_count=8 --set machine.iop_count=8 \
            --set spfs.cache_buffers_per_cp_disk=2 --set spfs.outstanding=1 \
            --set ddio.buffers_per_disk=2 --set workload.trials=1
    done
    for p in rb rc; do
        for fs in ddio spfs; do
            pair "file-size-10mb-$fs-$p" run --set fs.kind=$fs --set workload.pattern=$p \
                --set workload.file_mb=10 --set workload.record_bytes=8192 \
                --set workload.trials=1
        done
    done
fi
exit $status
