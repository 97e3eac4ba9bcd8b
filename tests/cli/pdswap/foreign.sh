# Round trip over every foreign capture the reader reads (other writers,
# versions and features): exact, or the pdcat form of the input.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
not_sanitized
[ -d "$C/foreign" ] || skip "no foreign corpus"
n=0
for f in $(find "$C/foreign" -type f ! -name '*.md' ! -name '*.sources' |
    sort); do
	pdcat "$f" > cat.data 2>/dev/null || continue
	pdswap -t swap < "$f" 2>/dev/null | pdswap -t swap > rt.data 2>/dev/null ||
		fail "$f: pdswap failed"
	cmp -s rt.data "$f" || cmp -s rt.data cat.data ||
	    { pdcat -d "$f" | cmp -s - rt.data; } || fail "$f: round trip differs"
	n=$((n + 1))
done
[ "$n" -ge 100 ] || fail "only $n foreign files read"
