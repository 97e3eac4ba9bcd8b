# The join and merge fuzz targets' checks on real inputs: every pair of
# the shipped captures (each with itself too, where every id clashes),
# joined as pdcat does, with the merge's per-host work for the second
# one or without, and merged as pdsort does, with a queue cap of 64 KiB
# or pdsort's. Each output must read back whole: the join's with every
# sample given, in order, each of the same event, and as many events as
# the inputs (tests/fuzz/fuzz_join.c aborts otherwise); a merge's that
# ends well with every sample of its inputs (fuzz_merge.c).
. "$PD_TOP/tests/cli/lib.sh"
for r in join merge; do
	[ -x "$PD_TBIN/fuzz/replay_$r" ] || fail "replay_$r not built"
done
d=$PD_TOP/tests/data/corpus
set -- "$d"/callchain.pipe.data "$d"/callchain.file.data "$d"/sched.pipe.data \
    "$d"/zstd.pipe.data "$d"/group-read.pipe.data "$d"/switch-addr.pipe.data \
    "$d"/empty-workload.pipe.data "$d"/bigendian/s390x-sched.pipe.data
mkdir pairs
n=0
for a; do
	for b; do
		# The byte after the separator picks the join's per-host
		# work: none, or all of it (a name suffix, a pid base, clock
		# offsets either way); and the merge's cap (odd: 64 KiB).
		for k in 0 7 15; do
			n=$((n + 1))
			{ cat "$a"; printf '\0PDJOIN\0'
			  printf "\\$(printf %o $k)"; cat "$b"; } > pairs/$n ||
				fail "pair $n"
		done
	done
done
[ "$n" -eq 192 ] || fail "$n pairs"
for r in join merge; do
	"$PD_TBIN/fuzz/replay_$r" pairs > out 2>&1 ||
		{ tail -5 out; fail "replay_$r failed"; }
	grep -q "^replayed 192 inputs" out ||
		{ tail -5 out; fail "replay_$r: not every pair ran"; }
done
