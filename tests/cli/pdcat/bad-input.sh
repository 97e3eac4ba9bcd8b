# SPDX-License-Identifier: MIT
# Bad inputs: each gives exactly one line (with the offset of the bad
# record) and exit 1, after every complete record before it was written.
# Inputs that are odd but valid (unaligned records, unknown types,
# out-of-band payloads) pass through byte for byte.
. "$PD_TOP/tests/cli/lib.sh"

mkpipe ok > ok.data || fail "mkpipe ok"
head -c 16 ok.data > pipehdr.data

# check CASE 'exact stderr line' [pdcat operands...]: the case's stream
# on stdin (or the operands), exit 1, that line, and as output the input
# up to the fault (or just a pipe header when the fault is in the header).
check() {
	_case=$1 _want=$2
	shift 2
	mkpipe $_case > in.data || fail "mkpipe $_case"
	if [ $# -eq 0 ]; then
		pdcat < in.data > out.data 2> err.txt
	else
		pdcat "$@" > out.data 2> err.txt
	fi
	_rc=$?
	[ $_rc -eq 1 ] || fail "$_case: exit $_rc, wanted 1: $(cat err.txt)"
	[ "$(cat err.txt)" = "$_want" ] ||
		fail "$_case: stderr '$(cat err.txt)', wanted '$_want'"
	# The expected line holds the fault's offset (mkpipe -o agrees).
	_off=$(echo "$_want" | sed 's/.*: offset \(0x[0-9a-f]*\):.*/\1/')
	if [ $((_off)) -lt 16 ] || [ "$(head -c 8 in.data)" != PERFILE2 ] ||
	    [ "$(od -An -tu8 -j8 -N8 in.data | tr -d ' ')" != 16 ]; then
		cmp -s out.data pipehdr.data ||
			fail "$_case: output is not just a pipe header"
	else
		head -c $((_off)) in.data > want.data
		cmp -s out.data want.data ||
			fail "$_case: output is not the input up to $_off"
	fi
}

check empty "pdcat: <stdin>: offset 0x0: empty input"
for n in 1 7 8 15; do
	check "short $n" "pdcat: <stdin>: offset 0x0: input too short for a perf.data header ($n bytes)"
done
check bad-magic "pdcat: <stdin>: offset 0x0: not perf.data (bad magic)"
check hdr-size "pdcat: <stdin>: offset 0x8: header size 24 is neither 16 (pipe) nor 104 (file)"
check size-lt-8 "pdcat: <stdin>: offset 0x138: record size 4 < 8"
check truncated-last "pdcat: <stdin>: offset 0x170: record type 9 (SAMPLE) size 56 runs past the end of input (51 bytes left)"
check truncated-header "pdcat: <stdin>: offset 0x1e8: truncated record header: 3 bytes at the end of input"
check trailing-garbage "pdcat: <stdin>: offset 0x1e8: record type 1701847131 size 29216 runs past the end of input (112 bytes left): trailing garbage?"
check attr-size-0 "pdcat: <stdin>: offset 0x10: ATTR attr.size 0 < 64"
check attr-size-big "pdcat: <stdin>: offset 0x10: ATTR attr.size 200 does not fit record size 152"
check attr-size-odd "pdcat: <stdin>: offset 0x10: ATTR attr.size 124 is not a multiple of 8"
check too-many-ids "pdcat: <stdin>: offset 0x138: ID_INDEX: 3 entries do not fit record size 80"
check auxtrace-past-end "pdcat: <stdin>: offset 0x170: AUXTRACE payload runs past the end of input (8 bytes missing)"
check tracing-data-past-end "pdcat: <stdin>: offset 0x138: TRACING_DATA payload runs past the end of input (10 bytes missing)"
# The input's name is in the message when it is an operand.
check size-lt-8 "pdcat: in.data: offset 0x138: record size 4 < 8" in.data
# File mode needs a regular file; its faults are in the header.
check file-section-past-end "pdcat: in.data: offset 0x28: data section [0x108, +0x1140) runs past the end of the file (0x38c)" in.data
check file-attrs-past-end "pdcat: in.data: offset 0x18: attrs section [0x78, +0x480) runs past the end of the file (0x38c)" in.data
check file-feature-past-end "pdcat: in.data: offset 0x258: feature section [0x2ac, +0xe1) runs past the end of the file (0x38c)" in.data
check file-ids-past-end "pdcat: in.data: offset 0xf8: attr ids section [0x68, +0x8000) runs past the end of the file (0x38c)" in.data
# The good file converts, and to the stream perf reads as the file.
mkpipe file-mode > fm.data
pdcat fm.data > out.data 2> err.txt || fail "file-mode: $(cat err.txt)"
[ ! -s err.txt ] || fail "file-mode: said $(cat err.txt)"
pdcat < out.data | cmp -s - out.data || fail "file-mode: output unreadable"
mkpipe file-mode > fm.data
cat fm.data | pdcat > out.data 2> err.txt
[ $? -eq 1 ] && [ "$(cat err.txt)" = "pdcat: <stdin>: offset 0x0: file-mode perf.data must be a regular file, not a pipe (use pdcat FILE)" ] ||
	fail "file mode on a pipe: $(cat err.txt)"

# Samples are parsed when inputs are joined (ids are rewritten): a field
# that runs past its record stops pdcat there.
mkpipe sample-full > full.data
pdcat ok.data full.data > out.data 2> err.txt ||
	fail "joining a good full sample: $(cat err.txt)"
for c in callchain:"callchain runs past the record" \
    branch:"branch stack runs past the record" \
    raw:"raw data runs past the record" \
    regs:"regs_user runs past the record" \
    stack:"user stack runs past the record" \
    stack-dyn:"user stack dyn_size runs past the record" \
    stack-dyn-big:"user stack dyn_size > size" \
    read:"read group values run past the record"; do
	name=${c%%:*} msg=${c#*:}
	mkpipe sample-$name > bad.data
	off=$(mkpipe -o sample-$name)
	pdcat ok.data bad.data > out.data 2> err.txt
	rc=$?
	[ $rc -eq 1 ] || fail "sample-$name: exit $rc"
	[ "$(cat err.txt)" = "pdcat: bad.data: offset $off: $msg" ] ||
		fail "sample-$name: '$(cat err.txt)'"
	{ cat ok.data; tail -c +17 bad.data | head -c $((off - 16)); } \
	    > want.data
	cmp -s out.data want.data || fail "sample-$name: output differs"
done

# Valid oddities pass through untouched.
for c in ok size-not-8-aligned unknown-type auxtrace tracing-data; do
	mkpipe $c > in.data
	pdcat < in.data > out.data 2> err.txt || fail "$c: $(cat err.txt)"
	[ ! -s err.txt ] || fail "$c: said $(cat err.txt)"
	cmp -s in.data out.data || fail "$c: not passed through"
done

# The other byte order: converted to ours once the swap module can; until
# then refused with one line.
mkpipe ok-be > be.data
if pdcat < be.data > out.data 2> err.txt; then
	cmp -s out.data ok.data || fail "ok-be: not the native stream"
else
	[ "$(cat err.txt)" = "pdcat: <stdin>: offset 0x0: input is in the other byte order, which this build cannot convert" ] ||
		fail "ok-be: $(cat err.txt)"
fi
exit 0
