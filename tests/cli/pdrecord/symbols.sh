# SPDX-License-Identifier: MIT
# With -g, perf report names the test program's own functions, and the
# stream carries the program's build id (HEADER_BUILD_ID), as readelf
# reads it from the file.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdrecord/lib.inc"
need_root
need_perf
build_busy

pdrecord -q -g -- ./busy 300 > g.data 2> rec.err || fail "pdrecord: $(cat rec.err)"
perf report --stdio --no-children -i - < g.data > report.txt 2> err.txt ||
	fail "perf report: $(cat err.txt)"
[ -s err.txt ] && fail "perf report warned: $(cat err.txt)"
grep -q 'pd_leaf_spin' report.txt || fail "no pd_leaf_spin: $(head -30 report.txt)"
# The caller appears in the call chains of the leaf's samples.
grep -q 'pd_middle_work' report.txt ||
	fail "no pd_middle_work in call chains: $(head -40 report.txt)"

want=$(readelf -n busy | awk '/Build ID/ { print $3 }')
[ -n "$want" ] || skip "cc made no build id"
perf buildid-list -i g.data > ids.txt 2> err.txt || fail "buildid-list: $(cat err.txt)"
grep -q "^$want .*/busy\$" ids.txt || fail "no build id $want for busy: $(cat ids.txt)"
grep -q 'kernel.kallsyms' ids.txt || fail "no kernel build id: $(cat ids.txt)"
