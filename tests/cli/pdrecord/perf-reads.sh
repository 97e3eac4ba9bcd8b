# SPDX-License-Identifier: MIT
# Real perf reads what pdrecord writes, without a word on stderr:
# perf report --stats, perf report and perf script, for each kind of
# recording the issue names.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdrecord/lib.inc"
need_root
need_perf
build_busy

n=0
check() {	# NAME ARGS...: record, then read it three ways
	name=$1; shift
	n=$((n + 1))
	pdrecord -q "$@" > "$n.data" 2> "$n.rec" ||
		fail "$name: pdrecord $*: exit $?: $(cat "$n.rec")"
	[ -s "$n.rec" ] && fail "$name: pdrecord said: $(cat "$n.rec")"
	check_stream "$name" "$n.data"
}

check_stream() {	# NAME FILE
	perf script -i - < "$2" > "$n.script" 2> "$n.err" ||
		fail "$1: perf script failed: $(cat "$n.err")"
	[ -s "$n.err" ] && fail "$1: perf script warned: $(head -5 "$n.err")"
	[ -s "$n.script" ] || fail "$1: perf script printed no sample"
	perf report --stdio -i - < "$2" > "$n.report" 2> "$n.err" ||
		fail "$1: perf report failed: $(cat "$n.err")"
	[ -s "$n.err" ] && fail "$1: perf report warned: $(head -5 "$n.err")"
	case $1 in
	tracepoint)
		# perf 6.1's --stats cannot skip the tracing data of any
		# stream, perf record's own included (FORMAT.md B.5).
		grep -q 'sched:sched_switch' "$n.script" ||
			fail "$1: no sched_switch in perf script"
		return;;
	compressed*)
		# Nor can it decompress any stream: it never reads the
		# COMPRESSED feature (FORMAT.md B.4.3); perf report -D can.
		s=$(perf report -D -i - < "$2" 2>/dev/null |
		    grep -c 'PERF_RECORD_SAMPLE')
		[ "${s:-0}" -gt 0 ] || fail "$1: no samples in perf report -D"
		# Compressed for real: COMPRESSED records that hold more
		# than they take (a size per sample would depend on load).
		c=$(perf report -D -i - < "$2" 2>/dev/null |
		    awk '$1 == "COMPRESSED" && $2 == "events:" { print $3 }')
		[ "${c:-0}" -gt 0 ] || fail "$1: no COMPRESSED records"
		[ "$(pdcat -d < "$2" | wc -c)" -gt "$(wc -c < "$2")" ] ||
			fail "$1: decompressed not larger than $(wc -c < "$2")"
		echo "$1: $s samples"
		return;;
	esac
	perf report --stats -i - < "$2" > "$n.stats" 2> "$n.err"
	[ -s "$n.err" ] && fail "$1: perf report --stats warned: $(head -5 "$n.err")"
	grep -q 'Error' "$n.stats" && fail "$1: --stats: $(cat "$n.stats")"
	s=$(awk '/^ *SAMPLE events:/ { print $3; exit }' "$n.stats")
	[ "${s:-0}" -gt 0 ] || fail "$1: no samples in --stats"
	echo "$1: ${s} samples"
}

check cpu-clock -e cpu-clock -- ./busy 100
check fp-callchain -g -- ./busy 100
check dwarf --call-graph dwarf -- ./busy 100
check tracepoint -e sched:sched_switch -a -- sleep 0.2
check group -e '{cpu-clock,task-clock}:S' -- ./busy 100
check system-wide -a -- ./busy 100
check default-event -- ./busy 100
check options -c 100000 -d -P -k monotonic --switch-events --sample-cpu \
    -e cpu-clock:u -- ./busy 100
check cpu-list -C 0 -e cpu-clock:k -- ./busy 100
check compressed -z -- ./busy 100
check compressed-a -z3 -a -g -- ./busy 100

# -p: a running process, for as long as a command runs (2 s).
./busy 100000 & bpid=$!
trap 'kill $bpid 2>/dev/null' EXIT
n=$((n + 1))
pdrecord -q -p "$bpid" -- sleep 2 > "$n.data" 2> "$n.rec" ||
	fail "-p: pdrecord exit $?: $(cat "$n.rec")"
[ -s "$n.rec" ] && fail "-p: pdrecord said: $(cat "$n.rec")"
check_stream pid "$n.data"
comms=$(awk '{ print $1 }' "$n.script" | sort -u | tr '\n' ' ')
[ "$comms" = "busy " ] || fail "-p: samples of '$comms', wanted only busy"

# Build ids in MMAP2 (perf record --buildid-mmap): the kernel's for the
# command's maps (2.data, -g), pdrecord's own for the maps of a running
# process (-p); each the one the BUILD_ID records at the end give.
want=$(pddump -t HEADER_BUILD_ID 2.data | sed -n 's/.* build_id=\([0-9a-f]*\) .*filename=.*\/busy$/\1/p')
[ -n "$want" ] || fail "no BUILD_ID of busy: $(pddump -t HEADER_BUILD_ID 2.data)"
for f in 2.data "$n.data"; do
	got=$(pddump -t MMAP2 "$f" | sed -n 's/.*misc=0x4002 .* build_id=\([0-9a-f]*\) .*filename=.*\/busy |.*/\1/p' | sort -u)
	[ "$got" = "$want" ] || fail "$f: MMAP2 build id of busy '$got', BUILD_ID $want"
done

# -t: one thread.
n=$((n + 1))
pdrecord -q -t "$bpid" -- sleep 1 > "$n.data" 2> "$n.rec" ||
	fail "-t: pdrecord exit $?: $(cat "$n.rec")"
check_stream tid "$n.data"
