# SPDX-License-Identifier: MIT
# Issue 22: each host's files in a merged stream. Two "hosts" (UTS and
# PID namespaces, as pdsort/hosts.sh makes them) run a program of the
# same path built twice, its hot function spin_alpha on hA and
# spin_beta on hB, each recorded by perf record in file mode: the build
# ids are only in HEADER_BUILD_ID records (pid -1), which do not say
# whose they are; perf record also puts both files in the run's
# build-id cache. The program is then removed from its path. pdsort
# merges the two recordings, in both orders (each host once host 0).
# No sample of one host may ever be named with the other's function:
# the stream gives the path two build ids, so none is taken for maps
# without their own, and a note says so (before, hA's build id was
# given to both, and hB's samples took hA's file from the cache, or
# from a --symfs tree holding hA's).
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v cc >/dev/null 2>&1 || skip "no C compiler"
need_hostns
here=$(pwd)

cat > spin.c <<'EOC'
#include <time.h>
static volatile unsigned long sink;
__attribute__((noinline)) void
FN(void)
{
	for (unsigned long i = 0; i < 200000; i++)
		sink += i;
}
int
main(void)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		FN();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L +
	    (t.tv_nsec - t0.tv_nsec) < 200000000L);
	return 0;
}
EOC
host() {	# NAME FN: the program with FN, recorded on host NAME
	rm -f spin
	cc -O1 -Wl,--build-id -DFN=$2 -o spin spin.c 2> cc.err ||
		fail "cc: $(cat cc.err)"
	# Its own tree, for --symfs: DIR/<the program's path>.
	mkdir -p "d$1$here"
	cp spin "d$1$here/spin"
	# -k: a clock the merge can put the hosts on one axis by.
	unshare --uts --pid --fork --mount-proc sh -c "hostname $1;
	    perf record -q -k mono -F 997 -o $1.perf ./spin" \
	    > rec.out 2>&1 || fail "$1: perf record: $(cat rec.out)"
}
host hA spin_alpha
host hB spin_beta
rm spin
pdsort -o m.data hA.perf hB.perf 2> err.txt || fail "pdsort: $(cat err.txt)"
pdsort -o r.data hB.perf hA.perf 2> err.txt || fail "pdsort: $(cat err.txt)"

# top OUT ARGS...: pdstat --top of m.data with ARGS, its rows as
# "HOST SYMBOL SAMPLES" in OUT, its notes in OUT.err.
top() {
	out=$1
	shift
	pdstat --top 10 "$@" m.data > "$out.txt" 2> "$out.err" ||
		fail "pdstat --top $*: $(cat "$out.err")"
	awk '/^top symbols of / { h = substr($4, index($4, "@") + 1); next }
	    / \[\.\] / { print h, $4, $2 }' "$out.txt" > "$out"
}
# never OUT: no row of one host names the other's function.
never() {
	if grep -q -e '^hA spin_beta' -e '^hB spin_alpha' "$1"; then
		fail "$1: a host's samples named by the other's file: $(cat "$1")"
	fi
}
# folded OUT FILE ARGS...: pddump --folded of FILE (its first host).
folded() {
	out=$1 f=$2
	shift 2
	pddump --folded "$@" "$f" > "$out" 2> "$out.err" ||
		fail "pddump --folded $*: $(cat "$out.err")"
}

# perf record put both files in the run's build-id cache (tests/run.sh).
for h in hA hB; do
	pdstat --build-ids $h.perf | awk -v p="$here/spin" '$2 == p { print $1 }' \
	    > $h.bid
	id=$(cat $h.bid)
	[ -n "$id" ] || fail "$h: no build id of $here/spin"
	x=$(echo "$id" | cut -c1-2) y=$(echo "$id" | cut -c3-)
	[ -f "$PERF_BUILDID_DIR/.build-id/$x/$y/elf" ] ||
		fail "$h: $here/spin not in the build-id cache $PERF_BUILDID_DIR"
done
cmp -s hA.bid hB.bid && fail "one build id for both programs"

# The cache (both files, by build id) and this machine: no names, a note.
top none
never none
grep -q "different build ids in the stream (several hosts?)" none.err ||
	fail "no note of the two build ids: $(cat none.err)"
# A --symfs tree for all hosts holding one host's file: that host's
# file is never given to the other's samples.
for d in dhA dhB; do
	top "plain.$d" --symfs "$d"
	never "plain.$d"
	folded "fm.$d" m.data --symfs "$d"
	grep -q spin_beta "fm.$d" && fail "--folded, hA first, --symfs $d: hB's function: $(cat "fm.$d")"
	folded "fr.$d" r.data --symfs "$d"
	grep -q spin_alpha "fr.$d" && fail "--folded, hB first, --symfs $d: hA's function: $(cat "fr.$d")"
done
exit 0
