# Lossless, over every perf.data in the corpus (ours, big-endian,
# foreign): no tool drops a record. With the cases that already compare
# bytes, this covers issue 10's "pdcat, pdsort and pdswap keep every
# record":
#  - pdcat: a native pipe stream passes byte for byte
#    (pdcat/corpus-script); here, every record of a native file's data
#    section is in pdcat's stream, byte for byte (check.py data);
#    decompressed records are the zstd CLI's (zstd/corpus-records);
#  - pdswap: the round trip gives the input, or its pdcat form, byte for
#    byte (pdswap/roundtrip, pdswap/foreign);
#  - pdsort (here): its output holds the multiset of records of the
#    input's pipe form (pdcat -d), FINISHED_ROUNDs and the COMPRESSED
#    feature aside, for every file pdcat reads, whatever its mode, byte
#    order, writer or compression; a file pdcat stops on (trailing
#    garbage) stops pdsort at the same offset, with every record before.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
not_sanitized
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
command -v $PY >/dev/null || skip "no python3"
chk=$PD_TOP/tests/cli/pdsort/check.py
n=0 nf=0
for f in $(find "$C" -type f ! -name '*.md' ! -name '*.sources' \
    ! -name '*.txt' ! -name '*.sh' | sort); do
	case $(od -An -c -N8 "$f" | tr -d ' ') in
	PERFILE2|2ELIFREP)	;;
	*)			continue;;
	esac
	pdcat -d "$f" >ref.data 2>ref.err
	rc=$?
	if [ "$rc" -ne 0 ]; then
		# Byte orders this build cannot convert, and files that are
		# not perf.data after all, are other cases' business.
		grep -q 'other byte order' ref.err && continue
		[ -s ref.data ] || continue
	fi
	pdsort "$f" >sorted.data 2>sort.err
	src=$?
	if [ "$rc" -ne 0 ]; then
		[ "$src" -eq 1 ] || fail "pdsort $f: exit $src, pdcat -d: $(cat ref.err)"
		[ "$(sed 's/^pdsort: //' sort.err)" = "$(sed 's/^pdcat: //' ref.err)" ] ||
			fail "pdsort $f: '$(cat sort.err)', pdcat -d: '$(cat ref.err)'"
	else
		[ "$src" -eq 0 ] || fail "pdsort $f: exit $src: $(cat sort.err)"
	fi
	# (pdsort's output is plain: no COMPRESSED record to open.)
	$PY "$chk" same ref.data sorted.data >res.txt ||
		fail "pdsort $f: $(cat res.txt)"
	n=$((n + 1))
	# A native file: its data section's records in pdcat's stream.
	case $(od -An -tx1 -N16 "$f" | tr -d ' \n') in
	50455246494c45326800000000000000|50455246494c45324800000000000000)
		pdcat "$f" >cat.data 2>/dev/null || [ -s cat.data ] ||
			fail "pdcat $f"
		$PY "$chk" data "$f" cat.data >res.txt ||
			fail "pdcat $f: $(cat res.txt)"
		nf=$((nf + 1));;
	esac
done
[ "$n" -ge "$(corpus_min 100 14)" ] || fail "only $n corpus files"
echo "pdsort kept every record of $n corpus files; pdcat every data-section record of $nf files"
