# Every corpus stream (pipe and file mode, every writer there) is printed
# without error, in both forms, the JSON one object per line; the really
# corrupt ones get one error line after the records before the fault.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
command -v python3 >/dev/null || skip "no python3"
not_sanitized
# name: the error text pddump must stop with
corrupt() {
	case ${1##*/} in
	invalid_perf.data)	echo "not perf.data";;
	perf.data.piped.corrupted.zero_size_sample-3.2) echo "record size 0 < 8";;
	perf.data.piped.extrabyte-3.4|perf.data.piped.extradata-3.4)
				echo "truncated record header";;
	sleep.compressed2.pipe.data) echo "trailing garbage";;
	*)			echo;;
	esac
}
n=0
for f in $(find "$C" -type f ! -path '*/reference/*' | sort); do
	# perf.data by its magic (either byte order, v1), or a known corrupt one
	case $(head -c 8 "$f") in
	PERFILE2|2ELIFREP|PERFFILE) ;;
	*) [ "${f##*/}" = invalid_perf.data ] || continue;;
	esac
	bad=$(corrupt "$f")
	pddump "$f" > out.txt 2> err.txt
	rc=$?
	if grep -q "which this build cannot convert" err.txt; then
		echo "${f#"$C"/}: other byte order, not supported by this build"
		continue
	fi
	if [ -n "$bad" ]; then
		[ "$rc" = 1 ] || fail "$f: exit $rc, wanted 1"
		[ "$(wc -l < err.txt)" = 1 ] || fail "$f: $(cat err.txt)"
		grep -q "offset 0x[0-9a-f]*: .*$bad" err.txt ||
			fail "$f: $(cat err.txt)"
	else
		[ "$rc" = 0 ] || fail "$f: exit $rc: $(cat err.txt)"
		grep -v "left out" err.txt | grep . && fail "$f: stderr"
		grep -q "error=" out.txt && fail "$f: $(grep -m1 error= out.txt)"
	fi
	pddump --json "$f" > out.json 2>/dev/null
	[ "$(grep -c '^0x' out.txt)" = "$(wc -l < out.json)" ] ||
		fail "$f: text and JSON forms list different records"
	# JSON parsing is the slow part: the first 2000 objects of each
	# stream cover its record types (basic.sh parses everything).
	head -n 2000 out.json > head.json
	python3 -c '
import json, sys
for l in open(sys.argv[1], encoding="latin-1"):
    json.loads(l)' head.json || fail "$f: JSON"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "no corpus files"
echo "$n streams"
exit 0
