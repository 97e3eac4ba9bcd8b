# SPDX-License-Identifier: MIT
# -p: the stream comes out byte for byte; the summary goes to stderr.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdstat/fixture.sub"

fixture > in.data
pdstat -p < in.data > out.data 2> sum.txt || fail "exit $?: $(cat sum.txt)"
cmp in.data out.data || fail "-p changed the stream"
grep -q 'TOTAL *13 ' sum.txt || fail "no summary on stderr: $(cat sum.txt)"
# Not a terminal: no status line, nothing before the summary.
head -n 1 sum.txt | grep -qx '<stdin>: pipe stream, 596 bytes' ||
	fail "stderr does not start with the summary"
pdstat --pass --json in.data > out2.data 2> sum.json || fail "--pass --json"
cmp in.data out2.data || fail "--pass FILE changed the stream"
grep -q '"total": {"count": 13, "bytes": 580}' sum.json || fail "json on stderr"
# Composes: what comes out reads the same.
pdstat -p < in.data 2>/dev/null | pdstat > again.txt || fail "pipeline"
pdstat in.data > once.txt
sed 1d again.txt > a; sed 1d once.txt > b
cmp a b || fail "summary of the passed stream differs"
# From a regular file into a pipe the chunks read after the first go on
# by splice(2) (tap.c): the same bytes, from a path, from standard input,
# and from a stream that starts 24 bytes into its file.
need_corpus
for f in dwarf.pipe.data sched.pipe.data; do
	pdstat -p "$C/$f" 2> /dev/null | cat > out.data
	cmp -s "$C/$f" out.data || fail "-p $f into a pipe changed the stream"
	pdstat -p < "$C/$f" 2> /dev/null | cat > out.data
	cmp -s "$C/$f" out.data || fail "-p < $f into a pipe changed the stream"
done
printf 'not a stream, 24 bytes.\n' > shifted.data
cat "$C/dwarf.pipe.data" >> shifted.data
{ dd bs=24 count=1 of=/dev/null 2> /dev/null; pdstat -p 2> /dev/null; } \
    < shifted.data | cat > out.data
cmp -s "$C/dwarf.pipe.data" out.data ||
	fail "-p of a stream 24 bytes into its file changed it"
# By splice(2), and through the buffer where it is refused (EINVAL
# injected), when strace can show and refuse it.
if command -v strace >/dev/null 2>&1 &&
    strace -f -e trace=splice -o /dev/null true 2>/dev/null; then
	strace -e trace=splice -o trace.txt pdstat -p "$C/dwarf.pipe.data" \
	    2> /dev/null | cat > out.data
	cmp -s "$C/dwarf.pipe.data" out.data || fail "-p under strace changed it"
	grep -q '^splice([0-9]*, ' trace.txt ||
		fail "no splice(2): $(head -n 3 trace.txt)"
	strace -e trace=splice -e inject=splice:error=EINVAL -o trace.txt \
	    pdstat -p "$C/dwarf.pipe.data" 2> /dev/null | cat > out.data
	cmp -s "$C/dwarf.pipe.data" out.data || fail "-p, splice refused: changed"
	[ "$(grep -c '^splice(' trace.txt)" -eq 1 ] ||
		fail "-p, splice refused: tried $(grep -c '^splice(' trace.txt) times"
fi
# One stream only.
pdstat -p in.data in.data > /dev/null 2> err.txt
[ $? -eq 2 ] || fail "-p with two inputs: not a usage error"
grep -q 'at most one' err.txt || fail "-p with two inputs: $(cat err.txt)"
exit 0
