# A tracepoint sample's fields as perf script prints them (its event's
# print_fmt, applied by libtraceevent): pddump's "text" equals perf
# script's on our sched capture, on the s390x perf's own output for a
# big-endian one, and on a fresh recording of irq, syscalls, block,
# timer and sched tracepoints. --raw leaves the text out.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
command -v python3 >/dev/null || skip "no python3"
cmp=$PD_TOP/tests/cli/pddump/tpcmp.py

# Big-endian: against the s390x perf's own perf script, no perf here.
be=$C/bigendian/s390x-sched.pipe.data
pddump --json "$be" > be.json || fail "$be: pddump exit $?"
ref_text "$C/bigendian/reference/s390x-sched.pipe.data.script.txt" > be.txt ||
	fail "no s390x reference output"
python3 "$cmp" be.json be.txt > cmp.txt || fail "s390x-sched: $(cat cmp.txt)"
echo "s390x-sched: $(cat cmp.txt)"

# Text form: a line of its own under the raw fields; --raw: none.
pddump "$C/sched.pipe.data" > t.txt || fail "pddump exit $?"
n=$(grep -c '^  raw: ' t.txt)
[ "$n" -gt 0 ] && [ "$(grep -c '^  text: ' t.txt)" = "$n" ] ||
	fail "text lines: $(grep -c '^  text: ' t.txt), raw lines: $n"
grep -q '^  text: prev_comm=perf prev_pid=12342 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0$' t.txt ||
	fail "no sched_switch text as perf prints it"
pddump --raw "$C/sched.pipe.data" > r.txt || fail "pddump --raw exit $?"
grep -q '^  text: ' r.txt && fail "--raw printed text"
[ "$(grep -c '^  raw: ' r.txt)" = "$n" ] || fail "--raw lost raw lines"
pddump --raw --json "$C/sched.pipe.data" | grep -q '"text":' &&
	fail "--raw --json printed text"

# A format the library refuses ('%' in a field's type, as a corrupt
# stream can carry): its samples keep their raw fields and say the text
# failed, as perf script does, and -s goes through. (The library leaks a
# little of such a format: tests/lsan.supp.)
LC_ALL=C sed 's/field:unsigned char common_flags;/field:unsign%d char common_flags;/' \
    "$be" > refused.data
cmp -s "$be" refused.data && fail "no format changed in $be"
pddump "$be" | grep -v '^  text: ' > good.txt
pddump refused.data > refused.txt || fail "refused format: pddump exit $?"
grep -q '^  text: \[FAILED TO PARSE\]' refused.txt ||
	fail "refused format: no [FAILED TO PARSE] text"
grep -v '^  text: ' refused.txt | cmp -s - good.txt ||
	fail "refused format: records changed"
pddump -s refused.data > /dev/null 2> s.err ||
	fail "refused format: pddump -s exit $?: $(cat s.err)"

# A format that kills libtraceevent's parser, and perf script with it
# (a __print_flags of a field the event lacks, one byte changed): that
# event's samples lose their text, the other event keeps its own.
LC_ALL=C sed 's/__print_flags(REC->prev_state/__print_flags(REC->prev_statE/' \
    "$C/sched.pipe.data" > deadly.data
cmp -s "$C/sched.pipe.data" deadly.data && fail "no format changed"
pddump "$C/sched.pipe.data" > good.txt || fail "pddump exit $?"
pddump deadly.data > deadly.txt || fail "deadly format: pddump exit $?"
grep -v '^  text: ' good.txt > good.notext
grep -v '^  text: ' deadly.txt | cmp -s - good.notext ||
	fail "deadly format: records changed"
awk '/ SAMPLE /{ w = /event=sched:sched_wakeup/ } /^  text: / && w' \
    good.txt > wake.txt
[ -s wake.txt ] || fail "no sched_wakeup text in $C/sched.pipe.data"
grep '^  text: ' deadly.txt | cmp -s - wake.txt ||
	fail "deadly format: text other than sched_wakeup's, or not all of it"
pddump -s deadly.data > /dev/null 2> s.err ||
	fail "deadly format: pddump -s exit $?: $(cat s.err)"

need_perf
pddump --json "$C/sched.pipe.data" > s.json || fail "pddump exit $?"
perf script -F event,trace -i "$C/sched.pipe.data" > s.txt 2>/dev/null ||
	fail "perf script failed"
python3 "$cmp" s.json s.txt > cmp.txt || fail "sched: $(cat cmp.txt)"
echo "sched: $(cat cmp.txt)"

# A fresh recording: tracepoints whose print_fmt use flags, symbols,
# hex, arrays and __get_str.
need_root
need_tracepoint syscalls
perf record -q -e 'irq:*' -e 'syscalls:sys_enter_openat' \
    -e 'syscalls:sys_exit_openat' -e 'block:*' -e 'timer:*' \
    -e 'sched:sched_process_exec' -o - -- sh -c \
    'cat /etc/hostname >/dev/null; dd if=/dev/zero of=f bs=4k count=8 \
    oflag=direct 2>/dev/null; sync' > live.data 2>perf.err ||
	skip "perf record of tracepoints failed: $(head -n 1 perf.err)"
pddump --json live.data > l.json || fail "live: pddump exit $?"
perf script -F event,trace -i live.data > l.txt 2>/dev/null ||
	fail "live: perf script failed"
python3 "$cmp" l.json l.txt > cmp.txt || fail "live: $(cat cmp.txt)"
echo "live: $(cat cmp.txt)"
