#!/usr/bin/env python3
"""Every relative link in the README and docs/ leads somewhere (docs/developing.md).

    scripts/check_doc_links.py [ROOT]

Checks each Markdown link `[text](target)` and `[text](target#anchor)` in the
tracked `*.md` files of ROOT (default: the repository this script is in) whose
target is not a URL: the file or directory must exist, and an anchor must be the
slug of a heading in the target Markdown file, made as GitHub makes it (lower
case; punctuation but `-` and `_` dropped; spaces to `-`; a repeated heading gets
`-1`, `-2`, ...). Links inside code spans and fenced code blocks are not links.
Prints every broken link as FILE:LINE: TARGET: why, and exits 1 if there is one;
exits 77 (CTest: skipped) when ROOT is not a git checkout.
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^()\s]+(?:\([^()\s]*\))?[^()\s]*)\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^()\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def lines_outside_fences(text):
    """(line number, line) of every line that is not inside a fenced code block."""
    inside = None
    for number, line in enumerate(text.splitlines(), 1):
        fence = FENCE.match(line)
        if fence:
            if inside is None:
                inside = fence.group(1)
                continue
            if fence.group(1) == inside:
                inside = None
                continue
        if inside is None:
            yield number, line


def anchors(path, cache):
    if path not in cache:
        seen = {}
        found = set()
        with open(path, encoding="utf-8") as f:
            for _, line in lines_outside_fences(f.read()):
                m = HEADING.match(line)
                if not m:
                    continue
                base = slug(m.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else f"{base}-{count}")
        cache[path] = found
    return cache[path]


def is_url(target):
    return re.match(r"^[a-z][a-z0-9+.-]*:", target) is not None


def check_file(root, rel, cache):
    """The broken links of one Markdown file, as (line, target, why)."""
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    # Fenced lines become empty and code spans blanks, so that offsets keep their
    # line numbers; a link's text may wrap onto the next line.
    kept = dict(lines_outside_fences(text))
    lines = [kept.get(n, "") for n in range(1, len(text.splitlines()) + 1)]
    plain = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), "\n".join(lines))
    found = [(m.start(), m.group(1)) for m in LINK.finditer(plain)]
    found += [(m.start(), m.group(1)) for m in IMAGE.finditer(plain)]
    broken = []
    for offset, target in sorted(found):
        number = plain.count("\n", 0, offset) + 1
        if is_url(target):
            continue
        file_part, _, anchor = target.partition("#")
        dest = path
        if file_part:
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
        if not os.path.exists(dest):
            broken.append((number, target, "no such file"))
            continue
        if not anchor:
            continue
        if not dest.endswith(".md") or os.path.isdir(dest):
            broken.append((number, target, "an anchor into a file that is not Markdown"))
            continue
        if anchor not in anchors(dest, cache):
            broken.append((number, target, f"no heading with the anchor #{anchor} in "
                           f"{os.path.relpath(dest, root)}"))
    return broken


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files", "*.md"], check=True,
                                capture_output=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        print(f"check_doc_links: {root} is not a git checkout (or git is missing); skipped",
              file=sys.stderr)
        return 77
    cache = {}
    broken = 0
    for rel in sorted(listed):
        for number, target, why in check_file(root, rel, cache):
            print(f"{rel}:{number}: {target}: {why}")
            broken += 1
    if broken:
        print(f"check_doc_links: {broken} broken links in {len(listed)} Markdown files",
              file=sys.stderr)
        return 1
    print(f"check_doc_links: every relative link in {len(listed)} Markdown files leads somewhere")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
