# The meaning survives a trip through big-endian: perf prints the same
# for x and for pdswap -t big < x read back by the reader (pdcat, which
# decompresses foreign input).
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
for f in "$C"/callchain.pipe.data "$C"/dwarf.pipe.data \
    "$C"/group-read.pipe.data "$C"/sched.pipe.data \
    "$C"/switch-addr.pipe.data "$C"/zstd.pipe.data; do
	[ -f "$f" ] || continue
	pdcat -d "$f" > n.data
	pdswap -t big < "$f" > be.data || fail "$f: -t big"
	od -An -tx1 -N8 be.data | grep -q '32 45 4c 49 46 52 45 50' ||
		fail "$f: not big-endian magic"
	pdcat be.data > back.data || fail "$f: pdcat of big-endian"
	for opt in "-F +period --show-task-events --show-mmap-events" \
	    "-F ip,sym,period,tid,time,event -G"; do
		perf script $opt -i - < n.data > a.txt 2>/dev/null
		perf script $opt -i - < back.data > b.txt 2>/dev/null
		[ -s a.txt ] || fail "$f: perf script printed nothing"
		cmp -s a.txt b.txt || fail "$f: perf script $opt differs"
	done
done
