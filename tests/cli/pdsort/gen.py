# SPDX-License-Identifier: MIT
# Fixture streams for pdsort, and a model of perf's ordered-events queue
# (tools/perf/util/ordered-events.c, written anew from its rules) that
# says what pdsort must write for them.
#   gen.py stream SEED [late] > in.data   passes of 4 CPUs, rounds, a
#                                         few timeless and user records
#   gen.py big MB > in.data               MB of samples, no round at all
#   gen.py model in.data want.data        perf's delivery order, with
#                                         pdsort's FINISHED_ROUNDs; prints
#                                         the late count
import bisect
import random
import struct
import sys

SAMPLE, COMM, ATTR, FINISHED_ROUND, FINISHED_INIT = 9, 3, 64, 68, 82
# IP | TID | TIME | CPU | PERIOD; a trailer holds TID, TIME, CPU.
SAMPLE_TYPE = 0x1 | 0x2 | 0x4 | 0x80 | 0x100
SAMPLE_ID_ALL = 1 << 18


def header():
    return b'PERFILE2' + struct.pack('<Q', 16)


def attr_rec():
    attr = struct.pack('<IIQQQQQ', 1, 128, 0, 4000, SAMPLE_TYPE, 0,
                       SAMPLE_ID_ALL) + bytes(128 - 48)
    body = attr + struct.pack('<Q', 7)
    return struct.pack('<IHH', ATTR, 0, 8 + len(body)) + body


def sample(cpu, ts, ip):
    return struct.pack('<IHHQIIQIIQ', SAMPLE, 1, 48, ip, 100 + cpu,
                       100 + cpu, ts, cpu, 0, 1)


def comm(cpu, ts):
    """A COMM whose trailer carries ts (0: timeless, as perf synthesizes)."""
    return struct.pack('<IHHII8sIIQII', COMM, 0, 48, 100 + cpu, 100 + cpu,
                       b'w%d' % cpu, 100 + cpu, 100 + cpu, ts, cpu, 0)


def user(typ):
    return struct.pack('<IHH', typ, 0, 8)


def stream(seed, late):
    rnd = random.Random(seed)
    out = [header(), attr_rec(), comm(0, 0), user(FINISHED_INIT)]
    clock = [1000] * 4
    now = 1000
    ip = 0
    for _pass in range(rnd.randint(20, 40)):
        wrote = False
        for cpu in range(4):
            # each buffer holds what its CPU did up to when it is read
            now += rnd.randint(0, 400)
            while clock[cpu] < now:
                ip += 1
                r = rnd.random()
                if r < 0.02:
                    out.append(comm(cpu, 0))
                elif r < 0.04:
                    out.append(comm(cpu, clock[cpu]))
                elif r < 0.05:
                    out.append(user(FINISHED_INIT))
                else:
                    out.append(sample(cpu, clock[cpu], ip))
                wrote = True
                # equal timestamps on one CPU and across CPUs
                clock[cpu] += rnd.choice((0, 1, 3, 10, 25))
        if late and rnd.random() < 0.1:
            out.append(sample(3, 1001, 0xdead))     # far older than any
            wrote = True
        if wrote or rnd.random() < 0.3:
            out.append(user(FINISHED_ROUND))
    return b''.join(out)


def big(mb):
    out = [header(), attr_rec()]
    n = mb * (1 << 20) // 48
    ts = [1000, 1000, 1000, 1000]
    for i in range(n):
        cpu = (i // 256) % 4
        out.append(sample(cpu, ts[cpu], i))
        ts[cpu] += 7
    return b''.join(out)


def records(data):
    pos, out = 16, []
    while pos < len(data):
        typ, _m, size = struct.unpack_from('<IHH', data, pos)
        out.append((typ, data[pos:pos + size]))
        pos += size
    return out


def timestamp(typ, rec):
    if typ == SAMPLE:
        return struct.unpack_from('<Q', rec, 24)[0]
    return struct.unpack_from('<Q', rec, len(rec) - 16)[0]


class Queue:
    """perf's ordered_events: a list sorted by time, new records after
    those with an equal time; max_timestamp follows the tail."""

    def __init__(self, out):
        self.keys, self.recs = [], []
        self.max_ts = self.next_flush = self.last_flush = 0
        self.late = 0
        self.out = out

    def queue(self, ts, rec):
        if ts < self.last_flush:
            self.late += 1
        pos = bisect.bisect_right(self.keys, ts)
        self.keys.insert(pos, ts)
        self.recs.insert(pos, rec)
        if pos == len(self.keys) - 1:
            self.max_ts = ts

    def flush(self, limit):
        if limit == 0:
            return
        n = bisect.bisect_right(self.keys, limit)
        if n == 0:
            return
        self.out.extend(self.recs[:n])
        self.last_flush = self.keys[n - 1]
        del self.keys[:n], self.recs[:n]
        self.out.append(user(FINISHED_ROUND))      # pdsort's marker

    def round(self):
        self.flush(self.next_flush)
        self.next_flush = self.max_ts


def model(inp, outp):
    data = open(inp, 'rb').read()
    out = [data[:16]]
    q = Queue(out)
    for typ, rec in records(data):
        if typ == FINISHED_ROUND:
            q.round()
        elif typ >= 64:
            out.append(rec)
        else:
            ts = timestamp(typ, rec)
            if ts in (0, 2**64 - 1):
                out.append(rec)
            else:
                q.queue(ts, rec)
    q.flush(2**64 - 1)
    open(outp, 'wb').write(b''.join(out))
    print(q.late)


def main():
    cmd = sys.argv[1]
    if cmd == 'stream':
        sys.stdout.buffer.write(stream(int(sys.argv[2]),
                                       len(sys.argv) > 3))
    elif cmd == 'big':
        sys.stdout.buffer.write(big(int(sys.argv[2])))
    elif cmd == 'model':
        model(sys.argv[2], sys.argv[3])
    else:
        sys.exit('usage: gen.py stream|big|model ...')


main()
