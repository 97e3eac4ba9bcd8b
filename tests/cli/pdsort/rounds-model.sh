# SPDX-License-Identifier: MIT
# Generated streams of four CPUs' passes, with equal timestamps, timeless
# and user records between them: pdsort writes byte for byte what a model
# of perf's ordered-events queue delivers, FINISHED_ROUNDs included.
. "$PD_TOP/tests/cli/lib.sh"
d=$PD_TOP/tests/cli/pdsort
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
command -v $PY >/dev/null || skip "no python3"
for seed in 1 2 3; do
	$PY "$d/gen.py" stream $seed > in.data || fail "gen $seed"
	late=$($PY "$d/gen.py" model in.data want.data) || fail "model"
	[ "$late" = 0 ] || fail "seed $seed: model saw $late late records"
	pdsort in.data > out.data 2> err.txt || fail "seed $seed: exit $?"
	[ -s err.txt ] && fail "seed $seed: stderr: $(cat err.txt)"
	cmp -s want.data out.data || fail "seed $seed: output differs from the model"
	# stdin, and -o, give the same bytes
	pdsort -o out2.data < in.data || fail "-o"
	cmp -s out.data out2.data || fail "seed $seed: -o output differs"
done

# Late records: written at the next flush, counted, --strict fails.
$PY "$d/gen.py" stream 5 late > in.data
late=$($PY "$d/gen.py" model in.data want.data)
[ "$late" -gt 0 ] || fail "the late fixture has no late record"
pdsort in.data > out.data 2> err.txt || fail "late: exit $?"
cmp -s want.data out.data || fail "late: output differs from the model"
grep -q "^pdsort: in.data: $late records arrived after later ones" err.txt ||
	fail "late: stderr '$(cat err.txt)'"
expect_fail 1 "$late records arrived" pdsort --strict in.data
cmp -s want.data out.bin || fail "--strict: output differs"
pdsort --strict -o kept.data in.data 2>/dev/null && fail "--strict -o: exit 0"
[ -e kept.data ] && fail "--strict -o: a failed run left its file"
exit 0
