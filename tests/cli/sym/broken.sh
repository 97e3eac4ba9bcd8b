# SPDX-License-Identifier: MIT
# Files that cannot give names: a binary deleted after recording, a
# stripped one, one rebuilt with a change (build ids from a file-mode
# perf.data, from MMAP2 records, perf's or pdrecord's; a pipe stream
# with them only at its end can only check late, which is said).
# Each: [unknown] with the dso, one note, exit 0, never a name. And a stripped binary with
# its debug info in a separate file (debuglink) is named through it.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v strip >/dev/null && command -v objcopy >/dev/null || skip "no binutils"
. "$PD_TOP/tests/cli/sym/hot.sub"
here=$(pwd)
# perf record keeps the files it recorded in root's build-id cache,
# where pddump -s would rightly find them: not this test's question.
export PERF_BUILDID_DIR="$here/no-cache"

# No frame of ./hot may be named; libhot's leaf still is.
unnamed() {	# file.txt dir
	grep -Eq "(middle|outer|main)\+0x[0-9a-f]+ \($here/$2/hot\)" "$1" &&
		fail "$1: a name from $2/hot: $(grep -E 'middle|outer' "$1" | head -n 2)"
	grep -Eq "\[unknown\] \($here/$2/hot\)" "$1" || fail "$1: no [unknown] ($2/hot)"
	grep -Eq "leaf\+0x[0-9a-f]+ \($here/$2/libhot.so\)" "$1" || fail "$1: leaf not named"
}

# 1. Deleted after recording.
build_hot m
pdrecord -q -g -o m.pd -- ./m/hot 200 || fail "pdrecord m"
mv m/hot m/hot.away
pddump -s -t SAMPLE m.pd > m.txt 2> m.err || fail "pddump -s m: exit $?"
unnamed m.txt m
[ "$(grep -c "m/hot: No such file or directory; its symbols are not shown" m.err)" = 1 ] ||
	fail "m: note: $(cat m.err)"
mv m/hot.away m/hot

# 2. Stripped: only what .dynsym has, [unknown] for the rest, a note.
build_hot s
strip s/hot || fail strip
pdrecord -q -g -o s.pd -- ./s/hot 200 || fail "pdrecord s"
pddump -s -t SAMPLE s.pd > s.txt 2> s.err || fail "pddump -s s: exit $?"
unnamed s.txt s
[ "$(grep -c "s/hot: no symbol table (stripped)" s.err)" = 1 ] ||
	fail "s: note: $(cat s.err)"

# 3a. Rebuilt with a change after a file-mode recording (build ids).
build_hot b
perf record -q -g -o b.data -- ./b/hot 200 2> b.rec || fail "perf record: $(cat b.rec)"
build_hot b -O0
pddump -s -t SAMPLE b.data > b.txt 2> b.err || fail "pddump -s b: exit $?"
grep -Eq "(middle|outer|main)\+0x[0-9a-f]+ \($here/b/hot\)" b.txt &&
	fail "b: a name from the rebuilt b/hot"
grep -Eq "\[unknown\] \($here/b/hot\)" b.txt || fail "b: no [unknown] (b/hot)"
grep -q "b/hot: build id [0-9a-f]* does not match the file's [0-9a-f]*; its symbols are not shown" b.err ||
	fail "b: note: $(cat b.err)"
# 3b. The same in pipe streams: perf record --buildid-mmap puts the
# build ids in the MMAP2 records, so the check holds from the start.
build_hot p
perf record -q --buildid-mmap -g -o - -- ./p/hot 200 > p.pd 2> p.rec ||
	fail "perf record --buildid-mmap: $(cat p.rec)"
pdrecord -q -g -o q.pd -- ./p/hot 200 || fail "pdrecord q"
build_hot p -O0
pddump -s -t SAMPLE p.pd > p.txt 2> p.err || fail "pddump -s p: exit $?"
grep -Eq "(middle|outer|main)\+0x[0-9a-f]+ \($here/p/hot\)" p.txt &&
	fail "p: a name from the rebuilt p/hot"
grep -q "p/hot: build id [0-9a-f]* does not match the file's" p.err ||
	fail "p: note: $(cat p.err)"
# pdrecord gives them in MMAP2 too (issue 20): checked from the start.
pddump -s -t SAMPLE q.pd > q.txt 2> q.err || fail "pddump -s q: exit $?"
grep -Eq "(middle|outer|main)\+0x[0-9a-f]+ \($here/p/hot\)" q.txt &&
	fail "q: a name from the rebuilt p/hot"
grep -q "p/hot: build id [0-9a-f]* does not match the file's [0-9a-f]*; its symbols are not shown" q.err ||
	fail "q: note: $(cat q.err)"

# 4. Stripped, its debug info beside it in .debug/ (debuglink).
build_hot d
mkdir d/.debug
objcopy --only-keep-debug d/hot d/.debug/hot.debug || fail objcopy
strip d/hot || fail strip
objcopy --add-gnu-debuglink=d/.debug/hot.debug d/hot || fail debuglink
pdrecord -q -g -o d.pd -- ./d/hot 200 || fail "pdrecord d"
pddump -s -t SAMPLE d.pd > d.txt 2> d.err || fail "pddump -s d: exit $?"
grep -Eq "middle\+0x[0-9a-f]+ \($here/d/hot\)" d.txt || fail "d: middle not named"
grep -Eq "\[unknown\] \($here/d/hot\)" d.txt && fail "d: [unknown] in d/hot"
[ ! -s d.err ] || fail "d: notes: $(cat d.err)"
exit 0
