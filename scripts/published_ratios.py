#!/usr/bin/env python3
"""The paper's method-against-method ratios, model against published
(docs/reproduce.md, "The paper's ratios").

The tuning report's Tables 15 to 21 compare the methods cell by cell: DDIO over
SPFS (15, 16), DDIO over 2PIO (17-19) and 2PIO over SPFS (20, 21), each ratio
printed in italics where the difference was not significant at the 95% level
(sim/calibration/published_ratios.csv, 280 ratios). This script takes a study's
result JSON with the cells of both methods (`starfish reproduce paper-main`
writes data/paper-main.json; `starfish study paper-main --json F` writes the
same) and gives for every ratio the model's, with Fieller's 95% interval over the
trials (sim/report/report_stats.py), its error against the published ratio, and
whether the model and the paper agree on significance: the model calls a
difference significant when its interval excludes 1. One trial per cell gives
no interval; those ratios are counted apart.

    scripts/published_ratios.py DATA_JSON [--ratios CSV] [--all]

It prints, per table, how many ratios it found cells for, their median and
worst |error|, and how many agree on significance, then the ratios where the two
disagree (--all: every ratio).
"""
import argparse
import csv
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "sim", "report"))
from report_data import Study  # noqa: E402
from report_stats import ratio_of_means  # noqa: E402

RATIOS = os.path.join(ROOT, "sim", "calibration", "published_ratios.csv")
# The ratio tables' method names as (fs.kind, fs.presort); None matches either
# presort (on the contiguous layout DDIO's sorted list is the unsorted one).
METHODS = {"spfs": ("spfs", None), "2pio": ("2pio", None), "ddio_sort": ("ddio", True)}


def method_of(name, layout):
    if name == "ddio":
        return ("ddio", None if layout == "contiguous" else False)
    if name not in METHODS:
        sys.exit(f"published_ratios: unknown method '{name}' in the ratio table")
    return METHODS[name]


def find_cell(cells, layout, record, pattern, method):
    kind, presort = method
    for c in cells:
        if (c.layout, c.record, c.pattern, c.value("fs.kind")) != (layout, record, pattern, kind):
            continue
        if kind == "ddio" and presort is not None and bool(c.value("fs.presort")) != presort:
            continue
        return c
    return None


def compare(cells, ratios):
    """One row per published ratio whose two cells the study has."""
    rows = []
    for r in ratios:
        layout, record, pattern = r["layout"], int(r["record"]), r["pattern"]
        num = find_cell(cells, layout, record, pattern, method_of(r["numerator"], layout))
        den = find_cell(cells, layout, record, pattern, method_of(r["denominator"], layout))
        if num is None or den is None:
            continue
        model = ratio_of_means(num.metric("mb_s"), den.metric("mb_s"))
        published = float(r["ratio"])
        judged = model.significant is not None
        rows.append({"table": int(r["table"]), "layout": layout, "record": record,
                     "pattern": pattern, "numerator": r["numerator"],
                     "denominator": r["denominator"], "published": published,
                     "published_significant": r["significant"] == "yes",
                     "model": model.ratio, "low": model.low, "high": model.high,
                     "error_pct": 100.0 * (model.ratio / published - 1.0),
                     "judged": judged, "model_significant": bool(model.significant)})
    return rows


def describe(row):
    sig = {True: "significant", False: "not significant"}
    text = (f"table {row['table']} {row['layout']} {row['pattern']} {row['record']} "
            f"{row['numerator']}/{row['denominator']}: paper {row['published']:.2f} "
            f"({sig[row['published_significant']]}), model {row['model']:.2f}")
    if row["judged"]:
        text += f" [{row['low']:.2f}, {row['high']:.2f}] ({sig[row['model_significant']]})"
    return text + f", {row['error_pct']:+.1f}%"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="a study's result JSON (starfish reproduce's data/STUDY.json)")
    ap.add_argument("--ratios", default=RATIOS, help="the published ratios (CSV)")
    ap.add_argument("--all", action="store_true", help="list every ratio, not only "
                    "those where the model and the paper disagree on significance")
    args = ap.parse_args()
    try:
        cells = Study(args.data).cells
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"published_ratios: cannot read {args.data} as a study's result: {e}")
    with open(args.ratios) as f:
        ratios = list(csv.DictReader(f))
    rows = compare(cells, ratios)
    if not rows:
        sys.exit(f"published_ratios: {args.data} has no pair of cells that a published "
                 "ratio compares")
    print("| table | ratios | median abs error | worst | agree on significance | "
          "one trial (not judged) |")
    print("|---|---|---|---|---|---|")
    for table in sorted({r["table"] for r in rows}):
        mine = [r for r in rows if r["table"] == table]
        worst = max(mine, key=lambda r: abs(r["error_pct"]))
        judged = [r for r in mine if r["judged"]]
        agree = sum(r["model_significant"] == r["published_significant"] for r in judged)
        print(f"| {table} | {len(mine)} | "
              f"{statistics.median(abs(r['error_pct']) for r in mine):.1f}% | "
              f"{worst['error_pct']:+.1f}% ({worst['pattern']} {worst['record']}) | "
              f"{agree} of {len(judged)} | {len(mine) - len(judged)} |")
    judged = [r for r in rows if r["judged"]]
    agree = sum(r["model_significant"] == r["published_significant"] for r in judged)
    print(f"\n{len(rows)} of {len(ratios)} published ratios compared; "
          f"{agree} of {len(judged)} judged agree on significance")
    shown = rows if args.all else [r for r in judged
                                   if r["model_significant"] != r["published_significant"]]
    if shown:
        print("\n" + ("every ratio:" if args.all else "where the model and the paper disagree "
                      "on significance:"))
        for r in shown:
            print("  " + describe(r))


if __name__ == "__main__":
    main()
