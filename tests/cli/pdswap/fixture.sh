# pdswap on a hand-made stream: every field lands at its width in the
# target order, and back; the same stream written big-endian by the
# generator decodes to the little-endian one.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe pdswap-le > le.data || fail "generator"
mkpipe pdswap-be > be.data || fail "generator"
pdswap -t big < le.data > out.data 2>err.txt || fail "pdswap: $(cat err.txt)"
[ -s err.txt ] && fail "unexpected stderr: $(cat err.txt)"
cmp out.data be.data || fail "-t big differs from the stream written big-endian"
pdswap -t little < be.data > out.data || fail "pdswap -t little"
cmp out.data le.data || fail "-t little differs from the little-endian stream"
pdswap -t swap < be.data | pdswap -t swap > out.data || fail "round trip"
cmp out.data be.data || fail "round trip is not exact"
pdswap be.data > out.data && pdswap -t native - < out.data > out2.data ||
	fail "native"
cmp out2.data out.data || fail "-t native of native input is not identity"
pdswap -t big -o file.data le.data || fail "-o"
cmp file.data be.data || fail "-o FILE differs"
exit 0
