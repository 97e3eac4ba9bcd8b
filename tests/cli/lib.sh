# SPDX-License-Identifier: MIT
# Sourced by every cli case: . "$PD_TOP/tests/cli/lib.sh"
# A case runs in its own scratch directory; exit 0 passes, 77 skips.
set -u

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }

# The corpus of real captures ($C): PD_CORPUS (tests/run.sh sets it to
# ../shared/corpus when that is there), else the part of it that ships
# with the project, tests/data/corpus: our own recordings and the s390x
# ones, with their reference outputs (tests/data/corpus/README.md).
need_corpus() {
	if [ -n "${PD_CORPUS:-}" ] && [ -d "$PD_CORPUS" ]; then
		C=$PD_CORPUS
	else
		C=$PD_TOP/tests/data/corpus
	fi
}

# The whole corpus, with other projects' captures ($C/foreign), or skip:
# those do not ship with the project.
need_foreign() {
	need_corpus
	[ -d "$C/foreign" ] || skip "no foreign corpus (other projects' captures; PD_CORPUS=DIR)"
}

# corpus_have FILE: 0 when FILE is there; 1 when it is one of other
# projects' captures and those are not here (a bare clone); a file of
# ours, or a foreign one while the foreign corpus is here, that is
# missing fails the case.
corpus_have() {
	[ -f "$1" ] && return 0
	case $1 in
	"$C"/foreign/*) [ -d "$C/foreign" ] || return 1;;
	esac
	fail "corpus file missing: $1"
}

# corpus_min FULL OURS: how many files a case that reads the whole corpus
# must have read: FULL with other projects' captures, OURS (every file of
# the shipped part) without them.
corpus_min() {
	if [ -d "$C/foreign" ]; then echo "$1"; else echo "$2"; fi
}

# ref_text FILE: a reference output's text, from FILE or FILE.xz (the
# large ones ship compressed). 1 when neither is there.
ref_text() {
	if [ -f "$1" ]; then
		cat "$1"
	elif [ -f "$1.xz" ]; then
		xz -dc "$1.xz"
	else
		return 1
	fi
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

# UTS and PID namespaces (with their own /proc) for a "host" of its
# own, as the merge cases make them, or skip.
need_hostns() {
	command -v unshare >/dev/null 2>&1 || skip "no unshare"
	unshare --uts --pid --fork --mount-proc true 2>/dev/null ||
		skip "cannot make UTS and PID namespaces here"
}

# need_tracepoint SYSTEM[/EVENT]: tracefs mounted (done here when it is
# not) and the tracepoint (or system) there, or skip.
need_tracepoint() {
	[ -d /sys/kernel/tracing/events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null
	[ -d "/sys/kernel/tracing/events/$1" ] ||
		skip "no $1 tracepoint here (tracefs)"
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
