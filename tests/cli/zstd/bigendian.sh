# SPDX-License-Identifier: MIT
# Compressed streams in the other byte order: pdcat -z output turned
# big-endian by pdswap (its COMPRESSED/COMPRESSED2 records stay, holding
# big-endian records) decompresses to what pdcat -d gives for the
# original; records straddling compressed records (fibo) included.
# pddump shows each compressed record, then the records it holds, in
# this byte order as in the other.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
command -v pdswap >/dev/null 2>&1 || skip "pdswap not built"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
for x in "$C/zstd.pipe.data" \
    "$C/foreign/linux-perf-data/fibo.compressed2.pipe.data" \
    "$C/bigendian/s390x-callchain.pipe.data"; do
	corpus_have "$x" || continue
	pdcat -d "$x" > want.data || fail "$x: pdcat -d"
	for z in -z --compress2; do
		pdcat $z "$x" | pdswap -t big > z.be || fail "$x: pdswap"
		# big-endian, with compressed records of the type asked for
		python3 - "$z" > n.txt <<'PY' || fail "$x $z: no big-endian compressed records"
import struct, sys
b = open('z.be', 'rb').read()
assert b[:8] == b'2ELIFREP'
want = 83 if sys.argv[1] == '--compress2' else 81
i, n = 16, 0
while i + 8 <= len(b):
    t, m, s = struct.unpack_from('>IHH', b, i)
    assert s >= 8
    assert t not in (81, 83) or t == want
    n += t == want
    i += s + (struct.unpack_from('>I', b, i + 8)[0] if t == 66 else 0)
assert n > 0
print(n)
PY
		[ "$(pddump z.be | grep -c '^0x[0-9a-f]* [0-9]* COMPRESSED2* ')" = "$(cat n.txt)" ] ||
			fail "$x $z: pddump does not show the $(cat n.txt) compressed records"
		pdcat -d z.be > got.data || fail "$x $z: pdcat -d of big-endian"
		cmp -s want.data got.data ||
			fail "$x $z: big-endian decompressed differs"
	done
done
