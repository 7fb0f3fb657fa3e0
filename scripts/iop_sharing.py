#!/usr/bin/env python3
"""How many CPs share an IOP in SPFS's record-at-a-time cells (docs/calibration.md,
issue 32 item 3).

In the 8-byte-chunk patterns (rc, rbc, rcc, wc, wbc, wcc) each CP has one 8-byte
request out at a time, so a cell's throughput is set by how the CPs are spread over
the IOPs: CPs queued at one IOP share its CPU, CPs alone at an IOP each run at their
own round-trip rate. This script runs a cell (one trial, `starfish run` with the
firmware log of every CP), follows each CP's latest request, and reports for every
request how many CPs' latest requests went to the same IOP (itself included):

    1 = the CP is alone at that IOP; 16 = every CP is there (a convoy).

    scripts/iop_sharing.py build/sim/starfish [--patterns rc,rbc,rcc,wc,wbc,wcc]
        [--record 8] [--layout contiguous] [--profile-ms 100] [--set key=value ...]

The published column is the paper's cell (16 CPs, 10 MB), whatever --set changes.
--profile-ms W adds, per pattern, the requests and the mean sharing in each W ms of
simulated time (how a convoy forms or breaks up during the run). The measure is
meant for patterns with one request per CP at a time; with more, a CP counts at the
IOP of its latest request.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

from calibrate import LAYOUTS, published, published_mean

DEFAULT_PATTERNS = "rc,rbc,rcc,wc,wbc,wcc"
REQUEST = re.compile(r"^\[FW ([0-9.]+)\] cp(\d+)\.fw >> REQUEST .* dst=(\d+) ")


def sharing(lines, cps, profile_s=0.0):
    """(histogram {sharing: requests}, [(window start s, requests, mean sharing)]).

    Counted from the moment every CP has sent a request (before that a CP has no IOP)."""
    where = {}
    hist = collections.Counter()
    windows = collections.OrderedDict()
    for line in lines:
        m = REQUEST.match(line)
        if m is None:
            continue
        t, cp, dst = float(m.group(1)), int(m.group(2)), int(m.group(3))
        where[cp] = dst
        if len(where) < cps:
            continue
        k = sum(1 for d in where.values() if d == dst)
        hist[k] += 1
        if profile_s > 0:
            w = windows.setdefault(int(t / profile_s), [0, 0])
            w[0] += 1
            w[1] += k
    profile = [(i * profile_s, n, s / n) for i, (n, s) in windows.items()]
    return hist, profile


def run_cell(starfish, pattern, record, layout, extra_sets, tmp):
    """Runs one trial with the CPs' firmware log; returns (result JSON, log path, CPs)."""
    out = os.path.join(tmp, "cell.json")
    log = os.path.join(tmp, "cell.log")
    cmd = [starfish, "run", "--set", "fs.kind=spfs", "--set", f"workload.pattern={pattern}",
           "--set", f"workload.record_bytes={record}", "--set", f"workload.layout={layout}",
           "--set", "workload.trials=1", "--json", out, "--log", log]
    for s in extra_sets:
        cmd += ["--set", s]
    cps = cp_count(starfish, extra_sets, tmp)  # the log names each CP's firmware: cp0.fw, ...
    cmd += ["--log-components"] + [f"cp{i}.fw" for i in range(cps)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f), log, cps


def cp_count(starfish, extra_sets, tmp):
    """machine.cp_count of the configuration the cell runs with (`starfish config --json`)."""
    path = os.path.join(tmp, "config.json")
    cmd = [starfish, "config", "--json", path]
    for s in extra_sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        return int(json.load(f)["config"]["machine.cp_count"])


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("starfish")
    ap.add_argument("--patterns", default=DEFAULT_PATTERNS)
    ap.add_argument("--record", type=int, default=8)
    ap.add_argument("--layout", choices=LAYOUTS, default="contiguous")
    ap.add_argument("--profile-ms", type=float, default=0.0)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    pub = {r["pattern"]: published_mean(r) for r in published("spfs", args.layout, "")
           if int(r["record"]) == args.record}
    patterns = [p for p in args.patterns.split(",") if p]
    for p in patterns:
        if p not in pub:
            sys.exit(f"iop_sharing: pattern '{p}' is not one of the published SPFS cells "
                     f"with {args.record}-byte records: {', '.join(sorted(pub))}")
    rows, profiles = [], []
    for i, p in enumerate(patterns):
        # Each cell is a whole run with the CPs' firmware log: say which one is on.
        print(f"iop_sharing: [{i + 1}/{len(patterns)}] {p} ...", file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            result, log, cps = run_cell(args.starfish, p, args.record, args.layout, args.set, tmp)
            with open(log) as f:
                hist, profile = sharing(f, cps, args.profile_ms / 1e3)
        n = sum(hist.values())
        if n == 0:
            sys.exit(f"iop_sharing: {p}: no request after every CP had sent one")
        mean = sum(k * v for k, v in hist.items()) / n
        mbps = result["trials"][0]["mb_s"]
        rows.append((p, mbps, pub[p], mean, hist[1] / n, hist[cps] / n,
                     ", ".join(f"{k}: {v / n:.2f}" for k, v in sorted(hist.items())
                               if v / n >= 0.01)))
        profiles.append((p, profile))
    print(f"SPFS, {args.layout}, {args.record}-byte records, one trial "
          f"(CPs sharing the IOP a request goes to, itself included)\n")
    print("| pattern | MB/s | published | mean sharing | alone | all CPs | share of requests "
          "by sharing (>= 1%) |")
    print("|---|---|---|---|---|---|---|")
    for p, mbps, pmb, mean, alone, allcps, dist in rows:
        print(f"| `{p}` | {mbps:.2f} | {pmb:.2f} | {mean:.2f} | {alone:.2f} | {allcps:.2f} "
              f"| {dist} |")
    for p, profile in profiles:
        if not profile:
            continue
        print(f"\n`{p}`: per {args.profile_ms:g} ms of simulated time\n")
        print("| from ms | requests | mean sharing |")
        print("|---|---|---|")
        for start, n, mean in profile:
            print(f"| {start * 1e3:.0f} | {n} | {mean:.2f} |")


if __name__ == "__main__":
    main()
