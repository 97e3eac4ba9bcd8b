# SPDX-License-Identifier: MIT
# pdsort a b c: two "hosts" recorded by pdrecord in their own UTS and
# PID namespaces (their pids collide with each other's), one by perf
# record -k realtime on this host, recorded one after the other. The
# merge holds every record of every input once (per host), in time
# order on one axis (each host's samples after the previous one's, by
# time of day), perf script names each sample's comm and host event,
# perf report --stats counts the sum, three live pipes merge into
# the same bytes as the three files, and the two namespaced hosts' busy
# processes, running at once with the same pid, stay two processes. The EXAMPLES of pdsort(1) that
# merge are run as written.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdrecord/lib.inc"
need_root
need_perf
command -v bash >/dev/null 2>&1 || skip "no bash"
need_hostns
build_busy
# perf's build-id cache of its own: perf 6.1 reading one that other
# perf runs on the machine are writing has aborted here (build-id.c).
PERF_BUILDID_DIR=$PWD/buildid; export PERF_BUILDID_DIR
cp busy busyA; cp busy busyB; cp busy busyC

host() {	# NAME CMD...: CMD in a new UTS and PID namespace named NAME
	h=$1; shift
	unshare --uts --pid --fork --mount-proc sh -c "hostname $h; $*"
}
host hostA pdrecord -q -F 250 -- ./busyA 60 > hostA.data || fail "hostA"
host hostB pdrecord -q -F 250 -- ./busyB 60 > hostB.data || fail "hostB"
perf record -q -k realtime -F 250 -o - -- ./busyC 60 > hostC.data \
    2> rec.err || fail "perf record: $(cat rec.err)"
me=$(hostname)

# The first example, as written.
pdsort -o all.data hostA.data hostB.data hostC.data 2> err.txt ||
	fail "pdsort: exit $?: $(cat err.txt)"
[ -s err.txt ] && fail "pdsort said: $(cat err.txt)"
perf script -F comm,tid,event,tod -i all.data > ex1.txt 2> err.txt ||
	fail "example: perf script: $(cat err.txt)"

# Every kernel record once: the inputs' counts by type add up.
kinds() { pddump "$1" | awk '$3 ~ /^(SAMPLE|COMM|EXIT|FORK|MMAP|MMAP2)$/ { print $3 }' | sort | uniq -c; }
{ kinds hostA.data; kinds hostB.data; kinds hostC.data; } |
    awk '{ n[$2] += $1 } END { for (k in n) print n[k], k }' | sort -k2 > want.kinds
kinds all.data | awk '{ print $1, $2 }' | sort -k2 > got.kinds
cmp -s want.kinds got.kinds ||
	fail "record counts differ: want $(cat want.kinds) got $(cat got.kinds)"

# Every sample once, per host: comm, tid, ip, period, by perf script.
perf script -i all.data -F event,comm,tid,ip,period > all.txt 2> err.txt ||
	fail "perf script: $(cat err.txt)"
