#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""usage: tests/pngstat.py FILE.png

Decode a PNG (8-bit greyscale, RGB or RGBA, not interlaced: what
chromium's --screenshot writes) with the standard library alone and print
"WIDTH HEIGHT NONWHITE COLOURS": the pixels that are not white and the
distinct colours.  A blank page gives 0 and 1.  Exit 2 on a file it cannot
read, saying why."""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    if hdr is None:
        raise ValueError("no IHDR")
    w, h, depth, ctype, _, _, interlace = hdr
    bpp = {0: 1, 2: 3, 6: 4}.get(ctype)
    if depth != 8 or bpp is None or interlace:
        raise ValueError("PNG depth %d colour type %d interlace %d not read here" % (depth, ctype, interlace))
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                line[x] = (line[x] + paeth(a, b, c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    try:
        with open(sys.argv[1], "rb") as f:
            w, h, bpp, rows = decode(f.read())
    except (OSError, ValueError, zlib.error, struct.error, IndexError) as e:
        print("pngstat: %s: %s" % (sys.argv[1], e), file=sys.stderr)
        return 2
    white = b"\xff" * min(bpp, 3)
    nonwhite, colours = 0, set()
    for r in rows:
        for x in range(0, len(r), bpp):
            px = r[x:x + min(bpp, 3)]
            colours.add(px)
            if px != white:
                nonwhite += 1
    print(w, h, nonwhite, len(colours))
    return 0


if __name__ == "__main__":
    sys.exit(main())
