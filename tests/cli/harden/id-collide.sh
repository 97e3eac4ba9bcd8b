# SPDX-License-Identifier: MIT
# Issue 18 finding 4: sample ids chosen so that the old fixed hashes sent
# them all to one slot (200000 for the evlist's, 200000 for pdcat's) made
# every insert and lookup walk one cluster: seconds to minutes for 3 MB.
# The seeded hash keeps every tool at a fraction of a second.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe idflood 200000 > f.data || fail "mkpipe"
timeout 10 pdstat f.data > stat.txt 2> err.txt || fail "pdstat: exit $?: $(cat err.txt)"
grep -q 1000 stat.txt || fail "pdstat lost samples: $(cat stat.txt)"
timeout 10 pdswap -t big f.data > be.data || fail "pdswap: exit $?"
timeout 10 pddump be.data > /dev/null || fail "pddump: exit $?"
# Joined with itself: every id of the second copy is renumbered.
timeout 20 pdcat f.data f.data > j.data 2> err.txt ||
	fail "pdcat: exit $?: $(cat err.txt)"
timeout 10 pdstat j.data > jstat.txt || fail "pdstat of the join: exit $?"
grep -q 2000 jstat.txt || fail "join lost samples: $(cat jstat.txt)"
exit 0
