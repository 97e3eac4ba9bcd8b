# Every tool reads foreign input through the reader: pdcat turns a real
# big-endian stream native, and perf's output matches the s390x host's.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
B=$C/bigendian
for f in s390x-sched.pipe.data s390x-group.pipe.data s390x.file.data; do
	[ -f "$B/$f" ] || fail "no $f"
	pdcat "$B/$f" > n.data || fail "pdcat $f"
	perf script -F -sym,-dso,-symoff,+period --show-task-events \
	    --show-mmap-events -i - < n.data 2>/dev/null > out.txt
	ref_text "$B/reference/$f.script-raw.txt" > ref.txt || fail "no reference for $f"
	diff out.txt ref.txt > diff.txt ||
		fail "$f: $(head -5 diff.txt)"
done
# and the native stream it wrote is what pdswap writes
pdcat "$B/s390x.pipe.data" | cmp - "$(pdswap "$B/s390x.pipe.data" > p.data; echo p.data)" ||
	fail "pdcat and pdswap disagree"
