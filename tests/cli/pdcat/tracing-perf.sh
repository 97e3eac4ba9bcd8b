# SPDX-License-Identifier: MIT
# pdcat of inputs that all carry tracepoints, read by perf 6.1, which
# reads one HEADER_TRACING_DATA (at a second it stopped: "tracing data
# size mismatch ... failed to process type: 66") and gives formats only
# to the tracepoint events whose attrs came before it (perf script
# crashed on the later input's samples). pdcat now reads every input's
# attrs and tracing data first and writes one tracing data record after
# them: the first input's when the others add no format (pdcat a a),
# else one with every input's formats (other tracepoints on each, and a
# file perf record wrote). Then
# perf script prints every sample with its comm, event and fields, perf
# report -D counts them, pddump formats them (tracing.inc). A tracing
# data that comes after an input's samples and adds formats can only
# be a second record: pdcat says so in one line and writes it.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
need_tracepoint sched/sched_switch
need_tracepoint sched/sched_wakeup
. "$PD_TOP/tests/cli/pdsort/tracing.inc"
PERF_BUILDID_DIR=$PWD/buildid; export PERF_BUILDID_DIR

# Not system-wide: perf reads a join of one host's inputs as one session
# (pdcat keeps pids as they are), so a thread that one input saw
# without its COMM would be named from the other. The shell waits for
# its children: switches, wakeups and execs of its own.
rec() {		# NAME EVENTS: a recording of a shell running dd and sleep
	pdrecord -q -F 499 -e "$2" -- sh -c 'dd if=/dev/zero of=/dev/null \
	    bs=64 count=100000 2>/dev/null; sleep 0.01' > "$1.data" ||
		fail "$1: pdrecord: exit $?"
}
rec a cpu-clock,sched:sched_switch
rec c cpu-clock,sched:sched_wakeup,sched:sched_process_exec

# a a: the second a's records have the first's times, so perf, which
# reads by time, delivers them after the first's ("out of order
# events"), when a thread has the comm the first a left it: no comms.
for ins in "a a" "a c" "c a"; do
	set -- $ins
	pdcat $1.data $2.data > j.data 2> err.txt ||
		fail "pdcat $ins: $(cat err.txt)"
	[ -s err.txt ] && fail "pdcat $ins said: $(cat err.txt)"
	comms=yes
	[ $1 = $2 ] && comms=no
	check j.data $1.data "" $2.data ""
done
comms=yes
pddump j.data | grep ' TRACING_DATA .* nr_events=3$' > /dev/null ||
	fail "c a: tracing data without both inputs' formats"
# perf's own file mode: the reader gives its EVENT_DESC as EVENT_UPDATE
# names before its tracing data, which is still in the head.
perf record -q -B -o f.data -e sched:sched_switch -- sh -c 'dd \
    if=/dev/zero of=/dev/null bs=64 count=100000 2>/dev/null; sleep 0.01' \
    2> err.txt || fail "perf record: $(cat err.txt)"
pdcat c.data f.data > j.data 2> err.txt || fail "pdcat c f: $(cat err.txt)"
[ -s err.txt ] && fail "pdcat c f said: $(cat err.txt)"
check j.data c.data "" f.data ""

# c's tracing data moved after its first sample: too late for the one
# record; written as a second, said, and pddump still formats c's
# samples after it.
command -v python3 >/dev/null 2>&1 || exit 0
python3 - c.data > late.data <<'EOP' || fail "late.data"
import struct, sys
d = open(sys.argv[1], "rb").read()
o, recs = 16, []
while o < len(d):
    t, m, n = struct.unpack_from("<IHH", d, o)
    if t == 66:
        n += struct.unpack_from("<I", d, o + 8)[0]
    recs.append((t, d[o:o + n]))
    o += n
td = [r for r in recs if r[0] == 66][0]
recs.remove(td)
s = [k for k, r in enumerate(recs) if r[0] == 9][0]
recs.insert(s + 1, td)
sys.stdout.buffer.write(d[:16] + b"".join(r for _, r in recs))
EOP
pdcat a.data late.data > j.data 2> err.txt || fail "a late: $(cat err.txt)"
[ "$(wc -l < err.txt)" = 1 ] && grep -q "^pdcat: late.data: offset 0x[0-9a-f]*: tracing data with formats that the one written before lacks: written as a second one, where perf 6.1 stops reading (pdtools read on)$" err.txt ||
	fail "a late: said $(cat err.txt)"
pddump j.data > t.txt || fail "a late: pddump"
[ "$(grep -c ' TRACING_DATA ' t.txt)" = 2 ] || fail "a late: not two tracing data"
# Every tracepoint sample of c but its first (before its formats).
want=$(($(texts a.data | wc -l) + $(texts c.data | wc -l) - 1))
[ "$(grep -c '^  text: ' t.txt)" -ge "$want" ] ||
	fail "a late: $(grep -c '^  text: ' t.txt) tracepoint texts, wanted $want"
exit 0
