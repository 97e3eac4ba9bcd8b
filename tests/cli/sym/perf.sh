# SPDX-License-Identifier: MIT
# pddump -s names the same symbol and dso as perf script for the ip and
# every callchain entry of every sample, kernel frames included, on
# streams of a test program recorded by perf and by pdrecord.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v python3 >/dev/null || skip "no python3"
. "$PD_TOP/tests/cli/sym/hot.sub"
build_hot .

perf record -g -o - -- ./hot 300 > perf.pd 2>perf.err || fail "perf record: $(cat perf.err)"
pdrecord -q -g -o pd.pd -- ./hot 300 || fail "pdrecord"

for s in perf.pd pd.pd; do
	perf script -i - --ns -F comm,tid,time,ip,sym,symoff,dso < $s > $s.perf 2>$s.err ||
		fail "perf script $s: $(cat $s.err)"
	pddump -s --json -t SAMPLE $s > $s.json 2>$s.notes || fail "pddump -s $s"
	python3 "$PD_TOP/tests/cli/sym/symcmp.py" $s.json $s.perf > $s.cmp ||
		fail "$s: pddump -s and perf script differ: $(cat $s.cmp)"
	cat $s.cmp
	# The comparison must have had something to compare.
	n=$(grep -c '"sym":"leaf".*libhot.so' $s.json)
	[ "$n" -ge 20 ] || fail "$s: only $n samples in leaf"
	grep -q '"sym":"middle","symoff":[0-9]*,"dso":"[^"]*/hot"' $s.json ||
		fail "$s: no middle in hot"
	grep -q '"sym":"outer"' $s.json || fail "$s: no outer"
	grep -q '"sym":"main"' $s.json || fail "$s: no main in a callchain"
	# Kernel frames are compared above whenever perf shows one; a busy
	# loop in user space need not enter the kernel while sampled.
	if grep -q '\[kernel.kallsyms\]' $s.perf; then
		grep -q '"dso":"\[kernel.kallsyms\]"' $s.json ||
			fail "$s: no kernel frame where perf has some"
	fi
	grep -q '"comm":"hot"' $s.json || fail "$s: no comm"
	[ ! -s $s.notes ] || fail "$s: unexpected notes: $(cat $s.notes)"
done

# The text form says the same as the JSON one.
pddump -s -t SAMPLE pd.pd > pd.txt || fail "pddump -s text"
grep -q '^  sym: leaf+0x[0-9a-f]* (.*/libhot.so)$' pd.txt || fail "text sym line"
grep -q '^    0x[0-9a-f]* middle+0x[0-9a-f]* (.*/hot)$' pd.txt ||
	fail "text callchain line"
# Without -s the output is what it was.
pddump pd.pd > plain.txt || fail "pddump"
! grep -q 'sym:' plain.txt || fail "sym without -s"
exit 0
