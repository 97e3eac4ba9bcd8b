# SPDX-License-Identifier: MIT
# pdcat's compression options: levels 1 to 22, attached; -d and -z
# exclude each other; --help lists them.
. "$PD_TOP/tests/cli/lib.sh"
for bad in -z0 -z23 -zx --compress= --compress=-1 --compress2=99; do
	pdcat $bad < /dev/null > out.bin 2> err.txt
	rc=$?
	[ $rc = 2 ] || fail "pdcat $bad: exit $rc, wanted 2"
	grep -q "compression level" err.txt || fail "pdcat $bad: $(cat err.txt)"
	grep -q '^usage: pdcat' err.txt || fail "pdcat $bad: no usage line"
done
pdcat -d -z < /dev/null > out.bin 2> err.txt
[ $? = 2 ] && grep -q 'exclude each other' err.txt || fail "-d -z: $(cat err.txt)"
pdcat --help > help.txt || fail "--help failed"
for o in '-z, --compress\[=LEVEL\]' '--compress2\[=LEVEL\]' '-d, --decompress'; do
	grep -q -e "$o" help.txt || fail "--help lacks $o"
done
# A plain stream of a header and one FINISHED_ROUND: -z1 and -z22 write it
# with no compressed record and no COMPRESSED feature (nothing to compress).
printf 'PERFILE2\020\0\0\0\0\0\0\0\104\0\0\0\0\0\010\0' > round.data
for z in -z1 -z22 --compress2; do
	pdcat $z round.data > z.data || fail "pdcat $z failed"
	cmp -s round.data z.data || fail "pdcat $z changed a stream without kernel records"
done
