#!/usr/bin/env python3
"""CTest checks of the observation layer (docs/observe.md) on a small run of the
real simulator.

usage: test_observe.py MODE STARFISH_BINARY
  vcd       parse the VCD: time never goes backwards, every expected scope and
            signal is declared, CPU and bus busy times equal the run's own
            statistics; disk and network counts of the log equal them too; the
            results are bit-identical to the same run untraced
  gtkwave   open the VCD with each generated save file in the real GTKWave
            under Xvfb, check the displayed signals and probed values
  savefiles the save files of sim/waves/ are what the script makes today
  log       every line matches the documented regular expression, every >>
            pairs with one << by id
  timeline  the trace-event JSON: fields, nesting per track, flows, names
  options   bad options exit 2 before the run
  engines   the packet and the flit network engines trace identical channel signals
            and packet log lines
  identical tracing changes no simulated number: SPFS, 2PIO and DDIO with 8-byte
            records, commtest and LU on SPFS and DDIO, traced (VCD, log and
            timeline of two IOPs) and untraced, give bit-identical result JSON
"""
import decimal
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "sim", "waves"))
import vcd  # noqa: E402
import xvfb  # noqa: E402

# The documented line format (docs/observe.md, sim/trace/transaction_log.cpp).
LOG_LINE = re.compile(r"^\[(NET|SCSI|DISK|CPU|FW) (\d+\.\d{12})\] ([A-Za-z0-9_.]+) (>>|<<|--) ([A-Z]+)"
                      r"( id=0x[0-9a-f]+)?((?: [a-z_]+=[^ ]+)*)$")
SMALL = ["--config", "small", "--set", "workload.trials=1", "--set", "workload.file_mb=0.25"]


def run(starfish, tmp, *extra, config=SMALL, check=True):
    out = os.path.join(tmp, "result.json")
    cmd = [starfish, "run", *config, "--json", out, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if check:
        assert p.returncode == 0, p.stdout + p.stderr
        with open(out) as f:
            return json.load(f), p.stdout
    return p


def close(a, b, what):
    assert abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-30), f"{what}: VCD {a!r} != statistics {b!r}"


