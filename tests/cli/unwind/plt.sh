# SPDX-License-Identifier: MIT
# Samples in a PLT entry that has no CFI: the workload linked by lld
# (which gives .plt no .eh_frame) calls lib_step() in a loop through
# its PLT. A sample at an entry's first instruction has nothing pushed
# yet, so the return address is the word at sp; perf's libunwind knows
# these bytes and walks on, and so must we, to _start, with the entry
# named ("lib_step@plt", where perf 6.1 says "[unknown]").
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/unwind/unwind.inc"
need_perf
need_root
build_prog_lld
plt=$(readelf -SW prog |
    sed -n 's/.* \.plt  *PROGBITS  *0*\([0-9a-f][0-9a-f]*\) .*/\1/p')
[ -n "$plt" ] || fail "prog has no .plt: $(readelf -SW prog | grep plt)"
readelf -wf prog | grep -q "pc=0*$plt\." &&
	fail "lld gave .plt CFI: this test no longer tests the fallback"
perf record -q -F 1000 --call-graph dwarf -o - -- ./prog 0.25 calls \
    > perf.data 2> rec.err || skip "perf record failed: $(tail -n 1 rec.err)"
compare_unwind perf.data 50
n=$(sed -n 's/.*, \([0-9]*\) of them from a PLT entry$/\1/p' cmp.txt)
[ "${n:-0}" -ge 10 ] ||
	fail "only ${n:-0} samples in a PLT entry unwound to main: $(cat cmp.txt)"
