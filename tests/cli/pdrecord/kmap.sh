# The kernel's map as pdrecord synthesizes it: the same start and length
# as perf record's ([kernel.kallsyms]_text), and as /proc/kallsyms gives
# them (_text to _etext), however pdrecord finds the end.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
# (pdrecord's is an MMAP2 with the kernel's build id, perf's an MMAP.)
kmap() {
	pddump -t MMAP,MMAP2 "$1" | grep 'filename=\[kernel.kallsyms\]_text' |
	    grep -o 'addr=[^ ]* len=[^ ]* pgoff=[^ ]*'
}
pdrecord -e cpu-clock -- true > pd.data 2>/dev/null || fail "pdrecord exit $?"
perf record -q -e cpu-clock -o - -- true > perf.data 2>/dev/null ||
	fail "perf record failed"
ours=$(kmap pd.data) && [ -n "$ours" ] || fail "no kernel map from pdrecord"
theirs=$(kmap perf.data) || fail "no kernel map from perf"
[ "$ours" = "$theirs" ] || fail "pdrecord: $ours; perf: $theirs"
text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
etext=$(awk '$3 == "_etext" { print $1; exit }' /proc/kallsyms)
# 64-bit addresses: beyond sh's signed arithmetic.
want="addr=0x$text len=$(python3 -c "print(0x$etext - 0x$text)")"
case $ours in
"$want "*) ;;
*) fail "pdrecord: $ours; /proc/kallsyms: $want";;
esac
echo "$ours"
