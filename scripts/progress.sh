# Progress for the scripts a user waits on (install-deps.sh, build.sh): sourced by
# them, so that a terminal running scripts/run-default.sh or scripts/test.sh is
# never silent for long and a working step is told from a hung one.

# heartbeat LABEL: copies its input to its output line by line and, whenever no line
# has come for $STARFISH_HEARTBEAT_S seconds (20), says so:
# "LABEL: still working, 40 s since the last line".
heartbeat() {
    local label=$1 every=${STARFISH_HEARTBEAT_S:-20} line pending='' status last=$SECONDS
    while :; do
        if IFS= read -r -t "$every" line; then
            printf '%s%s\n' "$pending" "$line"
            pending=''
            last=$SECONDS
        else
            status=$?
            if [ "$status" -le 128 ]; then # end of input
                if [ -n "$pending$line" ]; then printf '%s%s\n' "$pending" "$line"; fi
                return 0
            fi
            pending+=$line # timed out, maybe inside a line
            printf '%s: still working, %d s since the last line\n' "$label" $((SECONDS - last))
        fi
    done
}

# apt_progress LOG: reads apt-get's output with its status lines (-o APT::Status-Fd=1)
# and prints a line per 10% of the download and per 5% of the unpacking and
# configuring, and every error line of dpkg in full; apt-get's other output goes to
# LOG (shown by the caller when apt-get fails).
apt_progress() {
    local log=$1 line kind pct msg shown_dl=-10 shown_pm=-5
    local status='^(dlstatus|pmstatus|pmerror|pmconffile|media-change):(.*):([0-9]+)(\.[0-9]*)?:(.*)$'
    while IFS= read -r line; do
        if ! [[ $line =~ $status ]]; then
            printf '%s\n' "$line" >>"$log"
            continue
        fi
        kind=${BASH_REMATCH[1]} pct=${BASH_REMATCH[3]} msg=${BASH_REMATCH[5]}
        case $kind in
        dlstatus)
            if [ "$pct" -ge $((shown_dl + 10)) ]; then
                shown_dl=$pct
                echo "install-deps: download ${pct}% (${msg})"
            fi
            ;;
        pmstatus)
            if [ "$pct" -ge $((shown_pm + 5)) ]; then
                shown_pm=$pct
                echo "install-deps: unpack and configure ${pct}% (${msg})"
            fi
            ;;
        *) echo "install-deps: ${kind} ${BASH_REMATCH[2]}: ${msg}" ;;
        esac
    done
}
