"""The `methods` section of the reproduce report (docs/reproduce.md): the paper's
bar charts, the model against every published cell, the methods side by side, the
error summary per method, the cells outside 10% with their known reasons, the
trial-to-trial variation against each figure's caption, and the paper's ratios
between methods."""
import math
import os
import statistics

from report_data import LAYOUT_ORDER, METHOD_ORDER, cell_sort_key, order_index, read_csv
from report_disagreements import LIMIT_PCT, load_rules, outside
from report_format import REPO, ReportError, csv_value, fmt, md_table, write_csv
from report_ratios import agreement, agrees, compare_ratios, table_summaries
from report_stats import NAN, cv_against_figure, published_interval, published_uncertainty

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
                       key=lambda c: (order_index(c.method, METHOD_ORDER),
                                      order_index(c.layout, LAYOUT_ORDER), cell_sort_key(c)))
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
    for (method, layout) in sorted(groups, key=lambda k: (order_index(k[0], METHOD_ORDER),
                                                          order_index(k[1], LAYOUT_ORDER))):
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
        rep.printed.append("    (a quick run: its cells are not comparable with the published "
                           "ones)")
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
