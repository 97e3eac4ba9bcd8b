# SPDX-License-Identifier: MIT
# A tiny pipe stream for the pdswap cases, in either byte order, written
# field by field here so that it does not share code with pdswap:
#   python3 mkfix.py little|big [extra]   (extra: add an unknown record)
import struct
import sys

order = '<' if sys.argv[1] == 'little' else '>'
extra = len(sys.argv) > 2


def rec(t, body, misc=0):
    return struct.pack(order + 'IHH', t, misc, 8 + len(body)) + body


# IP|TID|TIME|ID|CPU|PERIOD, sample_id_all, precise_ip 2
st = 0x1 | 0x2 | 0x4 | 0x40 | 0x80 | 0x100
if order == '<':
    flags = 1 << 18 | 2 << 15 | 1
else:
    flags = 1 << 45 | 2 << 47 | 1 << 63
attr = struct.pack(order + 'IIQQQQQIIQQQQIiQIHHIIQ', 1, 128, 0, 4000, st,
                   0, flags, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0)
assert len(attr) == 128
out = struct.pack(order + 'QQ', 0x32454c4946524550, 16)
out += rec(64, attr + struct.pack(order + 'Q', 7))
# trailer: pid tid, time, id, cpu res
trailer = struct.pack(order + 'IIQQII', 10, 11, 12345, 7, 1, 0)
out += rec(3, struct.pack(order + 'II', 10, 11) + b'ls\0\0\0\0\0\0' +
           trailer)
out += rec(10, struct.pack(order + 'IIQQQIIQQII', 10, 11, 0x400000, 4096,
                           0, 8, 1, 99, 0, 5, 2) + b'/bin/ls\0' + trailer)
out += rec(9, struct.pack(order + 'QIIQQIIQ', 0xffffffff81000000, 10, 11,
                          12346, 7, 1, 0, 4000), misc=1)
if extra:
    out += rec(100, struct.pack(order + 'Q', 0x0102030405060708))
out += rec(68, b'')
sys.stdout.buffer.write(out)
