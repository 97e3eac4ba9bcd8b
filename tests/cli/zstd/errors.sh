# SPDX-License-Identifier: MIT
# Bad compressed data: a corrupt frame and a zstd bomb are one-line
# errors with the offset of the compressed record, exit 1, after every
# record before them was written; the bomb stops at 16 MiB of output in
# bounded memory (and reads through when the COMPRESSED feature's mmap_len
# allows that much, as it would for perf).
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
. "$PD_TOP/tests/cli/zstd/corpus.inc"
need_recs

# corrupt: the last COMPRESSED record of zstd.pipe.data gets a block
# header of the reserved type; prefix.data is the stream before it.
off=$(python3 - "$C/zstd.pipe.data" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
i, at = 16, []
while i < len(b):
    t, m, s = struct.unpack_from('<IHH', b, i)
    if t == 81:
        at.append(i)
    i += s
assert len(at) >= 2
i = at[-1]
b[i + 8:i + 11] = b'\xff\xff\xff'
open('bad.data', 'wb').write(b)
open('prefix.data', 'wb').write(b[:i])
print('0x%x' % i)
PY
) || fail "fixture"
expect_fail 1 "offset $off: COMPRESSED: corrupt zstd data" pdcat -d bad.data
mv out.bin got.data
recs got.data prefix.data
[ -s prefix.data.recs ] || fail "no records before the corrupt one"
cmp -s got.data.recs prefix.data.recs ||
	fail "records before the corrupt one were not all written"
expect_fail 1 "offset $off: COMPRESSED: corrupt zstd data" pdcat -z bad.data

# bomb: 40 MiB of valid records in one COMPRESSED record, after a
# FINISHED_ROUND at 0x10; bomb2.data has a COMPRESSED feature first
# (mmap_len 64 MiB) and reads through.
python3 - <<'PY' || fail "bomb fixture"
import struct, subprocess
rec = struct.pack('<IHH', 9, 0, 512) + bytes(504)
z = subprocess.run(['zstd', '-3', '-c'], input=rec * (40 * 2048),
                   stdout=subprocess.PIPE, check=True).stdout
assert len(z) < 65000, len(z)
hdr = b'PERFILE2' + struct.pack('<Q', 16)
rnd = struct.pack('<IHH', 68, 0, 8)
comp = struct.pack('<IHH', 81, 0, 8 + len(z)) + z
feat = struct.pack('<IHHQIIIII', 80, 0, 36, 27, 0, 1, 3, 0, 64 << 20)
open('bomb.data', 'wb').write(hdr + rnd + comp)
open('bomb2.data', 'wb').write(hdr + feat + rnd + comp)
PY
[ "$(wc -c < bomb.data)" -lt 65536 ] || fail "bomb too big"
if [ -x /usr/bin/time ]; then
	tm="/usr/bin/time -f %M -o rss.txt"
else
	tm=
fi
expect_fail 1 "offset 0x18: COMPRESSED record expands past 16777216 bytes (a zstd bomb?)" \
    $tm pdcat -d bomb.data
sz=$(wc -c < out.bin)
[ "$sz" -ge $((15 << 20)) ] && [ "$sz" -le $((17 << 20)) ] ||
	fail "bomb: $sz bytes written before the error"
if [ -n "$tm" ]; then
	[ "$(tail -n 1 rss.txt)" -lt 65536 ] ||
		fail "bomb: peak RSS $(tail -n 1 rss.txt) kB"
fi
pdcat -d bomb2.data > big.data || fail "bomb2 with mmap_len 64 MiB failed"
[ "$(wc -c < big.data)" -eq $((16 + 8 + (40 << 20))) ] ||
	fail "bomb2: $(wc -c < big.data) bytes"
