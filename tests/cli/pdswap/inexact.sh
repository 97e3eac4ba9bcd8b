# A record of an unknown type is left as it is, counted and reported on
# stderr; the rest is still converted and the round trip stays exact.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe pdswap-le extra > le.data || fail "generator"
pdswap -t big < le.data > be.data 2>err.txt || fail "exit $?: $(cat err.txt)"
grep -q '1 record converted only in part.*unknown type' err.txt ||
	fail "no report: $(cat err.txt)"
# the unknown record keeps its bytes: 08 07 06 05 04 03 02 01
od -An -tx1 be.data | tr -d '\n' | grep -q '08 07 06 05 04 03 02 01' ||
	fail "unknown record was changed"
pdswap -t swap < be.data 2>/dev/null > rt.data || fail "back"
cmp rt.data le.data || fail "round trip not exact"
