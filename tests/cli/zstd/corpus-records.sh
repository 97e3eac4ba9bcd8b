# SPDX-License-Identifier: MIT
# Every compressed stream of the corpus, both record types: the records
# pdcat -d writes are the records the zstd CLI finds in the compressed
# payloads plus the plain ones (multiset), so are those of -z and
# --compress2 output, and decompressing that gives pdcat -d's output back
# byte for byte.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
. "$PD_TOP/tests/cli/zstd/corpus.inc"
need_recs
n=0 all=
for x in $ZFILES; do
	n=$((n + 1))
	# As stored, in pipe form (file mode converted, still compressed).
	[ "${PD_SANITIZE:-}" = 1 ] || pdcat "$x" > $n.s 2>/dev/null
	pdcat -d "$x" > $n.d 2>$n.err
	rc=$?
	# sleep.compressed2.pipe.data ends in perf's stderr text: pdcat
	# stops there with status 1, after every record before it.
	case $x in
	*sleep.compressed2.pipe.data)
		[ $rc = 1 ] && grep -q 'trailing garbage' $n.err ||
			fail "$x: -d exit $rc: $(cat $n.err)";;
	*)	[ $rc = 0 ] || fail "$x: -d exit $rc: $(cat $n.err)";;
	esac
	pdcat -z $n.d > $n.z || fail "$x: pdcat -z failed"
	pdcat --compress2=3 $n.d > $n.z2 || fail "$x: --compress2 failed"
	zs="z z2"
	if [ "${PD_SANITIZE:-}" != 1 ]; then
		pdcat --compress=9 "$x" > $n.z9 2>/dev/null
		zs="z z2 z9"
	fi
	for z in $zs; do
		pdcat -d $n.$z | cmp -s - $n.d || fail "$x: -d of $z differs"
	done
	all="$all $n.s $n.d $n.z $n.z2"
done
# The independent listing (python3, zstd CLI) is the slow half; the
# sanitizer build runs only pdcat's own round trips above.
if [ "${PD_SANITIZE:-}" = 1 ]; then
	echo "$n compressed streams round-tripped (sanitized: listing left out)"
	exit 0
fi
recs $all || fail "recs.py failed"
i=0
for x in $ZFILES; do
	i=$((i + 1))
	[ -s $i.s.recs ] || fail "$x: no records listed"
	for o in d z z2; do
		cmp -s $i.s.recs $i.$o.recs || fail "$x: records of $o differ"
	done
	[ "$(cat $i.d.nz)" = "81:0 83:0" ] || fail "$x: -d left compression"
	grep -q '^81:[1-9][0-9]* 83:0$' $i.z.nz || fail "$x: -z: $(cat $i.z.nz)"
	grep -q '^81:0 83:[1-9]' $i.z2.nz || fail "$x: --compress2: $(cat $i.z2.nz)"
done
echo "$n compressed streams checked"
