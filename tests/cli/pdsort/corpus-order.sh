# SPDX-License-Identifier: MIT
# Every corpus stream that perf reads whole: pdsort writes its records in
# exactly the order in which perf report -D delivers them, its timestamps
# never go down when no record was late, and (native pipe streams) it
# holds the input's records byte for byte.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
need_perf
not_sanitized
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
command -v $PY >/dev/null || skip "no python3"
d=$PD_TOP/tests/cli/pdsort
n=0
# Foreign files over 1 MB add time, not cases.
for f in $(find "$C" -type f ! -name '*.md' ! -name '*.txt' ! -name '*.xz' \
    ! -name '*.sh' ! -name '*.sources' \( -path "$C/*/*" -size -1000k -o \
    ! -path "$C/*/*" \) | sort); do
	# perf must read all of it: -D reports errors on its own output.
	perf report -D -i "$f" > d.txt 2> derr.txt || continue
	grep -Eq 'failed to process|^Error:|bad event header|unsupported' \
	    d.txt derr.txt && continue
	if ! pdsort "$f" > out.data 2> err.txt; then
		# Byte orders this build cannot convert are pdswap's issue.
		grep -q 'other byte order' err.txt && continue
		# Trailing bytes perf ignores: an error, after all records.
		grep -q 'at the end of input' err.txt ||
			fail "$f: $(cat err.txt)"
	fi
	$PY "$d/check.py" order "$f" out.data d.txt > res.txt ||
		fail "$f: $(cat res.txt)"
	# (perf report -D once more: ours only.)
	if [ "${f%/*}" = "$C" ] && ! grep -q 'arrived after' err.txt; then
		$PY "$d/check.py" mono out.data > res.txt ||
			fail "$f: $(cat res.txt)"
	fi
	# Native, uncompressed pipe streams: compared byte for byte.
	case $(head -c 16 "$f" | od -An -tx1 | tr -d ' \n') in
	50455246494c45321000000000000000)
		$PY "$d/check.py" plain "$f" > /dev/null 2>&1 || continue
		$PY "$d/check.py" same "$f" out.data > res.txt ||
			fail "$f: $(cat res.txt)";;
	esac
	n=$((n + 1))
done
[ "$n" -ge 7 ] || fail "only $n streams checked"
echo "$n streams in perf's order"
