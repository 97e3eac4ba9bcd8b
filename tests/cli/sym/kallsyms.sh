# SPDX-License-Identifier: MIT
# --kallsyms FILE: kernel symbols from a file, relocated by the stream's
# kernel map (a kallsyms of another boot, KASLR-shifted here, names the
# same kernel frames as this host's /proc/kallsyms); a file that does
# not exist is a note, not an error.
. "$PD_TOP/tests/cli/lib.sh"
need_root
command -v python3 >/dev/null || skip "no python3"
. "$PD_TOP/tests/cli/sym/hot.sub"
build_hot .
pdrecord -q -g -o pd.pd -- ./hot 200 || fail pdrecord
pddump -s -t SAMPLE pd.pd > host.txt 2> host.err || fail "pddump -s"
grep -q '[a-z_]+0x[0-9a-f]* (\[kernel.kallsyms\])' host.txt ||
	fail "no kernel names from /proc/kallsyms"
# The same kallsyms, every address 16 MiB higher.
python3 -c '
import sys
for l in open("/proc/kallsyms"):
    a, rest = l.split(" ", 1)
    sys.stdout.write("%016x %s" % (int(a, 16) + (16 << 20), rest))
' > shifted || fail "shift"
pddump -s --kallsyms shifted -t SAMPLE pd.pd > file.txt 2> file.err ||
	fail "pddump -s --kallsyms"
cmp -s host.txt file.txt || fail "relocated names differ: $(diff host.txt file.txt | head -n 4)"
pdstat --top 20 --kallsyms shifted pd.pd > top.txt || fail "pdstat --kallsyms"
pdstat --top 20 pd.pd > top2.txt || fail "pdstat --top"
cmp -s top.txt top2.txt || fail "pdstat --kallsyms differs"
pddump -s --kallsyms nonexistent -t SAMPLE pd.pd > none.txt 2> none.err ||
	fail "pddump --kallsyms nonexistent: exit $?"
grep -q '^pddump: nonexistent: No such file or directory; kernel symbols are not shown$' none.err ||
	fail "note: $(cat none.err)"
grep -q '[a-z_]+0x[0-9a-f]* (\[kernel.kallsyms\])' none.txt && fail "kernel names without kallsyms"
exit 0
