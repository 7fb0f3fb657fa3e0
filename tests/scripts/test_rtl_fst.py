#!/usr/bin/env python3
"""--rtl-fst (docs/rtl.md): `starfish net traffic` on the Verilog router network
writes an FST with every router's signals, in which the routers really move
flits, and sim/waves/router.gtkw is what make_router_savefile.py makes of it;
`starfish run --rtl-fst` writes the machine's routers.

    test_rtl_fst.py STARFISH_BINARY
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "sim", "waves"))
import make_router_savefile  # noqa: E402
from make_savefiles import write_view  # noqa: E402


def main(argv):
    starfish = argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        fst = os.path.join(tmp, "routers.fst")
        run = subprocess.run(
            [starfish, "net", "traffic", "--pattern", "uniform", "--load", "0.2",
             "--packet-bytes", "64", "--cycles", "300", "--set", "net.model=rtl",
             "--rtl-fst", fst], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        signals = make_router_savefile.header(fst)
        tops = {s.scope for s in signals if "." not in s.scope}
        assert tops == {f"r{i}" for i in range(36)}, sorted(tops)
        # The ejection of router 0 carries flits at some point of the run.
        text = subprocess.run(["fst2vcd", fst], capture_output=True, text=True,
                              check=True).stdout
        code = next(s.code for s in signals if s.scope == "r0" and s.name == "ej_valid")
        body = text[text.find("$enddefinitions"):]
        assert f"\n1{code}\n" in body, "r0.ej_valid never rises"
        # The shipped save file is current.
        fresh = os.path.join(tmp, "router.gtkw")
        write_view(fresh, "Verilog router r0", make_router_savefile.groups(signals, "r0"))
        with open(fresh) as a, open(os.path.join(ROOT, "sim", "waves", "router.gtkw")) as b:
            assert a.read() == b.read(), "sim/waves/router.gtkw is stale: regenerate it " \
                "with sim/waves/make_router_savefile.py"
        # Without net.model=rtl the option is a configuration error.
        bad = subprocess.run([starfish, "net", "traffic", "--load", "0.1", "--cycles", "100",
                              "--rtl-fst", fst], capture_output=True, text=True)
        assert bad.returncode == 2 and "--rtl-fst" in bad.stderr, bad.stderr
        # `starfish run --rtl-fst`: the whole machine's routers (3x3 torus of the
        # small configuration), trial 0 only, the file size printed.
        fst = os.path.join(tmp, "machine.fst")
        run = subprocess.run(
            [starfish, "run", "--config", "small", "--set", "workload.trials=1",
             "--set", "workload.file_mb=0.125", "--set", "net.model=rtl", "--rtl-fst", fst],
            capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
        assert f"router RTL FST (trial 0): {fst}, {os.path.getsize(fst)} bytes" in run.stdout
        signals = make_router_savefile.header(fst)
        assert {s.scope for s in signals if "." not in s.scope} == {f"r{i}" for i in range(9)}
        bad = subprocess.run([starfish, "run", "--config", "small", "--rtl-fst", fst],
                             capture_output=True, text=True)
        assert bad.returncode == 2 and "--rtl-fst needs net.model = rtl" in bad.stderr, bad.stderr
    print("rtl fst: 36 routers traced, r0 ejects flits, router.gtkw current; "
          "starfish run --rtl-fst traces the machine's 9 routers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
