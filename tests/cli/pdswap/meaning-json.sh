# Issue 6's meaning check: for every corpus stream, pddump --json of the
# stream made big-endian by pdswap equals pddump --json of the stream
# itself. Both sides are first made plain pipe streams by pdcat -d, so
# that record offsets agree (file mode and recompression move them);
# the big-endian side is then read by pddump through the reader's own
# conversion.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
not_sanitized
n=0
for f in $(find "$C" -type f ! -path '*/reference/*' | sort); do
	case $(head -c 8 "$f") in
	PERFILE2|2ELIFREP|PERFFILE) ;;
	*) continue;;
	esac
	# Corrupt inputs stop pdcat: compare what comes before the fault.
	pdcat -d "$f" > plain.data 2> /dev/null
	pdswap -t big < plain.data > be.data 2> swap.err ||
		fail "$f: pdswap -t big: $(cat swap.err)"
	pddump --json plain.data > a.json 2> a.err
	ra=$?
	pddump --json be.data > b.json 2> b.err
	rb=$?
	[ "$ra" = "$rb" ] || fail "$f: pddump exit $ra native, $rb big-endian: $(cat a.err b.err)"
	cmp -s a.json b.json || {
		diff a.json b.json | head -n 4
		fail "$f: pddump --json differs after pdswap -t big"
	}
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no corpus streams"
echo "$n streams"
