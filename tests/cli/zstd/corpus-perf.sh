# SPDX-License-Identifier: MIT
# perf 6.1 as the oracle on every compressed stream of the corpus:
# `pdcat -d x | perf script -i -` and `pdcat -z x | perf script -i -`
# print what `perf script -i x` prints where perf reads x at all (for a
# file-mode x, its pipe form `pdcat x`: perf prints kernel symbols of a
# file and of a pipe differently, compressed or not); where it does not
# (COMPRESSED2, new attrs in file mode), the decompressed stream reads
# cleanly and -z output prints the same. `perf report --stats`, which
# fails on perf's own -z pipe streams, works after pdcat -d.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
not_sanitized
. "$PD_TOP/tests/cli/zstd/corpus.inc"
script() { perf script -i - > "$1" 2> "$1.err" || fail "$2: perf script: $(tail -n 2 "$1.err")"; }
for x in $ZREAD; do
	case $x in
	*.pipe.data)	perf script -i "$x" > want.txt 2>/dev/null ||
			    fail "$x: perf script failed on the original";;
	*)		pdcat "$x" | script want.txt "$x";;
	esac
	[ -s want.txt ] || fail "$x: perf script printed nothing"
	pdcat -d "$x" | script d.txt "$x -d"
	cmp -s want.txt d.txt || fail "$x: pdcat -d | perf script differs"
	pdcat -z "$x" | script z.txt "$x -z"
	cmp -s want.txt z.txt || fail "$x: pdcat -z | perf script differs"
done
for x in $ZOTHER; do
	pdcat -d "$x" 2>/dev/null | script d.txt "$x -d"
	grep -q . d.txt || fail "$x: nothing printed after pdcat -d"
	pdcat -z "$x" 2>/dev/null | script z.txt "$x -z"
	cmp -s d.txt z.txt || fail "$x: pdcat -z | perf script differs"
done
x=$C/zstd.pipe.data
perf report --stats -i - < "$x" > /dev/null 2>&1 &&
	echo "note: this perf reads -z pipes with --stats itself"
pdcat -d "$x" | perf report --stats -i - > stats.txt 2>&1 ||
	fail "perf report --stats after pdcat -d: $(tail -n 2 stats.txt)"
grep -q 'SAMPLE events: *573' stats.txt || fail "stats: $(grep SAMPLE stats.txt)"
