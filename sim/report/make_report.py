#!/usr/bin/env python3
"""Writes the report of a `starfish reproduce` run (docs/reproduce.md): Table III
(paper-summary), the figures, the ratio tables of the tuning ablations, and
index.md linking everything, from the manifest and study documents the command
left in the report directory. Prints where the model stands against the
published tables (median and worst error per method) and Table III.

    make_report.py REPORT_DIR [--no-figures]

Called by `starfish reproduce`; can be rerun by hand on a finished report.
"""
import argparse
import csv
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_data import (LAYOUT_ORDER, METHOD_ORDER, Study, cell_sort_key, load_json,  # noqa: E402
                         ordered, read_csv)
from report_disagreements import LIMIT_PCT, load_rules, outside  # noqa: E402
from report_ratios import agreement, agrees, compare_ratios, table_summaries  # noqa: E402
from report_stats import (NAN, cv_against_figure, geometric_mean_ratio,  # noqa: E402
                          published_interval, published_ratio_summary, published_uncertainty,
                          ratio_of_means, ratio_summary)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class ReportError(Exception):
    pass


# ---------------------------------------------------------------- formatting

def fmt(v, digits=2):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if isinstance(v, float) and math.isinf(v):
        return "∞" if v > 0 else "-∞"
    return f"{v:.{digits}f}"


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


# ---------------------------------------------------------------- context

class Report:
    def __init__(self, out_dir, figures):
        self.out = out_dir
        self.figures = figures
        self.manifest = load_json(os.path.join(out_dir, "reproduce.json"))
        self.studies = {}
        for entry in self.manifest["studies"]:
            if "data" in entry:
                self.studies[entry["name"]] = Study(os.path.join(out_dir, entry["data"]))
        os.makedirs(os.path.join(out_dir, "figures"), exist_ok=True)
        self.printed = []  # lines for the terminal summary

    def figure(self, name):
        return os.path.join("figures", name + ".png")

    def image(self, alt, name, end="\n\n"):
        """The Markdown link to figure `name`, or nothing when no figures are made
        (no matplotlib: index.md says so instead of linking missing files)."""
        return f"![{alt}]({self.figure(name)}){end}" if self.figures else ""

    def path(self, rel):
        return os.path.join(self.out, rel)


def host_description():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = f", {kb / 2 ** 20:.1f} GiB memory"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{mem}; {platform.platform()}; Python {platform.python_version()}"


