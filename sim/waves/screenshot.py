#!/usr/bin/env python3
"""A PNG of GTKWave showing a VCD with a save file, taken on a private Xvfb
(docs/observe.md uses it for its figure).

    python3 sim/waves/screenshot.py RUN.vcd VIEW.gtkw OUT.png [seconds]
"""

import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb  # noqa: E402


def xwd_to_png(xwd_path, png_path):
    """Converts Xvfb's 24-bit TrueColor screen file to PNG."""
    data = open(xwd_path, "rb").read()
    h = struct.unpack(">25I", data[:100])
    header_size, width, height = h[0], h[4], h[5]
    byte_order, bpp, bytes_per_line, ncolors = h[7], h[11], h[12], h[19]
    if bpp != 32:
        raise ValueError(f"{xwd_path}: {bpp} bits per pixel, expected 32")
    pixels = data[header_size + 12 * ncolors:]
    rows = []
    for y in range(height):
        line = pixels[y * bytes_per_line:y * bytes_per_line + 4 * width]
        if byte_order == 0:  # LSB first: B G R X
            rgb = bytearray(3 * width)
            rgb[0::3], rgb[1::3], rgb[2::3] = line[2::4], line[1::4], line[0::4]
        else:  # X R G B
            rgb = bytearray(3 * width)
            rgb[0::3], rgb[1::3], rgb[2::3] = line[1::4], line[2::4], line[3::4]
        rows.append(b"\0" + bytes(rgb))

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff))

    png = (b"\x89PNG\r\n\x1a\n" +
           chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
           chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))
    with open(png_path, "wb") as f:
        f.write(png)


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    vcd, view, out = (os.path.abspath(a) for a in argv[1:4])
    wait = float(argv[4]) if len(argv) == 5 else 8.0
    with tempfile.TemporaryDirectory() as tmp:
        server, display, auth = xvfb.start(tmp, fbdir=tmp)
        try:
            env = dict(os.environ, DISPLAY=display, XAUTHORITY=auth, HOME=tmp)
            zoom = os.path.join(tmp, "zoom.tcl")
            with open(zoom, "w") as f:
                f.write("gtkwave::/Time/Zoom/Zoom_Full\n")
            viewer = subprocess.Popen(["gtkwave", "-S", zoom, vcd, view], env=env, cwd=tmp,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                time.sleep(wait)
                xwd_to_png(os.path.join(tmp, "Xvfb_screen0"), out)
            finally:
                viewer.terminate()
                viewer.wait(timeout=10)
        finally:
            xvfb.stop(server)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
