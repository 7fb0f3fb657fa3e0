#!/usr/bin/env python3
"""Checks that two starfish result JSONs (from `starfish study --json` or
`starfish run --json`) hold bit-identical simulated results.

Every trial of every cell is compared field by field, recursively, with exact
equality (floats included: the simulator is deterministic, so a refactoring or a
speed-up must not move a single bit). Host-dependent fields (wall and CPU
seconds, host speed) are skipped; `--ignore KEY` skips more (for example
`events` when a change legitimately schedules fewer SystemC events).

Exit status: 0 identical, 1 some difference (each listed), 2 unusable input.

    scripts/compare_results.py before.json after.json
"""
import argparse
import json
import sys

HOST_FIELDS = {"host", "host_cpu_s", "wall_s"}


def trials_of(doc, path):
    """(label, trial document) pairs of a study or run result."""
    if "cells" in doc:
        out = []
        for i, cell in enumerate(doc["cells"]):
            label = json.dumps(cell.get("overrides", {}), sort_keys=True)
            for t in cell.get("trials", []):
                out.append((f"cell {i} {label} trial {t.get('trial')}", t))
        return out
    if "trials" in doc:
        return [(f"trial {t.get('trial')}", t) for t in doc["trials"]]
    raise ValueError(f"{path}: neither a study result (cells) nor a run result (trials)")


def diff(a, b, where, ignore, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in ignore:
                continue
            if k not in a or k not in b:
                out.append(f"{where}.{k}: only in {'after' if k in b else 'before'}")
                continue
            diff(a[k], b[k], f"{where}.{k}", ignore, out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{where}: {len(a)} entries before, {len(b)} after")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{where}[{i}]", ignore, out)
    elif type(a) is not type(b) or a != b:
        out.append(f"{where}: {a!r} before, {b!r} after")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--ignore", action="append", default=[], help="field name to skip")
    args = ap.parse_args()
    try:
        docs = []
        for p in (args.before, args.after):
            with open(p) as f:
                docs.append(trials_of(json.load(f), p))
    except (OSError, ValueError) as e:
        print(f"compare_results: {e}", file=sys.stderr)
        return 2
    before, after = docs
    ignore = HOST_FIELDS | set(args.ignore)
    problems = []
    if [l for l, _ in before] != [l for l, _ in after]:
        problems.append(f"the two files hold different cells or trials "
                        f"({len(before)} trials before, {len(after)} after)")
    else:
        for (label, a), (_, b) in zip(before, after):
            diff(a, b, label, ignore, problems)
    if problems:
        for p in problems[:50]:
            print("DIFFERENT " + p)
        if len(problems) > 50:
            print(f"... and {len(problems) - 50} more")
        print(f"compare_results: {len(problems)} difference(s) in {len(before)} trials")
        return 1
    print(f"compare_results: {len(before)} trials bit-identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
