# SPDX-License-Identifier: MIT
# make demo, the README's first command, keeps working.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
sh "$PD_TOP/tests/demo.sh" > demo.out 2>&1 || fail "$(tail -n 5 demo.out)"
tail -n 1 demo.out | grep -q '^demo: all pipelines ran$' ||
	fail "demo did not finish: $(tail -n 3 demo.out)"
grep -q '^   identical$' demo.out || fail "no comparison in the demo"
