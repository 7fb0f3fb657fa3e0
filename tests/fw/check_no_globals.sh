#!/bin/sh
# Fails if a firmware library or object defines writable data (docs/developing.md: no mutable
# globals in firmware, since every node's firmware shares one process). Writable
# means nm class B/b/D/d/G/g/S/s/C, or a symbol in a .data/.bss/.tdata/.tbss section;
# .data.rel.ro (read-only after relocation) is allowed, and so are symbols that
# coverage or sanitizer instrumentation adds.
# Usage: check_no_globals.sh NM FILE...
set -eu
if [ "$#" -lt 2 ]; then
    echo "usage: $0 NM LIBRARY_OR_OBJECT..." >&2
    exit 2
fi
nm_tool=$1
shift
listing=$("$nm_tool" --format=sysv --defined-only "$@")
offenders=$(printf '%s\n' "$listing" | awk -F'|' '
    /^Symbols from / { object = $0; sub(/^Symbols from /, "", object); sub(/:$/, "", object); next }
    NF < 7 { next }
    {
        name = $1; class = $3; section = $7
        gsub(/^[ \t]+|[ \t]+$/, "", name)
        gsub(/[ \t]/, "", class)
        gsub(/^[ \t]+|[ \t]+$/, "", section)
        if (name ~ /^(__gcov|__llvm_|__asan|__ubsan|__sancov|__tsan|\.L)/) next
        if (section ~ /^\.data\.rel\.ro/) next
        writable_class = (class ~ /^[BbDdGgSsC]$/)
        writable_section = (section ~ /^\.(data|bss|tdata|tbss|sdata|sbss)/ || section == "*COM*")
        if (writable_class || writable_section)
            printf "  %s: %s (nm class %s, section %s)\n", object, name, class, section
    }')
if [ -n "$offenders" ]; then
    echo "firmware defines mutable global or static data (docs/developing.md forbids it):"
    printf '%s\n' "$offenders"
    exit 1
fi
echo "no mutable globals in: $*"
