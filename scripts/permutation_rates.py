#!/usr/bin/env python3
"""Two-phase I/O's permutation, the paper's against the model's (docs/calibration.md,
issue 32 item 4).

A 2PIO cell is its I/O phase (SPFS reading `rb` or writing `wb`, the conforming
distribution, the same transfer in every cell) plus the permutation, so the paper's
permutation time is the 2PIO cell's time minus the SPFS `rb` (reads) or `wb`
(writes) cell's, both from sim/calibration/published_final.csv (time = volume /
throughput; `ra` delivers the file to all 16 CPs, 16 x 10 MB). The model's is the
`permute_phase_s` statistic (the slowest CP), from `starfish run` of each cell.

The remote bytes (what crosses the network) are the permuted bytes times the share
of remote pieces. In the 8192-byte patterns that is the share of bytes: the pieces
of a cell have one size, except in `rcn`, where the 640 KB chunks cut 256 KB rows in
half, and there its three local pieces hold 640 KB, one sixteenth, as their count
says (worked out by hand). Rates are MB/s with MB = 2^20 bytes, as in the paper.

The per-aggregator rate divides the remote bytes among the CPs that move their
conforming chunk to (reads) or from (writes) other CPs: all 16, except in `rn` and
`wn`, where CP 0 owns the whole file and its own chunk stays local. TOCS §6 says of
Figure 9 that the permutation of `rn` and `rc` sped up with more CPs, "as more CPs
provided more CPUs, memories, and network interfaces": a rate per CP, not per
receiver or per machine.

With --queued-pairs it compares instead, for the 2-D patterns whose 8-byte version
batches pieces of 512 B to 8 KB (queued Memput/Memget, the default for 8-byte
records), each 8-byte permutation with the plain 8 KB permutation of the same
pattern. The two move the same bytes between the same CPs, so the difference is
what batching costs (the copies on both sides) or saves (docs/calibration.md item 4,
"A dearer CPU copy").

With --ratio-bounds it runs nothing and bounds the paper's permutation instead by
the tables' 2PIO-over-SPFS ratio of the same pattern (Table 20 contiguous, 21
random-blocks; sim/calibration/published_ratios.csv): where SPFS's cell of that
pattern takes what its `rb` (`wb`) takes, within 1%, it is the I/O phase, and the
permutation is SPFS's time x (1/q - 1), q within half its last printed digit and
SPFS's time within its narrowed interval. On the random-blocks layout, where a
permutation is 2% of a cell and below the throughputs' printed digit, this is
what shows its size (docs/calibration.md item 4, "The random-blocks layout says
the same").

    scripts/permutation_rates.py build/sim/starfish [--layout contiguous]
        [--patterns rc,rbb,...] [--trials 1] [--set key=value ...] [--queued-pairs]
        [--ratio-bounds]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

from calibrate import LAYOUTS, ROOT, published, published_mean
from published_means import half_digit

MIB = 1 << 20
FILE_MB = 10
CPS = 16
READS = ["rc", "rcc", "rcb", "rcn", "rbb", "rbc", "rnb", "rn", "ra"]
WRITES = ["wc", "wcc", "wcb", "wcn", "wbb", "wbc", "wnb", "wn"]
# 8-byte 2-D patterns whose queued pieces are 512 B to 8 KB (not the 8-byte cyclic ones).
QUEUED_PAIRS = ["rbb", "rcb", "rcn", "rnb", "wbb", "wcb", "wcn", "wnb"]


def load_published():
    """SPFS and 2PIO cells of both layouts, by (layout, method, record, pattern)."""
    return {(r["layout"], r["method"], int(r["record"]), r["pattern"]): published_mean(r)
            for layout in LAYOUTS for method in ("spfs", "2pio")
            for r in published(method, layout, "")}


def aggregators(pattern):
    """CPs whose conforming chunk crosses the network: all but CP 0 in rn and wn."""
    return CPS - 1 if pattern in ("rn", "wn") else CPS


def delivered_mb(pattern):
    """MB a run delivers: `ra` gives the whole file to every CP."""
    return CPS * FILE_MB if pattern == "ra" else FILE_MB


def paper_permutation_s(pub, layout, pattern, record=8192):
    """The published 2PIO cell's time minus its I/O phase (SPFS rb or wb), seconds."""
    io_pattern = "wb" if pattern.startswith("w") else "rb"
    two_phase = delivered_mb(pattern) / pub[(layout, "2pio", record, pattern)]
    io_phase = FILE_MB / pub[(layout, "spfs", record, io_pattern)]
    return two_phase - io_phase


RATIOS = os.path.join(ROOT, "sim", "calibration", "published_ratios.csv")


def spfs_seconds(row, pattern):
    """SPFS's published time for a cell (low, high), from its narrowed interval."""
    mb = delivered_mb(pattern)
    return mb / float(row["mean_hi"]), mb / float(row["mean_lo"])


