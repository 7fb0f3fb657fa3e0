"""Figures of the reproduce report (docs/reproduce.md explains how to read each),
drawn with matplotlib into PNG files. Every function takes what make_report.py
computed and a path, and writes one figure."""
import math

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import patheffects  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from report_data import LAYOUT_ORDER, METHOD_ORDER, PATTERN_ORDER, cell_sort_key, ordered  # noqa: E402
from report_format import value_text  # noqa: E402
from report_stats import Summary  # noqa: E402

METHOD_COLOURS = {"SPFS": "#888888", "2PIO": "#4c72b0", "DDIO no sort": "#dd8452",
                  "DDIO sort": "#c44e52"}
SERIES_COLOURS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860",
                  "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd"]
DPI = 90


def _colour(method, i=0):
    return METHOD_COLOURS.get(method, SERIES_COLOURS[i % len(SERIES_COLOURS)])


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def _interval_err(mean, ci):
    """Error-bar half lengths for a mean and its interval (0 where unknown)."""
    lo, hi = ci
    if any(math.isnan(v) or math.isinf(v) for v in (lo, hi)):
        return 0.0, 0.0
    return max(mean - lo, 0.0), max(hi - mean, 0.0)


def methods_bars(cells, title, path):
    """The paper's Figures 4-7: for each pattern a group of bars, one per method
    (mean MB/s over the trials, ra divided by the CPs, 95% interval whiskers); a
    black line across a bar marks its published value, where there is one."""
    patterns = ordered([c.pattern for c in sorted(cells, key=cell_sort_key)], PATTERN_ORDER)
    methods = ordered([c.method for c in cells], METHOD_ORDER)
    by = {(c.pattern, c.method): c for c in cells}
    width = 0.8 / max(len(methods), 1)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.75 * len(patterns) + 2), 4.2))
    published_drawn = False
    for m_i, method in enumerate(methods):
        xs, ys, errs, pub_x, pub_y = [], [], ([], []), [], []
        for p_i, pattern in enumerate(patterns):
            cell = by.get((pattern, method))
            if cell is None:
                continue
            s = Summary(cell.plotted_mb_s())
            x = p_i - 0.4 + width * (m_i + 0.5)
            xs.append(x)
            ys.append(s.mean)
            lo, hi = _interval_err(s.mean, s.ci)
            errs[0].append(lo)
            errs[1].append(hi)
            if "published" in cell.summary:
                pub_x.append(x)
                pub_y.append(cell.plotted_published())
        ax.bar(xs, ys, width, yerr=errs, capsize=2, label=method, color=_colour(method, m_i),
               error_kw={"elinewidth": 0.8})
        if pub_x:
            # A line as wide as the bar, white-edged so it shows on every colour.
            ax.hlines(pub_y, [x - width * 0.45 for x in pub_x], [x + width * 0.45 for x in pub_x],
                      colors="black", linewidths=2.2, zorder=5,
                      label=None if published_drawn else "published",
                      path_effects=[patheffects.Stroke(linewidth=3.6, foreground="white"),
                                    patheffects.Normal()])
            published_drawn = True
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    ax.legend(unique.values(), unique.keys(), fontsize=8, ncol=min(5, len(unique)),
              loc="upper right")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.15)  # room for the legend above the bars
    ax.set_xticks(range(len(patterns)))
    ax.set_xticklabels(patterns)
    ax.set_xlabel("access pattern")
    ax.set_ylabel("throughput (MB/s; ra per CP)")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    _save(fig, path)


LAYOUT_MARKERS = {"contiguous": "o", "random-blocks": "s", "random-tracks": "^"}


