#!/usr/bin/env python3
"""CTest: the DMA engine's RTL (ni.model=rtl, docs/rtl.md) gives bit-identical
result JSON to the TLM network interface: the communication self-test
(sim/configs/commtest.json) and a small machine (sim/configs/small.json) moving
files with disk-directed I/O, SPFS and two-phase I/O, reads and writes, on both
torus engines. Every trial of the RTL runs must verify its data, and
scripts/compare_results.py must find no difference at all (simulated times,
throughputs, statistics, event counts); so must six small cells run with both
the DMA engine's and the router's RTL against the TLM NI and packet torus. The
observation files of one DDIO and
one SPFS run (--vcd, --log, --timeline: every node's NI messages, send and
receive DMA spans, ring occupancy) must hold the same records at the same times
(the order of records within one picosecond may differ).
usage: test_ni_dma_equivalence.py STARFISH_BINARY"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPARE = os.path.join(ROOT, "scripts", "compare_results.py")


def starfish(binary, *args):
    run = subprocess.run([binary, *args], capture_output=True, text=True)
    assert run.returncode == 0, " ".join(args) + "\n" + run.stdout + run.stderr
    return run


def verified_trials(path):
    with open(path) as f:
        doc = json.load(f)
    cells = doc["cells"] if "cells" in doc else [doc]
    trials = [t for c in cells for t in c["trials"]]
    assert trials, path + ": no trials"
    for t in trials:
        assert t["verified"] is True, path + ": a trial did not verify its data"
    return len(trials)


def identical(a, b):
    run = subprocess.run([sys.executable, COMPARE, a, b], capture_output=True, text=True)
    assert run.returncode == 0, "TLM and RTL results differ:\n" + run.stdout + run.stderr
    print(run.stdout.strip())


def vcd_by_time(path):
    """The VCD's lines, the value changes of each time step as a sorted group."""
    out, group = [], []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                out.append(sorted(group))
                out.append(line)
                group = []
            else:
                group.append(line)
    out.append(sorted(group))
    return out


def timeline_events(path):
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    return sorted(json.dumps(e, sort_keys=True) for e in events)


def same_observation(binary, tmp, fs):
    files = {}
    for model in ("tlm", "rtl"):
        base = os.path.join(tmp, fs + "_" + model)
        files[model] = (base + ".vcd", base + ".log", base + ".json")
        starfish(binary, "run", "--config", "small", "--set", "fs.kind=" + fs,
                 "--set", "workload.trials=1", "--set", "ni.model=" + model,
                 "--vcd", files[model][0], "--log", files[model][1],
                 "--timeline", files[model][2])
    (tv, tl, tt), (rv, rl, rt) = files["tlm"], files["rtl"]
    assert vcd_by_time(tv) == vcd_by_time(rv), fs + ": the VCDs differ"
    with open(tl) as a, open(rl) as b:
        assert sorted(a) == sorted(b), fs + ": the transaction logs differ"
    assert timeline_events(tt) == timeline_events(rt), fs + ": the timelines differ"
    print(fs + ": VCD, log and timeline hold the same records")


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = {}
        for model in ("tlm", "rtl"):
            out[model] = os.path.join(tmp, "commtest_" + model + ".json")
            starfish(binary, "run", "--config", "commtest", "--set", "ni.model=" + model,
                     "--json", out[model])
        assert verified_trials(out["rtl"]) == 2
        identical(out["tlm"], out["rtl"])

        spec = os.path.join(tmp, "ni_dma.json")
        with open(spec, "w") as f:
            json.dump({"description": "ni.model=rtl equivalence",
                       "vary": [{"fs.kind": ["ddio", "spfs", "2pio"]},
                                {"workload.pattern": ["rb", "wc", "rn"]},
                                {"net.model": ["packet", "flit"]}]}, f)
        for model in ("tlm", "rtl"):
            out[model] = os.path.join(tmp, "study_" + model + ".json")
            # --no-cache: both runs really simulate (and leave the user's cache alone).
            starfish(binary, "study", spec, "--config", "small", "--jobs", "2", "--no-cache",
                     "--set", "workload.trials=1", "--set", "ni.model=" + model,
                     "--json", out[model])
        assert verified_trials(out["rtl"]) == 18
        identical(out["tlm"], out["rtl"])

        for fs in ("ddio", "spfs"):
            same_observation(binary, tmp, fs)

        # Both Verilog components at once (net.model=rtl, ni.model=rtl): the DMA
        # engine fills a packet's body after the network took it, so the routers
        # must take each body word as its flit enters (rtl/wrappers/rtl_torus.cpp).
        spec = os.path.join(tmp, "both.json")
        with open(spec, "w") as f:
            json.dump({"description": "net.model=rtl with ni.model=rtl",
                       "vary": [{"fs.kind": ["ddio", "spfs", "2pio"]},
                                {"workload.pattern": ["rb", "wc"]}]}, f)
        for model in ("tlm", "rtl"):
            out[model] = os.path.join(tmp, "both_" + model + ".json")
            net = "rtl" if model == "rtl" else "packet"
            starfish(binary, "study", spec, "--config", "small", "--jobs", "2", "--no-cache",
                     "--set", "workload.trials=1", "--set", "workload.file_mb=0.125",
                     "--set", "ni.model=" + model, "--set", "net.model=" + net,
                     "--json", out[model])
        assert verified_trials(out["rtl"]) == 6
        identical(out["tlm"], out["rtl"])


if __name__ == "__main__":
    main()
