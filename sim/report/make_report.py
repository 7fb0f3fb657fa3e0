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
import json
import os
import platform
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_data import (LAYOUT_ORDER, METHOD_ORDER, Study, cell_sort_key, cell_with,  # noqa: E402
                         load_json, order_index, ordered)
from report_format import (REPO, ReportError, csv_value, fmt_ratio, md_table,  # noqa: E402
                           value_text, write_csv)
from report_methods import methods_section  # noqa: E402
from report_statements import statements_section  # noqa: E402
from report_stats import geometric_mean_ratio, ratio_of_means  # noqa: E402
from report_summary import ratio_summary_section  # noqa: E402


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


def lines_section(rep, entry, study):
    spec = study.report
    x_key = spec["x"]
    scale = "log2" if spec.get("log2_x") else ("log10" if spec.get("log10_x") else "linear")
    if rep.figures:
        from report_figures import sensitivity_lines
        sensitivity_lines(study, x_key, scale, rep.path(rep.figure(study.name)))
    return rep.image(study.name, study.name, end="\n")


def ablation_section(rep, entry, study):
    spec = study.report
    switch = spec["switch"]
    baseline = spec["baseline"]
    baseline_text = value_text(baseline)  # as the study file and --set spell it
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
            base = cell_with(cells, switch, baseline)
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
                shown = value_text(value)
                per_series.setdefault((base.method, base.layout), {}).setdefault(
                    shown, []).append((a, b))
                csv_rows.append([base.method, base.layout, base.record, base.pattern, shown,
                                 csv_value(r.ratio), csv_value(r.low), csv_value(r.high),
                                 csv_value(r.significant)])
            panels.setdefault((base.method, base.layout), []).append(
                (f"{base.pattern} {base.record}", ratios))
        suffix = "" if metric == "mb_s" else "-" + metric.replace(".", "-")
        write_csv(rep.path(f"tables/{study.name}-ratios{suffix}.csv"),
                  ["method", "layout", "record", "pattern", switch, "ratio", "ci95_low",
                   "ci95_high", "significant"], csv_rows)
        out.append(f"**{metric}** with the switch at each value divided by {metric} at "
                   f"`{switch}` = {baseline_text}, per cell: "
                   f"[tables/{study.name}-ratios{suffix}.csv](tables/{study.name}-ratios{suffix}.csv)."
                   "\n\n")
        summary_rows, series = [], []
        for (method, layout) in sorted(per_series, key=lambda k: (
                order_index(k[0], METHOD_ORDER), k[1])):
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
        if metric == "mb_s":
            out.append(statements_section(study, groups, switch))
        if rep.figures and panels:
            from report_figures import ablation_bars, ablation_summary
            for layout in ordered([k[1] for k in panels], LAYOUT_ORDER):
                rows = [(f"{m}, {layout}", panels[(m, layout)])
                        for m in ordered([k[0] for k in panels], METHOD_ORDER)
                        if (m, layout) in panels]
                name = f"{study.name}{suffix}-{layout}"
                ablation_bars(rows, switch, baseline_text, metric, f"{study.name}: {metric}",
                              rep.path(rep.figure(name)))
                out.append(f"![{name}]({rep.figure(name)})\n\n")
            if series:
                name = f"{study.name}{suffix}-summary"
                ablation_summary(series, switch, baseline_text, metric, f"{study.name}: {metric}",
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
    intro = ["# Reproduction report\n\n",
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
