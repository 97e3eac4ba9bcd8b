# SPDX-License-Identifier: MIT
# A merge's memory holds the inputs' rounds, not their length: merging
# a recording with itself, and the same recording with every sample
# repeated 10 times (both sorted and cut into rounds of 64 records, so
# that rounds are the same size whatever the recording machine's load
# was), peak at about the same RSS. Counts, not times: the longer merge
# writes 10 times the samples.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
not_sanitized
rusage=$PD_TBIN/bench/rusage
restream=$PD_TBIN/gen/restream
[ -x "$rusage" ] && [ -x "$restream" ] || skip "no $rusage or $restream"
in=$C/sched.pipe.data
corpus_have "$in" || skip "no $in"

pdsort "$in" | "$restream" rounds 64 > 1.data || fail "pdsort | restream rounds"
pdsort "$in" | "$restream" repeat 10 | "$restream" rounds 64 > 10.data ||
	fail "pdsort | restream repeat | restream rounds"
rss() {	# command: its peak RSS in KiB
	"$rusage" -o ru.txt "$1" || fail "$1: $(cat ru.txt)"
	sed 's/.*maxrss_kb \([0-9]*\).*/\1/' ru.txt
}
a=$(rss 'pdsort 1.data 1.data > m1.data')
b=$(rss 'pdsort 10.data 10.data > m10.data')
n1=$(pddump -t SAMPLE m1.data | grep -c SAMPLE)
n10=$(pddump -t SAMPLE m10.data | grep -c SAMPLE)
[ "$n1" -gt 1000 ] && [ "$n10" = $((n1 * 10)) ] ||
	fail "$n10 samples merged, not 10 times $n1"
echo "pdsort a a: $n1 samples: $a KiB; $n10 samples: $b KiB"
# The inputs are 0.7 and 7 MB each: holding a tenth of the longer one
# would show as more than the 2 MiB of allocator noise allowed here.
[ "$b" -le $((a + 2048)) ] || fail "merge: $a KiB, then $b KiB"
exit 0
