# SPDX-License-Identifier: MIT
# pdrecord writes CLOCKID and CLOCK_DATA as perf record -k does, with
# or without -k, and perf script -F tod puts each sample at the time of
# day: the samples of a recording made now are dated now. With -k
# realtime the events' clock is the wall clock, so tod and time agree.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdrecord/lib.inc"
need_root
need_perf
build_busy
# perf's build-id cache of its own: perf 6.1 reading one that other
# perf runs on the machine are writing has aborted here (build-id.c).
PERF_BUILDID_DIR=$PWD/buildid; export PERF_BUILDID_DIR

before=$(date +%s)
pdrecord -q -F 200 -- ./busy 60 > mono.data || fail "pdrecord"
pdrecord -q -F 200 -k realtime -- ./busy 60 > real.data ||
	fail "pdrecord -k realtime"
after=$(date +%s)

pddump mono.data > mono.txt || fail "pddump"
grep -q 'feature=clockid clockid_res_ns=[0-9]' mono.txt ||
	fail "no CLOCKID feature: $(grep FEATURE mono.txt)"
grep -q 'feature=clock_data clock_version=1 clockid=1 tod_ns=[1-9]' \
    mono.txt || fail "no CLOCK_DATA of CLOCK_MONOTONIC: $(grep FEATURE mono.txt)"
grep -q 'flags=.*use_clockid.* clockid=1 ' mono.txt ||
	fail "the events do not use CLOCK_MONOTONIC"
pddump real.data | grep -q 'feature=clock_data clock_version=1 clockid=0 ' ||
	fail "no CLOCK_DATA of CLOCK_REALTIME"

# perf's tod: "YYYY-MM-DD HH:MM:SS.uuuuuu", local time; as seconds.
tod_range() {	# NAME: the first and last sample's time of day, in seconds
	sed 's/\..*//' "$1.tod" | sed -n '1p;$p' |
	    while read -r d t; do date -d "$d $t" +%s; done
}
for f in mono real; do
	perf script -i - -F tod < $f.data > $f.tod 2> $f.err ||
		fail "$f: perf script -F tod: exit $?: $(head -3 $f.err)"
	set -- $(tod_range $f)
	[ $# -eq 2 ] || fail "$f: perf script -F tod printed no time of day"
	[ "$1" -ge "$before" ] && [ "$2" -le "$after" ] ||
		fail "$f: samples dated $1..$2, recorded in $before..$after"
done
# With the wall clock as the events' clock, time and tod are one (to
# the second: perf's tod comes from whole microseconds).
perf script -i - -F time,tod < real.data 2>/dev/null | head -20 |
    while read -r d t s; do
	diff=$(( $(date -d "$d ${t%.*}" +%s) - ${s%%.*} ))
	[ "$diff" -ge -1 ] && [ "$diff" -le 1 ] ||
		fail "realtime: tod $d $t, time $s"
    done || exit 1
