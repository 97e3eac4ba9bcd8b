#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a native-endian pipe-mode perf.data stream (stdin) with every
SAMPLE record repeated N times in place (stdout): the same stacks, N
times the samples. Streams with out-of-band payloads are refused.

usage: repeat.py N < in.data > out.data
"""
import struct
import sys

SAMPLE, AUXTRACE, TRACING_DATA = 9, 71, 66


def main():
    n = int(sys.argv[1])
    data = sys.stdin.buffer.read()
    if data[:8] != b'PERFILE2':
        sys.exit('repeat.py: not a native pipe-mode stream')
    out = [data[:16]]
    pos = 16
    while pos < len(data):
        kind, _, size = struct.unpack('<IHH', data[pos:pos + 8])
        if size < 8 or kind in (AUXTRACE, TRACING_DATA):
            sys.exit('repeat.py: record %d at %#x' % (kind, pos))
        rec = data[pos:pos + size]
        out.append(rec * n if kind == SAMPLE else rec)
        pos += size
    sys.stdout.buffer.write(b''.join(out))


main()
