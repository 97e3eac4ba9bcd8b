# Bad input: usage errors exit 2; a count that runs past its record and a
# truncated stream exit 1 with one line naming the offset, after the good
# records were written.
. "$PD_TOP/tests/cli/lib.sh"
command -v python3 >/dev/null || skip "no python3"
usage2() {	# text command...: exit 2 and the usage line on stderr
	_t=$1; shift
	"$@" >/dev/null 2>err.txt && fail "$*: exit 0"
	[ $? -eq 2 ] || fail "$*: not exit 2"
	grep -q '^usage: pdswap \[-t order\] \[-o file\] \[file\]$' err.txt ||
		fail "$*: no usage line: $(cat err.txt)"
	grep -q -- "$_t" err.txt || fail "$*: lacks $_t: $(cat err.txt)"
}
usage2 'invalid option' pdswap -x
usage2 'not one of native, big, little, swap' pdswap -t middle
usage2 usage pdswap a b
pdswap -h | grep -q '^usage: pdswap' || fail "-h"
pdswap --version | grep -q pdswap || fail "--version"
mkpipe pdswap-be > be.data || fail "generator"
# the SAMPLE's header: size 0x38 -> 0x10 (cuts its fields short)
python3 - <<'PY' || fail "edit"
d = bytearray(open('be.data', 'rb').read())
i = d.find(bytes([0, 0, 0, 9, 0, 1, 0, 0x38]))
d[i + 7] = 0x10
d = d[:i + 16]
open('bad.data', 'wb').write(bytes(d))
PY
expect_fail 1 'offset 0x' pdswap bad.data
grep -q 'SAMPLE: pid/tid runs past the record' err.txt || fail "$(cat err.txt)"
[ -s out.bin ] || fail "good records before the fault were not written"
head -c 100 be.data > cut.data
expect_fail 1 'runs past the end of input' pdswap cut.data
