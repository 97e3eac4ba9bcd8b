# The same comparison as perf.sh on a stream pdrecord made. perf's own
# unwinder reads a library's .eh_frame_hdr through the maps of the
# stream, and without the data (non-exec) maps it finds none past a leaf
# in a shared library: pdrecord turns them on for --call-graph dwarf, as
# perf record does, and this checks it (no -d here).
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/unwind/unwind.inc"
need_perf
need_root
build_prog
pdrecord -q -F 1000 --call-graph dwarf -o pd.data -- ./prog 0.25 \
    2> rec.err || skip "pdrecord failed: $(tail -n 1 rec.err)"
compare_unwind pd.data 50
