# SPDX-License-Identifier: MIT
# Checks for pdsort's cli cases, independent of libcommon.
#   check.py order IN OUT [D] OUT's records come in the order in which perf
#                             (report -D, or file D holding its output)
#                             delivers IN's records
#   check.py same IN OUT      multiset of IN's records (a native pipe
#                             stream) == OUT's, byte for byte, less
#                             FINISHED_ROUND and the COMPRESSED feature
#   check.py mono OUT         OUT's timestamps never go down
#   check.py rounds OUT       OUT's FINISHED_ROUNDs: count on stdout
#   check.py plain OUT        OUT holds no COMPRESSED record or feature
#   check.py data IN OUT      every record of IN's data section (a native
#                             file-mode perf.data) is in OUT, byte for
#                             byte (multiset inclusion: OUT also holds
#                             the header's records)
import re
import struct
import subprocess
import sys
from collections import Counter

KERNEL_MAX = 64
FINISHED_ROUND = 68
COMPRESSED = (81, 83)
FEATURE = 80
FEAT_COMPRESSED = 27
# The line perf report -D prints as it delivers a record: cpu and time
# when the layout has them, then the offset (for a pipe, counted from after
# the 16-byte header; %#x, so 0 has no 0x), size and type name.
DLINE = re.compile(rb'^((?:-?\d+ ){0,2})(0x[0-9a-f]+|0) \[0x([0-9a-f]+)\]: '
                   rb'PERF_RECORD_([A-Z_0-9]+)')


def records(path, lax=False):
    """(offset as perf report -D names it, type, record bytes) of a
    native pipe stream, out-of-band payloads skipped."""
    data = open(path, 'rb').read()
    assert data[:8] == b'PERFILE2' and struct.unpack_from('<Q', data, 8)[0] == 16, \
        path + ': not a native pipe stream'
    pos, out = 16, []
    while pos + 8 <= len(data):
        typ, _misc, size = struct.unpack_from('<IHH', data, pos)
        if lax and (size < 8 or pos + size > len(data)):
            break
        assert size >= 8 and pos + size <= len(data), \
            '%s: bad record at %#x' % (path, pos)
        out.append((pos - 16, typ, data[pos:pos + size]))
        pos += size
        if typ == 66:
            pos += struct.unpack_from('<I', data, pos - size + 8)[0]
        elif typ == 71:
            pos += struct.unpack_from('<Q', data, pos - size + 8)[0]
    assert pos == len(data) or lax, \
        '%s: %d trailing bytes' % (path, len(data) - pos)
    return out


def delivered(path, dtxt=None):
    """perf report -D's delivered records: (numbers, time, offset, size,
    name); numbers are the cpu and time as printed. dtxt: a file that
    already holds perf report -D's output for path."""
    if dtxt:
        text = open(dtxt, 'rb').read()
    else:
        text = subprocess.run(['perf', 'report', '-D', '-i', path],
                              stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL).stdout
    out = []
    for line in text.splitlines():
        if line[:1] == b'.' or not line:
            continue            # the hex dump, most of the text
        m = DLINE.match(line)
        if m:
            nums = m[1].split()
            t = int(nums[-1]) if nums else 0
            out.append((m[1].decode(), t, int(m[2], 16), int(m[3], 16),
                        m[4].decode()))
    return out


USER = {'ATTR', 'EVENT_TYPE', 'TRACING_DATA', 'BUILD_ID', 'FINISHED_ROUND',
        'ID_INDEX', 'AUXTRACE_INFO', 'AUXTRACE', 'AUXTRACE_ERROR',
        'THREAD_MAP', 'CPU_MAP', 'STAT_CONFIG', 'STAT', 'STAT_ROUND',
        'EVENT_UPDATE', 'TIME_CONV', 'FEATURE', 'COMPRESSED',
        'FINISHED_INIT', 'COMPRESSED2', 'HEADER_ATTR', 'HEADER_FEATURE'}


