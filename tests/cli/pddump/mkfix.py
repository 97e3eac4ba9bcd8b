# SPDX-License-Identifier: MIT
"""Writes small pipe-mode fixtures for the pddump cases (no perf needed).

    python3 mkfix.py basic > basic.data      # a stream of every shape below
    python3 mkfix.py truncated > trunc.data  # the same, cut inside a record
"""
import struct
import sys

IP, TID, TIME, CALLCHAIN, ID, CPU, PERIOD, RAW = 1, 2, 4, 32, 64, 128, 256, 1024


def rec(rtype, misc, payload):
    return struct.pack("<IHH", rtype, misc, 8 + len(payload)) + payload


def attr(atype, config, sample_type, flags):
    a = struct.pack("<IIQQQQQ", atype, 128, config, 4000, sample_type, 0,
                    flags)
    return a + bytes(128 - len(a))


def cstr(s, pad=8):
    b = s.encode() + b"\0"
    return b + bytes(-len(b) % pad)


def basic():
    st = IP | TID | TIME | ID | CPU | PERIOD | CALLCHAIN
    out = struct.pack("<QQ", 0x32454C4946524550, 16)
    # cpu-clock (software 0), sample_id_all (bit 18), ids 7 and 8
    out += rec(64, 0, attr(1, 0, st, 1 << 18) + struct.pack("<QQ", 7, 8))
    # HOSTNAME feature: u64 feat id 3, u32 len 64, "box" padded to 64
    out += rec(80, 0, struct.pack("<QI", 3, 64) + cstr("box", 64))
    # trailer for TID|TIME|ID|CPU: pid, tid, time, id, cpu, res
    trailer = struct.pack("<IIQQII", 42, 43, 1000, 7, 1, 0)
    out += rec(3, 0x2000, struct.pack("<II", 42, 43) + cstr("my prog") +
               trailer)
    # SAMPLE: ip, pid/tid, time, id, cpu, period, callchain
    out += rec(9, 2, struct.pack("<QIIQQIIQQQQ", 0x401000, 42, 43, 2000, 8,
                                 1, 0, 4000, 2, 0xfffffffffffffe00,
                                 0x401000))
    out += rec(200, 0, b"\x01\x02\x03\x04\x05\x06\x07\x08")
    out += rec(68, 0, b"")
    return out


if __name__ == "__main__":
    data = basic()
    if sys.argv[1] == "truncated":
        data = data[:-20]
    sys.stdout.buffer.write(data)
