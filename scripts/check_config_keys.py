#!/usr/bin/env python3
"""The configuration-key check (docs/configuration.md, "Keys"): every registered
key is spelt once in the production sources, at its declaration, and everywhere
else through that declaration.

A declaration is one of
  #define FW_KEY_FS_KIND "fs.kind"                       (C: the firmware's keys, hw/)
  inline constexpr config::StringKey fs_kind{"fs.kind"};  (C++: hw/config/key.h)
and a C++ constant's name is its key with '.' as '_'. The check reads the C and
C++ sources of hw/, fw/, tlm_models/, rtl/, sim/ and bench/ (not tests/, not the
JSON configuration and study files), joins adjacent string literals as the
compiler does, leaves comments out, and fails on
  * a string literal equal to a registered key anywhere but at its declaration;
  * a key declared more than once, or a registered key declared nowhere.
A literal that only happens to equal a key (a statistic's name) is allowed when
its line says so in a comment: "not a configuration key".

Usage:
  check_config_keys.py SOURCE_DIR (--starfish BINARY | --keys CONFIG_JSON)
CONFIG_JSON is what `starfish config --json FILE` writes (its "parameters" list);
with --starfish the script runs that command itself. Exit 0 when clean, 1 with
one line per finding.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from source_files import source_files

TOPS = ("hw", "fw", "tlm_models", "rtl", "sim", "bench")
ALLOW_MARK = "not a configuration key"
KEY_TYPES = r"(?:config::)?(?:Int|Real|Bool|String)Key"
# What stands right before a declaring literal (the literal's first piece).
CONST_DECL = re.compile(r"\b" + KEY_TYPES + r"\s+(\w+)\s*\{\s*$")
MACRO_DECL = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w*KEY\w*)[ \t]+$", re.M)


def registered_keys(args):
    if args[0] == "--keys":
        path = args[1]
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "config.json")
            subprocess.run([args[1], "config", "--json", path], check=True,
                           stdout=subprocess.DEVNULL)
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
    return {p["key"] for p in doc["parameters"]}


WORD = re.compile(r"[A-Za-z0-9_]+")
RAW_OPEN = re.compile(r'"([^()\\ ]{0,16})\(')
STRING_PREFIXES = {"u8", "u", "U", "L", "R", "u8R", "uR", "UR", "LR"}


def string_literals(text):
    """Yields (value, start) of each string literal, adjacent ones joined as the
    compiler does; start is the offset of the first piece. Comments, character
    literals and raw strings are understood; escapes are kept as written."""
    i, n = 0, len(text)
    pending = None  # [value, start] of a literal that a next piece may extend
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c.isspace() or text.startswith("\\\n", i):
            i += 1
            continue
        raw = False
        if c.isalnum() or c == "_":
            word = WORD.match(text, i).group(0)
            i += len(word)
            if i < n and text[i] == '"' and word in STRING_PREFIXES:
                raw, c = word.endswith("R"), '"'
            else:
                if pending:
                    yield tuple(pending)
                    pending = None
                continue
        if c == '"' and raw:
            m = RAW_OPEN.match(text, i)
            if not m:
                i += 1
                continue
            close = ")" + m.group(1) + '"'
            j = text.find(close, m.end())
            j = n if j < 0 else j
            piece, end = text[m.end():j], j + len(close)
        elif c == '"':
            j = i + 1
            chars = []
            while j < n and text[j] != '"' and text[j] != "\n":
                step = 2 if text[j] == "\\" else 1
                chars.append(text[j:j + step])
                j += step
            piece, end = "".join(chars), j + 1
        else:
            if c == "'":
                j = i + 1
                while j < n and text[j] != "'" and text[j] != "\n":
                    j += 2 if text[j] == "\\" else 1
                i = j + 1
            else:
                i += 1
            if pending:
                yield tuple(pending)
                pending = None
            continue
        if pending:
            pending[0] += piece
        else:
            pending = [piece, i]
        i = end
    if pending:
        yield tuple(pending)


def scan(root, keys):
    """Returns (declarations {key: [where]}, misuses [(where, key)])."""
    declared, misuses = {}, []
    for rel, text in source_files(root, TOPS):
        lines = text.split("\n")
        for value, start in string_literals(text):
            if value not in keys:
                continue
            line = text.count("\n", 0, start) + 1
            where = f"{rel}:{line}"
            if ALLOW_MARK in lines[line - 1]:
                continue
            before = text[text.rfind("\n", 0, text.rfind("\n", 0, start)) + 1:start]
            const = CONST_DECL.search(before)
            macro = MACRO_DECL.search(before)
            if const and const.group(1) != value.replace(".", "_"):
                misuses.append((where, value, f"constant {const.group(1)} should be "
                                f"named {value.replace('.', '_')}"))
            if const or macro:
                declared.setdefault(value, []).append(where)
            else:
                misuses.append((where, value, None))
    return declared, misuses


def main(argv):
    if len(argv) != 4 or argv[2] not in ("--starfish", "--keys"):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: check_config_keys.py SOURCE_DIR (--starfish BINARY | --keys CONFIG_JSON)",
              file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    keys = registered_keys(argv[2:])
    declared, misuses = scan(root, keys)
    problems = []
    for where, key, why in misuses:
        if why:
            problems.append(f"{where}: \"{key}\": {why}")
            continue
        at = declared.get(key)
        hint = f"; use its constant (declared at {at[0]})" if at else ""
        problems.append(f"{where}: \"{key}\" written as a literal{hint}")
    for key in sorted(keys):
        at = declared.get(key, [])
        if len(at) > 1:
            problems.append(f"{at[1]}: \"{key}\" declared again (first at {at[0]})")
        elif not at:
            problems.append(f"\"{key}\" is registered but declared nowhere in the sources")
    for p in problems:
        print(p)
    if problems:
        print(f"check_config_keys: {len(problems)} problems with the {len(keys)} registered keys",
              file=sys.stderr)
        return 1
    print(f"check_config_keys: each of the {len(keys)} registered keys is spelt once, at its "
          "declaration")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
