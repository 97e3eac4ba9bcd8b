# SPDX-License-Identifier: MIT
# A shared library rebuilt after the recording (its build id given from
# the start by --buildid-mmap) is not used to unwind: the walk stops at
# its first frame, [unknown] with the dso, and the mismatch is said once.
# Its new tables would make up frames (they did: "0xa3fa3bd [unknown]").
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/unwind/unwind.inc"
need_perf
need_root
build_prog
perf record -q -F 1000 --buildid-mmap --call-graph dwarf -o - -- \
    ./prog 0.25 > perf.data 2> rec.err ||
	skip "perf record --buildid-mmap failed: $(tail -n 1 rec.err)"
gcc -O0 -g -fPIC -shared -o libunwlib.so "$PD_TOP/tests/cli/unwind/lib.c" ||
	fail "rebuilding libunwlib.so"
pdsort perf.data > sorted.data || fail "pdsort"
pddump --unwind -t SAMPLE sorted.data > out.txt 2> out.err ||
	fail "pddump --unwind: exit $?: $(cat out.err)"
grep -q "libunwlib.so: build id [0-9a-f]* does not match the file's" out.err ||
	fail "no note: $(cat out.err)"
# ... and how many stacks stopped there, counted once.
grep -q "^pddump: sorted.data: [1-9][0-9]* of [0-9]* user stacks (--call-graph dwarf) could not be unwound" out.err ||
	fail "no count of the stacks not unwound: $(cat out.err)"
[ "$(wc -l < out.err)" -eq 2 ] || fail "notes: $(cat out.err)"
# In each callchain, nothing after a frame of the rebuilt library.
awk '
/^  callchain:/ { inchain = 1; after = 0; next }
/^    0x/ && inchain {
	if (after) { bad++; print "after libunwlib: " $0 }
	if ($0 ~ /libunwlib\.so\)$/) { after = 1; n++ }
	next
}
{ inchain = 0 }
END {
	printf "%d samples end in the rebuilt library\n", n
	if (bad > 0 || n < 20) exit 1
}' out.txt > check.txt || fail "$(head -n 5 check.txt)"
cat check.txt
