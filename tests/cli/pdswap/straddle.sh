# Compressed pushes whose last record straddles into the next push (ring
# buffer wraps, -m 8), with a FINISHED_ROUND put between every two
# pushes: the round trip through the other order is still exact, and
# perf reads the converted stream as the original.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v python3 >/dev/null || skip "no python3"
perf record -z -a -g -F 4000 -m 8 -o - -- sleep 1 > rec.data 2>perf.err ||
	skip "perf record -z failed: $(tail -n 1 perf.err)"
python3 - <<'PY' || fail "edit"
import struct
d = open('rec.data', 'rb').read()
out = bytearray(d[:16])
pos = 16
n = 0
while pos < len(d):
    t, m, s = struct.unpack_from('<IHH', d, pos)
    out += d[pos:pos + s]
    if t == 66:
        k = struct.unpack_from('<I', d, pos + 8)[0]
        out += d[pos + s:pos + s + k]
        pos += k
    pos += s
    if t == 81 and s - 8 < 65527:
        out += struct.pack('<IHH', 68, 0, 8)
        n += 1
open('x.data', 'wb').write(out)
assert n > 0
PY
pdswap -t big < x.data > be.data || fail "-t big"
pdswap < be.data > rt.data || fail "back"
cmp rt.data x.data || fail "round trip differs"
perf script -i - < x.data > a.txt 2>/dev/null
pdcat be.data | perf script -i - > b.txt 2>/dev/null
[ -s a.txt ] || fail "perf script printed nothing"
cmp a.txt b.txt || fail "perf reads the big-endian copy differently"
