# Compressed records that each stay under the per-record limit but add
# up (issue 18, finding 10): a 4 KiB stream of 16 COMPRESSED records of
# 8 MiB each. Once an input's output passes 64 MiB, it may be at most
# 1000 times the compressed bytes taken: past that it is a zstd bomb,
# one error line and exit 1, after the records before it, in both byte
# orders and in every tool that decompresses.
. "$PD_TOP/tests/cli/lib.sh"
mkpipe zstd-ratio-bomb > le.data || fail "mkpipe"
mkpipe zstd-ratio-bomb-be > be.data || fail "mkpipe -be"
[ "$(wc -c < le.data)" -lt 8192 ] || fail "fixture too big"
msg="offset 0x8ee: compressed data expand more than 1000 times: 67632128 bytes from 2070 (a zstd bomb?)"
for f in le.data be.data; do
	timeout 10 pdcat -d $f 2>err.txt | wc -c > n.txt
	[ "$(wc -l < err.txt)" = 1 ] && grep -qF "$msg" err.txt ||
		fail "pdcat -d $f: $(cat err.txt)"
	# the records decompressed before it are written
	n=$(cat n.txt)
	[ "$n" -ge $((60 << 20)) ] && [ "$n" -le $((65 << 20)) ] ||
		fail "pdcat -d $f wrote $n bytes"
	expect_fail 1 "$msg" timeout 10 pdstat $f
	expect_fail 1 "$msg" timeout 10 pddump -t ATTR $f
done
expect_fail 1 "pdcat: be.data: $msg" timeout 10 pdcat be.data
# pdswap converts the records inside itself, but through the reader's
# decoder and its rule (the figures depend on how much it asks for at a
# time; it also counts the records it left unconverted)
timeout 10 pdswap -t big le.data > /dev/null 2>err.txt
[ $? = 1 ] || fail "pdswap -t big: exit not 1"
grep -q "offset 0x8ee: compressed data expand more than 1000 times: .* (a zstd bomb?)" err.txt ||
	fail "pdswap -t big: $(cat err.txt)"
timeout 10 pdswap -t little be.data > /dev/null 2>err.txt
[ $? = 1 ] || fail "pdswap -t little: exit not 1"
grep -q "offset 0x8ee: compressed data expand more than 1000 times" err.txt ||
	fail "pdswap -t little: $(cat err.txt)"
