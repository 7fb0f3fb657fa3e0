#!/usr/bin/env python3
"""The ratio tables of Kotz's out-of-core LU paper (HPDC 1995, Figures 3-7) from a
`starfish study lu-paper --json FILE` result (docs/lu.md):

  * DDIO/SPFS for disk traffic and execution time, per block size, slab size and
    layout (Figures 3, 5 and 7 for 4, 8 and 1 KB blocks);
  * 8 KB/4 KB and 1 KB/4 KB per file system (Figures 4 and 6);
  * the mean disk-access time and installation reads behind them.

Ratios are of the trial means, in percent (below 100: the first is better). Cells
missing from the result are shown as '-'.

    scripts/lu_ratios.py lu.json [--markdown]
"""
import argparse
import json
import sys


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def load(path):
    with open(path) as f:
        doc = json.load(f)
    if "cells" not in doc:
        sys.exit(f"{path}: not a study result")
    cells = {}
    for cell in doc["cells"]:
        o = cell.get("overrides", {})
        cfg = {**doc.get("config", {}), **o}
        trials = [t for t in cell.get("trials", []) if "elapsed_s" in t]
        if not trials:
            continue
        key = (o.get("fs.kind", cfg.get("fs.kind")), int(o.get("fs.block_bytes", cfg.get("fs.block_bytes", 0))),
               int(o.get("lu.slab_cols", cfg.get("lu.slab_cols", 0))),
               o.get("workload.layout", cfg.get("workload.layout")))
        cells[key] = {
            "time": mean([t["elapsed_s"] for t in trials]),
            "traffic": mean([t["traffic_bytes"] for t in trials]),
            "access_ms": mean([t["disk_io"]["mean_access_ms"] for t in trials]),
            "installs": mean([t["fs"]["installation_reads"] for t in trials]),
        }
    return cells


def pct(a, b):
    return "-" if a is None or b is None or b == 0 else f"{100.0 * a / b:.0f}%"


def get(cells, key, field):
    c = cells.get(key)
    return None if c is None else c[field]


def table(title, header, rows, markdown):
    print(f"\n{title}")
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
        for r in [header] + rows:
            print("  ".join(str(x).rjust(w) for x, w in zip(r, widths)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("result")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    cells = load(a.result)
    slabs = sorted({k[2] for k in cells})
    layouts = sorted({k[3] for k in cells})
    blocks = sorted({k[1] for k in cells})
    for block in blocks:
        rows = []
        for layout in layouts:
            for slab in slabs:
                d, s = ("ddio", block, slab, layout), ("spfs", block, slab, layout)
                rows.append([layout, str(slab), pct(get(cells, d, "traffic"), get(cells, s, "traffic")),
                             pct(get(cells, d, "time"), get(cells, s, "time")),
                             f"{get(cells, s, 'time') or 0:.1f}", f"{get(cells, d, 'time') or 0:.1f}",
                             f"{get(cells, s, 'access_ms') or 0:.2f}", f"{get(cells, d, 'access_ms') or 0:.2f}"])
        table(f"DDIO/SPFS, {block}-byte blocks", ["layout", "slab", "traffic", "time", "SPFS s",
              "DDIO s", "SPFS access ms", "DDIO access ms"], rows, a.markdown)
    for other in (8192, 1024):
        if other not in blocks or 4096 not in blocks:
            continue
        rows = []
        for layout in layouts:
            for slab in slabs:
                row = [layout, str(slab)]
                for fs in ("spfs", "ddio"):
                    o, f = (fs, other, slab, layout), (fs, 4096, slab, layout)
                    row += [pct(get(cells, o, "traffic"), get(cells, f, "traffic")),
                            pct(get(cells, o, "time"), get(cells, f, "time")),
                            f"{get(cells, o, 'installs') or 0:.0f}"]
                rows.append(row)
        kb = other // 1024
        table(f"{kb} KB / 4 KB", ["layout", "slab", "SPFS traffic", "SPFS time",
              f"SPFS inst. reads ({kb} KB)", "DDIO traffic", "DDIO time",
              f"DDIO inst. reads ({kb} KB)"], rows, a.markdown)


if __name__ == "__main__":
    main()
