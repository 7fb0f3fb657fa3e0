#!/usr/bin/env python3
"""Calibrates [estimate] parameters against the published per-pattern tables.

The procedure (docs/calibration.md):
  1. Every combination of the candidate values given with --grid is run on every cell
     of sim/calibration/published_final.csv for one file system (--method, default
     ddio) on one layout (--layout, default contiguous; DDIO on random-blocks with
     or without its presort, --presort), or on both (--layout both, the cells of
     both layouts scored together): the paper's machine and 10 MB file,
     --trials trials per cell.
  2. Each combination is scored by the root-mean-square of log(model / published)
     over the cells (a symmetric relative error); the ranking is printed.
  3. The best combination is what the defaults should be; the validation studies
     rerun the table with the defaults, five trials per cell
     (`starfish study calibration-ddio-contiguous`, `starfish study paper-main`).

With --trials 2 or more, each combination is also compared with the best one trial
by trial: trial t of every cell runs with the same seed under every combination,
so the difference of the two scores computed from trial t alone is a paired
sample. The column "vs best" gives the mean of those differences with its 95%
interval (Student's t), and "~" marks a combination whose interval reaches 0:
the trials cannot tell it from the best, and the choice between them needs
another reason (docs/calibration.md says which, where it happened). "(current)"
marks the combination that equals the values in force without the grid (the
defaults under --set); a line says so when the grid does not contain them.

Example (the search recorded in docs/calibration.md):
  scripts/calibrate.py --grid cost.ddio_piece_cycles=150,200,250 \\
      --grid cost.msg_queue_piece_cycles=20,40 --grid disk.write_behind_kb=0,8,16
  scripts/calibrate.py --method spfs --layout random-blocks --grid spfs.outstanding=2,4
  scripts/calibrate.py --method spfs --layout both --trials 5 \
      --grid cost.spfs_write_mark_cycles=900,1300 --cells wc/8,wcc/8,wbc/8

Only the published per-pattern table is used (docs/reference.md §10): nothing here
reads any other published result.
"""
import argparse
import csv
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "sim", "report"))
from report_stats import Summary  # noqa: E402

TABLE = os.path.join(ROOT, "sim", "calibration", "published_final.csv")
LAYOUTS = ("contiguous", "random-blocks")


def published_mean(row):
    """A cell's published mean: the printed value narrowed by the tables' ratio
    columns (the `mean` column, scripts/published_means.py)."""
    return float(row["mean"])


def published(method, layout, presort):
    """The table's cells of one method on one layout. A row's empty presort
    matches either value (SPFS, 2PIO, and DDIO on the contiguous layout, where the
    sorted list is the unsorted one)."""
    with open(TABLE) as f:
        rows = [r for r in csv.DictReader(f)
                if r["method"] == method and r["layout"] == layout
                and r["presort"] in ("", presort)]
    if not rows:
        sys.exit(f"calibrate: no '{method}' rows on the {layout} layout"
                 f"{' with presort ' + presort if method == 'ddio' else ''} in {TABLE}")
    cells = [(r["pattern"], r["record"]) for r in rows]
    if len(set(cells)) != len(cells):
        sys.exit(f"calibrate: {TABLE} has two '{method}' rows for one {layout} cell")
    return rows


def parse_grid(items):
    grid = []
    for item in items:
        key, _, values = item.partition("=")
        if not key or not values:
            sys.exit(f"calibrate: --grid wants KEY=v1,v2,... (got '{item}')")
        vals = []
        for v in values.split(","):
            try:
                vals.append(int(v))
            except ValueError:
                try:
                    vals.append(float(v))
                except ValueError:
                    vals.append(v)
        grid.append((key, vals))
    return grid


def cell_cases(rows):
    return [{"workload.layout": r["layout"], "workload.pattern": r["pattern"],
             "workload.record_bytes": int(r["record"])} for r in rows]


def row_key(row):
    return (row["layout"], row["pattern"], int(row["record"]))


def cell_key(cell):
    o = cell["overrides"]
    return (o["workload.layout"], o["workload.pattern"], o["workload.record_bytes"])


