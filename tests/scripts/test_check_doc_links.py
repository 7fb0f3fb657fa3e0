#!/usr/bin/env python3
"""CTest check of scripts/check_doc_links.py, the check that every relative link
in the README and docs/ leads somewhere: on a small git checkout of its own it
passes when every file and anchor exists (GitHub's slugs: punctuation dropped, a
repeated heading numbered, a link's text wrapped onto the next line, images), and
fails, naming the file and line, on a missing file, a missing anchor in another
file or the same one, and an anchor into a file that is not Markdown; links in
code spans, in fenced blocks and to URLs are left alone; outside a git checkout
it skips (77). (CTest doc_links runs it on the real tree.)
usage: test_check_doc_links.py"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "scripts", "check_doc_links.py")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import write_tree  # noqa: E402

GUIDE = """# Guide

## Where the arms start (`disk.start_cylinder`)

### 7. The tuning report's statements, rerun

## Notes

## Notes

```sh
[not a link](missing.md)
```
"""

README = """# Readme

See [the guide](docs/guide.md#where-the-arms-start-diskstart_cylinder), its
[item 7](docs/guide.md#7-the-tuning-reports-statements-rerun), the [second
notes](docs/guide.md#notes-1), [this page](#readme), the [script](tools/run.py)
and ![a figure](docs/figure.png). Not links: `[x](gone.md)`, [web](https://example.org/x#y).
"""


def checkout(tmp, files):
    tree = write_tree(tmp, files)
    subprocess.run(["git", "init", "-q", tree], check=True)
    subprocess.run(["git", "-C", tree, "add", "."], check=True)
    return tree


def run(tree):
    return subprocess.run([sys.executable, CHECK, tree], capture_output=True, text=True)


def main():
    clean = {"README.md": README, "docs/guide.md": GUIDE, "docs/figure.png": "png",
             "tools/run.py": "print()\n"}
    with tempfile.TemporaryDirectory() as tmp:
        r = run(checkout(tmp, clean))
        assert r.returncode == 0, (r.stdout, r.stderr)
        assert "every relative link in 2 Markdown files" in r.stdout, r.stdout

        broken = dict(clean)
        broken["README.md"] = README + (
            "\n[gone](docs/gone.md) [no anchor](docs/guide.md#nowhere)\n"
            "[no local](#guide) [not markdown](tools/run.py#main)\n"
            "[third notes](docs/guide.md#notes-2)\n")
        r = run(checkout(tmp, broken))
        assert r.returncode == 1, (r.stdout, r.stderr)
        for part in ("README.md:8: docs/gone.md: no such file",
                     "README.md:8: docs/guide.md#nowhere: no heading with the anchor #nowhere "
                     "in docs/guide.md",
                     "README.md:9: #guide: no heading with the anchor #guide in README.md",
                     "README.md:9: tools/run.py#main: an anchor into a file that is not Markdown",
                     "README.md:10: docs/guide.md#notes-2: no heading"):
            assert part in r.stdout, (part, r.stdout)
        assert len(r.stdout.splitlines()) == 5, r.stdout
        assert "5 broken links in 2 Markdown files" in r.stderr, r.stderr

        plain = os.path.join(tmp, "plain")
        os.makedirs(plain)
        r = run(plain)
        assert r.returncode == 77 and "not a git checkout" in r.stderr, (r.returncode, r.stderr)
    print("test_check_doc_links: clean tree passes, five broken links named, no checkout skipped")


if __name__ == "__main__":
    main()
