# SPDX-License-Identifier: MIT
# The options of issue 11 in --help, and their misuse: exit 2 and a
# usage line.
. "$PD_TOP/tests/cli/lib.sh"
pddump --help | grep -q -e '--folded\[=period\]' || fail "pddump --help lacks --folded"
pdstat --help | grep -q -e '--flamegraph FILE.svg' || fail "pdstat --help lacks --flamegraph"
for bad in '--folded=bogus' '--folded --json' '--folded -x' '--folded -t SAMPLE'; do
	pddump $bad < /dev/null > out.txt 2> err.txt
	[ $? -eq 2 ] || fail "pddump $bad: not exit 2"
	grep -q '^usage: pddump' err.txt || fail "pddump $bad: $(cat err.txt)"
	[ -s out.txt ] && fail "pddump $bad printed: $(cat out.txt)"
done
pdstat --flamegraph < /dev/null > /dev/null 2> err.txt
[ $? -eq 2 ] || fail "pdstat --flamegraph without a file: not exit 2"
# No samples: an empty folded output, and a picture with only its frame.
mkpipe ok > ok.data || fail "mkpipe ok"
pddump --folded ok.data > ok.folded 2> err.txt || fail "pddump --folded: $(cat err.txt)"
[ "$(wc -l < ok.folded)" -eq 1 ] || fail "ok.folded: $(cat ok.folded)"
pdstat --flamegraph ok.svg ok.data > /dev/null 2> err.txt ||
	fail "pdstat --flamegraph: $(cat err.txt)"
grep -q '<g id="frames">' ok.svg || fail "ok.svg: $(head -c 300 ok.svg)"
exit 0
