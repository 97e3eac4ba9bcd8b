# SPDX-License-Identifier: MIT
# COMPRESSED records count as they are and as what they hold (as perf
# report --stats counts them), and -p passes them on as they are.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdstat/fixture.sub"
command -v zstd >/dev/null 2>&1 || skip "zstd missing (make deps)"

# One zstd frame over the plain fixture's kernel records, split in two
# COMPRESSED records so that a record straddles them.
{ comm 100 100 busy; sample 100 100 2000000000 0 1000
  sample 100 100 1000000000 1 1000; lost 7; } > inner.bin
zstd -q -c < inner.bin > inner.zst
n=$(wc -c < inner.zst)
h=$((n / 2))
{ pipe_header; attr
  hdr 81 $((8 + h)); head -c "$h" inner.zst
  round
  hdr 81 $((8 + n - h)); tail -c $((n - h)) inner.zst
} > z.data

pdstat z.data > out.txt 2> err.txt || fail "exit $?: $(cat err.txt)"
for want in 'ATTR 1' 'COMPRESSED 2' 'FINISHED_ROUND 1' 'COMM 1' 'SAMPLE 2' \
    'LOST 1' 'TOTAL 8'; do
	set -- $want
	grep -Eq "^ *$1 +$2 " out.txt || fail "want $want: $(cat out.txt)"
done
grep -q "^  2 COMPRESSED records ($((16 + n)) bytes) hold 4 of them (144 bytes)$" \
    out.txt || fail "compressed line: $(grep COMPRESSED out.txt)"
grep -q '^cpu-clock  *2  *2000  *7$' out.txt || fail "event line"
pdstat --json z.data | grep -q "\"compressed\": {\"records\": 2, \"bytes\": $((16 + n)), \"inner_records\": 4, \"inner_bytes\": 144}" ||
	fail "json compressed"

pdstat -p < z.data > out.data 2> /dev/null || fail "-p: exit $?"
cmp z.data out.data || fail "-p changed a compressed stream"

# Corrupt zstd bytes: an error at the COMPRESSED record, after the
# summary of what came before it.
{ pipe_header; attr; hdr 81 24; printf 'not zstd data!!!'; } > bad.data
expect_fail 1 'corrupt zstd data' pdstat bad.data
grep -q '^pdstat: bad.data: offset 0xa0: ' err.txt || fail "bad: $(cat err.txt)"
grep -Eq '^ *COMPRESSED +1 ' out.bin || fail "bad: COMPRESSED not counted"
exit 0
