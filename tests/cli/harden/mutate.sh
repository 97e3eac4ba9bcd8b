# Random mutations (bit flips, truncations, header.size changes, runs of
# 0x00/0xff) of small streams through every reading tool: no tool may die
# by a signal or run past 5 s, and every data error names its offset.
. "$PD_TOP/tests/cli/lib.sh"
command -v timeout >/dev/null 2>&1 || skip "no timeout(1)"
n=450
[ "${PD_SANITIZE:-}" = 1 ] && n=60
mkdir in out
for c in ok ok-be unknown-type auxtrace tracing-data sample-full \
    sample-callchain sample-branch sample-raw sample-regs sample-stack \
    sample-stack-dyn sample-read file-mode; do
	mkpipe "$c" >in/$c || fail "mkpipe $c"
done
cp "$PD_TOP"/tests/fuzz/seed/* in/
if [ -n "${PD_CORPUS:-}" ] && [ -d "$PD_CORPUS" ]; then
	for f in empty-workload.pipe.data callchain.pipe.data \
	    group-read.pipe.data; do
		[ -f "$PD_CORPUS/$f" ] && [ "$(wc -c <"$PD_CORPUS/$f")" -lt 65536 ] &&
			cp "$PD_CORPUS/$f" in/
	done
fi
"$PD_TBIN/gen/mutate" 1 "$n" out in/* || fail "mutate"

bad=0
check() {	# file command...
	_f=$1; shift
	timeout 5 "$@" <"$_f" >/dev/null 2>err.txt
	_rc=$?
	case $_rc in
	0|141)	return;;
	1)	# pdswap may add a line counting records left part-converted.
		grep -q 'offset 0x' err.txt && return
		echo "$*: error without an offset on $_f:"
		cat err.txt;;
	124)	echo "$*: timed out on $_f";;
	*)	echo "$*: exit $_rc on $_f:"; cat err.txt;;
	esac
	bad=$((bad + 1))
	cp "$_f" "keep.${_f##*/}"
}
for f in out/m*; do
	check "$f" pdcat
	check "$f" pdcat -d
	check "$f" pddump
	check "$f" pddump --json
	check "$f" pdstat
	check "$f" pdsort
	check "$f" pdswap -t swap
	[ "$bad" -lt 20 ] || break
done
[ "$bad" -eq 0 ] || fail "$bad bad runs over $n inputs"
