# The --unwind EXAMPLES of man/pddump.1, run as written on the unwind
# workload (prog: main -> a -> b -> c -> lib_spin, no frame pointers).
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/unwind/unwind.inc"
need_perf
need_root
build_prog
perf record -q --call-graph dwarf -o - -- ./prog | pdsort |
    pddump --unwind -t SAMPLE > 1.txt 2> 1.err || fail "example 1: $(cat 1.err)"
grep -q "^    0x[0-9a-f]* b+0x[0-9a-f]* (.*/prog)$" 1.txt ||
	fail "example 1: no frame in b: $(head -n 20 1.txt)"

perf record -q --call-graph dwarf -o perf.data -- ./prog 2> /dev/null ||
	skip "perf record -o perf.data failed"
command -v jq >/dev/null 2>&1 || skip "no jq for example 2"
pdsort perf.data | pddump --unwind --json -t SAMPLE |
    jq -r '[.callchain[] | .sym // "[unknown]"] | join(";")' |
    sort | uniq -c | sort -rn | head > 2.txt || fail "example 2"
grep -q " c;b;a;main;" 2.txt || fail "example 2: $(cat 2.txt)"