def published_scatter(points, title, path):
    """Model against published value per cell (undivided MB/s, log axes): the
    diagonal y = x is perfect agreement, the bands +-5% and +-10%. Colour is the
    method, the marker the layout, a filled marker an 8192-byte record and a
    hollow one any other. `points` holds dicts with method, layout, record,
    published and model (the mean)."""
    fig, ax = plt.subplots(figsize=(6.6, 6.2))
    values = [p[k] for p in points for k in ("published", "model")]
    lo, hi = min(values) / 1.3, max(values) * 1.3
    xs = [lo * (hi / lo) ** (i / 50) for i in range(51)]
    ax.fill_between(xs, [x * 0.9 for x in xs], [x * 1.1 for x in xs], color="#dddddd",
                    label="±10%")
    ax.fill_between(xs, [x * 0.95 for x in xs], [x * 1.05 for x in xs], color="#bbbbbb",
                    label="±5%")
    ax.plot(xs, xs, color="black", linewidth=0.8, label="model = published")
    methods = ordered([p["method"] for p in points], METHOD_ORDER)
    layouts = ordered([p["layout"] for p in points], LAYOUT_ORDER)
    for i, method in enumerate(methods):
        colour = _colour(method, i)
        for layout in layouts:
            marker = LAYOUT_MARKERS.get(layout, "D")
            for filled in (True, False):
                sel = [p for p in points if p["method"] == method and p["layout"] == layout
                       and (p["record"] == 8192) == filled]
                if sel:
                    ax.scatter([p["published"] for p in sel], [p["model"] for p in sel],
                               marker=marker, s=24, zorder=3, linewidths=0.9,
                               facecolors=colour if filled else "none",
                               edgecolors="black" if filled else colour)
    # The legend names each encoding once: colours, markers, fill.
    handles, labels = ax.get_legend_handles_labels()
    for i, method in enumerate(methods):
        handles.append(Line2D([], [], linestyle="none", marker="o", markersize=6,
                              markerfacecolor=_colour(method, i), markeredgecolor="black"))
        labels.append(method)
    for layout in layouts:
        handles.append(Line2D([], [], linestyle="none", marker=LAYOUT_MARKERS.get(layout, "D"),
                              markersize=6, markerfacecolor="white", markeredgecolor="black"))
        labels.append(layout)
    handles += [Line2D([], [], linestyle="none", marker="o", markersize=6,
                       markerfacecolor="#555555", markeredgecolor="black"),
                Line2D([], [], linestyle="none", marker="o", markersize=6,
                       markerfacecolor="none", markeredgecolor="#555555")]
    labels += ["8192-byte records", "8-byte records"]
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("published throughput (MB/s)")
    ax.set_ylabel("model throughput (MB/s)")
    ax.set_title(f"{title}: {len(points)} cells", fontsize=10)
    ax.legend(handles, labels, fontsize=7, loc="upper left")
    ax.grid(alpha=0.3, which="both")
    _save(fig, path)


def sensitivity_lines(study, x_key, scale, path):
    """One panel per pattern (rows per layout when there are several): mean MB/s
    (ra per CP) against the varied quantity, one line per method, 95% interval
    whiskers."""
    cells = study.cells
    patterns = ordered([c.pattern for c in cells], PATTERN_ORDER)
    layouts = ordered([c.layout for c in cells], LAYOUT_ORDER)
    methods = ordered([c.method for c in cells], METHOD_ORDER)
    fig, axes = plt.subplots(len(layouts), len(patterns), squeeze=False,
                             figsize=(3.2 * len(patterns) + 0.6, 2.9 * len(layouts) + 0.4))
    for r, layout in enumerate(layouts):
        for col, pattern in enumerate(patterns):
            ax = axes[r][col]
            for i, method in enumerate(methods):
                sel = sorted((c for c in cells if c.layout == layout and c.pattern == pattern
                              and c.method == method), key=lambda c: float(c.value(x_key)))
                if not sel:
                    continue
                xs = [float(c.value(x_key)) for c in sel]
                stats = [Summary(c.plotted_mb_s()) for c in sel]
                errs = list(zip(*[_interval_err(s.mean, s.ci) for s in stats]))
                ax.errorbar(xs, [s.mean for s in stats], yerr=errs, marker="o", markersize=3,
                            capsize=2, label=method, color=_colour(method, i), linewidth=1.2)
            if scale == "log2":
                ax.set_xscale("log", base=2)
            elif scale == "log10":
                ax.set_xscale("log")
            ax.set_title(f"{pattern}, {layout}" if len(layouts) > 1 else pattern, fontsize=9)
            ax.set_xlabel(x_key.split(".")[-1], fontsize=8)
            if col == 0:
                ax.set_ylabel("MB/s (ra per CP)", fontsize=8)
            ax.set_ylim(bottom=0)
            ax.grid(alpha=0.3)
            ax.tick_params(labelsize=7)
    axes[0][0].legend(fontsize=7)
    fig.suptitle(study.name, fontsize=10)
    _save(fig, path)


