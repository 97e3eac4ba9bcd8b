# SPDX-License-Identifier: MIT
# Off-CPU time on a program that waits for known times (tests/prog/
# offcpu.c: a thread sleeps 2 x 200 ms, one blocks about 300 ms on a
# pipe and says how long, one spins), recorded system-wide with
# sched_switch (and sched_wakeup, for perf sched) with call chains, by
# perf record and by pdrecord:
#  - pddump --folded=offcpu charges each known wait to its stack, within
#    5% (the waits are long against scheduling delays);
#  - per thread, the total is what perf sched timehist says on the same
#    stream: the sum of its "wait time" column (from switch-out to the
#    next switch-in; its "sch delay", wakeup to switch-in, is part of
#    it), to the microsecond each row is rounded to (a switch-in the
#    stream lacks, a thread switching out twice, is taken to be at the
#    CPU's last switch, as timehist takes it);
#  - pdstat --flamegraph --offcpu draws the same nanoseconds, and
#    --offcpu-min leaves the short waits out;
#  - the off-CPU examples of the man pages run.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v cc >/dev/null 2>&1 || skip "no C compiler"
command -v python3 >/dev/null 2>&1 || skip "no python3"
need_tracepoint sched/sched_switch
cc -O1 -g -fno-omit-frame-pointer -pthread -o offcpu \
    "$PD_TOP/tests/prog/offcpu.c" || fail "cc offcpu.c"

# The program's threads stay alive once done (it prints "done" then),
# so that each measured wait ends in the recording; killed after it.
# Every CPU is kept busy meanwhile by a burner at nice 19: a wait then
# ends in a switch from the burner, not from the idle task. Some kernels
# (seen: 6.18 under a VM) never deliver sched_switch from the idle task
# on some CPUs, and a wait whose switch-in is missing can only be
# estimated, by perf sched timehist as by us; the known waits could not
# be checked then.
pids=
trap 'for p in $pids; do kill "$p" 2> /dev/null; done' EXIT
workload() {	# RECORDER...: records while ./offcpu runs its waits
	rm -f fifo pid done.txt
	mkfifo fifo || fail "mkfifo"
	burners=
	for c in $(seq "$(nproc)"); do
		nice -n 19 sh -c 'while :; do :; done' &
		burners="$burners $!"
	done
	pids="$pids $burners"
	"$@" -- sh -c './offcpu > fifo & echo $! > pid; read x < fifo;
	    echo "$x" > done.txt' || fail "$1 failed"
	pids="$pids $(cat pid)"
	kill "$(cat pid)" $burners
}
workload perf record -q -e sched:sched_switch -e sched:sched_wakeup -g -a \
    -o perf.data
pddump --folded=offcpu perf.data > off.folded 2> err.txt ||
	fail "pddump --folded=offcpu: $(cat err.txt)"

# ms STACK-RE FILE: the milliseconds of the stacks matching STACK-RE.
ms() { awk -v re="$1" '$1 ~ re { s += $NF } END { printf "%.3f\n", s / 1e6 }' "$2"; }
# WHAT GOT WANT SLACK: GOT within 5% of WANT, plus SLACK ms of run-queue
# delay (a wait lasts until its thread runs again: on a busy machine
# that is later than its wakeup); never shorter.
within() {
	awk -v g="$2" -v w="$3" -v d="$4" 'BEGIN {
	    exit !(g >= w * 0.98 && g <= w * 1.05 + d) }' ||
		fail "$1: $2 ms off CPU, not about $3 ms (+ $4 ms delays)"
	echo "$1: $2 ms (known: $3, run-queue delays $4 ms)"
}
check_known() {	# FOLDED SLACK
	within pd_off_sleep "$(ms ';pd_off_sleep;' "$1")" 400 "$2"
	# The read's own wall time, which the program timed: 300 ms from
	# when main began to wait, less when its thread first ran late.
	rd=$(awk '$1 == "done" && $2 > 0 { printf "%.3f\n", $2 / 1000 }' \
	    done.txt)
	[ -n "$rd" ] || fail "offcpu said no read time: $(cat done.txt)"
	within pd_off_read "$(ms ';pd_off_read;' "$1")" "$rd" "$2"
}
perf sched timehist -i perf.data > th.txt 2> th.err ||
	fail "perf sched timehist: $(tail -n 3 th.err)"
# The program's run-queue delays, as timehist measures them (sch delay).
pid=$(cat pid)
delay=$(awk -v p="$pid" 'NR > 3 && (index($3, "[" p "]") ||
    index($3, "/" p "]")) { d += $5 } END { printf "%.3f\n", d }' th.txt)
check_known off.folded "$delay"

