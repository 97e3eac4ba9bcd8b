# SPDX-License-Identifier: MIT
# Plain corpus streams through pdcat -z and back: `pdcat -d` of `pdcat -z
# x` (and of --compress2) is `pdcat -d x` byte for byte, and perf 6.1's
# `perf script -i -` prints the same for `pdcat -z x` as for x. Covers
# tracing data (sched: its out-of-band blob stays plain, in place),
# DWARF stacks, groups, switch events, and big-endian input.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
n=0
for x in "$C"/*.data "$C"/bigendian/*.data; do
	[ -f "$x" ] || continue
	pdcat -d "$x" > d.data 2>err.txt || {
		echo "not read by this pdcat, left out: $x: $(cat err.txt)"
		continue
	}
	zs="-z --compress2 -z6"
	[ "${PD_SANITIZE:-}" != 1 ] || zs=--compress2
	for z in $zs; do
		pdcat $z "$x" > z.data || fail "$x: pdcat $z failed"
		pdcat -d z.data | cmp -s - d.data ||
			fail "$x: pdcat -d of pdcat $z differs from pdcat -d"
	done
	n=$((n + 1))
done
[ $n -ge 8 ] || fail "only $n streams read"
# perf's half is slow under the sanitizers and tests perf's reading.
[ "${PD_SANITIZE:-}" != 1 ] || { echo "sanitized: perf half left out"; exit 0; }
command -v perf >/dev/null 2>&1 || { echo "no perf: perf half left out"; exit 0; }
for x in "$C"/*.pipe.data; do
	case $x in *zstd*) continue;; esac	# corpus-perf covers it
	perf script -i "$x" > want.txt 2>/dev/null ||
		fail "$x: perf script failed on the original"
	pdcat -z "$x" | perf script -i - > got.txt 2>err.txt ||
		fail "$x: perf script on pdcat -z: $(tail -n 2 err.txt)"
	cmp -s want.txt got.txt || fail "$x: perf script differs after -z"
done
