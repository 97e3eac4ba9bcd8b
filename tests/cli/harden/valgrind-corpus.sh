# Every tool under valgrind on the corpus: every stream of ours and the
# big-endian ones through pdsort and pdswap one by one, and joined by
# pdcat (plain and -d); every perf.data of the corpus, foreign ones
# included, through pddump --json and pdstat (one run each over all
# files: the reader, the converters and every decoder); pdrecord
# recording a short workload when perf can. No invalid read or write, no
# use of uninitialised memory, no definite leak; exit 0, or 1 with one
# error line for files that are bad or that this build cannot read.
. "$PD_TOP/tests/cli/lib.sh"
need_corpus
not_sanitized
command -v valgrind >/dev/null 2>&1 || skip "valgrind not installed"
vg() {	# command...
	valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	    -q "$@" >/dev/null 2>err.txt
	_rc=$?
	[ "$_rc" -ne 99 ] && ! grep -q '^==[0-9]*==' err.txt ||
		fail "valgrind: $*: $(grep -m 20 '^==' err.txt)"
	[ "$_rc" -le 1 ] || fail "$*: exit $_rc: $(cat err.txt)"
	n=$((n + 1))
}
n=0
for f in "$C"/*.data "$C"/bigendian/*.data; do
	vg pdsort "$f"
	vg pdswap -t swap "$f"
done
[ "$n" -ge 20 ] || fail "only $n runs"
vg pdcat "$C"/*.data "$C"/bigendian/*.data
vg pdcat -d "$C"/*.data "$C"/bigendian/*.data
set --
for f in $(find "$C" -type f ! -name '*.md' ! -name '*.sources' \
    ! -name '*.txt' ! -name '*.sh' | sort); do
	case $(od -An -c -N8 "$f" | tr -d ' ') in
	PERFILE2|2ELIFREP)	set -- "$@" "$f";;
	esac
done
[ $# -ge "$(corpus_min 100 14)" ] || fail "only $# perf.data files in the corpus"
vg pddump --json "$@"
vg pdstat "$@"
if [ "$(id -u)" = 0 ] && command -v perf >/dev/null 2>&1 &&
    perf version >/dev/null 2>&1; then
	vg pdrecord -q -e cpu-clock -- true
	pdrecord -q -e cpu-clock -- true | pdstat >/dev/null ||
		fail "pdrecord's stream"
fi
echo "$n runs under valgrind, $# files in the last ones"
