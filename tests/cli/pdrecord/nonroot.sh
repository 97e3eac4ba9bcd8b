# SPDX-License-Identifier: MIT
# Without root and with perf_event_paranoid 2, recording a command still
# works by leaving the kernel out; system-wide recording fails with one
# line that says what to change.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
command -v setpriv >/dev/null 2>&1 || skip "no setpriv"
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" = 2 ] ||
	skip "perf_event_paranoid is not 2"
[ -z "${PD_SANITIZE:-}" ] || [ "$PD_SANITIZE" != 1 ] ||
	skip "the sanitizer runtime needs more than nobody may have"
cp "$(command -v pdrecord)" ./pdrecord && chmod 755 . ./pdrecord
asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

asnobody ./pdrecord -q -- /bin/true > u.data 2> err.txt ||
	fail "as nobody: exit $?: $(cat err.txt)"
[ -s err.txt ] && fail "as nobody: $(cat err.txt)"
perf evlist -v -i - < u.data 2>/dev/null | grep -q 'exclude_kernel: 1' ||
	fail "kernel not excluded: $(perf evlist -v -i - < u.data 2>&1)"
perf script -i - < u.data > script.txt 2> perr.txt || fail "perf script: $(cat perr.txt)"
[ -s perr.txt ] && fail "perf script: $(cat perr.txt)"

expect_fail 1 'perf_event_paranoid is 2' asnobody ./pdrecord -q -a -- /bin/true
