# SPDX-License-Identifier: MIT
# Sourced by every cli case: . "$PD_TOP/tests/cli/lib.sh"
# A case runs in its own scratch directory; exit 0 passes, 77 skips.
set -u

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }

# The corpus directory ($C), or skip.
need_corpus() {
	[ -n "${PD_CORPUS:-}" ] && [ -d "$PD_CORPUS" ] ||
		skip "no corpus (../shared/corpus or PD_CORPUS)"
	C=$PD_CORPUS
}

# A working perf, or skip.
need_perf() {
	command -v perf >/dev/null 2>&1 || skip "perf not installed"
	perf version >/dev/null 2>&1 || skip "perf does not run"
}

# Root (and perf_event_open allowed), or skip.
need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root"
}

# Cases that read many files skip themselves under the sanitizer build,
# where they would take most of the CI budget; the plain run covers them.
not_sanitized() {
	[ -z "${PD_SANITIZE:-}" ] || [ "$PD_SANITIZE" != 1 ] ||
		skip "slow under sanitizers; run in the plain build"
}

# expect_fail STATUS 'stderr text' command...: the command must exit with
# STATUS and print exactly one line on stderr containing the text.
expect_fail() {
	_st=$1 _txt=$2; shift 2
	"$@" >out.bin 2>err.txt
	_rc=$?
	[ "$_rc" = "$_st" ] || fail "$*: exit $_rc, wanted $_st: $(cat err.txt)"
	[ "$(wc -l < err.txt)" -eq 1 ] || fail "$*: stderr not one line: $(cat err.txt)"
	grep -qF -- "$_txt" err.txt || fail "$*: stderr '$(cat err.txt)' lacks '$_txt'"
}

# The fixture generator (tests/gen/mkpipe.c).
mkpipe() { "$PD_TBIN/gen/mkpipe" "$@"; }
