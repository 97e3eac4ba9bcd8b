# SPDX-License-Identifier: MIT
# pdstat --flamegraph unwinds --call-graph dwarf samples by default: on
# our dwarf capture (gzip) the flame graph has user frames below the
# one recorded, up to __libc_start_call_main, and no note that stacks
# could not be unwound; with --no-unwind it has the recorded leaf
# frames only, as before unwinding was done.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
f=$C/dwarf.pipe.data
corpus_have "$f" || skip "no $f"

pdstat --flamegraph u.svg "$f" > /dev/null 2> u.err ||
	fail "pdstat --flamegraph: $(cat u.err)"
pdstat --no-unwind --flamegraph n.svg "$f" > /dev/null 2> n.err ||
	fail "pdstat --no-unwind --flamegraph: $(cat n.err)"
grep -q '<title>__libc_start_call_main (' u.svg ||
	fail "not unwound: $(grep -o '<title>[^<]*' u.svg | sort -u | head)"
grep -q 'could not be unwound' u.err && fail "$(cat u.err)"
grep -q '<title>__libc_start_call_main (' n.svg &&
	fail "--no-unwind: unwound: $(grep -o '<title>[^<]*' n.svg | sort -u | head)"
echo "unwound: $(grep -c '<title>' u.svg) frames; --no-unwind: $(grep -c '<title>' n.svg)"
