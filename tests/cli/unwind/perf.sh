# pddump --unwind names the same user frames as perf script, sample by
# sample, on a stream `perf record --call-graph dwarf` made of a program
# built without frame pointers (main -> a -> b -> c -> lib_spin in a
# shared library of its own).
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/unwind/unwind.inc"
need_perf
need_root
build_prog
perf record -q -F 1000 --call-graph dwarf -o - -- ./prog 0.25 \
    > perf.data 2> rec.err || skip "perf record failed: $(tail -n 1 rec.err)"
compare_unwind perf.data 50
