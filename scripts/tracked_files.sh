# The common start of the tree checks (check_format.sh, check_python.sh), sourced
# by them once they have changed to the repository root.

# tracked_files NAME TOOL PATTERN...: sets the array `files` to the tracked files
# that match the patterns. Exits 77 (CTest: skipped), saying why under NAME, when
# TOOL or git is missing or this folder is not a git checkout (a source archive).
tracked_files() {
    local name=$1 tool=$2
    shift 2
    if ! command -v "$tool" >/dev/null || ! command -v git >/dev/null; then
        echo "$name: $tool or git is not installed (scripts/install-deps.sh installs both); skipped" >&2
        exit 77
    fi
    if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        echo "$name: $PWD is not a git checkout; skipped" >&2
        exit 77
    fi
    mapfile -t files < <(git ls-files "$@")
}