# Per thread, against perf sched timehist (columns in ms, 3 decimals).
# A timehist row ends a wait and names its thread as it is then; we
# charge a wait to the stack, and so the name, it began with. They differ
# for a thread that renames itself between: a wait is charged here to the
# name of its thread's row before (the row of the switch-out it began at).
for t in pd_sleeper pd_piper pd_spinner; do
	set -- $(awk -v t="$t" 'NR > 3 && match($3, /\[[0-9]+[]\/]/) {
	    tid = substr($3, RSTART + 1, RLENGTH - 2)
	    comm = substr($3, 1, RSTART - 1)
	    owner = (tid in last) ? last[tid] : comm
	    last[tid] = comm
	    if (owner == t) { w += $4; d += $5; n++ }
	} END { printf "%.3f %.3f %d\n", w, d, n }' th.txt)
	got=$(ms "^$t;" off.folded)
	# The spinner's many preemptions on a busy machine may lack
	# switch-ins, which both estimate: a little slack (0.1%) there.
	slack=0
	[ "$t" = pd_spinner ] && slack=0.001
	awk -v g="$got" -v w="$1" -v n="$3" -v s="$slack" 'BEGIN { d = g - w
	    e = n * 0.0005 + 0.0015 + s * w
	    exit !(n > 0 && d <= e && -d <= e) }' ||
		fail "$t: $got ms off CPU, perf sched timehist: wait $1 ms (sch delay $2) in $3 rows"
	echo "$t: $got ms; timehist wait $1 ms over $3 rows (sch delay $2 within it)"
done

# pdstat draws the same nanoseconds; --offcpu-min 250ms keeps the pipe.
pdstat --flamegraph off.svg --folded off2.folded --offcpu perf.data \
    > /dev/null 2> err.txt || fail "pdstat --offcpu: $(cat err.txt)"
cmp off.folded off2.folded || fail "pdstat --offcpu --folded differs from pddump"
python3 "$PD_TOP/tests/cli/flame/svgcheck.py" off.svg --unit ns \
    > /dev/null || fail "off.svg"
# Rendered by a real browser: the pipe wait's box is drawn, in its colour.
if command -v chromium >/dev/null 2>&1; then
	rgb=$(sed -n 's/.*<title>pd_off_read ([^<]*<\/title>[^<]*<rect [^>]*fill="rgb(\([0-9,]*\))".*/\1/p' off.svg | head -n 1)
	[ -n "$rgb" ] || fail "off.svg: no box for pd_off_read"
	h=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' off.svg | head -n 1)
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
	    --disable-quic --no-first-run --disable-background-networking \
	    --disable-component-update --disable-sync \
	    --user-data-dir="$PWD/profile" --screenshot="$PWD/shot.png" \
	    --window-size=1200,$((h + 8)) "file://$PWD/off.svg" > /dev/null \
	    2> chrome.err || fail "chromium: $(tail -n 5 chrome.err)"
	set -- $(python3 "$PD_TOP/tests/cli/flame/pngstat.py" shot.png \
	    "$rgb") || fail "pngstat.py"
	[ "$2" -ge 5 ] && [ "$5" -ge 20 ] ||
		fail "off.svg rendered without pd_off_read's box: $*"
	echo "off.svg in Chromium: $2 colours, $5 pixels of pd_off_read's rgb($rgb)"
fi
# The sleeps' box: as wide as their nanoseconds (the whole system's waits
# make it narrow).
want=$(awk '/;pd_off_sleep;/ { s += $NF } END { printf "%.0f", s }' off.folded)
grep -q "<title>pd_off_sleep ($(printf %s "$want" |
    sed ':a;s/\B[0-9]\{3\}\>/,&/;ta') ns, " off.svg ||
	fail "no pd_off_sleep box of $want ns: $(grep -o '<title>pd_off_sleep[^<]*' off.svg)"
grep -q '<text id="title"[^>]*>Flame Graph: off-CPU time, [1-9][0-9]* waits<' \
    off.svg || fail "title: $(grep 'id="title"' off.svg)"
pdstat --folded long.folded --offcpu --offcpu-min 250ms perf.data \
    > /dev/null 2>&1 || fail "pdstat --offcpu-min"
grep -q ';pd_off_read;' long.folded || fail "the 300 ms wait went"
grep -q ';pd_off_sleep;' long.folded && fail "a 200 ms wait stayed"
awk '$NF < 250000000 { exit 1 }' long.folded || fail "a short wait stayed"

# pdrecord's stream: the same waits.
workload pdrecord -q -e sched:sched_switch -g -a -o pd.data
pddump --folded=offcpu pd.data > pd.folded 2> err.txt ||
	fail "pddump --folded=offcpu (pdrecord): $(cat err.txt)"
# (No sched_wakeup here to measure the delays: a looser bound.)
check_known pd.folded 60

# The off-CPU EXAMPLES of pddump(1) and pdstat(1), run as written.
for m in pddump.1 pdstat.1; do
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$PD_TOP/man/$m" |
	    sed -n 's/^\(\.Dl \)\{0,1\}# //p' | sed 's/\\-/-/g; s/\\e/\\/g' |
	    grep -e 'offcpu'
done > examples.txt
[ "$(wc -l < examples.txt)" -eq 2 ] || fail "examples: $(cat examples.txt)"
while IFS= read -r cmd; do
	bash -o pipefail -c "$cmd" > /dev/null 2> err.txt < /dev/null ||
		fail "example failed: $cmd: $(cat err.txt)"
done < examples.txt
awk '$NF < 1000000 { exit 1 } END { exit NR == 0 }' offcpu.folded ||
	fail "offcpu.folded: $(head -n 3 offcpu.folded)"
python3 "$PD_TOP/tests/cli/flame/svgcheck.py" offcpu.svg --unit ns ||
	fail "offcpu.svg"
exit 0
