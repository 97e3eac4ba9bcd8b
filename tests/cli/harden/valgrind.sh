# Every tool under valgrind on a few small streams: no invalid read or
# write, no use of uninitialised memory, on good and bad input alike.
. "$PD_TOP/tests/cli/lib.sh"
not_sanitized
command -v valgrind >/dev/null 2>&1 || skip "valgrind not installed"
mkdir in
for c in ok ok-be truncated-last sample-full file-mode; do
	mkpipe "$c" >in/$c || fail "mkpipe $c"
done
cp "$PD_TOP"/tests/fuzz/seed/* in/
if [ -n "${PD_CORPUS:-}" ] && [ -d "$PD_CORPUS" ]; then
	for f in empty-workload.pipe.data group-read.pipe.data; do
		[ -f "$PD_CORPUS/$f" ] && cp "$PD_CORPUS/$f" in/
	done
fi
vg() {	# file command...
	_f=$1; shift
	valgrind --error-exitcode=99 -q "$@" <"$_f" >/dev/null 2>err.txt
	_rc=$?
	[ "$_rc" -ne 99 ] && ! grep -q '^==[0-9]*==' err.txt ||
		fail "valgrind: $* < $_f: $(cat err.txt)"
	[ "$_rc" -le 1 ] || fail "$* < $_f: exit $_rc: $(cat err.txt)"
}
for f in in/*; do
	vg "$f" pdcat -d
	vg "$f" pddump --json
	vg "$f" pdstat
	vg "$f" pdsort
	vg "$f" pdswap -t swap
done
# Writers that compress and read back, and pdrecord's help path.
vg in/ok pdcat
vg in/ok pdcat -z
vg in/ok pddump -x
vg in/ok pdstat -p
vg /dev/null pdrecord --help
