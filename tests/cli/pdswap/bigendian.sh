# Real s390x captures: after pdswap, x86 perf prints exactly what the
# s390x host's own perf printed (bigendian/README.md): perf script, perf
# evlist -v, and perf report --stats for the streams.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
B=$C/bigendian
[ -d "$B/reference" ] || fail "no $B/reference"
n=0
for f in "$B"/*.data; do
	ref_text "$B/reference/${f##*/}.script-raw.txt" > ref.txt || continue
	pdswap < "$f" > n.data 2>err.txt || fail "$f: $(cat err.txt)"
	[ -s err.txt ] && fail "$f: stderr: $(cat err.txt)"
	perf script -F -sym,-dso,-symoff,+period --show-task-events \
	    --show-mmap-events -i - < n.data 2>/dev/null > out.txt
	diff out.txt ref.txt > diff.txt || fail "$f: $(head -5 diff.txt)"
	# the attrs read back as perf evlist -v printed them there
	eref=$B/reference/${f##*/}.evlist.txt
	if [ -f "$eref" ]; then
		perf evlist -v -i - < n.data 2>/dev/null > ev.txt
		diff ev.txt "$eref" > diff.txt || fail "$f: evlist: $(head -5 diff.txt)"
	fi
	# perf report --stats, for streams (a file's counts differ: it
	# becomes a stream with ATTR and FEATURE records)
	sref=$B/reference/${f##*/}.report-stats.txt
	case $f in
	*.pipe.data)
		perf report --stats -i - < n.data > st.txt 2>&1
		diff st.txt "$sref" > diff.txt ||
			fail "$f: stats: $(head -5 diff.txt)";;
	esac
	n=$((n + 1))
done
[ "$n" -ge 6 ] || fail "only $n of the 6 s390x captures compared"