def check_vcd(starfish, tmp):
    path, log = os.path.join(tmp, "run.vcd"), os.path.join(tmp, "run.log")
    result, stdout = run(starfish, tmp, "--vcd", path, "--log", log, "--timeline",
                         os.path.join(tmp, "run.json"))
    # Tracing changes no simulated number: the same run untraced compares identical.
    traced = os.path.join(tmp, "traced.json")
    os.replace(os.path.join(tmp, "result.json"), traced)
    run(starfish, tmp)
    same = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "compare_results.py"),
                           os.path.join(tmp, "result.json"), traced], capture_output=True, text=True)
    assert same.returncode == 0, "tracing changed the results:\n" + same.stdout + same.stderr
    assert f"VCD (trial 0): {path}, {os.path.getsize(path)} bytes" in stdout, stdout
    w = vcd.read(path)
    assert all(a < b for a, b in zip(w.times, w.times[1:])), "time goes backwards or repeats"
    shape = result["machine"]
    declared = {(s.scope, s.name) for s in w.signals}
    expected = []
    for role, count in (("cp", shape["cp_count"]), ("iop", shape["iop_count"])):
        for k in range(count):
            expected += [(f"{role}{k}.cpu", n) for n in ("activity", "busy", "ready", "irq")]
            expected += [(f"{role}{k}.ni", n)
                         for n in ("tx_msg", "rx_msg", "tx_dma", "rx_dma", "rx_ring")]
    buffers = shape["disks_per_iop"] * result["config"]["ddio.buffers_per_disk"]
    for k in range(shape["iop_count"]):
        expected += [(f"iop{k}.scsi", "phase"), (f"iop{k}.scsi", "owner")]
        expected += [(f"iop{k}.fs", f"buf{b}") for b in range(buffers)]
        for t in range(shape["disks_per_iop"]):
            expected += [(f"iop{k}.disk{t}", n)
                         for n in ("state", "cylinder", "head", "command", "cache", "writes")]
    for r in range(shape["torus"][0] * shape["torus"][1]):
        for port in ("inject", "eject", "E", "W", "N", "S"):
            expected += [(f"net.r{r}.{port}", n) for n in ("busy", "pkt", "vc")]
    missing = [e for e in expected if e not in declared]
    assert not missing, f"signals not declared: {missing[:10]}"

    trial = result["trials"][0]
    # CPU busy: the time busy is 1 over the run, per node, as the run's fractions.
    for role in ("cp", "iop"):
        fractions = []
        for k in range(shape[f"{role}_count"]):
            d = vcd.durations(w, w.by_name(f"{role}{k}.cpu", "busy"))
            act = vcd.durations(w, w.by_name(f"{role}{k}.cpu", "activity"))
            idle = sum(v for a, v in act.items() if vcd.text(a) == "idle")
            assert d.get("1", 0) + idle == w.end, f"{role}{k}: busy and idle do not add up"
            fractions.append(d.get("1", 0) / w.end)
        close(sum(fractions) / len(fractions), trial["cpu_busy"][role]["mean"], f"{role} busy mean")
        close(max(fractions), trial["cpu_busy"][role]["max"], f"{role} busy max")
    bus = max(sum(v for p, v in vcd.durations(w, w.by_name(f"iop{k}.scsi", "phase")).items()
                  if vcd.text(p) != "free") for k in range(shape["iop_count"]))
    close(bus / w.end, trial["bus_busy_max"], "bus busy max")
    # The log's counts against the run's statistics.
    lines = open(log).read().splitlines()
    ends = [ln for ln in lines if " << " in ln]
    assert sum(" << CMD " in ln for ln in ends) == trial["disk"]["requests"]
    assert sum(" << PKT " in ln for ln in ends) == trial["network"]["packets"]
    positions = [dict(kv.split("=") for kv in ln.split(" -- POSITION ")[1].split())
                 for ln in lines if " -- POSITION " in ln]
    assert sum(int(p["distance"]) > 0 for p in positions) == trial["disk"]["seeks"]
    assert sum(int(p["distance"]) > 0 or int(p["rotate_ps"]) > 0
               for p in positions) == trial["disk"]["movements"]
    # The firmware's probes and notes: every block passes through a DDIO buffer's
    # `pieces` state once, and every piece went out as one Memput (8 KB records).
    entered = 0
    for k in range(shape["iop_count"]):
        for b in range(buffers):
            sig = w.by_name(f"iop{k}.fs", f"buf{b}")
            values = [vcd.text(v) for _, v in w.changes[sig.code]]
            entered += sum(v == "pieces" for v in values)
    assert entered == trial["fs"]["blocks"], (entered, trial["fs"])
    assert sum(" >> MEMPUT " in ln for ln in lines) == trial["fs"]["pieces"]
    # A disk's state shows time in transfer whenever it moved data.
    st = vcd.durations(w, w.by_name("iop0.disk0", "state"))
    assert any(vcd.text(v) == "transfer" and d > 0 for v, d in st.items()), st
    print(f"vcd: {len(w.signals)} signals, {len(w.times)} time steps, {len(lines)} log lines")


