#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent record lister for the zstd tests: reads a little-endian
# pipe-mode stream, decompresses the payloads of all COMPRESSED and
# COMPRESSED2 records with the zstd CLI (one stream, as perf writes it),
# and lists one line per record, "type size sha1" (out-of-band payloads
# included in the hash), leaving out the compressed records and the
# COMPRESSED feature. Sorted, the output is the record multiset.
# Stops quietly at a record that runs past the end (trailing garbage).
import hashlib, struct, subprocess, sys

nz = {}

def walk(b, out, payloads):
    i = 0
    while i + 8 <= len(b):
        t, misc, size = struct.unpack_from('<IHH', b, i)
        if size < 8 or i + size > len(b):
            break
        extra = 0
        if t == 66 and size >= 12:
            extra = struct.unpack_from('<I', b, i + 8)[0]
        elif t == 71 and size >= 16:
            extra = struct.unpack_from('<Q', b, i + 8)[0]
        rec = b[i:i + size + extra]
        if t in (81, 83):
            nz[t] = nz.get(t, 0) + 1
        if payloads is not None and t == 81:
            payloads.append(b[i + 8:i + size])
        elif payloads is not None and t == 83:
            n = struct.unpack_from('<Q', b, i + 8)[0]
            payloads.append(b[i + 16:i + 16 + n])
        elif t == 80 and struct.unpack_from('<Q', b, i + 8)[0] == 27:
            pass
        else:
            out.append('%d %d %s' % (t, size,
                hashlib.sha1(rec).hexdigest()))
        i += size + extra

def listing(b):
    assert b[:8] == b'PERFILE2' and struct.unpack_from('<Q', b, 8)[0] == 16
    out, payloads = [], []
    walk(b[16:], out, payloads)
    if payloads:
        # perf never ends its frame: zstd reports a premature end after
        # writing everything out, so its status is not looked at.
        p = subprocess.run(['zstd', '-dcq'], input=b''.join(payloads),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        walk(p.stdout, out, None)
    return ''.join(l + '\n' for l in sorted(out))

# recs.py < stream: the listing on standard output; recs.py FILE...: the
# listing of each FILE into FILE.recs and its count of COMPRESSED and
# COMPRESSED2 records into FILE.nz (one python start for many files).
if len(sys.argv) > 1:
    for f in sys.argv[1:]:
        nz.clear()
        with open(f, 'rb') as i, open(f + '.recs', 'w') as o:
            o.write(listing(i.read()))
        # how many compressed records of each type it holds
        with open(f + '.nz', 'w') as o:
            o.write('81:%d 83:%d\n' % (nz.get(81, 0), nz.get(83, 0)))
else:
    sys.stdout.write(listing(sys.stdin.buffer.read()))
