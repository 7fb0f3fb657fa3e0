"""A private X server for GTKWave (tests, screenshots): Xvfb on a display it
picks itself (-displayfd), with its own cookie in a temporary directory. The
caller stops it with stop(proc) on every path."""

import os
import secrets
import signal
import subprocess


def start(tmp, fbdir=None):
    """Returns (process, display, xauthority path). With fbdir, Xvfb keeps its
    screen there as an XWD file (Xvfb_screen0)."""
    auth = os.path.join(tmp, "Xauthority")
    read_fd, write_fd = os.pipe()
    cmd = ["Xvfb", "-displayfd", str(write_fd), "-nolisten", "tcp", "-auth", auth,
           "-screen", "0", "1600x1000x24"]
    if fbdir:
        cmd += ["-fbdir", fbdir]
    proc = subprocess.Popen(cmd, pass_fds=(write_fd,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as f:
            display = ":" + f.readline().strip()
        if display == ":":
            raise RuntimeError("Xvfb reported no display")
        subprocess.run(["xauth", "-f", auth, "add", display, ".", secrets.token_hex(16)],
                       check=True, capture_output=True)
    except BaseException:
        stop(proc)
        raise
    return proc, display, auth


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