def check_log(starfish, tmp):
    log = os.path.join(tmp, "run.log")
    result, _ = run(starfish, tmp, "--log", log)
    open_by_id = {}
    last = -1.0
    counts = {}
    with open(log) as f:
        for n, line in enumerate(f, 1):
            m = LOG_LINE.match(line.rstrip("\n"))
            assert m, f"line {n} does not match the format: {line!r}"
            cat, t, comp, direction, op, ident, _ = m.groups()
            t = float(t)
            assert t >= last, f"line {n}: time goes backwards"
            last = t
            counts[op] = counts.get(op, 0) + 1
            if direction == "--":
                assert ident is None, f"line {n}: an instant has no id"
                continue
            assert ident, f"line {n}: {direction} without id"
            key = (op, ident)
            if direction == ">>":
                assert key not in open_by_id, f"line {n}: {op}{ident} begun twice"
                open_by_id[key] = n
            else:
                assert open_by_id.pop(key, None) is not None, f"line {n}: << without >>"
    assert not open_by_id, f"unpaired >>: {list(open_by_id.items())[:5]}"
    for op in ("MSG", "PKT", "CMD", "PHASE", "RUN", "POSITION", "CACHE", "MEMPUT"):
        assert counts.get(op, 0) > 0, f"no {op} lines: {counts}"
    # --log-components keeps only the components named.
    only = os.path.join(tmp, "disk.log")
    run(starfish, tmp, "--log", only, "--log-components", "iop1.disk0")
    comps = {LOG_LINE.match(ln.rstrip("\n")).group(3) for ln in open(only)}
    assert comps == {"iop1.disk0"}, comps
    # The window bounds the log too: no record outside [from, to].
    window = os.path.join(tmp, "window.log")
    run(starfish, tmp, "--log", window, "--trace-from", "1ms", "--trace-to", "3ms")
    times = [float(LOG_LINE.match(ln.rstrip("\n")).group(2)) for ln in open(window)]
    assert times, "the windowed log is empty"
    assert 0.001 <= min(times) and max(times) <= 0.003, (min(times), max(times))
    print(f"log: {sum(counts.values())} lines, {counts}")


def check_timeline(starfish, tmp):
    timeline(starfish, tmp, SMALL, ("iop0.cpu activity", "iop0.disk0 state", "iop0.scsi phase",
                                    "cp0.ni sent", "iop0.fs buf0", "iop0.fw transactions"))
    # DDIO with 8-byte records: an IOP's batches of queued Memputs to several CPs
    # are outstanding at once and need a second transaction lane to nest.
    small_records = ["--set", "workload.pattern=rbc", "--set", "workload.record_bytes=8",
                     "--set", "workload.file_mb=0.03125"]
    timeline(starfish, tmp, SMALL + small_records, ("iop0.fw transactions 1",))
    timeline(starfish, tmp, SMALL + small_records + ["--set", "fs.kind=spfs"],
             ("cp0.fw transactions", "iop0.fs cache_used"))


