# SPDX-License-Identifier: MIT
# pdstat --flamegraph on the two-path test program: the summary is still
# printed; the SVG is well-formed XML that fetches nothing, has the hot
# function's box with its name, the 3:1 of the two paths, one colour per
# name; and it is written atomically (no file after a failure, the old
# one left alone).
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/flame/lib.inc"
need_perf
need_root
command -v python3 >/dev/null 2>&1 || skip "no python3"
build_prog

perf record -q -e cpu-clock -F 999 -g -o perf.data -- ./prog 400 \
    2> rec.err || fail "perf record: $(cat rec.err)"
pdstat --flamegraph flame.svg perf.data > summary.txt 2> err.txt ||
	fail "pdstat --flamegraph: $(cat err.txt)"
grep -Eq '^ *SAMPLE +[1-9]' summary.txt || fail "no summary: $(cat summary.txt)"
python3 "$PD_TOP/tests/cli/flame/svgcheck.py" flame.svg \
    --name pd_flame_hot --name pd_flame_a --name pd_flame_b --name prog \
    --ratio pd_flame_a pd_flame_b 2 4.5 || fail "flame.svg"
grep -q '<text id="title"[^>]*>Flame Graph: cpu-clock, [1-9][0-9]* samples<' \
    flame.svg || fail "title: $(grep 'id="title"' flame.svg)"
grep -q '<text id="subtitle"[^>]*>.*perf record .*prog 400<' flame.svg ||
	fail "subtitle: $(grep 'id="subtitle"' flame.svg)"

# The same picture from a pipe, and to standard output.
pdcat perf.data | pdstat --flamegraph - > pipe.svg 2> summary2.txt ||
	fail "pdstat --flamegraph -: $(cat summary2.txt)"
grep -Eq '^ *SAMPLE +[1-9]' summary2.txt || fail "summary not on stderr"
python3 "$PD_TOP/tests/cli/flame/svgcheck.py" pipe.svg --name pd_flame_hot ||
	fail "pipe.svg"

# A cut stream: what was read before the fault is drawn, exit 1, and no
# temporary file is left beside the picture.
head -c 3000 perf.data > cut.data
pdstat --flamegraph cut.svg cut.data > /dev/null 2> err.txt &&
	fail "a cut stream passed"
grep -q 'cut.data' err.txt || fail "no error for the cut stream: $(cat err.txt)"
python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' \
    cut.svg || fail "cut.svg"
ls ./*.svg.* 2>/dev/null && fail "a temporary file was left"
expect_fail 1 'nodir/x.svg' pdstat --flamegraph nodir/x.svg perf.data
pdstat -p --flamegraph - perf.data > /dev/null 2> err.txt
[ $? -eq 2 ] || fail "-p --flamegraph - did not exit 2"
grep -q 'give --flamegraph a file' err.txt || fail "$(cat err.txt)"
exit 0
