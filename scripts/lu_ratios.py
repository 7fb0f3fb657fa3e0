#!/usr/bin/env python3
"""The ratio tables of Kotz's out-of-core LU paper (HPDC 1995, Figures 3-7) from a
`starfish study lu-paper --json FILE` result (docs/lu.md):

  * DDIO/SPFS for disk traffic and execution time, per block size, slab size and
    layout (Figures 3, 5 and 7 for 4, 8 and 1 KB blocks), with the time ratio's 95%
    interval over the trials (Fieller's, sim/report/report_stats.py), the mean
    disk-access times (seek + rotational latency + transfer of the sectors asked
    for, disk_io.mean_request_access_ms), DDIO's gain in access time and what each
    file system's
    disk schedule sorts over (DDIO: blocks of one collective request per disk; SPFS:
    requests already waiting in a disk queue when one joins);
  * 8 KB/4 KB and 1 KB/4 KB per file system (Figures 4 and 6);
  * equal memory: DDIO with twice SPFS's slab (the paper's 4 KB comparison, SPFS 16
    columns against DDIO 32);
  * the paper's "average disk-access time" read three ways (request access, the
    drives' response per command, per READ: disk_io.mean_request_access_ms,
    mean_response_ms, mean_read_response_ms), as the ratios the paper states:
    SPFS 8 KB/4 KB and 1 KB/4 KB, and DDIO's gain over SPFS with 4 KB blocks;
  * where the CPs' time goes: compute, I/O, the barrier before each collective, the
    broadcast's barrier, the final sync (means over the CPs and the trials).

Ratios are of the trial means, in percent (below 100: the first is better). Cells
missing from the result are shown as '-'. --json writes every table as data.

    scripts/lu_ratios.py lu.json [--markdown] [--json tables.json]
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sim", "report"))
from report_stats import ratio_of_means  # noqa: E402

BREAKDOWN = ["compute_s", "io_s", "read_s", "write_s", "io_barrier_s", "broadcast_send_s",
             "broadcast_barrier_s", "sync_s"]


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
        fs = [t["fs"] for t in trials]
        cells[key] = {
            "times": [t["elapsed_s"] for t in trials],
            "time": mean([t["elapsed_s"] for t in trials]),
            "traffic": mean([t["traffic_bytes"] for t in trials]),
            # seek + rotational latency + transfer of the sectors asked for, per access
            # (results before it existed: the mechanism's busy time per access)
            "access_ms": mean([t["disk_io"].get("mean_request_access_ms", t["disk_io"]["mean_access_ms"])
                               for t in trials]),
            "busy_ms": mean([t["disk_io"]["mean_access_ms"] for t in trials]),
            # the drives' response per command and per READ (nan in results before them)
            "response_ms": mean([t["disk_io"].get("mean_response_ms", float("nan")) for t in trials]),
            "read_response_ms": mean([t["disk_io"].get("mean_read_response_ms", float("nan"))
                                      for t in trials]),
            "disk_busy": mean([t["disk_io"].get("busy_fraction", float("nan")) for t in trials]),
            "installs": mean([f["installation_reads"] for f in fs]),
            "sort_over": mean([f.get("blocks_per_disk_request", f.get("mean_queue_depth", float("nan")))
                               for f in fs]),
            "cp_time": {k: mean([t["cp_time"][k]["mean"] for t in trials if k in t.get("cp_time", {})])
                        for k in BREAKDOWN},
        }
    return cells


def pct(a, b):
    return None if a is None or b is None or b == 0 else 100.0 * a / b


def show_pct(v):
    return "-" if v is None or math.isnan(v) else f"{v:.0f}%"


def show_num(v, digits=1):
    return "-" if v is None or math.isnan(v) else f"{v:.{digits}f}"


def get(cells, key, field):
    c = cells.get(key)
    return None if c is None else c[field]


def time_ratio(cells, a, b):
    """DDIO/SPFS-style ratio of the mean times in percent with its 95% interval."""
    if a not in cells or b not in cells:
        return None, None, None
    r = ratio_of_means(cells[a]["times"], cells[b]["times"])
    return 100.0 * r.ratio, 100.0 * r.low, 100.0 * r.high


def show_ratio(r, low, high):
    if r is None:
        return "-"
    if math.isnan(low) or math.isinf(low) or math.isinf(high):
        return f"{r:.0f}%"
    return f"{r:.1f}% [{low:.1f}, {high:.1f}]"


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


def ddio_vs_spfs(cells, block, slabs, layouts):
    rows = []
    for layout in layouts:
        for slab in slabs:
            d, s = ("ddio", block, slab, layout), ("spfs", block, slab, layout)
            if d not in cells and s not in cells:
                continue
            r, lo, hi = time_ratio(cells, d, s)
            acc_d, acc_s = get(cells, d, "access_ms"), get(cells, s, "access_ms")
            gain = None if acc_d is None or not acc_s else 100.0 * (1 - acc_d / acc_s)
            rows.append({"layout": layout, "slab": slab,
                         "traffic_pct": pct(get(cells, d, "traffic"), get(cells, s, "traffic")),
                         "time_pct": r, "time_pct_ci95": [lo, hi],
                         "spfs_s": get(cells, s, "time"), "ddio_s": get(cells, d, "time"),
                         "trials": min(len(cells[k]["times"]) for k in (d, s) if k in cells),
                         "spfs_access_ms": acc_s, "ddio_access_ms": acc_d, "access_gain_pct": gain,
                         "ddio_blocks_sorted": get(cells, d, "sort_over"),
                         "spfs_queue_depth": get(cells, s, "sort_over")})
    return rows


def block_ratio(cells, other, slabs, layouts):
    rows = []
    for layout in layouts:
        for slab in slabs:
            row = {"layout": layout, "slab": slab}
            for fs in ("spfs", "ddio"):
                o, f = (fs, other, slab, layout), (fs, 4096, slab, layout)
                row[fs] = {"traffic_pct": pct(get(cells, o, "traffic"), get(cells, f, "traffic")),
                           "time_pct": pct(get(cells, o, "time"), get(cells, f, "time")),
                           "access_pct": pct(get(cells, o, "access_ms"), get(cells, f, "access_ms")),
                           "installation_reads": get(cells, o, "installs")}
            rows.append(row)
    return rows


def equal_memory(cells, blocks, slabs, layouts):
    rows = []
    for block in blocks:
        for layout in layouts:
            for slab in slabs:
                if 2 * slab not in slabs:
                    continue
                d, s = ("ddio", block, 2 * slab, layout), ("spfs", block, slab, layout)
                r, lo, hi = time_ratio(cells, d, s)
                if r is None:
                    continue
                rows.append({"block": block, "layout": layout, "spfs_slab": slab, "ddio_slab": 2 * slab,
                             "time_pct": r, "time_pct_ci95": [lo, hi]})
    return rows


READINGS = (("access", "access_ms"), ("response", "response_ms"), ("read response", "read_response_ms"))


def access_readings(cells, slabs, layouts):
    """The paper's access-time statements under each reading: SPFS 8/4 and 1/4 KB
    (percent of the 4 KB figure) and DDIO's gain over SPFS at 4 KB (percent)."""
    rows = []
    for layout in layouts:
        for slab in slabs:
            row = {"layout": layout, "slab": slab}
            for name, field in READINGS:
                s4 = get(cells, ("spfs", 4096, slab, layout), field)
                d4 = get(cells, ("ddio", 4096, slab, layout), field)
                row[name] = {
                    "spfs_8_4_pct": pct(get(cells, ("spfs", 8192, slab, layout), field), s4),
                    "spfs_1_4_pct": pct(get(cells, ("spfs", 1024, slab, layout), field), s4),
                    "ddio_gain_4_pct": None if d4 is None or not s4 else 100.0 * (1 - d4 / s4)}
            rows.append(row)
    return rows


