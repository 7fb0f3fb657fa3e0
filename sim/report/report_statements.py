"""What the papers say of a switch, beside what the model gives
(docs/reproduce.md, "The tuning report's statements"): the `ablation` report's
`statements`, each a sentence of a paper (the tuning report, or TOCS for the
network model) about one layout (and optionally one
method), the two values of the switch it compares (`new` over `old`, as the
report's ratio tables give it) and the cells it names with a figure. For each,
the model's ratio of the two values on every cell of that layout: how many cells
are significantly faster and slower, the range with its cells, and each named
cell's ratio with its 95% interval beside the report's figure.

The report's Tables 2-14 are not in the reference material, so only the figures
its text gives can be compared; the rest is the sentence and the model's counts.
"""
from report_data import cell_sort_key, cell_with
from report_format import ReportError, fmt, fmt_ratio, md_table, value_text
from report_stats import ratio_of_means

KEYS = ("source", "layout", "says", "new", "old")


def check_statement(study, s, n):
    """A statement's fields, or a ReportError naming the study, the statement and
    the field."""
    where = f"{study.name}: report statement {n}"
    if not isinstance(s, dict):
        raise ReportError(f"{where} must be an object")
    missing = [k for k in KEYS if k not in s]
    if missing:
        raise ReportError(f"{where} lacks {', '.join(missing)}")
    for c in s.get("cells", []):
        if not isinstance(c, dict) or not {"record", "pattern", "ratio"} <= set(c):
            raise ReportError(f"{where}: each of its cells needs record, pattern and ratio")
        if not isinstance(c["ratio"], (int, float)) or c["ratio"] <= 0:
            raise ReportError(f"{where}: the ratio of {c['pattern']} {c['record']} must be a "
                              f"positive number, not {c['ratio']!r}")


def statement_ratios(groups, switch, s):
    """Per cell of the statement's layout (and method) with both values of the
    switch: (cell, Ratio of new over old throughput)."""
    out = []
    for cells in groups.values():
        first = cells[0]
        if first.layout != s["layout"] or ("method" in s and first.method != s["method"]):
            continue
        new, old = cell_with(cells, switch, s["new"]), cell_with(cells, switch, s["old"])
        if new is None or old is None:
            continue
        a, b = new.metric("mb_s"), old.metric("mb_s")
        if sum(a) > 0 and sum(b) > 0:
            out.append((old, ratio_of_means(a, b)))
    return sorted(out, key=lambda cr: cell_sort_key(cr[0]))


def model_text(ratios):
    """"35 cells: 17 faster, 1 slower, 17 no significant difference; 0.98 (rbc 8)
    to 4.02 (rb 8192)", each cell also named by its method when the statement
    covers several. With one trial a cell has no interval: the cells are then
    counted by their ratio alone, beyond 1% either way, and the text says so."""
    if any(r.significant is not None for _, r in ratios):
        faster = sum(1 for _, r in ratios if r.significant and r.ratio > 1)
        slower = sum(1 for _, r in ratios if r.significant and r.ratio < 1)
        rest = "no significant difference"
    else:
        faster = sum(1 for _, r in ratios if r.ratio > 1.01)
        slower = sum(1 for _, r in ratios if r.ratio < 0.99)
        rest = "within 1% (one trial: no interval)"
    lo = min(ratios, key=lambda cr: cr[1].ratio)
    hi = max(ratios, key=lambda cr: cr[1].ratio)
    several_methods = len({cell.method for cell, _ in ratios}) > 1

    def name(cell):
        return (f"{cell.method} " if several_methods else "") + f"{cell.pattern} {cell.record}"
    return (f"{len(ratios)} cells: {faster} faster, {slower} slower, "
            f"{len(ratios) - faster - slower} {rest}; "
            f"{fmt(lo[1].ratio)} ({name(lo[0])}) to {fmt(hi[1].ratio)} ({name(hi[0])})")


def statements_section(study, groups, switch):
    """The Markdown of the statements table, or "" when the report has none."""
    statements = study.report.get("statements")
    if not statements:
        return ""
    if not isinstance(statements, list):
        raise ReportError(f"{study.name}: report key statements must be a list")
    rows = []
    for n, s in enumerate(statements, start=1):
        check_statement(study, s, n)
        ratios = statement_ratios(groups, switch, s)
        scope = s["layout"] + (f", {s['method']}" if "method" in s else "")
        model = model_text(ratios) if ratios else "no cell has both values"
        named = []
        for c in s.get("cells", []):
            r = next((r for cell, r in ratios
                      if cell.record == int(c["record"]) and cell.pattern == c["pattern"]
                      and ("method" not in c or cell.method == c["method"])), None)
            model_ratio = fmt_ratio(r.as_dict()) if r else "not run"
            named.append(f"{c['pattern']} {c['record']}: report {fmt(float(c['ratio']))}, "
                         f"model {model_ratio}")
        ratio = f"{value_text(s['new'])} / {value_text(s['old'])}"
        rows.append([s["source"], scope, f"“{s['says']}”", ratio, model,
                     "; ".join(named) or "—"])
    return ("What the papers say of this switch, beside the model (ratio = "
            "throughput with the first value over the second, as the tuning report's tables "
            "give it; faster or slower = the 95% interval excludes 1; docs/calibration.md "
            "discusses each, item 7 the tuning report's):\n\n" +
            md_table(["source", "layout", "the paper says", "ratio", "the model",
                      "cells the paper gives a figure for"], rows) + "\n")
