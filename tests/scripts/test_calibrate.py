#!/usr/bin/env python3
"""CTest check of scripts/calibrate.py: runs a two-point search on a small file (fast,
not a calibration) and checks the ranking it writes. A larger per-piece cost must
slow the 8-byte cyclic patterns, which are IOP-CPU bound, and leave the 8192-byte
ones (one piece per block per CP) nearly unchanged. A search on the random-blocks
layout scores DDIO without presort against its own published values. The
trial-by-trial comparison with the best combination is checked on made-up cells,
and the ranking marks the combination in force without the grid. --layout both
scores each cell against its own layout's published value. The study's progress
reaches stderr, one line a trial.
usage: test_calibrate.py STARFISH_BINARY"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def calibrate(starfish, tmp, args):
    """Runs calibrate.py with a cache of its own (the test never reads or fills the
    user's); returns its printed output and the --json document."""
    out = os.path.join(tmp, "rank.json")
    run = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "calibrate.py"), "--starfish", starfish,
         "--set", "workload.file_mb=2", "--jobs", "2", "--json", out] + args,
        capture_output=True, text=True,
        env={**os.environ, "STARFISH_CACHE_DIR": os.path.join(tmp, "cache")})
    print(run.stdout)
    if run.returncode != 0:
        print(run.stderr)
        sys.exit(f"calibrate.py failed with status {run.returncode}")
    with open(out) as f:
        return run, json.load(f)


def default_of(starfish, key):
    config = json.loads(subprocess.run([starfish, "config", "--json", "-"], capture_output=True,
                                       text=True, check=True).stdout)["config"]
    return config[key]


def both_layouts(starfish, tmp):
    """--layout both scores each cell against its own layout's row: rb/8192 once
    per layout, named with its layout, and the RMS is over both."""
    study_json = os.path.join(tmp, "both.json")
    run, result = calibrate(starfish, tmp, ["--method", "spfs", "--layout", "both",
                                            "--cells", "rb/8192", "--study-json", study_json])
    # The study's progress reaches stderr, a line a trial (two cells, one trial
    # each); the ranking on stdout carries none of it.
    progress = [l for l in run.stderr.splitlines() if l.lstrip().startswith("[")]
    assert [l.split("]")[0].strip() for l in progress] == ["[1/2", "[2/2"], run.stderr
    assert "verified" in progress[-1] and "[1/" not in run.stdout, (run.stderr, run.stdout)
    best = result["ranking"][0]
    errors = best["errors_pct"]
    assert sorted(errors) == ["contiguous rb/8192", "random-blocks rb/8192"], errors
    rms = math.sqrt(sum(math.log(1 + e / 100) ** 2 for e in errors.values()) / 2)
    assert abs(rms - best["rms_log_error"]) < 1e-12, (rms, best)
    with open(study_json) as f:
        means = {c["overrides"]["workload.layout"]: c["summary"]["mean"]
                 for c in json.load(f)["cells"]}
    with open(os.path.join(ROOT, "sim", "calibration", "published_final.csv")) as f:
        published = {r["layout"]: float(r["mean"]) for r in csv.DictReader(f)
                     if (r["method"], r["pattern"], r["record"]) == ("spfs", "rb", "8192")}
    for layout in ("contiguous", "random-blocks"):
        scored = means[layout] / (1 + errors[f"{layout} rb/8192"] / 100)
        assert abs(scored - published[layout]) < 1e-9, (layout, scored, published)


def current_marked(starfish, tmp):
    """A grid that contains the default marks that row "(current)", and a --set of
    the grid's key moves the mark to the value set."""
    key = "cost.ddio_piece_cycles"
    default = default_of(starfish, key)
    other = default - 10
    for extra, marked in (([], f"{key}={default}  (current)"),
                          (["--set", f"{key}={other}"], f"{key}={other}  (current)")):
        run, result = calibrate(starfish, tmp, ["--cells", "rb/8192", "--grid",
                                                f"{key}={other},{default}"] + extra)
        assert marked in run.stdout, run.stdout
        assert sum(r["is_current"] for r in result["ranking"]) == 1, result


