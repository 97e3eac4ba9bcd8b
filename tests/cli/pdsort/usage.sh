# SPDX-License-Identifier: MIT
# Options: help, version, usage errors, -m sizes.
. "$PD_TOP/tests/cli/lib.sh"
pdsort -h > help.txt || fail "-h: exit $?"
grep -q '^usage: pdsort \[-m size\] \[--strict\] \[--clock-offset host=ns\] \[-o file\] \[file \.\.\.\]$' help.txt ||
	fail "-h: $(head -n 1 help.txt)"
grep -q -- '--strict' help.txt || fail "-h lacks --strict"
pdsort --version | grep -q '^pdsort ' || fail "--version"
pdsort --bogus > out.bin 2> err.txt
[ $? = 2 ] || fail "--bogus: not a usage error"
grep -q '^usage: pdsort' err.txt || fail "--bogus: $(cat err.txt)"
for m in 0 x 12Q -5 ''; do
	pdsort -m "$m" < /dev/null > out.bin 2> err.txt
	[ $? = 2 ] || fail "-m '$m': not a usage error"
	grep -q "bad size for -m" err.txt || fail "-m '$m': $(cat err.txt)"
done
expect_fail 1 "pdsort: a:" pdsort a b
for o in x x= =5 h=5x h=; do
	pdsort --clock-offset "$o" a b > out.bin 2> err.txt
	[ $? = 2 ] || fail "--clock-offset '$o': not a usage error"
	grep -q "bad --clock-offset" err.txt || fail "--clock-offset '$o': $(cat err.txt)"
done
expect_fail 1 "pdsort: nonexistent.data:" pdsort nonexistent.data
# An empty input is not a stream.
: > empty.data
pdsort empty.data > out.bin 2> err.txt && fail "empty input: exit 0"
# Sizes with suffixes are taken.
printf 'PERFILE2\020\0\0\0\0\0\0\0' > hdr.data
for m in 1 64K 1M 2G 512m; do
	pdsort -m $m hdr.data > out.bin || fail "-m $m: exit $?"
	cmp -s hdr.data out.bin || fail "-m $m: header only input changed"
done
exit 0
