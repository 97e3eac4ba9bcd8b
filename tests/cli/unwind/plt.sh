# SPDX-License-Identifier: MIT
# Samples in a PLT entry: the workload calls lib_step() in a loop
# through its PLT (prog SECS calls), so that many samples land at an
# entry's first instruction, where nothing is pushed yet and the return
# address is the word at sp. Linked by GNU ld, .plt has CFI; linked by
# lld it has none, and perf's libunwind knows the entry's bytes and
# walks on: so must we, to _start. Either way the entry is named
# "lib_step@plt" (perf 6.1: "_init+0x50", or "[unknown]" for lld).
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/unwind/unwind.inc"
need_perf
need_root

check_plt() {	# linker: record ./prog here, compare, count PLT samples
	perf record -q -F 1000 --call-graph dwarf -o - -- ./prog 0.25 calls \
	    > perf.data 2> rec.err ||
		skip "perf record failed: $(tail -n 1 rec.err)"
	compare_unwind perf.data 50
	_n=$(sed -n 's/.*, \([0-9]*\) of them from a PLT entry$/\1/p' cmp.txt)
	[ "${_n:-0}" -ge 10 ] ||
		fail "$1: only ${_n:-0} samples in a PLT entry unwound to main: $(cat cmp.txt)"
}

mkdir gnu lld
(cd gnu && build_prog && check_plt "GNU ld") || exit
cd lld
build_prog_lld
plt=$(readelf -SW prog |
    sed -n 's/.* \.plt  *PROGBITS  *0*\([0-9a-f][0-9a-f]*\) .*/\1/p')
[ -n "$plt" ] || fail "prog has no .plt: $(readelf -SW prog | grep plt)"
readelf -wf prog | grep -q "pc=0*$plt\." &&
	fail "lld gave .plt CFI: this test no longer tests the fallback"
check_plt lld