def git_commit():
    try:
        head = subprocess.run(["git", "-C", REPO, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return head + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"


def duration(s):
    s = int(round(s))
    if s >= 3600:
        return f"{s // 3600}h{s // 60 % 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


# ---------------------------------------------------------------- study sections

def configuration_text(study):
    """The study's definition as the report states it."""
    d = study.definition
    lines = []
    if d.get("set"):
        lines.append("set on every cell: " +
                     ", ".join(f"`{k}` = {json.dumps(v)}" for k, v in d["set"].items()))
    for axis in d.get("vary", []):
        for key, values in axis.items():
            if key == "cases":
                shown = "; ".join(", ".join(f"{k}={json.dumps(v)}" for k, v in c.items())
                                  for c in values)
                if len(shown) > 300:
                    shown = f"{len(values)} cases (see the study file)"
                lines.append(f"cases: {shown}")
            else:
                lines.append(f"`{key}` ∈ {{{', '.join(json.dumps(v) for v in values)}}}")
    for rule in d.get("skip", []):
        lines.append("skipped: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in rule.items()))
    trials = sorted({len(c.trials) for c in study.cells})
    lines.append(f"{len(study.cells)} cells, {'/'.join(map(str, trials))} trials per cell")
    return "\n".join(f"* {line}" for line in lines) + "\n"


def error_stats(cells):
    errors = [(c.summary["error_pct"], c) for c in cells if "error_pct" in c.summary]
    if not errors:
        return None
    abs_errors = [abs(e) for e, _ in errors]
    worst = max(errors, key=lambda ec: abs(ec[0]))
    return {"cells": len(errors), "median": statistics.median(abs_errors), "worst": worst[0],
            "worst_cell": worst[1].label(),
            "within5": sum(e <= 5 for e in abs_errors), "within10": sum(e <= 10 for e in abs_errors)}


def methods_section(rep, entry, study):
    out = []
    for spec in study.report.get("figures", []):
        cells = [c for c in study.cells
                 if c.layout == spec["layout"] and c.record == int(spec["record"])]
        if not cells:
            continue
        name = f"{study.name}-{spec['layout']}-{spec['record']}"
        if rep.figures:
            from report_figures import methods_bars
            methods_bars(cells, spec.get("title", name), rep.path(rep.figure(name)))
        out.append(rep.image(spec.get("title", name), name))
    published = sorted((c for c in study.cells if "published" in c.summary),
                       key=lambda c: (METHOD_ORDER.index(c.method) if c.method in METHOD_ORDER
                                      else 9, LAYOUT_ORDER.index(c.layout)
                                      if c.layout in LAYOUT_ORDER else 9, cell_sort_key(c)))
    points = []
    if published:
        name = f"{study.name}-published"
        points = [{"method": c.method, "layout": c.layout, "record": c.record,
                   "pattern": c.pattern, "published": c.summary["published"],
                   "model": c.summary["mean"], "error_pct": c.summary.get("error_pct")}
                  for c in published]
        fields = ["method", "layout", "record", "pattern", "published", "model", "error_pct"]
        write_csv(rep.path(f"tables/{name}.csv"), fields,
                  [[csv_value(p[k]) for k in fields] for p in points])
        if rep.figures:
            from report_figures import published_scatter
            published_scatter(points, f"{study.name}: model against published (MB/s, ra undivided)",
                              rep.path(rep.figure(name)))
        out.append(rep.image("model against published", name) +
                   f"The {len(points)} points: [tables/{name}.csv](tables/{name}.csv).\n\n")
    if entry.get("methods_markdown"):
        with open(rep.path(entry["methods_markdown"])) as f:
            methods_table = f.read()
        out.append("The methods side by side (MB/s; error = model / published − 1; ratios to "
                   f"SPFS in the model and the paper; [CSV]({entry['methods_csv']})):\n\n"
                   f"{methods_table}\n")
    rows = []
    groups = {}
    for c in study.cells:
        groups.setdefault((c.method, c.layout), []).append(c)
    for (method, layout) in sorted(groups, key=lambda k: (METHOD_ORDER.index(k[0])
                                                          if k[0] in METHOD_ORDER else 9,
                                                          LAYOUT_ORDER.index(k[1])
                                                          if k[1] in LAYOUT_ORDER else 9)):
        st = error_stats(groups[(method, layout)])
        if st is None:
            continue
        rows.append([method, layout, st["cells"], fmt(st["median"], 1), fmt(st["worst"], 1),
                     st["worst_cell"], st["within5"], st["within10"]])
        rep.printed.append(f"  {method:13s} {layout:13s} {st['cells']:3d} cells: median |error| "
                           f"{st['median']:5.1f}%, worst {st['worst']:+6.1f}% ({st['worst_cell']})")
    if rows:
        out.append("Against the published values (error = model / published − 1):\n\n")
        out.append(md_table(["method", "layout", "cells", "median abs error %", "worst error %",
                             "worst cell", "within 5%", "within 10%"], rows))
    out.append(outside_section(rep, study, points))
    out.append(variation_section(rep, study))
    out.append(ratios_section(rep, study))
    return "".join(out)


def report_csv_path(study, key):
    """The CSV a report key names (absolute, or relative to sim/studies like a study
    file's `compare`), or None when the report has no such key."""
    rel = study.report.get(key)
    if rel is None:
        return None
    if not isinstance(rel, str) or not rel:
        raise ReportError(f"{study.name}: report key {key} must be a CSV path, not {rel!r}")
    return rel if os.path.isabs(rel) else os.path.join(REPO, "sim", "studies", rel)


def outside_section(rep, study, points):
    """Every cell more than 10% off its published value, beside the docs/calibration.md
    item that explains it, when the report names the known disagreements
    (`known_disagreements`: a CSV path, relative to sim/studies)."""
    path = report_csv_path(study, "known_disagreements")
    if path is None or not points:
        return ""
    try:
        rows, unused = outside(points, load_rules(path))
    except (OSError, KeyError, ValueError) as e:
        raise ReportError(f"{study.name}: known disagreements {path}: {e}")
    name = f"{study.name}-outside"
    shown = os.path.relpath(path, REPO) if path.startswith(REPO + os.sep) else path
    fields = ["method", "layout", "record", "pattern", "published", "model", "error_pct",
              "known", "item", "explanation"]
    write_csv(rep.path(f"tables/{name}.csv"), fields,
              [[csv_value(r[k]) for k in fields[:7]] +
               ([True, r["rule"]["item"], r["rule"]["explanation"]] if r["rule"]
                else [False, "", ""]) for r in rows])
    new = [r for r in rows if r["rule"] is None]
    judged = sum(1 for p in points if p.get("error_pct") is not None)
    items = sorted({r["rule"]["item"].split(".")[0] for r in rows if r["rule"]})
    rep.printed.append(f"  {len(rows)} of {judged} cells more than {LIMIT_PCT:g}% off their "
                       f"published value: {len(rows) - len(new)} explained in docs/calibration.md"
                       f" (item{'s' if len(items) != 1 else ''} {', '.join(items) or '-'}), "
                       f"{len(new)} not (tables/{name}.csv)")
    # A quick run's smaller files put most cells far off: list none of them.
    listed = 0 if rep.manifest.get("quick") else 10
    if len(new) and not listed:
        rep.printed.append("    (a quick run: its cells are not comparable with the published ones)")
    for r in new[:listed]:
        rep.printed.append(f"    not a known disagreement: {r['method']} {r['layout']} "
                           f"{r['pattern']} {r['record']} {float(r['error_pct']):+.1f}%")
    if len(new) > listed > 0:
        rep.printed.append(f"    ... and {len(new) - listed} more")
    text = [f"\nCells more than {LIMIT_PCT:g}% off their published value: {len(rows)} of "
            f"{judged}, worst first; the last columns give the docs/calibration.md item "
            f"that explains each (the known disagreements, `{shown}`), and say so where none "
            f"does ([CSV](tables/{name}.csv)):\n\n"]
    md_rows = [[r["method"], r["layout"], r["record"], r["pattern"], fmt(float(r["published"])),
                fmt(float(r["model"])), f"{float(r['error_pct']):+.1f}",
                r["rule"]["item"] if r["rule"] else "**not a known disagreement**",
                r["rule"]["explanation"] if r["rule"] else ""] for r in rows]
    if md_rows:
        text.append(md_table(["method", "layout", "record", "pattern", "published MB/s",
                              "model MB/s", "error %", "item", "why"], md_rows))
    if unused:
        text.append("\nKnown disagreements with no cell outside the band in this run (the "
                    "table's lines " + ", ".join(str(u["line"]) for u in unused) +
                    "): they may no longer apply.\n")
    return "".join(text)


def ratios_section(rep, study):
    """The paper's method-against-method ratios against the model's, when the
    report names the published ratios (`published_ratios`: a CSV path, relative to
    the shipped studies' directory sim/studies like a study file's `compare`)."""
    path = report_csv_path(study, "published_ratios")
    if path is None:
        return ""
    try:
        ratios = read_csv(path)
        rows = compare_ratios(study.cells, ratios)
    except (OSError, KeyError, ValueError) as e:
        raise ReportError(f"{study.name}: published ratios {path}: {e}")
    if not rows:
        return ""
    name = f"{study.name}-ratios"
    fields = ["table", "layout", "record", "pattern", "numerator", "denominator", "published",
              "published_significant", "model", "low", "high", "error_pct", "judged",
              "model_significant"]
    write_csv(rep.path(f"tables/{name}.csv"), fields,
              [[csv_value(r[k]) for k in fields] for r in rows])
    agree, judged = agreement(rows)
    rep.printed.append(f"  {agree} of {judged} published ratios between methods agree with "
                       f"the model's on significance (tables/{name}.csv)")
    summary = [[t["table"], t["ratios"], fmt(t["median"], 1),
                f"{t['worst']['error_pct']:+.1f} ({t['worst']['pattern']} "
                f"{t['worst']['record']})", f"{t['agree']} of {t['judged']}"]
               for t in table_summaries(rows)]
    sig = {True: "yes", False: "no"}
    apart = [[r["table"], f"{r['layout']} {r['pattern']} {r['record']}",
              f"{r['numerator']} / {r['denominator']}", fmt(r["published"]),
              sig[r["published_significant"]],
              f"{fmt(r['model'])} [{fmt(r['low'])}, {fmt(r['high'])}]",
              sig[r["model_significant"]], f"{r['error_pct']:+.1f}"]
             for r in rows if r["judged"] and not agrees(r)]
    out = ("\nThe paper's ratios between the methods, cell by cell (the tuning report's "
           f"Tables 15-21, {len(ratios)} ratios; the model's with Fieller's 95% interval, "
           "significant when it excludes 1; per ratio: "
           f"[tables/{name}.csv](tables/{name}.csv)):\n\n" +
           md_table(["table", "ratios", "median abs error %", "worst error %",
                     "agree on significance"], summary))
    if apart:
        out += ("\nWhere the model and the paper disagree on significance:\n\n" +
                md_table(["table", "cell", "ratio", "paper", "paper significant", "model",
                          "model significant", "error %"], apart))
    return out


def report_number(study, spec, key, default=None, whole_from=None):
    """A number >= 0 of a study's report section, or with `whole_from` a whole
    number at least that; ReportError naming the study and the key otherwise."""
    value = spec.get(key, default)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
    if whole_from is None:
        if not ok:
            raise ReportError(f"{study.name}: report key {key} must be a number >= 0, "
                              f"not {value!r}")
        return float(value)
    if not (ok and value == int(value) and value >= whole_from):
        raise ReportError(f"{study.name}: report key {key} must be a whole number of at "
                          f"least {whole_from}, not {value!r}")
    return int(value)


def variation_section(rep, study):
    """Each figure's trial-to-trial variation against its caption's maximum cv
    (the figure specs' `max_cv` and `cv_exceptions`), and each model mean against
    the widest 95% interval its published mean can have (the report's
    `published_trials` trials at that cv, widened by the published value's own
    uncertainty: half its interval where the comparison gives one, the cell's
    `published_low` and `published_high`, else `published_rounding`, half the last
    digit the tables print)."""
    trials = report_number(study, study.report, "published_trials", 5, whole_from=2)
    rounding = report_number(study, study.report, "published_rounding", 0.0)
    rows, csv_rows = [], []
    for spec in study.report.get("figures", []):
        if "max_cv" not in spec:
            continue
        cells = [c for c in study.cells
                 if c.layout == spec["layout"] and c.record == int(spec["record"])]
        if not cells:
            continue
        max_cv = report_number(study, spec, "max_cv")
        exceptions = []
        for e in spec.get("cv_exceptions", []):
            if not isinstance(e, dict) or not {"method", "pattern", "cv"} <= e.keys():
                raise ReportError(f"{study.name}: each report.figures[].cv_exceptions entry "
                                  f"needs method, pattern and cv, not {e!r}")
            exceptions.append((e["method"], e["pattern"], report_number(study, e, "cv")))
        apart = {(m, p): pub for m, p, pub in exceptions}
        # One trial has no cv (the study document's 0 is no measure of variation).
        cvs = [(c.method, c.pattern,
                float(c.summary["cv"]) if c.summary.get("trials", 0) > 1 else NAN) for c in cells]
        v = cv_against_figure(cvs, max_cv, exceptions)
        outside, compared, named_ci, widening = [], 0, {}, 0.0
        for c, (m, p, cv) in zip(cells, cvs):
            limit = apart.get((m, p), max_cv)
            above = None if math.isnan(cv) else cv > limit
            low = high = inside = None
            if "published" in c.summary:
                own = published_uncertainty(c.summary, rounding)
                widening = max(widening, own)
                low, high = published_interval(float(c.summary["published"]), limit, trials, own)
                inside = low <= c.summary["mean"] <= high
                compared += 1
                if not inside:
                    outside.append(f"{m} {p} {c.summary.get('error_pct', NAN):+.1f}%")
                if (m, p) in apart:
                    named_ci[(m, p)] = (low, high, c.summary["mean"])
            csv_rows.append([spec.get("title", ""), spec["layout"], spec["record"], m, p,
                             csv_value(cv), limit, csv_value(above), csv_value(low),
                             csv_value(high), csv_value(c.summary.get("mean")), csv_value(inside)])
        largest = (f"{fmt(v['largest'][2], 3)} ({v['largest'][0]} {v['largest'][1]})"
                   if v["largest"] else "—")
        above = ", ".join(f"{m} {p} {fmt(cv, 3)}" for m, p, cv in v["above"]) or "none"
        named = []
        for m, p, pub, cv in v["exceptions"]:
            text = f"{m} {p}: cv {fmt(pub, 2)} / " + (
                "—" if cv is None or math.isnan(cv) else fmt(cv, 3))
            if (m, p) in named_ci:
                low, high, mean = named_ci[(m, p)]
                text += f", published [{fmt(low)}, {fmt(high)}], model {fmt(mean)}"
            named.append(text)
        half = published_interval(1.0, max_cv, trials)[1] - 1.0
        widest = f"±{fmt(100 * half, 1)}%" + (f" ± {widening:.4g} MB/s" if widening else "")
        rows.append([spec.get("title", f"{spec['layout']} {spec['record']}"),
                     fmt(max_cv, 3), largest, above, widest,
                     f"{len(outside)} of {compared}" + (f": {', '.join(outside)}" if outside
                                                        else ""),
                     "; ".join(named) or "—"])
    if not rows:
        return ""
    name = f"{study.name}-cv"
    # The last column is the verdict: True, False, or "" for a cell without one.
    n_outside = sum(1 for r in csv_rows if r[-1] is False)
    n_judged = sum(1 for r in csv_rows if r[-1] in (True, False))
    rep.printed.append(f"  {n_outside} of {n_judged} model means outside the widest 95% interval "
                       f"of their published mean (tables/{name}.csv)")
    write_csv(rep.path(f"tables/{name}.csv"),
              ["figure", "layout", "record", "method", "pattern", "model_cv", "published_max_cv",
               "above", "published_ci95_widest_low", "published_ci95_widest_high", "model_mean",
               "model_inside"], csv_rows)
    return ("\nTrial-to-trial variation against each figure's caption (cv = standard deviation / "
            "mean of the trials; the paper gives each figure's largest cv and names the cells "
            f"above it), and each model mean against the widest 95% interval the published mean "
            f"of {trials} trials can have at that cv, widened by the published value's own "
            f"uncertainty (half the interval the published table gives it, else the "
            f"{rounding:g} MB/s of the printed value's rounding; the figure's largest is shown)"
            " (per cell: "
            f"[tables/{name}.csv](tables/{name}.csv)):\n\n" +
            md_table(["figure", "paper's largest cv", "model's largest cv",
                      "model cells above the paper's largest",
                      "published mean's 95% interval, at most",
                      "model means outside even that interval",
                      "cells the paper names apart"], rows))


CELLS_NOTE = ("The last column is the same summary of the published means of the same cells "
              "(each cell's published value over SPFS's): what a model that matched every "
              "published cell would give. Where it differs from the published row, no model "
              "can match both (docs/reproduce.md).")


def published_cells_text(cells, model_cells):
    """'min / gm / max' of the published cells, with their number when fewer cells
    than the model's row have both published values; a dash when none has."""
    if not cells:
        return "—"
    text = " / ".join(fmt(cells[k]["ratio"]) for k in ("min", "geomean", "max"))
    return text if cells["cells"] == model_cells else \
        f"{text} ({cells['cells']} of {model_cells} cells)"


def ratio_summary_section(rep, entry, source):
    spec = entry["report"]
    baseline = spec.get("baseline", "SPFS")
    base = {(c.layout, c.record, c.pattern): c for c in source.cells if c.method == baseline}
    published = {}
    if spec.get("published"):
        pub_path = os.path.join(os.path.dirname(entry["path"]), spec["published"])
        for row in read_csv(pub_path):
            published[row["method"]] = {k: float(row[k]) for k in ("min", "geomean", "max")}
    results, cell_rows, missing = [], [], 0
    for row_spec in spec["rows"]:
        method = row_spec["method"]
        pairs, published_pairs = [], []
        for c in sorted(source.cells, key=lambda c: (c.layout, cell_sort_key(c))):
            if c.method != method or ("layout" in row_spec and c.layout != row_spec["layout"]):
                continue
            b = base.get((c.layout, c.record, c.pattern))
            if b is None:
                missing += 1
                continue
            pairs.append((c.label(), c.metric("mb_s"), b.metric("mb_s")))
            if "published" in c.summary and "published" in b.summary:
                published_pairs.append((c.label(), float(c.summary["published"]),
                                        float(b.summary["published"])))
        if not pairs:
            continue
        summary = ratio_summary(pairs)
        summary["published_cells"] = published_ratio_summary(published_pairs)
        results.append((method, summary, row_spec.get("layout", "both layouts")))
        for label, a, b in pairs:
            r = ratio_of_means(a, b)
            cell_rows.append([method, label, csv_value(r.ratio), csv_value(r.low),
                              csv_value(r.high), csv_value(r.significant)])
    if not results:
        raise ReportError(f"{entry['name']}: no cell of {entry['from']} pairs with a {baseline} cell")
    header = ["method", "layouts", "cells"]
    csv_rows, md_rows = [], []
    for kind in ("min", "geomean", "max"):
        header += [kind, f"{kind}_ci95_low", f"{kind}_ci95_high", f"{kind}_significant"]
    header += ["min_cell", "max_cell", "published_min", "published_geomean", "published_max",
               "published_cells", "published_cells_min", "published_cells_geomean",
               "published_cells_max"]
    for method, s, layouts in results:
        row = [method, layouts, s["cells"]]
        for kind in ("min", "geomean", "max"):
            r = s[kind]
            row += [csv_value(r["ratio"]), csv_value(r["ci95"][0]), csv_value(r["ci95"][1]),
                    csv_value(r["significant"])]
        pub = published.get(method)
        row += [s["min"]["cell"], s["max"]["cell"]]
        row += [pub[k] if pub else "" for k in ("min", "geomean", "max")]
        cells = s["published_cells"]
        if cells:
            row += [cells["cells"]] + [csv_value(cells[k]["ratio"])
                                       for k in ("min", "geomean", "max")]
        else:
            row += ["", "", "", ""]
        csv_rows.append(row)
        pub_text = " / ".join(fmt(pub[k]) for k in ("min", "geomean", "max")) if pub else "—"
        cells_text = published_cells_text(cells, s["cells"])
        md_rows.append([method, layouts, s["cells"], fmt_ratio(s["min"]) + f" ({s['min']['cell']})",
                        fmt_ratio(s["geomean"]), fmt_ratio(s["max"]) + f" ({s['max']['cell']})",
                        pub_text, cells_text])
        rep.printed.append(f"  {method:13s} {fmt(s['min']['ratio'])} / {fmt(s['geomean']['ratio'])}"
                           f" / {fmt(s['max']['ratio'])}   published {pub_text}"
                           f"   from the published cells {cells_text}")
    name = entry["name"]
    write_csv(rep.path(f"tables/{name}.csv"), header, csv_rows)
    write_csv(rep.path(f"tables/{name}-cells.csv"),
              ["method", "cell", "ratio", "ci95_low", "ci95_high", "significant"], cell_rows)
    table = md_table(["method", "layouts", "cells", "minimum", "geometric mean", "maximum",
                      "published (min / gm / max)",
                      "from the published cells (min / gm / max)"], md_rows)
    with open(rep.path(f"tables/{name}.md"), "w") as f:
        f.write(f"# {name}\n\n{entry['description']}\n\n{table}\n"
                "Each ratio: model value [95% confidence interval]; * = significant "
                f"(the interval excludes 1). {CELLS_NOTE}\n")
    out = [table, "\nEach ratio: model value [95% confidence interval]; * = significant (the "
                  "interval excludes 1). Per-cell ratios: "
                  f"[tables/{name}-cells.csv](tables/{name}-cells.csv). {CELLS_NOTE}\n"]
    if missing:
        out.append(f"\n{missing} cell(s) had no {baseline} cell to pair with and were left out.\n")
    if rep.figures:
        from report_figures import ratio_summary_chart
        ratio_summary_chart([(m, s) for m, s, _ in results], published,
                            rep.path(rep.figure(name)))
    out.append("\n" + rep.image("Table III", name, end="\n"))
    return "".join(out)


def lines_section(rep, entry, study):
    spec = study.report
    x_key = spec["x"]
    scale = "log2" if spec.get("log2_x") else ("log10" if spec.get("log10_x") else "linear")
    if rep.figures:
        from report_figures import sensitivity_lines
        sensitivity_lines(study, x_key, scale, rep.path(rep.figure(study.name)))
    return rep.image(study.name, study.name, end="\n")


def _same(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
            not isinstance(a, bool) and not isinstance(b, bool):
        return float(a) == float(b)
    return a == b


def ablation_section(rep, entry, study):
    spec = study.report
    switch = spec["switch"]
    baseline = spec["baseline"]
    together = set(spec.get("with", []))

    def identity(c):
        return tuple((k, str(v)) for k, v in sorted(c.overrides.items())
                     if k != switch and k not in together)

    groups = {}
    for c in study.cells:
        groups.setdefault(identity(c), []).append(c)
    out = []
    for metric in spec.get("metrics", ["mb_s"]):
        panels = {}  # (method, layout) -> [(label, {value: Ratio})]
        per_series = {}  # (method, layout) -> value -> [(a, b)]
        csv_rows = []
        for key in sorted(groups, key=lambda k: cell_sort_key(groups[k][0])):
            cells = groups[key]
            base = next((c for c in cells if _same(c.value(switch), baseline)), None)
            if base is None:
                continue
            b = base.metric(metric)
            ratios = {}
            for c in cells:
                if c is base:
                    continue
                value = c.value(switch)
                a = c.metric(metric)
                if sum(b) == 0 or sum(a) == 0:
                    continue  # e.g. no disk movements at all: no ratio
                r = ratio_of_means(a, b)
                ratios[value] = r
                per_series.setdefault((base.method, base.layout), {}).setdefault(
                    str(value), []).append((a, b))
                csv_rows.append([base.method, base.layout, base.record, base.pattern, str(value),
                                 csv_value(r.ratio), csv_value(r.low), csv_value(r.high),
                                 csv_value(r.significant)])
            panels.setdefault((base.method, base.layout), []).append(
                (f"{base.pattern} {base.record}", ratios))
        suffix = "" if metric == "mb_s" else "-" + metric.replace(".", "-")
        write_csv(rep.path(f"tables/{study.name}-ratios{suffix}.csv"),
                  ["method", "layout", "record", "pattern", switch, "ratio", "ci95_low",
                   "ci95_high", "significant"], csv_rows)
        out.append(f"**{metric}** with the switch at each value divided by {metric} at "
                   f"`{switch}` = {baseline}, per cell: "
                   f"[tables/{study.name}-ratios{suffix}.csv](tables/{study.name}-ratios{suffix}.csv)."
                   "\n\n")
        summary_rows, series = [], []
        for (method, layout) in sorted(per_series, key=lambda k: (
                METHOD_ORDER.index(k[0]) if k[0] in METHOD_ORDER else 9, k[1])):
            points = []
            for value, pairs in per_series[(method, layout)].items():
                g = geometric_mean_ratio(pairs)
                points.append((value, g))
                summary_rows.append([method, layout, value, len(pairs), fmt_ratio(g.as_dict())])
            series.append((f"{method}, {layout}", points))
        if summary_rows:
            out.append(md_table(["method", "layout", switch, "cells",
                                 "geometric mean ratio [95% CI]"], summary_rows))
            out.append("\n")
        if rep.figures and panels:
            from report_figures import ablation_bars, ablation_summary
            for layout in ordered([k[1] for k in panels], LAYOUT_ORDER):
                rows = [(f"{m}, {layout}", panels[(m, layout)])
                        for m in ordered([k[0] for k in panels], METHOD_ORDER)
                        if (m, layout) in panels]
                name = f"{study.name}{suffix}-{layout}"
                ablation_bars(rows, switch, baseline, metric, f"{study.name}: {metric}",
                              rep.path(rep.figure(name)))
                out.append(f"![{name}]({rep.figure(name)})\n\n")
            if series:
                name = f"{study.name}{suffix}-summary"
                ablation_summary(series, switch, baseline, metric, f"{study.name}: {metric}",
                                 rep.path(rep.figure(name)))
                out.append(f"![{name}]({rep.figure(name)})\n\n")
    return "".join(out)


SECTIONS = {"methods": methods_section, "lines": lines_section, "ablation": ablation_section}


# ---------------------------------------------------------------- index

def machine_text(config):
    c = config
    return (f"{c['machine.cp_count']} CPs + {c['machine.iop_count']} IOPs at "
            f"{c['machine.cpu_mhz']} MHz on a {c['net.width']}×{c['net.height']} torus, "
            f"{c['machine.disks_per_iop']} disk(s) per IOP, {c['fs.block_bytes']}-byte blocks, "
            f"{c['workload.file_mb']} MB file, {c['workload.trials']} trials "
            "(the base configuration; each study's own settings are listed with it)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report_dir")
    ap.add_argument("--no-figures", action="store_true",
                    help="tables and index only (no matplotlib)")
    args = ap.parse_args()
    started = time.time()
    rep = Report(args.report_dir, figures=not args.no_figures)
    m = rep.manifest
    sections = []
    error_lines, table3_lines = [], []
    for entry in m["studies"]:
        name = entry["name"]
        head = [f"## {name}\n\n{entry['description']}\n\n"]
        if not entry.get("requested", True):
            head.append("(Run because a requested study is computed from it.)\n\n")
        if "from" in entry:
            source = rep.studies.get(entry["from"])
            if source is None:
                raise ReportError(f"{name}: the results of {entry['from']} are missing")
            rep.printed = []
            body = ratio_summary_section(rep, entry, source)
            table3_lines += rep.printed
            links = f"Table: [CSV](tables/{name}.csv), [Markdown](tables/{name}.md).\n\n"
            sections.append("".join(head) + f"Computed from {entry['from']}'s results.\n\n" +
                            links + body)
            continue
        study = rep.studies[name]
        kind = study.report.get("kind")
        rep.printed = []
        body = SECTIONS[kind](rep, entry, study) if kind in SECTIONS else ""
        error_lines += rep.printed
        links = (f"Tables: [CSV]({entry['csv']}), [Markdown]({entry['markdown']}); all trials: "
                 f"[JSON]({entry['data']}). Wall time {duration(entry['wall_s'])}, "
                 f"{entry['trials_from_cache']} of {entry['trials']} trials from the result cache"
                 f"{'' if entry['verified'] else '; **DATA VERIFICATION FAILED in some trial**'}.\n\n")
        sections.append("".join(head) + "Configuration:\n\n" + configuration_text(study) + "\n" +
                        links + body)

    report_s = time.time() - started
    wall = m["simulation_wall_s"] + report_s
    intro = [f"# Reproduction report\n\n",
             f"Made by `{m['command']}` on {m['started_utc']}.\n\n",
             "| | |\n|---|---|\n",
             f"| simulator | starfish {m['starfish_version']} (build {m['simulator']}) |\n",
             f"| source commit | {git_commit()} |\n",
             f"| host | {host_description()} |\n",
             f"| host wall time | {duration(wall)} ({duration(m['simulation_wall_s'])} "
             f"simulating, {duration(report_s)} for tables and figures), {m['jobs']} trial "
             "processes at once |\n",
             f"| simulated machine | {machine_text(m['config'])} |\n"]
    if m["quick"]:
        intro.append(f"| **quick run** | every file {m['file_scale']:g} of its size, "
                     f"{m['trials']} trial per cell: a smoke test, not results |\n")
    elif m["trials"]:
        intro.append(f"| trials | {m['trials']} per cell (--trials) |\n")
    if m["published"]:
        intro.append(f"| further published table | {', '.join(m['published'])} |\n")
    if not rep.figures:
        intro.append("| figures | not made (no matplotlib) |\n")
    intro.append("\nHow to read each table and figure: docs/reproduce.md.\n\n## Studies\n\n")
    for entry in m["studies"]:
        intro.append(f"* [{entry['name']}](#{entry['name']}): {entry['description']}\n")
    intro.append("\n")
    with open(rep.path("index.md.tmp"), "w") as f:
        f.write("".join(intro) + "\n".join(sections))
    os.replace(rep.path("index.md.tmp"), rep.path("index.md"))

    if error_lines:
        print("model against the published tables, per method and layout:")
        print("\n".join(error_lines))
    if table3_lines:
        print("Table III (ratio to SPFS, min / geometric mean / max):")
        print("\n".join(table3_lines))


if __name__ == "__main__":
    try:
        main()
    except (ReportError, KeyError, OSError, ValueError) as e:
        sys.exit(f"make_report: {e}")