def timeline(starfish, tmp, config, tracks):
    path = os.path.join(tmp, "run.json")
    run(starfish, tmp, "--timeline", path, config=config)
    with open(path) as f:
        doc = json.load(f, parse_float=decimal.Decimal)  # exact: slices end where others begin
    events = doc["traceEvents"]
    named = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    processes = {e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    slices = {}
    flows = {}
    for e in events:
        for k in ("ph", "pid", "tid", "name"):
            assert k in e, f"{k} missing: {e}"
        assert e["pid"] in processes, f"unnamed process: {e}"
        if e["ph"] == "M":
            continue
        assert "ts" in e, e
        assert (e["pid"], e["tid"]) in named, f"unnamed track: {e}"
        if e["ph"] == "X":
            assert e["dur"] >= 0, e
            slices.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
            if "bind_id" in e:
                d = flows.setdefault(e["bind_id"], [0, 0])
                d[0 if e.get("flow_out") else 1] += 1
        elif e["ph"] == "C":
            assert isinstance(e["args"]["value"], int), e
    for track, ss in slices.items():
        ss.sort()
        stack = []
        for a, b in ss:
            while stack and stack[-1] <= a:
                stack.pop()
            assert not stack or b <= stack[-1], f"slices overlap without nesting on {track}"
            stack.append(b)
    assert flows, "no message flows"
    bad = {k: v for k, v in flows.items() if v != [1, 1]}
    assert not bad, f"flows without exactly one start and one end: {list(bad.items())[:5]}"
    names = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    for must in tracks:
        assert must in names, f"no track {must}"
    print(f"timeline: {len(events)} events, {len(slices)} slice tracks, {len(flows)} flows")


def check_options(starfish, tmp):
    cases = [
        (["--vcd", os.path.join(tmp, "a.vcd"), "--trace-from", "2ms", "--trace-to", "1ms"],
         "--trace-from must be earlier"),
        (["--vcd", os.path.join(tmp, "a.vcd"), "--trace", "iop9"], "unknown component 'iop9'"),
        (["--log", os.path.join(tmp, "a.log"), "--log-components", "cp0.disk0"],
         "unknown component 'cp0.disk0'"),
        (["--vcd", os.path.join(tmp, "no", "such", "dir", "a.vcd")],
         "/no/such/dir/a.vcd': the directory"),
        (["--timeline", "/proc/nonexistent/t.json"],
         "--timeline '/proc/nonexistent/t.json': the directory '/proc/nonexistent' does not exist"),
        (["--vcd", os.path.join(tmp, "a.vcd"), "--trace-to", "soon"], "--trace-to 'soon'"),
        (["--trace", "cp0"], "--trace needs --vcd or --timeline"),
        (["--log", os.path.join(tmp, "a.log"), "--trace", "cp0"],
         "--trace needs --vcd or --timeline"),
        (["--trace-from", "1ms"], "--trace-from and --trace-to need --vcd, --log or --timeline"),
        (["--vcd", os.path.join(tmp, "a.vcd"), "--trace", "net.r3.up"], "unknown component 'net.r3.up'"),
    ]
    for extra, message in cases:
        p = run(starfish, tmp, *extra, check=False)
        assert p.returncode == 2, f"{extra}: exit {p.returncode}\n{p.stdout}{p.stderr}"
        assert message in p.stderr, f"{extra}: {p.stderr!r}"
        assert "trial" not in p.stdout, f"{extra}: the run started: {p.stdout}"
    # A window and a selection that are valid: only those scopes, only that window.
    path = os.path.join(tmp, "part.vcd")
    run(starfish, tmp, "--vcd", path, "--trace", "iop1.disk0,net.r3.E,cp2",
        "--trace-from", "100us", "--trace-to", "20ms")
    w = vcd.read(path)
    scopes = {s.scope for s in w.signals}
    assert scopes == {"iop1.disk0", "net.r3.E", "cp2.cpu", "cp2.ni"}, scopes
    assert w.times[0] == 100_000_000 and w.end == 20_000_000_000, (w.times[0], w.end)
    print(f"options: {len(cases)} bad option sets rejected with exit 2")


def savefile_vcd(starfish, tmp, config):
    path = os.path.join(tmp, "header.vcd")
    run(starfish, tmp, "--vcd", path, "--trace-to", "1us", config=config)
    return path


def make_savefiles(path, out):
    subprocess.run([sys.executable, os.path.join(ROOT, "sim", "waves", "make_savefiles.py"),
                    path, out], check=True)


def check_savefiles(starfish, tmp):
    # The shipped views are for the default machine; only the header matters.
    path = savefile_vcd(starfish, tmp, ["--set", "workload.trials=1", "--set",
                                        "workload.file_mb=0.25"])
    out = os.path.join(tmp, "views")
    make_savefiles(path, out)
    shipped = os.path.join(ROOT, "sim", "waves")
    for name in sorted(os.listdir(out)):
        with open(os.path.join(out, name)) as a, open(os.path.join(shipped, name)) as b:
            assert a.read() == b.read(), f"sim/waves/{name} is stale: rerun make_savefiles.py"
    print(f"savefiles: {sorted(os.listdir(out))} current")


PROBE = r"""
set expected {%(expected)s}
set probes {%(probes)s}
set shown [gtkwave::getDisplayedSignals]
set status 0
foreach s $expected {
    if {[lsearch -exact $shown $s] < 0} { puts "MISSING $s"; set status 1 }
}
foreach p $probes {
    set name [lindex $p 0]
    set t [lindex $p 1]
    set want [lindex $p 2]
    gtkwave::setMarker $t
    set got [gtkwave::getTraceValueAtMarkerFromName $name]
    if {$got ne $want} { puts "WRONG $name at $t: got '$got' want '$want'"; set status 1 }
}
puts "DISPLAYED [llength $shown] STATUS $status"
flush stdout
exit $status
"""


def tcl_list(items):
    return " ".join("{" + i + "}" for i in items)


def shown(value, flag, signal):
    """A VCD value as GTKWave's Tcl interface reports it in a display format."""
    if value == "x":
        return None
    if flag == "820":
        return vcd.text(value)
    if flag == "24":
        return str(int(value, 2))
    if flag == "22":
        return format(int(value, 2), "0%dX" % ((signal.width + 3) // 4))
    return value if signal.width == 1 else None


def probe_values(w, flags, aliases, per_view=8):
    """Up to per_view (signal, time, value) probes: each at the middle between a
    signal's second and third change, so that a value is held there."""
    probes = []
    for s in w.signals:
        if s.full_name not in flags or len(probes) >= per_view:
            continue
        ch = w.changes[s.code]
        if len(ch) > 2 and ch[2][0] - ch[1][0] > 1:
            t = (ch[1][0] + ch[2][0]) // 2
            want = shown(vcd.value_at(w, s, t), flags[s.full_name], s)
            if want:
                probes.append(f"{aliases[s.full_name]} {t} {{{want}}}")
    return probes


def check_gtkwave(starfish, tmp):
    if shutil.which("gtkwave") is None or shutil.which("Xvfb") is None:
        print("SKIP: gtkwave or Xvfb is not installed (scripts/install-deps.sh installs them)")
        return
    path = os.path.join(tmp, "run.vcd")
    run(starfish, tmp, "--vcd", path)
    views = os.path.join(tmp, "views")
    make_savefiles(path, views)
    w = vcd.read(path)
    try:
        server, display, auth = xvfb.start(tmp)
    except (OSError, RuntimeError, subprocess.CalledProcessError) as e:
        print(f"SKIP: no X server could be started ({e})")
        return
    try:
        env = dict(os.environ, DISPLAY=display, XAUTHORITY=auth, HOME=tmp)
        for view in sorted(os.listdir(views)):
            save = os.path.join(views, view)
            expected, flags, aliases = [], {}, {}
            flag = None
            for ln in open(save):
                ln = ln.strip()
                if ln.startswith("@"):
                    flag = ln[1:]
                elif ln and ln[0] not in "[-":
                    # "+{alias} name": the trace is found by its alias
                    name = ln.split("} ", 1)[1] if ln.startswith("+{") else ln
                    expected.append(name)
                    flags[name] = flag
                    aliases[name] = ln[2:].split("} ", 1)[0] if ln.startswith("+{") else ln
            probes = probe_values(w, flags, aliases)
            assert expected, f"{view} shows no signal"
            script = os.path.join(tmp, view + ".tcl")
            with open(script, "w") as f:
                f.write(PROBE % {"expected": tcl_list(expected), "probes": tcl_list(probes)})
            p = subprocess.run(["timeout", "120", "gtkwave", "-S", script, path, save], env=env,
                               capture_output=True, text=True, cwd=tmp)
            report = [ln for ln in p.stdout.splitlines()
                      if ln.startswith(("MISSING", "WRONG", "DISPLAYED"))]
            assert p.returncode == 0 and any("STATUS 0" in r for r in report), \
                f"{view}: exit {p.returncode}\n" + "\n".join(report) + p.stderr[-2000:]
            print(f"gtkwave {view}: {len(expected)} signals shown, {len(probes)} values probed")
    finally:
        xvfb.stop(server)


def check_identical(starfish, tmp):
    # 8-byte rbc at 2 MB: large enough that the IOP disks' read streams meet
    # requests mid-run (a traced SPFS run once read the disk cache differently,
    # docs/observe.md); tracing two IOPs keeps the files small.
    cases = [(fs, ["--set", f"fs.kind={fs}", "--set", "workload.pattern=rbc",
                   "--set", "workload.record_bytes=8", "--set", "workload.file_mb=2",
                   "--set", "workload.trials=1"]) for fs in ("spfs", "2pio", "ddio")]
    cases.append(("commtest", ["--config", "commtest", "--set", "workload.trials=1"]))
    # The LU application runs its own trial code (sim/workload/lu_trial.cpp); it
    # once ran untraced whatever was asked, and the run failed on the missing file.
    cases += [(f"lu-{fs}", ["--set", "workload.kind=lu", "--set", "lu.n=64", "--set",
                            "lu.slab_cols=2", "--set", "machine.cp_count=4", "--set",
                            "machine.iop_count=4", "--set", f"fs.kind={fs}", "--set",
                            "workload.trials=1"]) for fs in ("spfs", "ddio")]
    compare = os.path.join(ROOT, "scripts", "compare_results.py")
    for name, config in cases:
        untraced = os.path.join(tmp, f"{name}.json")
        run(starfish, tmp, config=config)
        os.replace(os.path.join(tmp, "result.json"), untraced)
        run(starfish, tmp, "--vcd", os.path.join(tmp, "run.vcd"), "--log",
            os.path.join(tmp, "run.log"), "--timeline", os.path.join(tmp, "run.json"),
            "--trace", "iop0", "iop1", "net.r0", "--log-components", "iop0", "iop1", "net.r0",
            config=config)
        for written in ("run.vcd", "run.log", "run.json"):
            assert os.path.getsize(os.path.join(tmp, written)) > 0, f"{name}: {written} is empty"
        same = subprocess.run([sys.executable, compare, untraced, os.path.join(tmp, "result.json")],
                              capture_output=True, text=True)
        assert same.returncode == 0, f"{name}: tracing changed the results:\n" + same.stdout
        print(f"identical {name}: {same.stdout.strip()}")


def check_engines(starfish, tmp):
    # The packet engine and the flit engine (the reference) report the same channel
    # values (busy, packet id, VC) at the same times, and the same packet log lines.
    got = {}
    for model in ("packet", "flit"):
        path, log = os.path.join(tmp, f"{model}.vcd"), os.path.join(tmp, f"{model}.log")
        run(starfish, tmp, "--vcd", path, "--trace", "net", "--log", log, "--log-components",
            "net", config=SMALL + ["--set", f"net.model={model}"])
        w = vcd.read(path)
        got[model] = ({(s.scope, s.name): w.changes[s.code] for s in w.signals},
                      open(log).read())
    (pv, plog), (fv, flog) = got["packet"], got["flit"]
    assert pv.keys() == fv.keys()
    differ = [k for k in pv if pv[k] != fv[k]]
    assert not differ, f"channel signals differ between engines: {differ[:5]}"
    # Lines of one instant may come in another order (each engine makes its records
    # in its own order); the set of lines must be the same.
    assert sorted(plog.splitlines()) == sorted(flog.splitlines()), "the packet logs differ"
    assert any(v != "0" and v != "x" for k, ch in pv.items() if k[1] == "pkt" for _, v in ch)
    print(f"engines: {len(pv)} channel signals and {plog.count(chr(10))} log lines identical")


def main():
    mode, starfish = sys.argv[1], sys.argv[2]
    checks = {"vcd": check_vcd, "log": check_log, "timeline": check_timeline,
              "options": check_options, "savefiles": check_savefiles, "gtkwave": check_gtkwave,
              "identical": check_identical, "engines": check_engines}
    with tempfile.TemporaryDirectory() as tmp:
        checks[mode](starfish, tmp)


if __name__ == "__main__":
    main()
