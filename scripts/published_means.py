#!/usr/bin/env python3
"""The published means to more digits than the tables print (docs/reproduce.md,
"Which published value a cell is compared with").

The tuning report's Tables 15 to 21 print each throughput to one decimal, so a cell
printed 0.8 MB/s may be anything from 0.75 to 0.85: 6% either way. The same tables
print ratios between the methods to two decimals, computed from the unrounded
means (DDIO 15.4 over SPFS 0.8 is printed 18.11, not 19.25). Each ratio bounds
its two cells in terms of each other, and every cell appears in two to four
ratios, so the intervals narrow together (interval propagation to a fixed point):

    a / b in [q - h, q + h]  =>  a in [lo(q) lo(b), hi(q) hi(b)],
                                 b in [lo(a) / hi(q), hi(a) / lo(q)]

with h half the ratio's last printed digit, and every cell starting at its printed
value plus or minus half its last digit.

If the report averaged the five trials' ratios instead of dividing the means, a
printed ratio exceeds the ratio of the means by about the square of the
denominator's coefficient of variation (E[1/X] ~ (1 + cv^2) / E[X]). The lower
bound of each ratio is therefore divided by 1 + cv^2, with the cv of the figure
the denominator belongs to (its largest cv, or the cv of a cell the caption names
apart), taken from the `report.figures` of sim/studies/paper-main.json. With
that allowance every interval is non-empty; without it the 8-byte `wc` cells,
whose SPFS cv is 0.25 and 0.32, contradict each other (SPFS `wc` is printed 1.9
on the contiguous layout but both of its ratios put it near 1.78).

The result is written as three columns of sim/calibration/published_final.csv:
`mean_lo`, `mean_hi` (the interval) and `mean` (its middle), four decimals. The
studies compare with `mean`; `mbps` stays the printed value.

    scripts/published_means.py [--check | --write] [--table CSV] [--ratios CSV]
        [--study JSON]

--check (the default) recomputes the columns and fails, naming the cells, if the
table's differ; --write rewrites them. Both print the cells whose mean differs from
the printed value by more than 0.5%.
"""
import argparse
import csv
import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CALIBRATION = os.path.join(ROOT, "sim", "calibration")
TABLE = os.path.join(CALIBRATION, "published_final.csv")
RATIOS = os.path.join(CALIBRATION, "published_ratios.csv")
STUDY = os.path.join(ROOT, "sim", "studies", "paper-main.json")
COLUMNS = ("mean_lo", "mean", "mean_hi")
DIGITS = 4


def half_digit(text):
    """Half the last printed digit of a number: '0.8' -> 0.05, '18.11' -> 0.005."""
    decimals = len(text.partition(".")[2])
    return 0.5 * 10.0 ** -decimals


def cell_key(layout, method, record, pattern):
    """A ratio table's method (ddio_sort is DDIO with its presort) as a table key."""
    return (layout, method, int(record), pattern)


def row_key(row):
    method = row["method"]
    if method == "ddio" and row["presort"] == "true":
        method = "ddio_sort"
    return cell_key(row["layout"], method, row["record"], row["pattern"])


def load_cvs(study_path):
    """cv per (layout, record) and per named cell, from the study's figures."""
    with open(study_path) as f:
        figures = json.load(f)["report"]["figures"]
    largest, named = {}, {}
    for fig in figures:
        largest[(fig["layout"], int(fig["record"]))] = float(fig["max_cv"])
        for exc in fig.get("cv_exceptions", []):
            key = (fig["layout"], exc["method"].lower(), int(fig["record"]), exc["pattern"])
            named[key] = float(exc["cv"])
    return largest, named


def cv_of(key, largest, named):
    if key in named:
        return named[key]
    if (key[0], key[2]) not in largest:
        sys.exit(f"published_means: no figure gives the cv of {key[0]} {key[2]}-byte cells")
    return largest[(key[0], key[2])]


