#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a native-endian pipe-mode perf.data stream (stdin) with a
FINISHED_ROUND after every K records (stdout). On a stream already in
time order (pdsort's output) the rounds are then all small, whatever
the machine's load did to perf's own, so memory that waits for rounds
is the same for a short and a long recording.

usage: rounds.py K < sorted.data > out.data
"""
import struct
import sys

AUXTRACE, TRACING_DATA, FINISHED_ROUND = 71, 66, 68


def main():
    k = int(sys.argv[1])
    data = sys.stdin.buffer.read()
    if data[:8] != b'PERFILE2':
        sys.exit('rounds.py: not a native pipe-mode stream')
    out = [data[:16]]
    pos, n = 16, 0
    rnd = struct.pack('<IHH', FINISHED_ROUND, 0, 8)
    while pos < len(data):
        kind, _, size = struct.unpack('<IHH', data[pos:pos + 8])
        if size < 8 or kind in (AUXTRACE, TRACING_DATA):
            sys.exit('rounds.py: record %d at %#x' % (kind, pos))
        out.append(data[pos:pos + size])
        pos += size
        n += 1
        if n % k == 0:
            out.append(rnd)
    out.append(rnd)
    sys.stdout.buffer.write(b''.join(out))


main()
