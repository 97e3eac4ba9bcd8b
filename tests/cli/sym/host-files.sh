# SPDX-License-Identifier: MIT
# Issue 22: each host's files in a merged stream. Two "hosts" (UTS and
# PID namespaces, as pdsort/hosts.sh makes them) run a program of the
# same path built twice, its hot function spin_alpha on hA and
# spin_beta on hB, each recorded by perf record in file mode: the build
# ids are only in HEADER_BUILD_ID records (pid -1), which do not say
# whose they are; both files are in a build-id cache, as perf record
# puts them. The program is then removed from its path. pdsort
# merges the two recordings, in both orders (hA host 0, then 1).
# No sample of one host may ever be named with the other's function:
# the stream gives the path two build ids, so none is taken for maps
# without their own, and a note says so (before, the first input's
# build id was given to both, and the other host's samples took its
# file from the cache, or from a --symfs tree holding it). With
# --symfs HOST=DIR for each host, each host's samples are named from
# its own tree.
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
	# -k: a clock the merge can put the hosts on one axis by. perf 6.1
	# here ends one run in ten or so with "assertion failed at
	# util/build-id.c:1010" and a smashed stack (with or without its
	# build-id cache, in a namespace or not): tried up to 4 times. -N:
	# the cache is the case's own, filled below.
	n=0
	until unshare --uts --pid --fork --mount-proc sh -c "hostname $1;
	    perf record -q -N -k mono -F 997 -o $1.perf ./spin" \
	    > rec.out 2>&1; do
		n=$((n + 1))
		[ $n -lt 4 ] || fail "$1: perf record: $(cat rec.out)"
	done
	# Into a build-id cache of the case's own, as perf record puts it.
	id=$(pdstat --build-ids $1.perf | awk -v p="$here/spin" \
	    '$2 == p { print $1 }')
	[ -n "$id" ] || fail "$1: no build id of $here/spin"
	echo "$id" > $1.bid
	x=$(echo "$id" | cut -c1-2) y=$(echo "$id" | cut -c3-)
	mkdir -p "cache/.build-id/$x/$y"
	cp spin "cache/.build-id/$x/$y/elf"
}
PERF_BUILDID_DIR=$here/cache; export PERF_BUILDID_DIR
host hA spin_alpha
host hB spin_beta
rm spin
cmp -s hA.bid hB.bid && fail "one build id for both programs"
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
# folded OUT FILE ARGS...: pddump --folded of FILE with ARGS, as
# "HOST SYMBOL COUNT" in OUT. It folds the first event's samples (as
# stackcollapse-perf.pl does), those of hA, which recorded first: in
# m.data host 0's, in r.data host 1's.
folded() {
	out=$1 f=$2
	shift 2
	pddump --folded "$@" "$f" > "$out.txt" 2> "$out.err" ||
		fail "pddump --folded $*: $(cat "$out.err")"
	h=$(sed -n 's/.*other events than [^ ]*@\([^ ]*\) left out.*/\1/p' \
	    "$out.err")
	[ "$h" = hA ] || fail "pddump --folded $f: not hA's samples: $(cat "$out.err")"
	awk -v h="$h" '{ n = split($1, fr, ";"); print h, fr[n], $2 }' \
	    "$out.txt" > "$out"
}
# never OUT: no row of one host names the other's function.
never() {
	if grep -q -e '^hA spin_beta' -e '^hB spin_alpha' "$1"; then
		fail "$1: a host's samples named by the other's file: $(cat "$1")"
	fi
}
# own OUT HOST...: each HOST's hottest row is its own function.
own() {
	out=$1
	shift
	for h; do
		case $h in hA) fn=spin_alpha;; *) fn=spin_beta;; esac
		awk -v h="$h" '$1 == h' "$out" | sort -k3,3nr | head -n 1 |
		    grep -q "^$h $fn " ||
			fail "$out: $h's samples not named $fn: $(cat "$out")"
	done
}

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
	never "fm.$d"
	folded "fr.$d" r.data --symfs "$d"
	never "fr.$d"
done

# Each host's tree: each host's samples named by its own file.
set -- --symfs hA=dhA --symfs hB=dhB
top hosts "$@"
never hosts
own hosts hA hB
grep -q "different build ids" hosts.err &&
	fail "a note though each host's files are given: $(cat hosts.err)"
folded fm.hosts m.data "$@"
own fm.hosts hA
folded fr.hosts r.data "$@"
own fr.hosts hA
# One host's tree: its samples named, the other's not, a note for them.
top one --symfs hB=dhB
never one
own one hB
grep -q "different build ids in the stream.*--symfs HOST=DIR" one.err ||
	fail "no note for hA's file: $(cat one.err)"
# A HOST that is no host of the stream: one line each at the end, the
# exit status as it was; none for the hosts it has.
pdstat --top 10 --symfs hA=dhA --symfs hX=dhB --kallsyms hY=/dev/null \
    --kallsyms hB=/dev/null m.data > /dev/null 2> unknown.err ||
	fail "pdstat with an unknown host: exit $?: $(cat unknown.err)"
[ "$(grep -c 'no host' unknown.err)" = 2 ] &&
    grep -q '^pdstat: --symfs hX=dhB: no host hX in the stream (its hosts: hA, hB); not used$' unknown.err &&
    grep -q '^pdstat: --kallsyms hY=/dev/null: no host hY in the stream (its hosts: hA, hB); not used$' unknown.err ||
	fail "pdstat: unknown hosts not said once each: $(cat unknown.err)"
pddump --folded --symfs hX=dhA r.data > /dev/null 2> unknown.err ||
	fail "pddump with an unknown host: exit $?: $(cat unknown.err)"
[ "$(grep -c 'no host hX' unknown.err)" = 1 ] ||
	fail "pddump: unknown host not said once: $(cat unknown.err)"
# A one-host stream's host is its HOSTNAME (its file from dhA alone).
PERF_BUILDID_DIR=$here/nocache pdstat --top 10 --symfs hA=dhA \
    --symfs hB=dhB hA.perf > a.txt 2> unknown.err ||
	fail "pdstat hA.perf: $(cat unknown.err)"
grep -q 'spin_alpha' a.txt || fail "hA.perf: --symfs hA=dhA not used: $(cat a.txt)"
[ "$(grep -c 'no host' unknown.err)" = 1 ] &&
    grep -q -- '--symfs hB=dhB: no host hB in the stream (its host: hA)' unknown.err ||
	fail "hA.perf: unknown host not said: $(cat unknown.err)"
exit 0
