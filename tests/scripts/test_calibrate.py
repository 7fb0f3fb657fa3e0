#!/usr/bin/env python3
"""CTest check of scripts/calibrate.py: runs a two-point search on a small file (fast,
not a calibration) and checks the ranking it writes. A larger per-piece cost must
slow the 8-byte cyclic patterns, which are IOP-CPU bound, and leave the 8192-byte
ones (one piece per block per CP) nearly unchanged. A search on the random-blocks
layout scores DDIO without presort against its own published values.
usage: test_calibrate.py STARFISH_BINARY"""
import json
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
    assert study["study"]["set"]["workload.layout"] == "random-blocks"
    assert study["study"]["set"]["fs.presort"] is False
    means = {c["overrides"]["workload.pattern"]: c["summary"]["mean"] for c in study["cells"]}
    for pattern, published in (("rb", 4.4983), ("wb", 4.9)):
        scored = means[pattern] / (1 + errors[f"{pattern}/8192"] / 100)
        assert abs(scored - published) < 1e-9, (pattern, scored, published)


def main():
    starfish = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        run, result = calibrate(starfish, tmp, ["--grid", "cost.ddio_piece_cycles=50,400"])
        random_blocks_search(starfish, tmp)
    ranking = result["ranking"]
    assert len(ranking) == 2, ranking
    assert ranking[0]["rms_log_error"] <= ranking[1]["rms_log_error"]
    by_cost = {r["params"]["cost.ddio_piece_cycles"]: r["errors_pct"] for r in ranking}
    assert len(by_cost[50]) == 35, "every published DDIO cell is scored"
    for cell in ("rc/8", "wc/8", "rcc/8"):
        assert by_cost[400][cell] < by_cost[50][cell] - 10, (cell, by_cost[400][cell], by_cost[50][cell])
    for cell in ("rb/8192", "wb/8192"):
        assert abs(by_cost[400][cell] - by_cost[50][cell]) < 2, (cell, by_cost[400][cell], by_cost[50][cell])
    # The printed ranking names the best combination.
    assert "best: cost.ddio_piece_cycles=" in run.stdout
    print("test_calibrate: ok")


if __name__ == "__main__":
    main()
