# SPDX-License-Identifier: MIT
# -p between two pipes, where it tee(2)s the input on: a stream of
# several megabytes (many tee calls, past the reader's 1 MiB buffer)
# comes out byte for byte; a fault in the middle still passes the whole
# input on, then the summary of what was read, the error and exit 1; a
# reader that goes away ends it quietly. File-mode and other-byte-order
# inputs still come out converted, as pdcat writes them.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdstat/fixture.sub"

# 65536 samples (3 MB) after the fixture's attr; cat doubles them.
{ pipe_header; attr; } > head.data
sample 100 100 1000000000 0 1000 > s.data
i=0
while [ "$i" -lt 16 ]; do
	cat s.data s.data > t.data && mv t.data s.data
	i=$((i + 1))
done
cat head.data s.data > big.data
size=$(wc -c < big.data)
[ "$size" -gt 3000000 ] || fail "big.data too small ($size bytes)"

# Good: byte for byte, and the same summary as without -p.
cat big.data | pdstat -p 2> sum.txt | cat > out.data
cmp big.data out.data || fail "-p between pipes changed the stream"
pdstat big.data > once.txt || fail "pdstat big.data"
sed 1d sum.txt > a; sed 1d once.txt > b
cmp a b || fail "summary differs: $(diff a b | head -n 5)"
# That was the tee path (when strace can show it).
if command -v strace >/dev/null 2>&1 &&
    strace -f -e trace=tee -o /dev/null true 2>/dev/null; then
	cat big.data | strace -e trace=tee -o trace.txt pdstat -p \
	    2> /dev/null | cat > out2.data
	cmp big.data out2.data || fail "-p under strace changed the stream"
	grep -q '^tee(0, 1, ' trace.txt || fail "no tee(2): $(head -n 3 trace.txt)"
fi

# A bad record in the middle, then more records: everything passes on.
{ cat big.data; hdr 9 4; sample 200 200 2000000000 1 500; } > bad.data
off=$(printf '0x%x' "$size")
cat bad.data | pdstat -p 2> bad.err | cat > bad.out
cmp bad.data bad.out || fail "-p on a bad stream did not pass it all on"
tail -n 1 bad.err | grep -q "^pdstat: <stdin>: offset $off: record size 4 < 8" ||
	fail "not the error last: $(tail -n 1 bad.err)"
grep -q 'read before the error' bad.err || fail "summary not marked partial"
sed '1d;$d' bad.err > a
cmp a b || fail "summary of the good part differs: $(diff a b | head -n 5)"
# The status, through a pipe.
st=$( { cat bad.data | pdstat -p 2> /dev/null; echo $? >&3; } 3>&1 >/dev/null)
[ "$st" = 1 ] || fail "-p on a bad stream: exit $st"
# And from a file to a file, where it copies instead.
pdstat -p < bad.data > bad2.out 2> /dev/null
[ $? -eq 1 ] || fail "-p < bad: not exit 1"
cmp bad.data bad2.out || fail "-p < bad > file did not pass it all on"

# A reader that goes away: SIGPIPE status, nothing on stderr.
n=$( { cat big.data | pdstat -p 2> err.txt; echo $? > rc.txt; } |
    head -c 100 | wc -c)
[ "$n" -eq 100 ] || fail "| head: got $n bytes"
[ "$(cat rc.txt)" = 141 ] || fail "| head -c 100: exit $(cat rc.txt)"
[ ! -s err.txt ] || fail "| head -c 100: not quiet: $(cat err.txt)"

# Inputs that cannot pass unchanged are converted as pdcat does.
mkpipe file-mode > fm.data || fail "mkpipe file-mode"
pdstat -p fm.data 2> /dev/null | cat > fm.out || fail "-p file-mode"
pdcat fm.data > fm.want
cmp fm.want fm.out || fail "-p of a file-mode input is not pdcat's stream"
mkpipe ok-be > be.data || fail "mkpipe ok-be"
cat be.data | pdstat -p 2> /dev/null | cat > be.out
pdcat < be.data > be.want
cmp be.want be.out || fail "-p of a big-endian stream is not pdcat's stream"
exit 0
