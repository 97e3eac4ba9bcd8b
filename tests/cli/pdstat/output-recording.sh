# SPDX-License-Identifier: MIT
# An output option given a recording (`pdstat --flamegraph perf.data`,
# the input put where the output goes) is refused before anything is
# read: exit 2, one line, and the recording as it was. A file that is not
# a recording is still replaced, and a new one written.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus

for rec in callchain.pipe.data callchain.file.data bigendian/$(ls "$C/bigendian" |
    grep '\.data$' | head -1); do
	for opt in flamegraph folded pprof gecko; do
		cp "$C/$rec" rec.data
		pdstat --no-debuginfod --$opt rec.data < "$C/callchain.pipe.data" \
		    > out.txt 2> err.txt
		r=$?
		[ $r -eq 2 ] || fail "--$opt over $rec: exit $r, not 2"
		cmp -s rec.data "$C/$rec" || fail "--$opt over $rec: changed it"
		[ -s out.txt ] && fail "--$opt over $rec: wrote to stdout"
		grep -q "^pdstat: rec.data: holds a perf.data recording: --$opt writes a new file" \
		    err.txt || fail "--$opt over $rec: $(head -1 err.txt)"
	done
done

# Not a recording: a text file is replaced, a new name is written.
echo 'not a recording' > old.svg
pdstat --no-debuginfod --flamegraph old.svg --folded new.folded \
    "$C/callchain.pipe.data" > /dev/null 2> err.txt ||
	fail "--flamegraph over a text file: exit $?: $(head -1 err.txt)"
head -c 5 old.svg | grep -q '^<?xml' || fail "old.svg was not replaced"
[ -s new.folded ] || fail "--folded new.folded: nothing written"
exit 0
