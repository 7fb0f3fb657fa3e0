#!/usr/bin/env python3
"""TOCS Table III (throughput relative to SPFS: minimum, geometric mean, maximum)
recomputed from the published cells, over all of them and over subsets
(docs/calibration.md, "Where the reference material disagrees with itself").

Each method's cell is divided by SPFS's cell of the same layout, record size and
pattern. "DDIO sort" is DDIO on the contiguous layout (where its presort changes
nothing) and DDIO with presort on the random-blocks layout; "DDIO no sort" is the
random-blocks layout only, as TOCS §6 says of its row. The subsets are each layout
and each record size alone; Table III's own figures are printed beside them.

    scripts/published_table3.py [--table CSV] [--summary CSV] [--value mean|mbps]

--value mean (default) uses the published means narrowed by the tables' ratio
columns (scripts/published_means.py), mbps the values as printed.
"""
import argparse
import csv
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "sim", "report"))
from report_data import method_label  # noqa: E402
from report_stats import published_ratio_summary  # noqa: E402

TABLE = os.path.join(ROOT, "sim", "calibration", "published_final.csv")
SUMMARY = os.path.join(ROOT, "sim", "calibration", "published_summary.csv")
METHODS = ("DDIO sort", "DDIO no sort", "2PIO")
SUBSETS = (("all", lambda layout, record: True),
           ("contiguous", lambda layout, record: layout == "contiguous"),
           ("random-blocks", lambda layout, record: layout == "random-blocks"),
           ("8-byte records", lambda layout, record: record == "8"),
           ("8192-byte records", lambda layout, record: record == "8192"))


def method_of(row):
    """The Table III row a published cell belongs to (SPFS: the denominator). DDIO
    on the contiguous layout, where the presort changes nothing, counts as sorted."""
    method = row["method"]
    label = method_label(method, row["layout"] == "contiguous" or row["presort"] == "true")
    if label not in ("SPFS",) + METHODS:
        raise ValueError(f"unknown method {method!r} in the table")
    return label


def ratios(rows, value):
    """{method: [(layout, record, pattern, its value, SPFS's value)]}."""
    cells = {}
    for row in rows:
        key = (method_of(row), row["layout"], row["record"], row["pattern"])
        if key in cells:
            raise ValueError(f"cell {key} appears twice in the table")
        cells[key] = float(row[value])
    out = {}
    for (method, layout, record, pattern), v in sorted(cells.items()):
        spfs = cells.get(("SPFS", layout, record, pattern))
        if method != "SPFS" and spfs:
            out.setdefault(method, []).append((layout, record, pattern, v, spfs))
    return out


def table_iii(path):
    """{method: (min, geometric mean, max)} of sim/calibration/published_summary.csv."""
    with open(path, newline="") as f:
        out = {r["method"]: (float(r["min"]), float(r["geomean"]), float(r["max"]))
               for r in csv.DictReader(f)}
    missing = [m for m in METHODS if m not in out]
    if missing:
        raise ValueError(f"no row for {', '.join(missing)}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--table", default=TABLE, help="the published table (CSV)")
    ap.add_argument("--summary", default=SUMMARY, help="Table III as published (CSV)")
    ap.add_argument("--value", choices=("mean", "mbps"), default="mean",
                    help="narrowed mean (default) or printed value")
    args = ap.parse_args()
    try:
        with open(args.table, newline="") as f:
            rows = list(csv.DictReader(f))
        by_method = ratios(rows, args.value)
    except (OSError, KeyError, ValueError) as e:
        print(f"published_table3: {args.table}: {e}", file=sys.stderr)
        return 2
    try:
        published = table_iii(args.summary)
    except (OSError, KeyError, ValueError) as e:
        print(f"published_table3: {args.summary}: {e}", file=sys.stderr)
        return 2
    print(f"ratio to SPFS from the published cells ({args.value}): "
          "cells, minimum / geometric mean / maximum")
    for method in METHODS:
        cells = by_method.get(method, [])
        lo, gm, hi = published[method]
        print(f"{method}  (Table III: {lo:.2f} / {gm:.2f} / {hi:.2f})")
        for name, keep in SUBSETS:
            s = published_ratio_summary([(pattern, v, spfs) for layout, record, pattern, v, spfs
                                         in cells if keep(layout, record)])
            if s:
                print(f"  {name:<18} {s['cells']:3d}  {s['min']['ratio']:.2f} / "
                      f"{s['geomean']['ratio']:.3f} / {s['max']['ratio']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
