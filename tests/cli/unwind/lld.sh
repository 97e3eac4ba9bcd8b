# perf.sh with the workload linked by lld (clang -fuse-ld=lld): lld
# places the executable segment a page above its file offset, so the
# file's load bias is not map start - pgoff, as it is for GNU ld.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/unwind/unwind.inc"
need_perf
need_root
build_prog_lld
perf record -q -F 1000 --call-graph dwarf -o - -- ./prog 0.25 \
    > perf.data 2> rec.err || skip "perf record failed: $(tail -n 1 rec.err)"
compare_unwind perf.data 50
