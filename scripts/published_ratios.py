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
disagree (--all: every ratio). The comparison itself is sim/report/report_ratios.py,
which `starfish reproduce paper-main` also runs (its report key `published_ratios`).
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "sim", "report"))
from report_data import Study, read_csv  # noqa: E402
from report_ratios import agreement, agrees, compare_ratios, describe, table_summaries  # noqa: E402

RATIOS = os.path.join(ROOT, "sim", "calibration", "published_ratios.csv")


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
    ratios = read_csv(args.ratios)
    try:
        rows = compare_ratios(cells, ratios)
    except ValueError as e:
        sys.exit(f"published_ratios: {args.ratios}: {e}")
    if not rows:
        sys.exit(f"published_ratios: {args.data} has no pair of cells that a published "
                 "ratio compares")
    print("| table | ratios | median abs error | worst | agree on significance | "
          "one trial (not judged) |")
    print("|---|---|---|---|---|---|")
    for t in table_summaries(rows):
        w = t["worst"]
        print(f"| {t['table']} | {t['ratios']} | {t['median']:.1f}% | "
              f"{w['error_pct']:+.1f}% ({w['pattern']} {w['record']}) | "
              f"{t['agree']} of {t['judged']} | {t['ratios'] - t['judged']} |")
    agree, judged = agreement(rows)
    print(f"\n{len(rows)} of {len(ratios)} published ratios compared; "
          f"{agree} of {judged} judged agree on significance")
    shown = rows if args.all else [r for r in rows if r["judged"] and not agrees(r)]
    if shown:
        print("\n" + ("every ratio:" if args.all else "where the model and the paper disagree "
                      "on significance:"))
        for r in shown:
            print("  " + describe(r))


if __name__ == "__main__":
    main()