def random_blocks_search(starfish, tmp):
    """DDIO without presort on the random-blocks layout: the run sets both, and each
    cell is scored against the table's presort=false row (rb 8192: printed 4.5 MB/s,
    mean 4.4983, where the presort row says 6.3)."""
    study_json = os.path.join(tmp, "study.json")
    _, result = calibrate(starfish, tmp, ["--layout", "random-blocks", "--presort", "false",
                                          "--cells", "rb/8192,wb/8192",
                                          "--study-json", study_json])
    assert result["layout"] == "random-blocks" and result["presort"] is False, result
    errors = result["ranking"][0]["errors_pct"]
    assert sorted(errors) == ["rb/8192", "wb/8192"], errors
    with open(study_json) as f:
        study = json.load(f)
    assert {c["overrides"]["workload.layout"] for c in study["cells"]} == {"random-blocks"}
    assert study["study"]["set"]["fs.presort"] is False
    means = {c["overrides"]["workload.pattern"]: c["summary"]["mean"] for c in study["cells"]}
    for pattern, published in (("rb", 4.4983), ("wb", 4.9)):
        scored = means[pattern] / (1 + errors[f"{pattern}/8192"] / 100)
        assert abs(scored - published) < 1e-9, (pattern, scored, published)


def paired_comparison():
    """calibrate.py's trial-by-trial comparison with the best combination, on made-up
    cells: two cells published at 10 MB/s; combination A's trials read 10 and 11
    (and 10.5, 10.5), B's 12 and 12 (and 11, 13). Scores per trial index are the RMS
    over the cells of log(model / published)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import calibrate  # noqa: E402
    rows = [{"layout": "contiguous", "pattern": "rb", "record": "8", "mean": "10"},
            {"layout": "contiguous", "pattern": "wb", "record": "8", "mean": "10"}]

    def cells(rb, wb):
        return [{"overrides": {"workload.layout": "contiguous", "workload.pattern": p,
                               "workload.record_bytes": 8},
                 "trials": [{"trial": t, "mb_s": v} for t, v in enumerate(vals)]}
                for p, vals in (("rb", rb), ("wb", wb))]
    a = calibrate.trial_scores(cells([10, 11], [10.5, 10.5]), rows)
    b = calibrate.trial_scores(cells([12, 12], [11, 13]), rows)
    rms = lambda *xs: math.sqrt(sum(math.log(x / 10) ** 2 for x in xs) / len(xs))  # noqa: E731
    assert abs(a[0] - rms(10, 10.5)) < 1e-12 and abs(a[1] - rms(11, 10.5)) < 1e-12, a
    assert abs(b[1] - rms(12, 13)) < 1e-12, b
    d = calibrate.paired_difference(b, a)
    diffs = [b[0] - a[0], b[1] - a[1]]
    mean = sum(diffs) / 2
    half = 12.706 * abs(diffs[0] - diffs[1]) / 2  # t(1) * sd / sqrt(2), sd = |d0 - d1| / sqrt(2)
    assert abs(d["mean"] - mean) < 1e-12 and d["trials"] == 2, d
    assert abs(d["ci95"][1] - (mean + half)) < 1e-9, (d, mean, half)
    # A trial index missing from one side is left out; one common trial gives nothing.
    assert calibrate.paired_difference({0: 0.1}, {0: 0.2, 1: 0.3}) is None


def main():
    paired_comparison()
    starfish = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        run, result = calibrate(starfish, tmp, ["--grid", "cost.ddio_piece_cycles=50,400"])
        random_blocks_search(starfish, tmp)
        current_marked(starfish, tmp)
        both_layouts(starfish, tmp)
    ranking = result["ranking"]
    assert len(ranking) == 2, ranking
    assert ranking[0]["rms_log_error"] <= ranking[1]["rms_log_error"]
    by_cost = {r["params"]["cost.ddio_piece_cycles"]: r["errors_pct"] for r in ranking}
    assert len(by_cost[50]) == 35, "every published DDIO cell is scored"
    for cell in ("rc/8", "wc/8", "rcc/8"):
        assert by_cost[400][cell] < by_cost[50][cell] - 10, (cell, by_cost[400][cell], by_cost[50][cell])
    for cell in ("rb/8192", "wb/8192"):
        assert abs(by_cost[400][cell] - by_cost[50][cell]) < 2, (cell, by_cost[400][cell], by_cost[50][cell])
    # The printed ranking names the best combination. One trial per cell gives no
    # trial-by-trial comparison.
    assert "best: cost.ddio_piece_cycles=" in run.stdout
    assert ranking[0]["vs_best"] is None and ranking[1]["vs_best"] is None, ranking
    assert not ranking[1]["within_noise_of_best"], ranking
    # Neither 50 nor 400 is the default, and the output says where the default is.
    default = default_of(starfish, "cost.ddio_piece_cycles")
    assert default not in (50, 400) and not any(r["is_current"] for r in ranking), ranking
    assert f"current: cost.ddio_piece_cycles={default} (not in the grid)" in run.stdout
    print("test_calibrate: ok")


if __name__ == "__main__":
    main()
