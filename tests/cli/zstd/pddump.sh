# SPDX-License-Identifier: MIT
# pddump prints the same records for every compressed corpus stream read
# as it is (pddump decompresses), after pdcat -d, after pdcat -z and after
# pdcat --compress2: offsets, the reader's synthesized/compressed marks,
# the compressed records and the COMPRESSED feature set aside.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
command -v pddump >/dev/null 2>&1 || skip "pddump not built"
. "$PD_TOP/tests/cli/zstd/corpus.inc"
norm() {
	cut -d' ' -f2- | sed 's/ synthesized=1//; s/ compressed=1//' |
	    grep -v -e '^[0-9]* FEATURE feat_id=27 ' \
	    -e '^[0-9]* COMPRESSED2* ' | sort
}
for x in $ZFILES; do
	pddump "$x" 2>/dev/null | norm > want.txt
	[ -s want.txt ] || fail "$x: pddump printed nothing"
	for o in -d -z --compress2; do
		pdcat $o "$x" 2>/dev/null | pddump | norm > got.txt
		cmp -s want.txt got.txt || fail "$x: pddump differs after pdcat $o"
	done
done
