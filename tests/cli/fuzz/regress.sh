# Every input a fuzzer once crashed on, and the seeds, replayed through
# each target with a plain driver (runs under gcc and the sanitizers).
. "$PD_TOP/tests/cli/lib.sh"
n=0
for r in "$PD_TBIN"/fuzz/replay_*; do
	[ -x "$r" ] || fail "no replay drivers built"
	set -- "$PD_TOP"/tests/fuzz/seed*
	[ -d "$PD_TOP/tests/fuzz/regress" ] && set -- "$@" "$PD_TOP/tests/fuzz/regress"
	"$r" "$@" ||
		fail "${r##*/} failed"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no fuzz targets"
