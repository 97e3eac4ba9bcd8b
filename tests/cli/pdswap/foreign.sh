# Round trip over every foreign capture the reader reads (other writers,
# versions and features): exact, or the pdcat form of the input; streams
# compressed by another zstd version come back with the same records.
. "$PD_TOP/tests/cli/lib.sh"
need_foreign
not_sanitized
n=0 nz=0
for f in $(find "$C/foreign" -type f ! -name '*.md' ! -name '*.sources' |
    sort); do
	pdcat "$f" > cat.data 2>/dev/null || continue
	n=$((n + 1))
	pdswap -t swap < "$f" 2>/dev/null | pdswap -t swap > rt.data 2>/dev/null ||
		fail "$f: pdswap failed"
	cmp -s rt.data "$f" || cmp -s rt.data cat.data && continue
	# recompressed by another zstd version: the same records
	pdcat -d "$f" > d1.data && pdcat -d rt.data > d2.data ||
		fail "$f: pdcat -d"
	cmp -s d1.data d2.data || fail "$f: round trip differs"
	cmp -s d1.data cat.data && fail "$f: not compressed, yet not exact"
	nz=$((nz + 1))
done
[ "$n" -ge 100 ] || fail "only $n foreign files read"
echo "$n files, $nz recompressed differently"
