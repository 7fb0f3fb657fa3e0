#!/usr/bin/env python3
"""CTest check of scripts/lu_ratios.py, the LU paper's ratio tables (docs/lu.md): a
small LU study (N = 64 on 4 CPs and 4 IOPs, both file systems, three block sizes,
two slab sizes, two trials) is run, and every table the script writes with --json
is recomputed here from the study's trials: DDIO/SPFS traffic and time with the
time ratio's interval, the 8 KB/4 KB and 1 KB/4 KB ratios, the equal-memory pairs,
the access-time readings and the time breakdown.
usage: test_lu_ratios.py STARFISH_BINARY"""
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RATIOS = os.path.join(ROOT, "scripts", "lu_ratios.py")


def mean(values):
    return sum(values) / len(values)


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def main():
    starfish = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        spec = os.path.join(tmp, "lu.json")
        with open(spec, "w") as f:
            json.dump({"description": "lu_ratios test",
                       "set": {"workload.kind": "lu", "lu.n": 64, "machine.cp_count": 4,
                               "machine.iop_count": 4, "net.width": 3, "net.height": 3,
                               "spfs.cache_buffers_per_cp_disk": 2, "spfs.outstanding": 1,
                               "workload.trials": 2, "workload.layout": "contiguous"},
                       "vary": [{"fs.kind": ["ddio", "spfs"]}, {"fs.block_bytes": [1024, 4096, 8192]},
                                {"lu.slab_cols": [2, 4]}],
                       "metric": "elapsed_s"}, f)
        result = os.path.join(tmp, "result.json")
        run = subprocess.run([starfish, "study", spec, "--jobs", "2", "--no-cache", "--json", result],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
        tables = os.path.join(tmp, "tables.json")
        out = subprocess.run([sys.executable, RATIOS, result, "--markdown", "--json", tables],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stdout + out.stderr
        print(out.stdout)
        assert "| layout | slab | traffic | time |" in out.stdout, out.stdout
        with open(result) as f:
            doc = json.load(f)
        with open(tables) as f:
            t = json.load(f)

        trials = {}
        for cell in doc["cells"]:
            o = cell["overrides"]
            trials[(o["fs.kind"], int(o["fs.block_bytes"]), int(o["lu.slab_cols"]))] = cell["trials"]
        assert len(trials) == 12 and all(len(v) == 2 for v in trials.values())

        def field(key, get):
            return mean([get(x) for x in trials[key]])

        def elapsed(key):
            return field(key, lambda x: x["elapsed_s"])

        for block in (1024, 4096, 8192):
            rows = t["ddio_vs_spfs"][str(block)]
            assert [r["slab"] for r in rows] == [2, 4]
            for r in rows:
                d, s = ("ddio", block, r["slab"]), ("spfs", block, r["slab"])
                assert close(r["time_pct"], 100 * elapsed(d) / elapsed(s))
                assert close(r["traffic_pct"], 100 * field(d, lambda x: x["traffic_bytes"]) /
                             field(s, lambda x: x["traffic_bytes"]))
                assert r["trials"] == 2
                low, high = r["time_pct_ci95"]
                assert low <= r["time_pct"] * (1 + 1e-9) and r["time_pct"] <= high * (1 + 1e-9), r
                acc = [field(k, lambda x: x["disk_io"]["mean_request_access_ms"]) for k in (d, s)]
                assert close(r["ddio_access_ms"], acc[0]) and close(r["spfs_access_ms"], acc[1])
                assert close(r["access_gain_pct"], 100 * (1 - acc[0] / acc[1]))
                assert close(r["ddio_blocks_sorted"], field(d, lambda x: x["fs"]["blocks_per_disk_request"]))
                assert close(r["spfs_queue_depth"], field(s, lambda x: x["fs"]["mean_queue_depth"]))
        for other in (8192, 1024):
            for r in t["block_ratio"][str(other)]:
                for fs in ("spfs", "ddio"):
                    o, f4 = (fs, other, r["slab"]), (fs, 4096, r["slab"])
                    assert close(r[fs]["time_pct"], 100 * elapsed(o) / elapsed(f4))
        pairs = {(r["block"], r["spfs_slab"], r["ddio_slab"]): r for r in t["equal_memory"]}
        assert set(pairs) == {(b, 2, 4) for b in (1024, 4096, 8192)}, pairs
        for (block, s_slab, d_slab), r in pairs.items():
            assert close(r["time_pct"], 100 * elapsed(("ddio", block, d_slab)) / elapsed(("spfs", block, s_slab)))
        readings = {"access": "mean_request_access_ms", "response": "mean_response_ms",
                    "read response": "mean_read_response_ms"}
        assert [r["slab"] for r in t["access_readings"]] == [2, 4]
        for r in t["access_readings"]:
            for name, key in readings.items():
                def ms(fs, block):
                    return field((fs, block, r["slab"]), lambda x: x["disk_io"][key])
                assert ms("spfs", 4096) > 0 and ms("ddio", 4096) > 0, (name, r)
                assert close(r[name]["spfs_8_4_pct"], 100 * ms("spfs", 8192) / ms("spfs", 4096))
                assert close(r[name]["spfs_1_4_pct"], 100 * ms("spfs", 1024) / ms("spfs", 4096))
                assert close(r[name]["ddio_gain_4_pct"], 100 * (1 - ms("ddio", 4096) / ms("spfs", 4096)))
        # A response includes the controller overhead (2.2 ms) that the request
        # access leaves out.
        for x in trials[("spfs", 4096, 4)]:
            assert x["disk_io"]["mean_response_ms"] > 2.2 > 0 and \
                x["disk_io"]["mean_read_response_ms"] > 2.2
        assert len(t["breakdown"]) == 12
        for r in t["breakdown"]:
            key = (r["fs"], r["block"], r["slab"])
            for name in ("compute_s", "io_s", "io_barrier_s", "broadcast_barrier_s", "sync_s"):
                assert close(r[name], field(key, lambda x: x["cp_time"][name]["mean"])), (key, name)
            assert (r["io_barrier_s"] > 0) == (r["fs"] == "ddio"), r
    print("lu_ratios.py: every table matches the study's trials")


if __name__ == "__main__":
    main()
