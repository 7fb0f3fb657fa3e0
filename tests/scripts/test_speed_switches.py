#!/usr/bin/env python3
"""CTest check that every speed trick is exact (docs/developing.md, "Speed tricks"):
a regression set run with every `speed.*` switch off and with every one on must
give identical result documents (scripts/compare_results.py; the SystemC event
count, which the tricks exist to lower, is the only field left out). The switches
are found in `starfish config`, so a new trick is covered once it declares its
switch there.

The regression set: the `main` study at 2 MB (SPFS, 2PIO, DDIO with and without
presort on both layouts, 8-byte and 8 KB records), a small LU run on both file
systems, and sparse synthetic traffic on the torus alone. Each switch's own test
shows that its off path really runs differently (test_net_speed_switches,
test_node_speed_switches, test_disk's stream-anchor cases, test_ni_irq_batching).
usage: test_speed_switches.py STARFISH_BINARY"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPARE = os.path.join(ROOT, "scripts", "compare_results.py")


def speed_switches(starfish, tmp):
    path = os.path.join(tmp, "config.json")
    subprocess.run([starfish, "config", "--json", path], check=True, capture_output=True)
    with open(path) as f:
        params = json.load(f)["parameters"]
    return sorted(p["key"] for p in params if p["key"].startswith("speed."))


def check_net_traffic(starfish, switches, tmp):
    """Sparse traffic on the torus alone, where run-ahead carries lone packets: the
    same measurements either way, and more kernel events without the tricks, which
    shows the switches reach the engine from the command line."""
    docs = {}
    for value in ("true", "false"):
        path = os.path.join(tmp, f"net.{value}.json")
        cmd = [starfish, "net", "traffic", "--load", "0.01", "--packet-bytes", "1024",
               "--json", path]
        for key in switches:
            cmd += ["--set", f"{key}={value}"]
        subprocess.run(cmd, check=True, capture_output=True)
        with open(path) as f:
            docs[value] = json.load(f)
    def results(doc):  # what was simulated: no host figures, no configuration echo
        if isinstance(doc, dict):
            return {k: results(v) for k, v in doc.items()
                    if k not in ("host", "config", "command", "starfish_version")}
        return doc

    assert results(docs["true"]) == results(docs["false"]), \
        "net traffic: every trick on and every trick off differ"
    events_on, events_off = docs["true"]["host"]["events"], docs["false"]["host"]["events"]
    assert events_off > events_on, f"net traffic: {events_off} kernel events with every " \
        f"trick off, {events_on} with every one on: the switches changed nothing"
    print(f"net traffic: identical; {events_on} kernel events with the tricks, {events_off} "
          "without")


def run_all(starfish, switches, value, tmp):
    sets = []
    for key in switches:
        sets += ["--set", f"{key}={value}"]
    label = "on" if value == "true" else "off"
    jobs = [
        ("main", [starfish, "study", "main", "--no-cache", "-j", "2", "--set",
                  "workload.trials=1", "--set", "workload.file_mb=2"]),
        ("lu-spfs", [starfish, "run", "--set", "workload.kind=lu", "--set", "lu.n=128",
                     "--set", "fs.kind=spfs"]),
        ("lu-ddio", [starfish, "run", "--set", "workload.kind=lu", "--set", "lu.n=128",
                     "--set", "fs.kind=ddio"]),
    ]
    outputs = {}
    for name, cmd in jobs:
        path = os.path.join(tmp, f"{name}.{label}.json")
        done = subprocess.run(cmd + sets + ["--json", path], capture_output=True, text=True)
        assert done.returncode == 0, f"{name} with speed.*={value}: {done.stdout}{done.stderr}"
        outputs[name] = path
    return outputs


def main():
    starfish = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        switches = speed_switches(starfish, tmp)
        assert switches, "starfish config lists no speed.* switch"
        on = run_all(starfish, switches, "true", tmp)
        off = run_all(starfish, switches, "false", tmp)
        for name in on:
            same = subprocess.run([sys.executable, COMPARE, "--ignore", "events", on[name],
                                   off[name]], capture_output=True, text=True)
            assert same.returncode == 0, f"{name}: every trick on and every trick off differ:\n" \
                + same.stdout + same.stderr
            print(f"{name}: {same.stdout.strip().splitlines()[-1]}")
        check_net_traffic(starfish, switches, tmp)
    print(f"speed switches exact: {', '.join(switches)}")


if __name__ == "__main__":
    main()
