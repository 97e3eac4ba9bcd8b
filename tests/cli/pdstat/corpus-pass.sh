# SPDX-License-Identifier: MIT
# -p passes every native pipe stream of the corpus through byte for byte
# (a bad one: the good records before the fault, as a prefix of it).
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
not_sanitized

n=0
for f in $(find "$C" -type f ! -path '*/reference/*' | sort); do
	# Native pipe streams only: "PERFILE2" then the size 16.
	[ "$(od -An -tx1 -N16 "$f" 2>/dev/null | tr -d ' \n')" = \
	    50455246494c45321000000000000000 ] || continue
	pdstat -p < "$f" > out.data 2> err.txt
	rc=$?
	if [ "$rc" -eq 0 ]; then
		cmp -s "$f" out.data || fail "${f#"$C"/}: -p changed the stream"
	elif [ "$rc" -eq 1 ]; then
		# cmp says EOF on out.data when it is a true prefix.
		cmp "$f" out.data 2>&1 | grep -q 'EOF on out.data' ||
			fail "${f#"$C"/}: -p output is not a prefix"
	else
		fail "${f#"$C"/}: exit $rc"
	fi
	n=$((n + 1))
done
[ "$n" -ge 20 ] || fail "only $n pipe streams found"
echo "$n pipe streams passed through"