def ratio_bounds(layout, patterns, record=8192):
    """Per pattern: (q as printed, significant, low ms, high ms), or None where
    SPFS's cell of the pattern is not its I/O phase (more than 1% from rb or wb)."""
    spfs = {r["pattern"]: r for r in published("spfs", layout, "") if int(r["record"]) == record}
    with open(RATIOS) as f:
        q = {r["pattern"]: r for r in csv.DictReader(f)
             if r["layout"] == layout and int(r["record"]) == record
             and (r["numerator"], r["denominator"]) == ("2pio", "spfs")}
    out = {}
    for pattern in patterns:
        io = "wb" if pattern.startswith("w") else "rb"
        if pattern not in q or pattern not in spfs:
            out[pattern] = None
            continue
        own, phase = spfs_seconds(spfs[pattern], pattern), spfs_seconds(spfs[io], io)
        if abs(sum(own) / sum(phase) - 1) > 0.01:
            out[pattern] = None
            continue
        text = q[pattern]["ratio"]
        half = half_digit(text)
        low = own[0] * (1 / (float(text) + half) - 1)
        high = own[1] * (1 / (float(text) - half) - 1)
        out[pattern] = (text, q[pattern]["significant"] == "yes", low * 1e3, high * 1e3)
    return out


def print_ratio_bounds(args, patterns):
    print(f"| cell | 2PIO / SPFS (Table {20 if args.layout == 'contiguous' else 21}) "
          "| significant | paper ms, bounds |")
    print("|---|---|---|---|")
    left = []
    for pattern, b in ratio_bounds(args.layout, patterns).items():
        if b is None:
            left.append(pattern)
            continue
        print(f"| `{pattern}` | {b[0]} | {'yes' if b[1] else 'no'} | {b[2]:.0f}–{b[3]:.0f} |")
    if left:
        print(f"\nnot bounded (SPFS's cell of the pattern is not its rb or wb): "
              f"{', '.join(left)}")


def model_permutation(starfish, layout, pattern, trials, extra_sets, record=8192):
    """(permute_phase_s mean over trials, remote bytes) of the model's cell."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cell.json")
        cmd = [starfish, "run", "--set", "fs.kind=2pio", "--set", f"workload.pattern={pattern}",
               "--set", f"workload.record_bytes={record}", "--set", f"workload.layout={layout}",
               "--set", f"workload.trials={trials}", "--json", out]
        for s in extra_sets:
            cmd += ["--set", s]
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"{pattern}: starfish run failed ({done.returncode}):\n{done.stderr}")
        with open(out) as f:
            doc = json.load(f)
    perms, remotes = [], []
    for t in doc["trials"]:
        fs = t["fs"]
        pieces = fs["remote_pieces"] + fs["local_pieces"]
        perms.append(fs["permute_phase_s"]["max"])
        remotes.append(fs["bytes_permuted"] * fs["remote_pieces"] / pieces if pieces else 0)
    return sum(perms) / len(perms), sum(remotes) / len(remotes)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("starfish", help="path of the starfish binary")
    ap.add_argument("--layout", default="contiguous", choices=LAYOUTS)
    ap.add_argument("--patterns", default=",".join(READS + WRITES),
                    help="comma-separated 8192-byte 2PIO patterns (default: all but rb, wb)")
    ap.add_argument("--trials", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="passed to every model run")
    ap.add_argument("--queued-pairs", action="store_true",
                    help="compare the 8-byte (queued) permutation of " + ",".join(QUEUED_PAIRS)
                    + " with the 8192-byte (plain) one of the same pattern")
    ap.add_argument("--ratio-bounds", action="store_true",
                    help="bound the paper's permutations by the tables' 2PIO/SPFS ratios "
                    "(runs nothing)")
    args = ap.parse_args()
    pub = load_published()
    if args.queued_pairs:
        print_queued_pairs(args, pub)
        return
    if args.ratio_bounds:
        patterns = args.patterns.split(",")
        for pattern in patterns:
            if pattern not in READS + WRITES:
                sys.exit(f"--patterns: {pattern!r} is not one of {', '.join(READS + WRITES)}")
        print_ratio_bounds(args, patterns)
        return
    print("| cell | paper ms | remote MB | paper MB/s | per aggregator | model ms | model MB/s "
          "| per aggregator |")
    print("|---|---|---|---|---|---|---|---|")
    for pattern in args.patterns.split(","):
        if pattern not in READS + WRITES:
            sys.exit(f"--patterns: {pattern!r} is not one of {', '.join(READS + WRITES)}")
        paper_s = paper_permutation_s(pub, args.layout, pattern)
        model_s, remote = model_permutation(args.starfish, args.layout, pattern, args.trials, args.set)
        mb = remote / MIB
        per = mb / aggregators(pattern)
        print(f"| `{pattern}` | {paper_s * 1e3:.1f} | {mb:.2f} | {mb / paper_s:.0f} | "
              f"{per / paper_s:.1f} | {model_s * 1e3:.1f} | {mb / model_s:.0f} | "
              f"{per / model_s:.1f} |")


def print_queued_pairs(args, pub):
    """Each 8-byte (queued) permutation against the 8192-byte (plain) one, ms."""
    print("| cell | paper 8 B | paper 8 KB | paper difference | model 8 B | model 8 KB "
          "| model difference |")
    print("|---|---|---|---|---|---|---|")
    for pattern in QUEUED_PAIRS:
        paper = [paper_permutation_s(pub, args.layout, pattern, record) * 1e3
                 for record in (8, 8192)]
        model = [model_permutation(args.starfish, args.layout, pattern, args.trials, args.set,
                                   record)[0] * 1e3 for record in (8, 8192)]
        print(f"| `{pattern}` | {paper[0]:.1f} | {paper[1]:.1f} | {paper[0] - paper[1]:+.1f} | "
              f"{model[0]:.1f} | {model[1]:.1f} | {model[0] - model[1]:+.1f} |")


if __name__ == "__main__":
    main()
