# SPDX-License-Identifier: MIT
# Issue 18, finding 5: what one stream can make the symbolizer keep.
# Spellings of one path are one dso, and links to one file read it once;
# FORK children share their parent's maps; the symbol queue holds at
# most 64 MiB, and naming samples early to stay within it is said.
. "$PD_TOP/tests/cli/lib.sh"
here=$(pwd)

# limit KB command...: under a memory limit, except in the sanitizer
# build (its shadow memory needs terabytes of address space).
limit() {
	_kb=$1; shift
	if [ "${PD_SANITIZE:-}" = 1 ]; then
		timeout 20 "$@"
	else
		(ulimit -v "$_kb" && exec timeout 20 "$@")
	fi
}

# 1. Spellings and links of one file: one dso name, the file read once.
cp "$PD_BIN/pdcat" lib.so || fail "cp"
if command -v strip >/dev/null 2>&1 && strip lib.so 2>/dev/null; then
	ln -s lib.so link.so
	mkpipe sym-file "$here/lib.so" "$here//lib.so" "$here/./lib.so" \
	    "$here/link.so" > sp.pd || fail "mkpipe sym-file"
	timeout 10 pddump -s sp.pd > sp.txt 2> sp.err || fail "pddump -s sp: exit $?"
	[ "$(grep -c "sym: .* ($here/lib.so)" sp.txt)" = 3 ] ||
		fail "spellings not one dso: $(grep sym: sp.txt)"
	grep -q "sym: .* ($here/link.so)" sp.txt || fail "link: $(grep sym: sp.txt)"
	[ "$(grep -c "no symbol table (stripped)" sp.err)" = 1 ] ||
		fail "lib.so read more than once: $(cat sp.err)"
fi
mkpipe sym-spellings 300 "$here/lib.so" > sp2.pd || fail "mkpipe sym-spellings"
timeout 10 pddump -s sp2.pd > sp2.txt 2> sp2.err || fail "pddump -s sp2: exit $?"
[ "$(grep -c "sym: .* ($here/lib.so)" sp2.txt)" = 300 ] ||
	fail "300 spellings: $(grep sym: sp2.txt | sort | uniq -c | head -n 3)"
[ "$(wc -l < sp2.err)" -le 1 ] || fail "sp2 notes: $(head -n 3 sp2.err)"

# 2. 10000 children of a process with 1000 maps: 480 MB as copies.
mkpipe sym-fork 1000 10000 > fork.pd || fail "mkpipe sym-fork"
limit 250000 pddump -s fork.pd > fork.txt 2> fork.err ||
	fail "pddump -s fork: exit $?: $(cat fork.err)"
grep -q "pid=10999 .*comm=victim" fork.txt || fail "fork: last child's sample"
grep -qF "sym: [unknown] (/x)" fork.txt || fail "fork: child's map: $(grep sym: fork.txt)"
grep -q "not usable" fork.err && fail "fork: $(cat fork.err)"
limit 250000 pdstat --top 3 fork.pd > /dev/null 2>&1 || fail "pdstat --top fork: exit $?"

# 3. 400 samples with 8100-frame chains behind one that waits for its
# time: 250 MB of records and names held at the end (old: a crash in
# 150 MB), unless handed out as they are named.
mkpipe symq-hold 400 > hold.pd || fail "mkpipe symq-hold"
limit 150000 pddump -s hold.pd > hold.txt 2> hold.err ||
	fail "pddump -s hold: exit $?: $(cat hold.err)"
[ "$(grep -c " SAMPLE " hold.txt)" = 401 ] || fail "hold: samples lost"
grep -q "the symbol queue held over 64 MiB: [0-9]* records\{0,1\} w.* before" hold.err ||
	fail "hold: no note: $(cat hold.err)"
exit 0