[ -s err.txt ] && fail "perf script warned: $(head -3 err.txt)"
# Host k's pids and tids are moved by k * 2^22 (0, the idle task, stays).
k=0
for h in hostA hostB hostC; do
	tag=$h; [ $h = hostC ] && tag=$me
	perf script -i $h.data -F event,comm,tid,ip,period 2>/dev/null |
	    sed "s/\([^ ]*\): /\1@$tag: /" | tr -s ' ' | sed 's/^ //' |
	    awk -v off=$((k * 4194304)) '$2 > 0 { $2 += off } { print }' |
	    sort > want.$h
	k=$((k + 1))
	[ -s want.$h ] || fail "$h: no samples recorded"
	grep "@$tag:" all.txt | tr -s ' ' | sed 's/^ //' | sort > got.$h
	cmp -s want.$h got.$h || fail "$h: samples differ: $(diff want.$h got.$h | head -5)"
	letter=${h#host}
	bad=$(grep "@$tag:" all.txt | grep -v "busy$letter" | grep -c busy)
	[ "$bad" = 0 ] || fail "$h: $bad samples with another host's comm"
done
[ "$(wc -l < all.txt)" = "$(cat want.hostA want.hostB want.hostC | wc -l)" ] ||
	fail "samples of no host: $(grep -v -e @hostA: -e @hostB: -e "@$me:" all.txt | head -3)"
s=$(perf report --stats -i all.data 2>/dev/null | awk '/^ *SAMPLE events:/ { print $3; exit }')
[ "$s" = "$(wc -l < all.txt)" ] || fail "perf report --stats counts $s samples"

# One time axis: times never decrease, and the hosts, recorded one
# after the other, come one after the other by time of day.
perf script -i all.data -F time 2>/dev/null | tr -d ' :' | sort -n -c ||
	fail "times decrease"
awk '{ print $NF }' ex1.txt | uniq | sed 's/:$//' > order.txt
[ "$(cat order.txt)" = "$(printf 'cpu-clock@hostA\ncpu-clock@hostB\ncpu-clock:ppp@%s' "$me")" ] ||
	fail "hosts interleave by time of day: $(uniq -c order.txt | head)"

# Another host without CLOCK_DATA: an error that says what to do,
# unless --clock-offset gives the offset.
host hostD perf record -q -F 250 -o - -- ./busyA 30 > hostD.data 2>/dev/null ||
	fail "hostD"
expect_fail 1 "hostD.data: recorded on hostD without CLOCK_DATA" \
    pdsort hostA.data hostD.data
grep -qF "perf record -k CLOCK, or give --clock-offset hostD=NS" err.txt ||
	fail "no advice: $(cat err.txt)"
pdsort --clock-offset hostD=0 hostA.data hostD.data > d.data ||
	fail "--clock-offset: exit $?"
perf script -i d.data -F event 2>/dev/null | grep -q 'cpu-clock:ppp@hostD' ||
	fail "--clock-offset: no hostD samples"

# Live: three pipes, recorded at once, merge as their files do.
bash -c 'pdsort <(unshare --uts --pid --fork --mount-proc sh -c "hostname hostA; pdrecord -q -F 250 -- ./busyA 40" | tee la.data) \
    <(unshare --uts --pid --fork --mount-proc sh -c "hostname hostB; pdrecord -q -F 250 -- ./busyB 40" | tee lb.data) \
    <(perf record -q -k realtime -F 250 -o - -- ./busyC 40 2>/dev/null | tee lc.data)' > live.data ||
	fail "live merge: exit $?"
pdsort la.data lb.data lc.data > files.data || fail "files merge"
cmp -s live.data files.data || fail "live merge differs from the files'"
[ "$(perf script -i live.data -F event 2>/dev/null | sort -u | wc -l)" = 3 ] ||
	fail "live merge: not three hosts' events"

# Hosts apart: hostA's and hostB's busy ran at once with the same pid
# (their namespaces' numbering); merged, they are two processes, and
# each sample has its own host's comm.
tids() { perf script -i "$1" -F comm,tid 2>/dev/null | awk '$1 ~ /^busy/ { print $2 }' | sort -u; }
[ -n "$(tids la.data)" ] && [ "$(tids la.data)" = "$(tids lb.data)" ] ||
	fail "the namespaces' pids do not collide: $(tids la.data) vs $(tids lb.data)"
perf script -i live.data -F comm,tid,event 2>/dev/null > live.txt
for h in A B C; do
	t=host$h; [ $h = C ] && t=$me
	grep "@$t:" live.txt | awk '{ print $1, $2 }' | sort -u > comm.$h
	[ "$(awk '{ print $1 }' comm.$h | sort -u)" = "busy$h" ] ||
		fail "live merge: host$h's samples under comms $(cat comm.$h)"
done
[ "$(awk '{ print $2 }' comm.A)" != "$(awk '{ print $2 }' comm.B)" ] ||
	fail "live merge: hostA's and hostB's busy share pid $(cat comm.A)"
[ "$(awk '{ print $2 - 4194304 }' comm.B)" = "$(tids lb.data)" ] ||
	fail "live merge: hostB's pid $(cat comm.B) is not its own + 2^22"

# The second example, as written (bash: process substitution).
bash -o pipefail -c 'pdsort <(pdrecord -F 99 -- ./busy) <(pdrecord -F 99 -- ./busy) |
    perf report --stats -i -' > ex2.txt 2> ex2.err || fail "example 2: $(cat ex2.err)"
grep -q 'SAMPLE events:' ex2.txt || fail "example 2: no samples"
exit 0
