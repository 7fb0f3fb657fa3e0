#!/usr/bin/env python3
"""CTest check of scripts/published_means.py (docs/reproduce.md, "Which published
value a cell is compared with"): the shipped table's mean columns are the ones the
ratios give; two cells worked out by hand; a changed mean and a contradicting ratio
are refused, naming the cell; without the allowance for averaged ratios the 8-byte
`wc` cells contradict each other, as the script's documentation says.
usage: test_published_means.py"""
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "published_means.py")
TABLE = os.path.join(ROOT, "sim", "calibration", "published_final.csv")
RATIOS = os.path.join(ROOT, "sim", "calibration", "published_ratios.csv")
STUDY = os.path.join(ROOT, "sim", "studies", "paper-main.json")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import assert_refused  # noqa: E402


def row(layout, method, record, pattern):
    with open(TABLE) as f:
        rows = [r for r in csv.DictReader(f) if (r["layout"], r["method"], r["record"],
                                                 r["pattern"]) == (layout, method, record, pattern)]
    assert len(rows) == 1, rows
    return rows[0]


def check_shipped_table():
    run = subprocess.run([sys.executable, SCRIPT, "--check"], capture_output=True, text=True)
    assert run.returncode == 0 and "245 cells agree with 280 ratios" in run.stdout, run


def check_by_hand():
    # Contiguous SPFS wbc 8 B, printed 0.8 (0.75-0.85). Table 15: DDIO 15.4 (15.35-15.45),
    # DDIO/SPFS 18.11, so SPFS >= 15.35 / 18.115; Table 20's 2PIO 15.1 over it, 17.84,
    # bounds it less (>= 15.05 / 17.845). The upper bound stays the printed 0.85.
    r = row("contiguous", "spfs", "8", "wbc")
    assert r["mean_lo"] == f"{15.35 / 18.115:.4f}" == "0.8474", r
    assert r["mean_hi"] == "0.8500" and r["mean"] == f"{(15.35 / 18.115 + 0.85) / 2:.4f}", r
    # Contiguous SPFS wc 8 B, printed 1.9, cv 0.25 (Figure 6 names it): a mean of the
    # trials' ratios would exceed the ratio of the means by up to 1 + 0.25^2, so
    # Table 15's 11.53 over DDIO 20.5 allows SPFS up to 20.55 * 1.0625 / 11.525.
    r = row("contiguous", "spfs", "8", "wc")
    assert r["mean_lo"] == "1.8500" and r["mean_hi"] == f"{20.55 * 1.0625 / 11.525:.4f}", r


def altered_copy(source, target, old, new):
    """Writes `source` to `target` with `old` replaced by `new` (which must occur)."""
    with open(source) as f:
        text = f.read()
    assert old in text, old
    with open(target, "w") as f:
        f.write(text.replace(old, new))
    return target


def check_refusals():
    with tempfile.TemporaryDirectory() as tmp:
        table = altered_copy(TABLE, os.path.join(tmp, "published_final.csv"),
                             "contiguous,spfs,,8,wbc,0.8,0.8474,0.8487,0.8500",
                             "contiguous,spfs,,8,wbc,0.8,0.8474,0.8400,0.8500")
        assert_refused(SCRIPT, ["--table", table], "('contiguous', 'spfs', 8, 'wbc') mean 0.8400")

        ratios = altered_copy(RATIOS, os.path.join(tmp, "ratios.csv"),
                              "15,contiguous,8,wbc,ddio,spfs,18.11,",
                              "15,contiguous,8,wbc,ddio,spfs,28.11,")
        assert_refused(SCRIPT, ["--ratios", ratios],
                       "table 15's ratio 28.11 of ('contiguous', 'ddio', 8, 'wbc')")

        # No allowance (every cv 0): the 8-byte wc cells cannot all be met.
        study = os.path.join(tmp, "study.json")
        with open(STUDY) as f:
            spec = json.load(f)
        for fig in spec["report"]["figures"]:
            fig["max_cv"] = 0.0
            fig.pop("cv_exceptions", None)
        with open(study, "w") as f:
            json.dump(spec, f)
        run = subprocess.run([sys.executable, SCRIPT, "--study", study], capture_output=True,
                             text=True)
        assert run.returncode != 0 and "8, 'wc')" in run.stderr, run


def main():
    check_shipped_table()
    check_by_hand()
    check_refusals()
    print("published_means: ok")


if __name__ == "__main__":
    main()
