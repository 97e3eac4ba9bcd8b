# SPDX-License-Identifier: MIT
# -p passes every native pipe stream of the corpus through byte for byte,
# a bad one too (it still exits 1 with its error).
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
not_sanitized

n=0
for f in $(find "$C" -type f ! -path '*/reference/*' | sort); do
	# Native pipe streams only: "PERFILE2" then the size 16.
	[ "$(od -An -tx1 -N16 "$f" 2>/dev/null | tr -d ' \n')" = \
	    50455246494c45321000000000000000 ] || continue
	# Through pipes (tee) and from a file (copies) alike.
	cat "$f" | pdstat -p 2> err.txt | cat > out.data
	cmp -s "$f" out.data || fail "${f#"$C"/}: -p (pipes) changed the stream"
	pdstat -p < "$f" > out.data 2> err.txt
	rc=$?
	[ "$rc" -le 1 ] || fail "${f#"$C"/}: exit $rc"
	cmp -s "$f" out.data || fail "${f#"$C"/}: -p changed the stream"
	n=$((n + 1))
done
[ "$n" -ge "$(corpus_min 20 7)" ] || fail "only $n pipe streams found"
echo "$n pipe streams passed through"
