"""The `ratio-summary` section of the reproduce report (docs/reproduce.md): the
paper's Table III from a study's results, beside the published row and the row
the published cells themselves give."""
import os

from report_data import cell_sort_key, read_csv
from report_format import ReportError, csv_value, fmt, fmt_ratio, md_table, write_csv
from report_stats import published_ratio_summary, ratio_of_means, ratio_summary

RATIO_NOTE = ("Each ratio: model value [95% confidence interval]; * = significant (the "
              "interval excludes 1).")
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
                f"{RATIO_NOTE} {CELLS_NOTE}\n")
    out = [table, f"\n{RATIO_NOTE} Per-cell ratios: "
                  f"[tables/{name}-cells.csv](tables/{name}-cells.csv). {CELLS_NOTE}\n"]
    if missing:
        out.append(f"\n{missing} cell(s) had no {baseline} cell to pair with and were left out.\n")
    if rep.figures:
        from report_figures import ratio_summary_chart
        ratio_summary_chart([(m, s) for m, s, _ in results], published,
                            rep.path(rep.figure(name)))
    out.append("\n" + rep.image("Table III", name, end="\n"))
    return "".join(out)