def cell_name(key, both):
    """A cell's name in the ranking: PATTERN/RECORD, with its layout in front when
    the search covers both layouts."""
    layout, pattern, record = key
    return f"{layout} {pattern}/{record}" if both else f"{pattern}/{record}"


def published_by_cell(rows):
    return {row_key(r): published_mean(r) for r in rows}


def score(cells, rows):
    """RMS of log(model/published), and the per-cell errors in percent."""
    pub = published_by_cell(rows)
    logs, errors = [], {}
    for c in cells:
        key = cell_key(c)
        model = c["summary"]["mean"]
        logs.append(math.log(model / pub[key]))
        errors[key] = 100.0 * (model - pub[key]) / pub[key]
    return math.sqrt(sum(x * x for x in logs) / len(logs)), errors


def current_values(starfish, sets, keys):
    """The values the grid's keys take without the grid: the defaults under the
    user's --set overrides (`starfish config --json -`)."""
    cmd = [starfish, "config", "--json", "-"]
    for item in sets:
        cmd += ["--set", item]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"calibrate: {' '.join(cmd)} failed: {run.stderr.strip()}")
    config = json.loads(run.stdout)["config"]
    return {k: config[k] for k in keys}


def trial_scores(cells, rows):
    """{trial index: RMS of log(model/published) from that trial alone}, for the
    trial indices every cell has."""
    pub = published_by_cell(rows)
    per_cell = []
    for c in cells:
        key = cell_key(c)
        per_cell.append({t["trial"]: math.log(t["mb_s"] / pub[key]) for t in c["trials"]})
    common = set.intersection(*(set(d) for d in per_cell)) if per_cell else set()
    return {t: math.sqrt(sum(d[t] ** 2 for d in per_cell) / len(per_cell))
            for t in sorted(common)}


def paired_difference(scores, best_scores):
    """Mean and 95% interval of score - best score over the trials both have, or None
    with fewer than two."""
    common = sorted(set(scores) & set(best_scores))
    if len(common) < 2:
        return None
    s = Summary([scores[t] - best_scores[t] for t in common])
    return {"mean": s.mean, "ci95": list(s.ci), "trials": s.n}


