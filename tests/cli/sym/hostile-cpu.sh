# SPDX-License-Identifier: MIT
# Issue 18, finding 6: streams that made the symbolizer super-linear:
# build ids for paths of no dso (each walked every dso), maps of one
# path with ever new inodes (one long hash chain), and a new map before
# every unwound sample (each sync compared every module with every map),
# maps in descending order (each moved every map after it).
# Each now takes well under a second; the limit is generous.
. "$PD_TOP/tests/cli/lib.sh"

run() {	# what command...: within 10 s, exit 0
	_what=$1; shift
	timeout 10 "$@" > out.txt 2> err.txt
	_rc=$?
	[ "$_rc" = 0 ] || fail "$_what: exit $_rc (124: too slow): $(head -n 3 err.txt)"
}

mkpipe sym-bids 40000 > bid.pd || fail "mkpipe sym-bids"
run "40000 build ids after the maps" pddump -s bid.pd
grep -qF "sym: [unknown] (/nonexistent/lib0000000.so)" out.txt || fail "bid: $(grep sym: out.txt)"
mkpipe sym-bids 40000 first > bidf.pd || fail "mkpipe sym-bids first"
run "40000 build ids before the maps" pdstat --top 3 bidf.pd

mkpipe sym-inodes 60000 > ino.pd || fail "mkpipe sym-inodes"
run "60000 inodes of one path" pdstat --top 3 ino.pd
grep -q "/nonexistent/lib.so: more than 16 different files of this path" err.txt ||
	fail "inodes: no note: $(cat err.txt)"
run "60000 inodes of one path" pddump -s ino.pd
grep -qF "sym: [unknown] (/nonexistent/lib.so)" out.txt || fail "ino: $(grep sym: out.txt)"

mkpipe sym-desc 150000 > desc.pd || fail "mkpipe sym-desc"
run "150000 maps in descending order" pdstat --top 3 desc.pd
run "150000 maps in descending order" pddump -s desc.pd
[ "$(grep -cF "sym: [unknown] (/x)" out.txt)" = 2 ] || fail "desc: $(grep sym: out.txt)"

mkpipe sym-unwind 5000 > uw.pd || fail "mkpipe sym-unwind"
run "5000 maps and unwinds" pddump --unwind uw.pd
[ "$(grep -c " SAMPLE " out.txt)" = 5000 ] || fail "unwind: samples lost"


# 500 children of a process with one file mapped at 500 places, one
# sample each to unwind: each child's maps are its parent's, so one
# libdwfl space serves them all (each used to report all 500 again).
cp "$PD_BIN/pdcat" exe || fail "cp"
mkpipe sym-unwind-forks 500 500 "$(pwd)/exe" > uwf.pd || fail "mkpipe sym-unwind-forks"
run "500 children of 500 maps, unwound" pddump --unwind uwf.pd
[ "$(grep -c " SAMPLE " out.txt)" = 500 ] || fail "unwind forks: samples lost"
exit 0
