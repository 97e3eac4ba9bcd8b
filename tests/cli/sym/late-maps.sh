# SPDX-License-Identifier: MIT
# Issue 16: the symbol queue keeps perf's round rules. A round that
# empties the queue makes perf start its max_timestamp afresh, so maps
# that come late wait for the right round: the sample at time 70 is
# named with /late-b (mapped at 50), not /late-c (mapped at 80), in
# pddump -s, --folded and pdstat --top, as perf script names it.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe sym-late > late.pd || fail "mkpipe sym-late"
pddump -s late.pd > late.txt 2>/dev/null || fail "pddump -s: exit $?"
# The samples in stream order: times 100, 60, 90, 70.
names=$(sed -n 's/^  sym: .*(\(.*\))$/\1/p' late.txt | tr '\n' ' ')
[ "$names" = "/late-a /late-b /late-c /late-b " ] || fail "pddump -s: $names"
pddump --folded late.pd > folded.txt 2>/dev/null || fail "--folded: exit $?"
grep -qx 'victim;\[late-b\] 2' folded.txt || fail "--folded: $(cat folded.txt)"
pdstat --top 3 --by dso late.pd > top.txt 2>/dev/null || fail "--top: exit $?"
grep -q '^ *50\.00% *2 */late-b$' top.txt || fail "--top: $(cat top.txt)"
# Real perf, when it is here, names every sample the same way (it
# prints them in the order it delivers them: the one at 100 first).
command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1 || exit 0
perf script -i late.pd --ns -F time,ip,dso > late.perf 2>/dev/null ||
	fail "perf script: exit $?"
sed -n 's/^ *0\.0*\([0-9]*\): *[0-9a-f]* *(\(.*\))$/\1 \2/p' late.perf | sort > perf.txt
awk '/ SAMPLE / { sub(/.*time=/, ""); t = $1 }
    /^  sym: / { sub(/.*\(/, ""); sub(/\)$/, ""); print t, $0 }' late.txt |
    sort > ours.txt
[ "$(wc -l < perf.txt)" = 4 ] || fail "perf script: $(cat late.perf)"
cmp -s perf.txt ours.txt ||
	fail "perf script: $(cat perf.txt | tr '\n' ','), pddump -s: $(cat ours.txt | tr '\n' ',')"
exit 0