def run_showing_progress(cmd):
    """Runs `starfish study`, passing its progress lines ("study NAME: ...", one
    "  [done/total] ... ETA" line a trial) to stderr as they come, so that a search
    of many minutes shows how far it is; its per-cell table is not shown (the
    ranking replaces it). Returns the exit status."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, bufsize=1) as proc:
        for line in proc.stdout:
            if line.startswith("study ") or line.lstrip().startswith("["):
                print(line, end="", file=sys.stderr, flush=True)
    return proc.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--starfish", default=os.path.join(ROOT, "build", "sim", "starfish"))
    ap.add_argument("--method", default="ddio", help="file system (table column 'method')")
    ap.add_argument("--layout", default="contiguous", choices=LAYOUTS + ("both",),
                    help="file layout (table column 'layout'; default contiguous; both: "
                    "the cells of both layouts scored together)")
    ap.add_argument("--presort", default="true", choices=("true", "false"),
                    help="DDIO's presort (fs.presort; the table tells the two apart on the "
                    "random-blocks layout only; default true)")
    ap.add_argument("--grid", action="append", default=[],
                    help="KEY=v1,v2,... candidate values of one parameter (repeatable)")
    ap.add_argument("--trials", type=int, default=1, help="trials per cell in the search")
    ap.add_argument("--jobs", type=int, default=0, help="trial processes at once (0: cores)")
    ap.add_argument("--set", action="append", default=[], help="fixed KEY=VALUE for every run")
    ap.add_argument("--cells", help="only these cells, PATTERN/RECORD comma-separated "
                    "(e.g. rc/8,wc/8): a first search on the cells a parameter moves")
    ap.add_argument("--json", help="write the ranking and per-cell errors to this file")
    ap.add_argument("--study-json", help="keep the search's whole study result (every trial "
                    "document, with its statistics) in this file")
    args = ap.parse_args()

    layouts = LAYOUTS if args.layout == "both" else (args.layout,)
    rows = [r for layout in layouts for r in published(args.method, layout, args.presort)]
    if args.cells:
        wanted = {tuple(c.split("/")) for c in args.cells.split(",")}
        rows = [r for r in rows if (r["pattern"], r["record"]) in wanted]
        if len(rows) != len(wanted) * len(layouts):
            sys.exit(f"calibrate: --cells names cells that the table does not have for "
                     f"{args.method} on the {' and '.join(layouts)} layout: {args.cells}")
    grid = parse_grid(args.grid)
    combos = [dict(zip([k for k, _ in grid], vals))
              for vals in itertools.product(*[v for _, v in grid])] or [{}]
    fixed = {"fs.kind": args.method, "workload.trials": args.trials}
    if args.method == "ddio":
        fixed["fs.presort"] = args.presort == "true"
    study = {
        "description": f"calibration search: {len(combos)} parameter combinations x "
                       f"{len(rows)} published {args.method} cells, "
                       f"{'both layouts' if len(layouts) > 1 else args.layout + ' layout'}",
        "set": fixed,
        "vary": ([{"cases": combos}] if grid else []) + [{"cases": cell_cases(rows)}],
    }
    with tempfile.TemporaryDirectory() as tmp:
        study_path = os.path.join(tmp, "search.json")
        result_path = os.path.join(tmp, "result.json")
        with open(study_path, "w") as f:
            json.dump(study, f)
        cmd = [args.starfish, "study", study_path, "--json", result_path,
               "--jobs", str(args.jobs)]
        for s in args.set:
            cmd += ["--set", s]
        print("calibrate:", " ".join(cmd), file=sys.stderr, flush=True)
        returncode = run_showing_progress(cmd)
        if returncode != 0:
            sys.exit(f"calibrate: starfish study failed with status {returncode}")
        with open(result_path) as f:
            result = json.load(f)
        if args.study_json:
            with open(args.study_json, "w") as f:
                json.dump(result, f)

    scored = []  # (ranking entry, per-trial scores)
    for combo in combos:
        cells = [c for c in result["cells"]
                 if all(c["overrides"].get(k) == v for k, v in combo.items())]
        rms, errors = score(cells, rows)
        scored.append(({"params": combo, "rms_log_error": rms,
                        "worst_pct": max(errors.values(), key=abs),
                        "errors_pct": {cell_name(k, len(layouts) > 1): e
                                       for k, e in sorted(errors.items())}},
                       trial_scores(cells, rows)))
    scored.sort(key=lambda entry: entry[0]["rms_log_error"])
    current = current_values(args.starfish, args.set, [k for k, _ in grid])
    best_scores = scored[0][1]
    ranking = []
    for i, (r, scores) in enumerate(scored):
        r["is_current"] = r["params"] == current
        r["vs_best"] = paired_difference(scores, best_scores) if i > 0 else None
        r["within_noise_of_best"] = r["vs_best"] is not None and r["vs_best"]["ci95"][0] <= 0
        ranking.append(r)
    print(f"{'rms %':>7} {'worst %':>8} {'vs best (95%)':>17}  parameters")
    for r in ranking:
        params = " ".join(f"{k}={v}" for k, v in r["params"].items()) or "(defaults)"
        d = r["vs_best"]
        versus = (f"{100 * d['mean']:+6.2f} ±{100 * (d['ci95'][1] - d['mean']):5.2f}"
                  if d else "")
        mark = "~" if r["within_noise_of_best"] else " "
        now = "  (current)" if r["is_current"] and grid else ""
        print(f"{100 * r['rms_log_error']:7.2f} {r['worst_pct']:8.1f} {versus:>15} {mark}  "
              f"{params}{now}")
    if grid and not any(r["is_current"] for r in ranking):
        print("current: " + " ".join(f"{k}={v}" for k, v in current.items()) +
              " (not in the grid)")
    best = ranking[0]
    print("\nbest:", " ".join(f"{k}={v}" for k, v in best["params"].items()) or "(defaults)")
    width = max(len(cell) for cell in best["errors_pct"])
    for cell, e in best["errors_pct"].items():
        print(f"  {cell:>{max(width, 10)}}: {e:+6.1f}%")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"method": args.method, "layout": args.layout,
                       "presort": args.presort == "true" if args.method == "ddio" else None,
                       "trials": args.trials, "ranking": ranking}, f, indent=1)


if __name__ == "__main__":
    main()
