"""Checks shared by the CTest drivers of scripts/*.py."""
import subprocess
import sys


def assert_refused(script, args, message):
    """Runs `python3 script args...` and asserts that it fails naming `message`."""
    run = subprocess.run([sys.executable, script] + args, capture_output=True, text=True)
    assert run.returncode != 0 and message in run.stderr, (run.returncode, run.stderr)
