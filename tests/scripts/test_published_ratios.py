#!/usr/bin/env python3
"""CTest check of scripts/published_ratios.py (docs/reproduce.md, "The paper's
ratios"): on a small hand-made result document, each model ratio and its error
against the published one, agreement on significance worked out by hand, a
disagreement listed, a one-trial cell counted apart; a document without the cells
a ratio compares is refused.
usage: test_published_ratios.py"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "published_ratios.py")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import assert_refused  # noqa: E402


def cell(kind, pattern, record, values, presort=True):
    overrides = {"fs.kind": kind, "workload.pattern": pattern, "workload.record_bytes": record}
    if kind == "ddio":
        overrides["fs.presort"] = presort
    return {"overrides": overrides, "summary": {},
            "trials": [{"mb_s": v} for v in values]}


def write_doc(path, cells):
    doc = {"study": {"name": "t", "set": {"workload.layout": "contiguous"}},
           "config": {"fs.presort": True, "workload.layout": "contiguous"}, "cells": cells}
    with open(path, "w") as f:
        json.dump(doc, f)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "data.json")
        write_doc(data, [
            # Table 15 rc 8 B, DDIO/SPFS 7.28 (significant): 20.4 / 2.8 = 7.2857, +0.08%,
            # and every trial pair apart: significant too.
            cell("spfs", "rc", 8, [2.7, 2.8, 2.9]), cell("ddio", "rc", 8, [20.3, 20.4, 20.5]),
            # Table 15 wcn 8 KB, DDIO/SPFS 1.08 (significant): equal here, not significant.
            cell("spfs", "wcn", 8192, [29.0, 29.1, 29.2]),
            cell("ddio", "wcn", 8192, [29.0, 29.1, 29.2]),
            # Table 17 rc 8 B, DDIO/2PIO 1.57, and Table 20, 2PIO/SPFS 4.62: one 2PIO
            # trial gives no interval.
            cell("2pio", "rc", 8, [12.9]),
        ])
        out = subprocess.run([sys.executable, SCRIPT, data, "--all"], capture_output=True,
                             text=True, check=True).stdout
        lines = out.splitlines()
        assert "| 15 | 2 | " in out and "| 1 of 2 | 0 |" in out, out
        assert "| 17 | 1 | 0.7% | +0.7% (rc 8) | 0 of 0 | 1 |" in out, out
        assert "| 20 | 1 | 0.3% | -0.3% (rc 8) | 0 of 0 | 1 |" in out, out
        assert "4 of 280 published ratios compared; 1 of 2 judged agree on significance" in out
        rc = [x for x in lines if "table 15 contiguous rc 8 ddio/spfs" in x]
        assert len(rc) == 1 and "paper 7.28 (significant), model 7.29" in rc[0], rc
        assert f"{100 * (20.4 / 2.8 / 7.28 - 1):+.1f}%" in rc[0], rc
        wcn = [x for x in lines if "table 15 contiguous wcn 8192" in x]
        assert "paper 1.08 (significant), model 1.00 [" in wcn[0], wcn
        assert "(not significant), -7.4%" in wcn[0], wcn
        # Without --all only the disagreement is listed.
        out = subprocess.run([sys.executable, SCRIPT, data], capture_output=True, text=True,
                             check=True).stdout
        listed = [x for x in out.splitlines() if x.startswith("  table")]
        assert len(listed) == 1 and "wcn 8192" in listed[0], out

        write_doc(data, [cell("spfs", "rb", 8192, [31.3])])
        assert_refused(SCRIPT, [data], "has no pair of cells that a published ratio compares")
    print("published_ratios: ok")


if __name__ == "__main__":
    main()
