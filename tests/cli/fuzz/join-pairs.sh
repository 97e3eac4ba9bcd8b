# The join fuzz target's checks on real inputs: every pair of the
# shipped captures (each with itself too, where every id clashes), with
# the merge's per-host work for the second one or without, joined as
# pdcat does. The output must read back whole, with every sample given,
# in order, each of the same event, and as many events as the inputs
# (tests/fuzz/fuzz_join.c aborts otherwise).
. "$PD_TOP/tests/cli/lib.sh"
r=$PD_TBIN/fuzz/replay_join
[ -x "$r" ] || fail "$r not built"
d=$PD_TOP/tests/data/corpus
set -- "$d"/callchain.pipe.data "$d"/callchain.file.data "$d"/sched.pipe.data \
    "$d"/zstd.pipe.data "$d"/group-read.pipe.data "$d"/switch-addr.pipe.data \
    "$d"/empty-workload.pipe.data "$d"/bigendian/s390x-sched.pipe.data
mkdir pairs
n=0
for a; do
	for b; do
		# The byte after the separator picks the per-host work:
		# none, or all of it (a name suffix, a pid base, clock
		# offsets either way).
		for k in 0 7 15; do
			n=$((n + 1))
			{ cat "$a"; printf '\0PDJOIN\0'
			  printf "\\$(printf %o $k)"; cat "$b"; } > pairs/$n ||
				fail "pair $n"
		done
	done
done
[ "$n" -eq 192 ] || fail "$n pairs"
"$r" pairs > out 2>&1 || { tail -5 out; fail "replay_join failed"; }
grep -q "^replayed 192 inputs" out || { tail -5 out; fail "not every pair ran"; }