def ablation_bars(rows, switch, baseline, metric, title, path):
    """Per cell (x: record size and pattern), the metric with the switch at each
    other value divided by the metric at the baseline value: bars with 95%
    interval whiskers (Fieller), a line at 1. `rows` is a list of
    (panel title, [(cell label, {value: Ratio})])."""
    values = ordered([v for _, cells in rows for _, ratios in cells for v in ratios], [])
    n_cells = max((len(cells) for _, cells in rows), default=1)
    fig, axes = plt.subplots(len(rows), 1, squeeze=False,
                             figsize=(min(16.0, max(7.0, 0.3 * n_cells + 2)),
                                      2.8 * len(rows) + 0.9))
    width = 0.8 / max(len(values), 1)
    for r, (panel, cells) in enumerate(rows):
        ax = axes[r][0]
        for v_i, value in enumerate(values):
            xs, ys, errs = [], ([], []), ([], [])
            for c_i, (_, ratios) in enumerate(cells):
                ratio = ratios.get(value)
                if ratio is None or math.isnan(ratio.ratio):
                    continue
                xs.append(c_i - 0.4 + width * (v_i + 0.5))
                ys[0].append(ratio.ratio)
                lo, hi = _interval_err(ratio.ratio, (ratio.low, ratio.high))
                errs[0].append(lo)
                errs[1].append(hi)
            ax.bar(xs, ys[0], width, yerr=errs, capsize=1.5, label=value_text(value),
                   color=SERIES_COLOURS[v_i % len(SERIES_COLOURS)], error_kw={"elinewidth": 0.7})
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(cells)))
        ax.set_xticklabels([label for label, _ in cells], rotation=90, fontsize=7)
        ax.set_ylabel(f"{metric} / baseline", fontsize=8)
        ax.set_title(panel, fontsize=9)
        ax.grid(axis="y", alpha=0.3)
        ax.tick_params(axis="y", labelsize=7)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, title=switch, fontsize=7, title_fontsize=7,
               ncol=min(8, max(1, len(values))), loc="upper right")
    fig.suptitle(f"{title} (baseline {switch} = {baseline})", fontsize=10, x=0.02, ha="left")
    _save(fig, path)


def ablation_summary(series, switch, baseline, metric, title, path):
    """Geometric mean over the cells of the ratio to the baseline, per value of
    the switch, one line per method and layout, with 95% interval whiskers.
    `series` is a list of (label, [(value, Ratio)])."""
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    all_values = ordered([v for _, pts in series for v, _ in pts], [])
    pos = {v: i for i, v in enumerate(all_values)}
    for i, (label, pts) in enumerate(series):
        xs = [pos[v] + (i - (len(series) - 1) / 2) * 0.04 for v, _ in pts]
        ys = [r.ratio for _, r in pts]
        errs = list(zip(*[_interval_err(r.ratio, (r.low, r.high)) for _, r in pts]))
        ax.errorbar(xs, ys, yerr=errs, marker="o", markersize=4, capsize=3, label=label,
                    color=SERIES_COLOURS[i % len(SERIES_COLOURS)], linewidth=1.0)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(all_values)))
    ax.set_xticklabels([str(v) for v in all_values])
    ax.set_xlabel(switch)
    ax.set_ylabel(f"geometric mean of {metric} / baseline", fontsize=9)
    ax.set_title(f"{title} (baseline {baseline})", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    _save(fig, path)


def ratio_summary_chart(rows, published, path):
    """Table III as a chart: per method the model's minimum, geometric mean and
    maximum ratio to SPFS (filled, 95% interval whiskers) beside the published
    ones (hollow, black) and those of the published cells (hollow, grey), log
    scale, a line at 1."""
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    kinds = [("min", "v"), ("geomean", "o"), ("max", "^")]
    for m_i, (method, row) in enumerate(rows):
        for k_i, (kind, marker) in enumerate(kinds):
            x = m_i + (k_i - 1) * 0.22
            r = row[kind]
            lo, hi = _interval_err(r["ratio"], tuple(r["ci95"]))
            ax.errorbar([x - 0.06], [r["ratio"]], yerr=[[lo], [hi]], marker=marker, color="#c44e52",
                        capsize=3, linestyle="none",
                        label=f"model {kind}" if m_i == 0 else None)
            if method in published:
                ax.scatter([x + 0.02], [published[method][kind]], marker=marker,
                           facecolors="none", edgecolors="black",
                           label=f"published {kind}" if m_i == 0 else None)
            cells = row.get("published_cells")
            if cells:
                ax.scatter([x + 0.08], [cells[kind]["ratio"]], marker=marker,
                           facecolors="none", edgecolors="#888888",
                           label=f"published cells {kind}" if m_i == 0 else None)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([m for m, _ in rows])
    ax.set_ylabel("throughput ratio to SPFS")
    ax.set_title("Table III: performance relative to SPFS", fontsize=10)
    ax.legend(fontsize=7, ncol=3)
    ax.grid(alpha=0.3, which="both", axis="y")
    _save(fig, path)
