# SPDX-License-Identifier: MIT
# One input from a regular file into a pipe: the records pdcat passes
# on unchanged go by splice(2) from the file (pd_writer_source). The
# output is the same, byte for byte, as into a regular file, where
# everything goes through the buffer: pipe and file mode, compressed
# records kept or decompressed (-d), tracing data with its payload,
# the other byte order (converted, so never spliced), and a pipe
# stream that starts past the start of its file (standard input left
# there by another process): the file's offsets are not the stream's;
# and where splice(2) is refused, through the buffer.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus

n=0
for f in callchain.pipe.data callchain.file.data dwarf.pipe.data \
    sched.pipe.data zstd.pipe.data group-read.pipe.data \
    bigendian/s390x.pipe.data bigendian/s390x-callchain.file.data; do
	corpus_have "$C/$f" || continue
	for opt in "" -d; do
		pdcat $opt "$C/$f" > reg.data 2> reg.err ||
			fail "$f $opt: into a file: exit $?: $(head -1 reg.err)"
		pdcat $opt "$C/$f" 2> pipe.err | cat > pipe.data
		[ -s pipe.err ] && fail "$f $opt: into a pipe: $(head -1 pipe.err)"
		cmp -s reg.data pipe.data ||
			fail "$f $opt: into a pipe differs from into a file"
		pdcat $opt < "$C/$f" 2> pipe.err | cat > stdin.data
		cmp -s reg.data stdin.data ||
			fail "$f $opt: from standard input differs"
		n=$((n + 1))
	done
done
[ $n -ge 12 ] || fail "only $n cases ran"

# 24 bytes before the stream, read off standard input by dd first.
printf 'not a stream, 24 bytes.\n' > shifted.data
cat "$C/callchain.pipe.data" >> shifted.data
pdcat "$C/callchain.pipe.data" > reg.data
{ dd bs=24 count=1 of=/dev/null 2> /dev/null; pdcat; } < shifted.data |
    cat > pipe.data
cmp -s reg.data pipe.data || fail "a stream 24 bytes into its file"

# splice(2) is what carried them (when strace can show it); where it is
# refused (EINVAL injected, as from a file system without it), the
# bytes go through the buffer, the same, and it is not tried again.
if command -v strace >/dev/null 2>&1 &&
    strace -f -e trace=splice -o /dev/null true 2>/dev/null; then
	pdcat "$C/dwarf.pipe.data" > reg.data
	strace -e trace=splice -o trace.txt pdcat "$C/dwarf.pipe.data" |
	    cat > pipe.data
	cmp -s reg.data pipe.data || fail "under strace: differs"
	grep -q '^splice([0-9]*, ' trace.txt ||
		fail "no splice(2): $(head -n 3 trace.txt)"
	strace -e trace=splice -e inject=splice:error=EINVAL -o trace.txt \
	    pdcat "$C/dwarf.pipe.data" | cat > pipe.data
	cmp -s reg.data pipe.data || fail "splice refused: differs"
	[ "$(grep -c '^splice(' trace.txt)" -eq 1 ] ||
		fail "splice refused: tried $(grep -c '^splice(' trace.txt) times"
fi

# Cut short: the good records before the fault reach the pipe, then
# one line and exit 1, as into a file.
size=$(wc -c < "$C/callchain.pipe.data")
head -c $((size - 5)) "$C/callchain.pipe.data" > cut.data
pdcat cut.data > reg.data 2> reg.err
r1=$?
pdcat cut.data 2> pipe.err | cat > pipe.data
r2=$(cat pipe.err | wc -l)
[ $r1 -eq 1 ] || fail "cut short, into a file: exit $r1, not 1"
[ "$r2" -eq 1 ] || fail "cut short, into a pipe: $r2 lines on stderr"
cmp -s reg.data pipe.data || fail "cut short: into a pipe differs"
[ -s pipe.data ] || fail "cut short: nothing written"
exit 0
