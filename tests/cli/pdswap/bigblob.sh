# A foreign stream whose tracing blob (about 600 KiB) is too large to be
# read with its record, so it is streamed through the input buffer (issue
# 18, finding 1): the TRACING_DATA header that comes out must be the one
# that went in, not blob text, through pdswap both ways and through
# pdcat, pdsort and pdstat -p, which read foreign input the same way.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe tracing-big > le.data || fail "mkpipe tracing-big"
mkpipe tracing-big-be > be.data || fail "mkpipe tracing-big-be"
[ "$(wc -c < le.data)" -gt 524288 ] || fail "blob not over 512 KiB"
timeout 10 pdswap -t big < le.data > b.data || fail "pdswap -t big"
cmp b.data be.data || fail "little to big differs"
timeout 10 pdswap -t little < be.data > l.data || fail "pdswap -t little"
cmp l.data le.data || fail "big to little differs"
timeout 10 pdswap < b.data > rt.data || fail "pdswap back"
cmp rt.data le.data || cmp rt.data be.data || fail "round trip differs"
timeout 10 pdcat be.data > c.data || fail "pdcat"
cmp c.data le.data || cmp c.data be.data || fail "pdcat of the big-endian stream differs"
timeout 10 pdcat le.data be.data > j.data || fail "pdcat join"
timeout 10 pddump j.data > j.txt || fail "pddump of the join"
# The second adds no format: the join writes the first alone (pdcat(1)).
[ "$(grep -c ' TRACING_DATA ' j.txt)" = 1 ] &&
    grep -q ' TRACING_DATA data_size=569056 version=0.6' j.txt ||
	fail "joined TRACING_DATA headers: $(grep TRACING j.txt)"
# The other tools that pass records on: pdsort, pdstat -p.
for t in pdsort "pdstat -p"; do
	timeout 10 $t be.data 2>/dev/null > t.data || fail "$t"
	timeout 10 pddump t.data > t.txt || fail "pddump after $t"
	grep -q ' TRACING_DATA data_size=569056 version=0.6' t.txt ||
		fail "$t: $(grep -v raw: t.txt | head -5)"
done
