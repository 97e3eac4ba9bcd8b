# SPDX-License-Identifier: MIT
"""A reader of protobuf's wire format for the tests' checks of pprof
files: its own, not ours (pdstat/pb.c) and not the consumer's."""
import gzip
import sys


def varint(b, i):
    """The varint at b[i]: its value and the offset after it."""
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    """Each field of message b: (number, int) for varints, (number,
    bytes) for length-delimited ones; any other wire type fails."""
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        if key & 7 == 0:
            v, i = varint(b, i)
            yield key >> 3, v
        elif key & 7 == 2:
            n, i = varint(b, i)
            yield key >> 3, b[i:i + n]
            i += n
        else:
            sys.exit("FAIL: wire type %d at %d" % (key & 7, i))


def profile(path):
    """The profile.proto message of a gzipped pprof file."""
    with gzip.open(path) as f:
        return f.read()
