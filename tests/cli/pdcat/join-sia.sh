# SPDX-License-Identifier: MIT
# Issue 18 finding 8, trailers: joining a stream with sample_id_all and
# one without. Readers find every record's trailer by the first event's
# layout, so the second input's records, which have none, were read with
# their last bytes (a file name) as pid, time and id. pdcat now gives
# every event sample_id_all and such records the trailer perf reads for
# them (all ones: no thread, no time) with their event's id.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe ok > a.data && mkpipe no-sia > b.data || fail "mkpipe"
for order in "a.data b.data" "b.data a.data"; do
	pdcat $order > j.data 2> err.txt || fail "$order: exit $?: $(cat err.txt)"
	pddump j.data > dump.txt 2> err.txt || fail "$order: pddump: exit $?"
	grep -q 'filename=/usr/lib/x86_64-linux-gnu/libmkpipe-b.so.6 | pid=-1 tid=-1 time=18446744073709551615 id=' dump.txt ||
		fail "$order: MMAP: $(grep MMAP dump.txt)"
	grep -q 'comm=mkpipe-b exec=0 | pid=-1 tid=-1' dump.txt ||
		fail "$order: COMM: $(grep COMM dump.txt)"
	grep -q 'filename=/bin/mkpipe | pid=42 tid=42 time=1001' dump.txt ||
		fail "$order: first MMAP: $(grep MMAP dump.txt)"
	[ "$(grep -c 'ATTR.*flags=.*sample_id_all' dump.txt)" = 2 ] ||
		fail "$order: not every ATTR has sample_id_all"
done
exit 0
