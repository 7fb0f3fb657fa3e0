#!/usr/bin/env python3
"""CTest: `starfish run --ni-dma-fst FILE` with ni.model=rtl writes one FST of
the DMA engine's RTL per node (FILE.cp0.fst, ...), holding every signal that
sim/waves/ni_dma.gtkw shows, with the send and receive DMA busy at some point;
without ni.model=rtl the option is a configuration error (exit 2). Reads the FST
with fst2vcd (GTKWave, scripts/install-deps.sh).
usage: test_ni_dma_fst.py STARFISH_BINARY"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAVEFILE = os.path.join(ROOT, "sim", "waves", "ni_dma.gtkw")


def signals(vcd_text):
    """{full.name: id} and {id: [values]} of a VCD."""
    names, values, scope = {}, {}, []
    body = False
    for line in vcd_text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "$scope":
            scope.append(words[2])
        elif words[0] == "$upscope":
            scope.pop()
        elif words[0] == "$var":
            ref = words[4] + (words[5] if words[5].startswith("[") else "")
            names[".".join(scope + [ref])] = words[3]
        elif words[0] == "$enddefinitions":
            body = True
        elif body and line[0] in "01":
            values.setdefault(line[1:], []).append(line[0])
        elif body and line[0] == "b":
            values.setdefault(words[1], []).append(words[0][1:])
    return names, values


def main():
    starfish = sys.argv[1]
    fst2vcd = shutil.which("fst2vcd")
    if fst2vcd is None:
        print("SKIP: fst2vcd (GTKWave) is not installed")
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "waves.fst")
        run = subprocess.run([starfish, "run", "--config", "small", "--set", "ni.model=rtl",
                              "--set", "workload.trials=1", "--ni-dma-fst", base],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "DMA engine RTL FST" in run.stdout, run.stdout
        files = sorted(f for f in os.listdir(tmp) if f.endswith(".fst"))
        assert files == sorted(["waves.cp%d.fst" % i for i in range(4)] +
                               ["waves.iop%d.fst" % i for i in range(4)]), files
        for f in ("waves.cp0.fst", "waves.iop0.fst"):
            vcd = subprocess.run([fst2vcd, os.path.join(tmp, f)], capture_output=True,
                                 text=True, check=True).stdout
            names, values = signals(vcd)
            shown = [l.strip() for l in open(SAVEFILE) if re.match(r"^ni_dma\.", l)]
            assert len(shown) > 30, shown
            missing = [s for s in shown if s not in names]
            assert not missing, f + " lacks " + ", ".join(missing)
            for busy in ("ni_dma.ni_dma.tx.dma_busy", "ni_dma.ni_dma.rx.busy",
                         "ni_dma.ni_dma.irq_rx"):
                assert "1" in values.get(names[busy], []), f + ": " + busy + " never rose"
            assert "1" not in values.get(names["ni_dma.ni_dma.error"], []), f + ": error rose"

        run = subprocess.run([starfish, "run", "--config", "small", "--set", "workload.trials=1",
                              "--ni-dma-fst", base], capture_output=True, text=True)
        assert run.returncode == 2, run.stdout + run.stderr
        assert "--ni-dma-fst needs ni.model = rtl" in run.stderr, run.stderr


if __name__ == "__main__":
    main()
