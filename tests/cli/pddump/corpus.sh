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
	# The outputs are large: count through pipes, keep nothing big. The
	# text form of streams over 1 MB is left to the JSON pass (time).
	if [ "$(wc -c < "$f")" -gt 1048576 ]; then
		{ pddump --json "$f" 2> err.txt; echo $? > rc.txt; } |
		    awk '{ n++ } /"error":/ && !e { e = $0 }
			END { print n + 0; print e }' > cnt.txt
	else
		{ pddump "$f" 2> err.txt; echo $? > rc.txt; } |
		    awk '/^0x/ { n++ } / error=/ && !e { e = $0 }
			END { print n + 0; print e }' > cnt.txt
	fi
	rc=$(cat rc.txt)
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
		[ -z "$(sed -n 2p cnt.txt)" ] || fail "$f: $(sed -n 2p cnt.txt)"
	fi
	# JSON parsing is the slow part: the first 2000 objects of each
	# stream cover its record types (basic.sh parses everything).
	mkdir -p json
	pddump --json "$f" 2>/dev/null |
	    awk -v o="json/$n.json" 'NR <= 2000 { print > o } END { print NR }' \
	    > nj.txt
	[ "$(sed -n 1p cnt.txt)" = "$(cat nj.txt)" ] ||
		fail "$f: text and JSON forms list different records"
	echo "$f" > "json/$n.name"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no corpus files"
# One interpreter for every stream's JSON: starting one per file was most
# of this case's time.
python3 -c '
import glob, json, sys
for p in sorted(glob.glob("json/*.json")):
    for l in open(p, encoding="latin-1"):
        try:
            json.loads(l)
        except ValueError as e:
            print(open(p[:-5] + ".name").read().strip(), e)
            sys.exit(1)' || fail "JSON"
echo "$n streams"
exit 0
