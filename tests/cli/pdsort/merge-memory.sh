# SPDX-License-Identifier: MIT
# A merge's memory holds the inputs' rounds, not their length: merging
# a recording with every sample repeated 10 times with itself, and the
# same with every sample repeated 100 times (both sorted and cut into
# rounds of 64 records, so that rounds are the same size whatever the
# recording machine's load was), peak at about the same RSS. Both are
# long enough that each reader has all the buffers it may keep records
# in (PD_READER_HOLD_BUFS). Counts, not times: the longer merge writes
# 10 times the samples.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
not_sanitized
rusage=$PD_TBIN/bench/rusage
restream=$PD_TBIN/gen/restream
[ -x "$rusage" ] && [ -x "$restream" ] || skip "no $rusage or $restream"
in=$C/sched.pipe.data
corpus_have "$in" || skip "no $in"

for k in 10 100; do
	pdsort "$in" | "$restream" repeat $k | "$restream" rounds 64 > $k.data ||
		fail "pdsort | restream repeat $k | restream rounds"
done
rss() {	# command: its peak RSS in KiB
	"$rusage" -o ru.txt "$1" || fail "$1: $(cat ru.txt)"
	sed 's/.*maxrss_kb \([0-9]*\).*/\1/' ru.txt
}
a=$(rss 'pdsort 10.data 10.data > m10.data')
b=$(rss 'pdsort 100.data 100.data > m100.data')
n10=$(pdstat m10.data | awk '$1 == "SAMPLE" { print $2 }')
n100=$(pdstat m100.data | awk '$1 == "SAMPLE" { print $2 }')
[ "${n10:-0}" -gt 10000 ] && [ "$n100" = $((n10 * 10)) ] ||
	fail "${n100:-no} samples merged, not 10 times ${n10:-none}"
echo "pdsort a a: $n10 samples: $a KiB; $n100 samples: $b KiB"
# The inputs are 7 and 70 MB each: holding a tenth of the longer one
# would show as more than the 2 MiB of allocator noise allowed here.
[ "$b" -le $((a + 2048)) ] || fail "merge: $a KiB, then $b KiB"
exit 0
