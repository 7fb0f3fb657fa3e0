"""The paper's method-against-method ratios (the tuning report's Tables 15-21,
sim/calibration/published_ratios.csv) against the model's: the model's ratio with
Fieller's 95% interval over the trials, its error, and whether the model and the
paper agree on significance (docs/reproduce.md, "The paper's ratios"). Used by
make_report.py and scripts/published_ratios.py."""
import statistics

from report_stats import ratio_of_means

# The ratio tables' method names as (fs.kind, fs.presort); None matches either
# presort (on the contiguous layout DDIO's sorted list is the unsorted one).
METHODS = {"spfs": ("spfs", None), "2pio": ("2pio", None), "ddio_sort": ("ddio", True)}


def method_of(name, layout):
    if name == "ddio":
        return ("ddio", None if layout == "contiguous" else False)
    if name not in METHODS:
        raise ValueError(f"unknown method '{name}' in the ratio table")
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


def compare_ratios(cells, ratios):
    """One row per published ratio (CSV rows) whose two cells `cells` has. The
    model calls a difference significant when its interval excludes 1; with one
    trial there is no interval and the row is not judged."""
    rows = []
    for r in ratios:
        layout, record, pattern = r["layout"], int(r["record"]), r["pattern"]
        num = find_cell(cells, layout, record, pattern, method_of(r["numerator"], layout))
        den = find_cell(cells, layout, record, pattern, method_of(r["denominator"], layout))
        if num is None or den is None:
            continue
        model = ratio_of_means(num.metric("mb_s"), den.metric("mb_s"))
        published = float(r["ratio"])
        rows.append({"table": int(r["table"]), "layout": layout, "record": record,
                     "pattern": pattern, "numerator": r["numerator"],
                     "denominator": r["denominator"], "published": published,
                     "published_significant": r["significant"] == "yes",
                     "model": model.ratio, "low": model.low, "high": model.high,
                     "error_pct": 100.0 * (model.ratio / published - 1.0),
                     "judged": model.significant is not None,
                     "model_significant": bool(model.significant)})
    return rows


def agrees(row):
    return row["model_significant"] == row["published_significant"]


def agreement(rows):
    """(ratios agreeing on significance, ratios judged) over `rows`."""
    judged = [r for r in rows if r["judged"]]
    return sum(agrees(r) for r in judged), len(judged)


def table_summaries(rows):
    """Per table: ratios, median and worst |error|, agreement among the judged."""
    out = []
    for table in sorted({r["table"] for r in rows}):
        mine = [r for r in rows if r["table"] == table]
        worst = max(mine, key=lambda r: abs(r["error_pct"]))
        agree, judged = agreement(mine)
        out.append({"table": table, "ratios": len(mine),
                    "median": statistics.median(abs(r["error_pct"]) for r in mine),
                    "worst": worst, "agree": agree, "judged": judged})
    return out


def describe(row):
    sig = {True: "significant", False: "not significant"}
    text = (f"table {row['table']} {row['layout']} {row['pattern']} {row['record']} "
            f"{row['numerator']}/{row['denominator']}: paper {row['published']:.2f} "
            f"({sig[row['published_significant']]}), model {row['model']:.2f}")
    if row["judged"]:
        text += f" [{row['low']:.2f}, {row['high']:.2f}] ({sig[row['model_significant']]})"
    return text + f", {row['error_pct']:+.1f}%"