def order(inp, outp, dtxt=None):
    """Native uncompressed input: the records perf delivers, cut out of
    the input at the offsets perf names, must be OUT's byte for byte.
    Otherwise (compressed records give one offset for all they hold,
    foreign byte order changes the bytes) compare cpu, time, size and
    type, as perf report -D prints them for IN and for OUT. File input
    has no ATTR/FEATURE records, compressed input one more FEATURE: then
    only kernel records are compared."""
    d = delivered(inp, dtxt)
    raw = open(inp, 'rb').read()
    native = raw[:8] == b'PERFILE2'
    pipe = struct.unpack_from('<Q', raw, 8)[0] in (16, 16 << 56)
    if not native:
        compressed = True       # not compared byte for byte anyway
    elif pipe:
        compressed = any(t in COMPRESSED
                         for _o, t, _r in records(inp, True))
    else:                       # feature bit 27 in the file header
        compressed = bool(struct.unpack_from('<Q', raw, 72)[0] >> 27 & 1)
    kernel_only = not pipe or compressed
    skip = ('FINISHED_ROUND', 'COMPRESSED', 'COMPRESSED2')
    d = [x for x in d if x[4] not in skip and
         not (kernel_only and x[4] in USER)]
    out = [(o, t, r) for o, t, r in records(outp)
           if t != FINISHED_ROUND and not (kernel_only and t >= KERNEL_MAX)]
    if native and not compressed:
        base = 16 if pipe else 0
        want = [raw[o + base:o + base + s] for _n, _t, o, s, _name in d]
        got = [r for _o, _t, r in out]
    else:
        want = [(c, t, s, n) for c, t, _o, s, n in d]
        byoff = {o: (c, t, s, n) for c, t, o, s, n in delivered(outp)}
        got = [byoff.get(o, ('?', '?', len(r), 'type %d' % t))
               for o, t, r in out]
    if want == got:
        print('order: %d records as perf delivers them' % len(got))
        return 0
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            print('order: record %d: perf delivers %s, pdsort wrote %s'
                  % (i, str(a)[:60], str(b)[:60]))
            break
    else:
        print('order: perf delivers %d records, pdsort wrote %d'
              % (len(want), len(got)))
    return 1


def keep(typ, rec):
    if typ == FINISHED_ROUND:
        return False
    return not (typ == FEATURE and len(rec) >= 16 and
                struct.unpack_from('<Q', rec, 8)[0] == FEAT_COMPRESSED)


def same(inp, outp):
    a = Counter(r for _o, t, r in records(inp) if keep(t, r))
    b = Counter(r for _o, t, r in records(outp) if keep(t, r))
    if a == b:
        print('same: %d records' % sum(a.values()))
        return 0
    print('same: %d only in input, %d only in output'
          % (sum((a - b).values()), sum((b - a).values())))
    return 1


def data_section(path):
    """The records of a native file-mode perf.data's data section."""
    raw = open(path, 'rb').read()
    assert raw[:8] == b'PERFILE2' and \
        struct.unpack_from('<Q', raw, 8)[0] in (72, 104), \
        path + ': not a native perf.data file'
    off, size = struct.unpack_from('<QQ', raw, 40)
    pos, end, out = off, off + size, []
    while pos + 8 <= end:
        typ, _misc, sz = struct.unpack_from('<IHH', raw, pos)
        assert sz >= 8 and pos + sz <= end, \
            '%s: bad record at %#x' % (path, pos)
        rec = raw[pos:pos + sz]
        pos += sz
        if typ == 71:           # AUXTRACE: its payload follows, skipped
            pos += struct.unpack_from('<Q', rec, 8)[0]      # as records()
        out.append((typ, rec))
    return out


def data(inp, outp):
    # simpleperf keeps its tracing data inside a TRACING_DATA record in
    # the data section; a stream carries it as perf's out-of-band form.
    a = Counter(r for t, r in data_section(inp) if t != 66)
    b = Counter(r for _o, t, r in records(outp))
    lost = a - b
    if not lost:
        print('data: %d records of the data section kept' % sum(a.values()))
        return 0
    print('data: %d records of the data section lost' % sum(lost.values()))
    return 1


def mono(outp):
    byoff = {o: t for _c, t, o, _s, n in delivered(outp)}
    last, n = 0, 0
    for off, typ, _r in records(outp):
        t = byoff.get(off, 0)
        if typ >= KERNEL_MAX or t in (0, -1, 2**64 - 1):
            continue
        if t < last:
            print('mono: time %d at offset %#x after %d' % (t, off, last))
            return 1
        last, n = t, n + 1
    print('mono: %d timestamps in order' % n)
    return 0


def main():
    cmd = sys.argv[1]
    if cmd == 'order':
        return order(sys.argv[2], sys.argv[3],
                     sys.argv[4] if len(sys.argv) > 4 else None)
    if cmd == 'same':
        return same(sys.argv[2], sys.argv[3])
    if cmd == 'data':
        return data(sys.argv[2], sys.argv[3])
    if cmd == 'mono':
        return mono(sys.argv[2])
    if cmd == 'rounds':
        print(sum(1 for _o, t, _r in records(sys.argv[2])
                  if t == FINISHED_ROUND))
        return 0
    if cmd == 'plain':
        bad = [t for _o, t, r in records(sys.argv[2])
               if t in COMPRESSED or not keep(t, r) and t == FEATURE]
        print('plain: %d compressed records or features' % len(bad))
        return 1 if bad else 0
    sys.exit('usage: check.py order|same|mono|rounds|plain|data ...')


sys.exit(main())
