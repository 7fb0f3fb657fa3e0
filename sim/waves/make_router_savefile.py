#!/usr/bin/env python3
"""Writes the GTKWave save file of the Verilog router's waveforms.

    python3 sim/waves/make_router_savefile.py RUN.fst OUT.gtkw [ROUTER]

RUN.fst is any `--rtl-fst` file of the RTL network (net.model=rtl, docs/rtl.md);
the signal names are read from its header with fst2vcd (GTKWave's tool). The
view shows router ROUTER (default r0): its ports (links, credits, injection,
ejection, error), the switch allocator, and per input VC its request, output
VC, buffer fill and head-readiness state, and per output VC its owner state and
credits. The shipped sim/waves/router.gtkw comes from a default 6x6 run.
"""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vcd  # noqa: E402
from make_savefiles import natural_key, write_view  # noqa: E402

PORTS = ["in_e", "in_w", "in_n", "in_s", "out_e", "out_w", "out_n", "out_s",
         "cr_in_e", "cr_in_w", "cr_in_n", "cr_in_s", "cr_out_e", "cr_out_w", "cr_out_n",
         "cr_out_s", "inj_valid", "inj_head", "inj_tail", "inj_data", "inj_ready",
         "ej_valid", "ej_head", "ej_tail", "ej_data", "ej_refuse", "ej_hold", "error", "busy"]
SWITCH = ["cand", "keep", "port_busy", "final_cand", "send", "ch_valid", "ch_src",
          "sent_valid", "sent_tail"]
INPUT_VC = ["req", "route_ovc", "act", "ovc", "can_go", "send", "count", "young", "gone",
            "credit", "error"]
OUTPUT_VC = ["own", "count", "grant_any", "credit_ok", "error"]


def header(fst):
    """The declarations of an FST, as a temporary VCD header."""
    text = subprocess.run(["fst2vcd", fst], capture_output=True, text=True, check=True).stdout
    end = text.find("$enddefinitions")
    with tempfile.NamedTemporaryFile("w", suffix=".vcd", delete=False) as f:
        f.write(text[: end + len("$enddefinitions $end\n")] if end >= 0 else text)
    try:
        return vcd.read_header(f.name)
    finally:
        os.unlink(f.name)


def groups(signals, router):
    def pick(scope, names):
        by_name = {s.name: s for s in signals if s.scope == scope}
        return [by_name[n] for n in names if n in by_name]

    top = f"{router}.router"
    out = [(f"{router} ports", pick(router, PORTS)),
           (f"{router} switch allocation", pick(f"{top}.switch_alloc", SWITCH))]
    scopes = sorted({s.scope for s in signals}, key=natural_key)
    for sc in scopes:
        m = re.fullmatch(re.escape(top) + r"\.g_in\[(\d+)\]\.ivc", sc)
        if m:
            fifo = pick(sc + ".buffer", ["count"])
            out.append((f"{router} input VC {m.group(1)}",
                        pick(sc, [n for n in INPUT_VC if n != "count"]) + fifo))
    for sc in scopes:
        m = re.fullmatch(re.escape(top) + r"\.g_out\[(\d+)\]\.g_(link|eject)\.ovc", sc)
        if m:
            out.append((f"{router} output VC {m.group(1)}", pick(sc, OUTPUT_VC)))
    return out


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    router = argv[3] if len(argv) == 4 else "r0"
    signals = header(argv[1])
    view = groups(signals, router)
    if not view[0][1]:
        print(f"{argv[1]}: no router {router} in this FST", file=sys.stderr)
        return 1
    write_view(argv[2], f"Verilog router {router}", view)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