def intervals(rows, ratios, largest, named):
    """Each cell's interval consistent with its printed value and every ratio."""
    iv = {}
    for r in rows:
        value, half = float(r["mbps"]), half_digit(r["mbps"])
        iv[row_key(r)] = [value - half, value + half]
    for r in ratios:
        for side in ("numerator", "denominator"):
            key = cell_key(r["layout"], r[side], r["record"], r["pattern"])
            if key not in iv:
                sys.exit(f"published_means: table {r['table']}'s ratio names {key}, "
                         "which the published table does not have")
    for _ in range(1000):
        moved = 0.0
        for r in ratios:
            a = cell_key(r["layout"], r["numerator"], r["record"], r["pattern"])
            b = cell_key(r["layout"], r["denominator"], r["record"], r["pattern"])
            q, h = float(r["ratio"]), half_digit(r["ratio"])
            q_lo = (q - h) / (1.0 + cv_of(b, largest, named) ** 2)
            q_hi = q + h
            (a_lo, a_hi), (b_lo, b_hi) = iv[a], iv[b]
            new_a = [max(a_lo, q_lo * b_lo), min(a_hi, q_hi * b_hi)]
            new_b = [max(b_lo, a_lo / q_hi), min(b_hi, a_hi / q_lo)]
            for key, new, old in ((a, new_a, (a_lo, a_hi)), (b, new_b, (b_lo, b_hi))):
                if new[0] > new[1]:
                    sys.exit(f"published_means: no mean of {key} fits its printed value and "
                             f"table {r['table']}'s ratio {r['ratio']} of {a} over {b}")
                moved = max(moved, abs(new[0] - old[0]), abs(new[1] - old[1]))
                iv[key] = new
        if moved < 1e-12:
            return iv
    sys.exit("published_means: the intervals did not settle in 1000 rounds")


def computed_rows(rows, iv):
    out = []
    for r in rows:
        lo, hi = iv[row_key(r)]
        r = dict(r)
        r["mean_lo"] = f"{lo:.{DIGITS}f}"
        r["mean"] = f"{(lo + hi) / 2:.{DIGITS}f}"
        r["mean_hi"] = f"{hi:.{DIGITS}f}"
        out.append(r)
    return out


def render(fieldnames, rows):
    names = [n for n in fieldnames if n not in COLUMNS]
    at = names.index("mbps") + 1
    names[at:at] = list(COLUMNS)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=names, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail if the table's columns "
                      "differ from the recomputed ones (default)")
    mode.add_argument("--write", action="store_true", help="rewrite the table's columns")
    ap.add_argument("--table", default=TABLE, help="the published table (CSV)")
    ap.add_argument("--ratios", default=RATIOS, help="the ratio columns of Tables 15-21 (CSV)")
    ap.add_argument("--study", default=STUDY, help="the study whose report.figures give the cvs")
    args = ap.parse_args()

    with open(args.table) as f:
        reader = csv.DictReader(f)
        fieldnames, rows = reader.fieldnames, list(reader)
    with open(args.ratios) as f:
        ratios = list(csv.DictReader(f))
    largest, named = load_cvs(args.study)
    new = computed_rows(rows, intervals(rows, ratios, largest, named))

    for r in new:
        printed, mean = float(r["mbps"]), float(r["mean"])
        if abs(mean / printed - 1) > 0.005:
            print(f"{r['layout']} {r['method']}{' presort' if r['presort'] == 'true' else ''} "
                  f"{r['pattern']} {r['record']}: printed {r['mbps']}, mean {r['mean']} "
                  f"({r['mean_lo']}-{r['mean_hi']}, {100 * (mean / printed - 1):+.1f}%)")
    if args.write:
        with open(args.table, "w") as f:
            f.write(render(fieldnames, new))
        print(f"published_means: wrote {len(new)} cells' {', '.join(COLUMNS)} to {args.table}")
        return
    missing = [c for c in COLUMNS if c not in fieldnames]
    if missing:
        sys.exit(f"published_means: {args.table} lacks the column(s) {', '.join(missing)}; "
                 "run with --write")
    differ = [f"{row_key(old)} {c} {old[c]} (recomputed {r[c]})"
              for old, r in zip(rows, new) for c in COLUMNS if old[c] != r[c]]
    if differ:
        sys.exit(f"published_means: {len(differ)} value(s) of {args.table} differ from the "
                 "ratios' intervals: " + "; ".join(differ[:5]))
    print(f"published_means: {len(new)} cells agree with {len(ratios)} ratios")


if __name__ == "__main__":
    main()
