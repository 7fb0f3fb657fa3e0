#!/usr/bin/env python3
"""Wall time of the paper's main grid (docs/studies.md, "Benchmark: bench_study").

Runs every method that exists on both layouts over the 35 pattern/record cells of
the published table (the cases of sim/studies/calibration-spfs-contiguous.json),
5 trials each, one `starfish study --fresh` per method and layout (--fresh: the
result cache must not fake the figure), and prints the wall time of each and the
total. Methods: DDIO with presort (on both layouts), DDIO without presort (only
on random-blocks: on the contiguous layout the sorted block list is the
unsorted one), SPFS and 2PIO.

    bench/bench_study.py                                # the whole grid
    bench/bench_study.py --trials 1 --cells 4 --methods ddio,spfs --layouts contiguous
    cmake --build build --target bench_study            # the whole grid, built binary
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CELLS_FROM = os.path.join(ROOT, "sim", "studies", "calibration-spfs-contiguous.json")

# label -> (settings, layouts it applies to)
METHODS = {
    "ddio": ({"fs.kind": "ddio", "fs.presort": True}, ["contiguous", "random-blocks"]),
    "ddio-nosort": ({"fs.kind": "ddio", "fs.presort": False}, ["random-blocks"]),
    "spfs": ({"fs.kind": "spfs"}, ["contiguous", "random-blocks"]),
    "2pio": ({"fs.kind": "2pio"}, ["contiguous", "random-blocks"]),
}


def grid_cells():
    with open(CELLS_FROM) as f:
        study = json.load(f)
    for axis in study["vary"]:
        if "cases" in axis:
            return axis["cases"]
    sys.exit(f"bench_study: no 'cases' axis in {CELLS_FROM}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--starfish", default=os.path.join(ROOT, "build", "sim", "starfish"))
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--methods", default=",".join(METHODS),
                    help="comma-separated subset of " + ", ".join(METHODS))
    ap.add_argument("--layouts", default="contiguous,random-blocks")
    ap.add_argument("--cells", type=int, default=0,
                    help="only the first N of the 35 cells (0 = all)")
    ap.add_argument("--jobs", type=int, default=0, help="trial processes (0 = one per core)")
    ap.add_argument("--set", action="append", default=[], help="key=value for every study")
    ap.add_argument("--cached", action="store_true",
                    help="use the result cache instead of --fresh (measures a cached re-run)")
    args = ap.parse_args()

    cells = grid_cells()
    if args.cells > 0:
        cells = cells[:args.cells]
    methods = [m for m in args.methods.split(",") if m]
    layouts = [l for l in args.layouts.split(",") if l]
    for m in methods:
        if m not in METHODS:
            sys.exit(f"bench_study: unknown method '{m}' (known: {', '.join(METHODS)})")

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for m in methods:
            settings, applies = METHODS[m]
            for layout in layouts:
                if layout not in applies:
                    continue
                name = f"{m}-{layout}"
                spec = os.path.join(tmp, name + ".json")
                with open(spec, "w") as f:
                    json.dump({"description": f"bench_study: {m} on {layout}",
                               "set": {**settings, "workload.layout": layout},
                               "vary": [{"cases": cells}]}, f)
                result = os.path.join(tmp, name + "-result.json")
                cmd = [args.starfish, "study", spec, "--set", f"workload.trials={args.trials}",
                       "--json", result]
                if args.jobs > 0:
                    cmd += ["--jobs", str(args.jobs)]
                if not args.cached:
                    cmd.append("--fresh")
                for s in args.set:
                    cmd += ["--set", s]
                print(f"== {name}: {len(cells)} cells x {args.trials} trials", flush=True)
                start = time.monotonic()
                run = subprocess.run(cmd)
                wall = time.monotonic() - start
                if run.returncode not in (0, 1):  # 1: some trial unverified, still timed
                    sys.exit(f"bench_study: {name} failed with status {run.returncode}")
                with open(result) as f:
                    host = json.load(f)["host"]
                rows.append((name, len(cells) * args.trials, wall, host.get("cpu_s", 0.0),
                             host.get("cached_trials", 0), run.returncode == 0))

    print()
    print(f"{'method/layout':28} {'trials':>6} {'wall s':>9} {'cpu s':>9} {'cached':>6}  verified")
    for name, trials, wall, cpu, cached, ok in rows:
        print(f"{name:28} {trials:6d} {wall:9.1f} {cpu:9.1f} {cached:6d}  {'yes' if ok else 'NO'}")
    total_wall = sum(r[2] for r in rows)
    print(f"{'total':28} {sum(r[1] for r in rows):6d} {total_wall:9.1f} "
          f"{sum(r[3] for r in rows):9.1f} ({total_wall / 60:.1f} min)")
    return 0 if all(r[5] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
