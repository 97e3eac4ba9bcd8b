# SPDX-License-Identifier: MIT
# Bad input: the summary of what was read, one error line, exit 1; with
# -p the whole input is passed on as it was.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdstat/fixture.sub"

fixture > good.data
# Cut in the middle of the last record (UNTHROTTLE at 564, 32 bytes).
head -c 580 good.data > cut.data
expect_fail 1 'cut.data: offset 0x234: record type 6 (UNTHROTTLE) size 32 runs past the end of input' \
    pdstat cut.data
grep -q 'TOTAL *12 ' out.bin || fail "no summary of the 12 good records"
grep -q 'read before the error' out.bin || fail "summary not marked partial"

pdstat --json cut.data > cut.json 2> /dev/null
[ $? -eq 1 ] || fail "--json: not exit 1"
grep -q '"complete": false' cut.json || fail "--json: complete"
grep -q '"error": "offset 0x234: record type 6' cut.json || fail "--json: error"

# -p: the input passes on unchanged, bad end included; then the error.
pdstat -p < cut.data > pass.data 2> pass.err
[ $? -eq 1 ] || fail "-p: not exit 1"
cmp cut.data pass.data || fail "-p: the input was not passed on unchanged"
grep -q 'TOTAL *12 ' pass.err || fail "-p: no summary of the 12 good records"
tail -n 1 pass.err | grep -q '^pdstat: <stdin>: offset 0x234: ' ||
	fail "-p: last stderr line is not the error: $(tail -n 1 pass.err)"

# A sample too short for its layout is bad data, as for perf.
{ pipe_header; attr; hdr 9 24; le 1 8; le 2 8; } > short.data
expect_fail 1 'short.data: offset 0xa0: SAMPLE: ' pdstat short.data
grep -q 'SAMPLE *1 ' out.bin || fail "short sample not counted"

# Not perf data, empty input: nothing to summarize, one line, exit 1.
printf 'hello, world, this is text\n' > text.data
expect_fail 1 'text.data: offset 0x0: not perf.data (bad magic)' pdstat text.data
[ -s out.bin ] && fail "summary printed for non-perf input"
: > empty.data
expect_fail 1 'empty.data: offset 0x0: empty input' pdstat empty.data
# A bad input among good ones: the others are still summarized.
pdstat good.data text.data good.data > many.txt 2> many.err
[ $? -eq 1 ] || fail "many: not exit 1"
[ "$(grep -c 'TOTAL *13 ' many.txt)" = 2 ] || fail "many: good inputs lost"
exit 0