def breakdown(cells):
    rows = []
    for key in sorted(cells, key=lambda k: (k[1], k[3], k[2], k[0])):
        c = cells[key]
        rows.append({"fs": key[0], "block": key[1], "slab": key[2], "layout": key[3],
                     "elapsed_s": c["time"], "disk_busy": c["disk_busy"], "access_ms": c["access_ms"],
                     "busy_ms_per_access": c["busy_ms"], **c["cp_time"]})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("result")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json", help="also write the tables as JSON to this file")
    a = ap.parse_args()
    cells = load(a.result)
    slabs = sorted({k[2] for k in cells})
    layouts = sorted({k[3] for k in cells})
    blocks = sorted({k[1] for k in cells})
    out = {"ddio_vs_spfs": {}, "block_ratio": {}}
    for block in blocks:
        rows = ddio_vs_spfs(cells, block, slabs, layouts)
        out["ddio_vs_spfs"][str(block)] = rows
        table(f"DDIO/SPFS, {block}-byte blocks (time: ratio of the means [95% interval])",
              ["layout", "slab", "traffic", "time", "trials", "SPFS s", "DDIO s", "SPFS access ms",
               "DDIO access ms", "access gain", "DDIO blocks sorted", "SPFS queue"],
              [[r["layout"], str(r["slab"]), show_pct(r["traffic_pct"]),
                show_ratio(r["time_pct"], *r["time_pct_ci95"]), str(r["trials"]),
                show_num(r["spfs_s"]), show_num(r["ddio_s"]), show_num(r["spfs_access_ms"], 2),
                show_num(r["ddio_access_ms"], 2), show_pct(r["access_gain_pct"]),
                show_num(r["ddio_blocks_sorted"]), show_num(r["spfs_queue_depth"], 2)] for r in rows],
              a.markdown)
    for other in (8192, 1024):
        if other not in blocks or 4096 not in blocks:
            continue
        rows = block_ratio(cells, other, slabs, layouts)
        out["block_ratio"][str(other)] = rows
        kb = other // 1024
        table(f"{kb} KB / 4 KB", ["layout", "slab", "SPFS traffic", "SPFS time", "SPFS access",
              f"SPFS inst. reads ({kb} KB)", "DDIO traffic", "DDIO time", "DDIO access",
              f"DDIO inst. reads ({kb} KB)"],
              [[r["layout"], str(r["slab"])] +
               [x for fs in ("spfs", "ddio") for x in
                (show_pct(r[fs]["traffic_pct"]), show_pct(r[fs]["time_pct"]), show_pct(r[fs]["access_pct"]),
                 show_num(r[fs]["installation_reads"], 0))] for r in rows], a.markdown)
    rows = equal_memory(cells, blocks, slabs, layouts)
    out["equal_memory"] = rows
    table("Equal memory: DDIO with twice SPFS's slab, DDIO/SPFS time [95% interval]",
          ["block", "layout", "SPFS slab", "DDIO slab", "time"],
          [[str(r["block"]), r["layout"], str(r["spfs_slab"]), str(r["ddio_slab"]),
            show_ratio(r["time_pct"], *r["time_pct_ci95"])] for r in rows], a.markdown)
    rows = access_readings(cells, slabs, layouts)
    out["access_readings"] = rows
    table("The paper's average disk-access time, three readings: SPFS 8 KB/4 KB, SPFS 1 KB/4 KB, "
          "DDIO's gain over SPFS at 4 KB",
          ["layout", "slab"] + [f"{what} ({name})" for name, _ in READINGS
                                for what in ("SPFS 8/4", "SPFS 1/4", "DDIO gain")],
          [[r["layout"], str(r["slab"])] +
           [show_pct(r[name][k]) for name, _ in READINGS
            for k in ("spfs_8_4_pct", "spfs_1_4_pct", "ddio_gain_4_pct")] for r in rows], a.markdown)
    rows = breakdown(cells)
    out["breakdown"] = rows
    table("Where the CPs' time goes (s, mean over CPs and trials; I/O = LU_read + LU_write "
          "less the barrier before a collective)",
          ["block", "layout", "slab", "fs", "elapsed", "compute", "I/O", "read", "write",
           "barrier before I/O", "broadcast", "broadcast barrier", "sync", "disk busy",
           "access ms", "busy ms/access"],
          [[str(r["block"]), r["layout"], str(r["slab"]), r["fs"], show_num(r["elapsed_s"]),
            show_num(r["compute_s"]), show_num(r["io_s"]), show_num(r["read_s"]), show_num(r["write_s"]),
            show_num(r["io_barrier_s"]), show_num(r["broadcast_send_s"]),
            show_num(r["broadcast_barrier_s"]), show_num(r["sync_s"]), show_pct(100 * r["disk_busy"]),
            show_num(r["access_ms"], 2), show_num(r["busy_ms_per_access"], 2)]
           for r in rows], a.markdown)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
