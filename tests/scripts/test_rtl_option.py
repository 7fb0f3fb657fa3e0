#!/usr/bin/env python3
"""CTest check of the option STARFISH_RTL (rtl/CMakeLists.txt), which lets
scripts/run-default.sh build the starfish executable without the Verilated models.
Builds nothing: it configures two scratch build directories, -DSTARFISH_RTL=OFF and
=ON, and reads their build graphs.
* OFF: no input of the starfish executable is Verilog, Verilator output or
  Verilator's runtime; ON (when Verilator is installed): some are, so the check
  sees them when they are there.
* Turning the option on or off changes the compile command of the RTL factory's
  library and the platform's only (and of test_rtl_build), so a build directory that run-default.sh made
  does not recompile the rest when scripts/test.sh turns the engines on.
* The factory is told which kind of build it is in (rtl/wrappers/rtl_build.h).
usage: test_rtl_option.py CMAKE NINJA SOURCE_DIR BUILD_TYPE"""
import json
import os
import re
import subprocess
import sys
import tempfile

VERILATED = re.compile(r"(^|/)V(router|ni_dma)|verilated|\.v$")
# The libraries whose compile commands carry the build's kind (rtl/CMakeLists.txt,
# sim/platform/CMakeLists.txt), and the test that checks the kind it reports.
MAY_DIFFER = ("/starfish_rtl_net.dir/", "/starfish_platform.dir/", "/test_rtl_build.dir/")


def configure(cmake, ninja, source, build_type, build_dir, rtl):
    done = subprocess.run([cmake, "-S", source, "-B", build_dir, "-G", "Ninja",
                           f"-DCMAKE_MAKE_PROGRAM={ninja}", f"-DCMAKE_BUILD_TYPE={build_type}",
                           f"-DSTARFISH_RTL={rtl}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def starfish_inputs(ninja, build_dir):
    done = subprocess.run([ninja, "-C", build_dir, "-t", "inputs", "sim/starfish"],
                          capture_output=True, text=True, check=True)
    return done.stdout.split()


def has_target(ninja, build_dir, output):
    done = subprocess.run([ninja, "-C", build_dir, "-t", "targets", "all"], capture_output=True,
                          text=True, check=True)
    return any(line.split(":")[0] == output for line in done.stdout.splitlines())


def compile_commands(build_dir):
    """{object file: compile command with the build directory's path taken out}"""
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        entries = json.load(f)
    return {re.search(r" -o (\S+)", e["command"]).group(1): e["command"].replace(build_dir, "<build>")
            for e in entries}


def main():
    cmake, ninja, source, build_type = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as tmp:
        off, on = os.path.join(tmp, "off"), os.path.join(tmp, "on")
        configure(cmake, ninja, source, build_type, off, "OFF")
        configure(cmake, ninja, source, build_type, on, "ON")

        verilated_off = [p for p in starfish_inputs(ninja, off) if VERILATED.search(p)]
        assert not verilated_off, f"STARFISH_RTL=OFF, yet starfish needs {verilated_off[:5]}"
        engines = has_target(ninja, on, "rtl/libstarfish_rtl_router_models.a")
        if engines:
            verilated_on = [p for p in starfish_inputs(ninja, on) if VERILATED.search(p)]
            assert verilated_on, "STARFISH_RTL=ON: starfish has no Verilated input"

        cmds_off, cmds_on = compile_commands(off), compile_commands(on)
        differ = sorted(o for o in cmds_off.keys() & cmds_on.keys() if cmds_off[o] != cmds_on[o])
        unexpected = [o for o in differ if not any(lib in o for lib in MAY_DIFFER)]
        assert not unexpected, f"STARFISH_RTL changes the compile command of {unexpected[:5]}"
        kind = "rtl/CMakeFiles/starfish_rtl_net.dir/wrappers/rtl_build.cpp.o"
        assert "-DSTARFISH_RTL_CONFIGURED_OFF" in cmds_off[kind], cmds_off[kind]
        if engines:
            assert "-DSTARFISH_HAVE_RTL_NET" in cmds_on[kind], cmds_on[kind]
            assert "STARFISH_RTL_CONFIGURED_OFF" not in cmds_on[kind], cmds_on[kind]
    print(f"STARFISH_RTL: OFF leaves the Verilated models out of starfish; "
          f"{len(differ)} compile commands change with it, all in the RTL factory, the "
          f"platform and test_rtl_build" + ("" if engines else " (SKIP of the ON half: no Verilator)"))


if __name__ == "__main__":
    main()
