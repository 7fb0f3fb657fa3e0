"""Checks shared by the CTest drivers of scripts/*.py."""
import os
import shutil
import subprocess
import sys


def assert_refused(script, args, message):
    """Runs `python3 script args...` and asserts that it fails naming `message`."""
    run = subprocess.run([sys.executable, script] + args, capture_output=True, text=True)
    assert run.returncode != 0 and message in run.stderr, (run.returncode, run.stderr)


def write_tree(tmp, files):
    """Writes {relative path: text} under tmp/tree, which it empties first; returns the tree."""
    tree = os.path.join(tmp, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    for rel, text in files.items():
        path = os.path.join(tree, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return tree
