#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a screenshot shows, without PIL: decodes an 8-bit RGB or RGBA,
non-interlaced PNG (what Chromium writes) with zlib and struct, and
prints "colours N pixels_of R,G,B M" for each colour asked for (M: how
many pixels have exactly that colour).

usage: pngstat.py FILE [R,G,B]...
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('pngstat: not a PNG')
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB',
                                                                 body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit('pngstat: unsupported PNG (depth %d, type %d)' % (depth,
                                                                   ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    pixels = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        for x in range(w):
            pixels.append(bytes(line[x * bpp:x * bpp + 3]))
        prev = line
    return pixels


def main():
    pixels = decode(sys.argv[1])
    counts = {}
    for p in pixels:
        counts[p] = counts.get(p, 0) + 1
    out = ['colours %d' % len(counts)]
    for want in sys.argv[2:]:
        rgb = bytes(int(v) for v in want.split(','))
        out.append('pixels_of %s %d' % (want, counts.get(rgb, 0)))
    print(' '.join(out))


main()
