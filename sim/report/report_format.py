"""Formatting and output helpers shared by the reproduce report's sections
(make_report.py, report_methods.py, report_summary.py, report_statements.py):
numbers, ratios with their intervals, Markdown tables and CSV files."""
import csv
import json
import math
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class ReportError(Exception):
    pass


def fmt(v, digits=2):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if isinstance(v, float) and math.isinf(v):
        return "∞" if v > 0 else "-∞"
    return f"{v:.{digits}f}"


def value_text(v):
    """A configuration value as the user writes it in --set and the study
    files: true/false/null in JSON's spelling, anything else as it is."""
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    return str(v)


def fmt_ratio(r):
    """"1.64 [1.60, 1.68] *": ratio, 95% interval, * when significant."""
    text = f"{fmt(r['ratio'])} [{fmt(r['ci95'][0])}, {fmt(r['ci95'][1])}]"
    return text + (" *" if r["significant"] else "")


def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def write_csv(path, header, rows):
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    os.replace(path + ".tmp", path)


def csv_value(v):
    if isinstance(v, float):
        return "" if math.isnan(v) else repr(v)
    if v is None:
        return ""
    return v
