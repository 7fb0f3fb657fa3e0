"""The project's C, C++ and generated-template sources under some top-level
folders, in a stable order: shared by the tree checks (check_layers.py,
check_config_keys.py), which run from this folder."""

import os

SOURCE_EXT = (".h", ".hpp", ".c", ".cpp", ".cc", ".in")


def source_files(root, tops):
    """Yields (relative path with '/', text) for each source file under root/top,
    skipping hidden folders; tops that do not exist are skipped."""
    for top in tops:
        base = os.path.join(root, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                if not name.endswith(SOURCE_EXT):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, encoding="utf-8", errors="replace") as f:
                    yield rel, f.read()
