#!/usr/bin/env python3
"""The layering check (docs/developing.md, "Layers"): no lower layer includes a
header of, or links a library of, a higher one.

Layers, bottom to top:
  contracts   hw/ (register maps, packet and record formats, the parameter mechanism)
  components  fw/, tlm_models/, rtl/ — each owning its parameters; fw sees no
              model, a model no firmware; an RTL engine may use its TLM twin's
              interface (rtl -> tlm_models), never the other way
  platform    sim/platform/ (assembles a machine, chooses TLM or RTL engines)
  command     sim/ (the starfish command)
tests/ and bench/ may use everything.

Usage:
  check_layers.py SOURCE_DIR [TARGETS_FILE]
TARGETS_FILE is written by CMake (build/layers/targets.txt): one line per target,
"name<TAB>source dir<TAB>linked libraries separated by ;". Without it only the
includes are checked. Exit 0 when clean, 1 with one line per violation.
"""
import os
import re
import sys

from source_files import source_files

# Folder (relative to the source tree) -> group; the longest matching prefix wins.
GROUPS = {
    "hw": "contracts",
    "fw": "fw",
    "tlm_models": "tlm_models",
    "rtl": "rtl",
    "sim/platform": "platform",
    "sim": "command",
    "tests": "tests",
    "bench": "tests",
}
# What each group may include or link, besides itself.
ALLOWED = {
    "contracts": {"contracts"},
    "fw": {"contracts", "fw"},
    "tlm_models": {"contracts", "tlm_models"},
    "rtl": {"contracts", "tlm_models", "rtl"},
    "platform": {"contracts", "fw", "tlm_models", "rtl", "platform"},
    "command": {"contracts", "fw", "tlm_models", "rtl", "platform", "command"},
    "tests": None,  # anything
}
LAYER_NAME = {
    "contracts": "contracts (hw/)",
    "fw": "component fw/",
    "tlm_models": "component tlm_models/",
    "rtl": "component rtl/",
    "platform": "platform (sim/platform/)",
    "command": "command (sim/)",
    "tests": "tests",
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def group_of(rel):
    rel = rel.replace(os.sep, "/")
    best = None
    for prefix, group in GROUPS.items():
        if rel == prefix or rel.startswith(prefix + "/"):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, group)
    return best[1] if best else None


def allowed(src_group, dst_group):
    if src_group is None or dst_group is None or dst_group == src_group:
        return True
    permitted = ALLOWED[src_group]
    return permitted is None or dst_group in permitted


def check_includes(root):
    problems = []
    tops = [top for top in sorted(GROUPS) if "/" not in top]
    for rel, text in source_files(root, tops):
        src = group_of(rel)
        for match in INCLUDE.finditer(text):
            inc = match.group(1)
            # Only project paths name a layer; "x.h" beside the file does not.
            if "/" not in inc or not os.path.exists(os.path.join(root, inc)):
                continue
            dst = group_of(inc)
            if not allowed(src, dst):
                line = text.count("\n", 0, match.start()) + 1
                problems.append(
                    f"{rel}:{line}: {LAYER_NAME[src]} includes {inc}, "
                    f"a header of {LAYER_NAME[dst]}")
    return problems


def check_links(root, targets_file):
    problems = []
    targets = {}
    with open(targets_file, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                continue
            name, source_dir, links = parts
            rel = os.path.relpath(source_dir, root)
            targets[name] = (group_of(rel), [l for l in links.split(";") if l])
    for name, (group, links) in sorted(targets.items()):
        for lib in links:
            lib = re.sub(r"^\$<LINK_ONLY:(.*)>$", r"\1", lib)
            if lib not in targets:
                continue  # a system or imported library
            dst = targets[lib][0]
            if not allowed(group, dst):
                problems.append(f"target {name} ({LAYER_NAME[group]}) links {lib}, "
                                f"a library of {LAYER_NAME[dst]}")
    return problems, len(targets)


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: check_layers.py SOURCE_DIR [TARGETS_FILE]", file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    problems = check_includes(root)
    checked = "includes"
    if len(argv) == 3:
        link_problems, count = check_links(root, argv[2])
        problems += link_problems
        checked = f"includes and the links of {count} targets"
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} layering violations", file=sys.stderr)
        return 1
    print(f"check_layers: {checked} follow the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
