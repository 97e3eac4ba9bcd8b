#!/bin/sh
# SPDX-License-Identifier: MIT
# The one test runner: unit programs, then cli cases, in sorted order.
#   sh tests/run.sh [PATTERN...]   only cases whose name contains a PATTERN
# A case passes with exit 0, is skipped with exit 77 (its last line says
# why), and fails otherwise. The last line is "N passed, N failed,
# N skipped". PD_PRESERVE=1 keeps each case's scratch directory.
top=$(cd "$(dirname "$0")/.." && pwd)
: "${PD_BIN:=$top/bin}" "${PD_TBIN:=$top/build/tests}"
if [ -z "${PD_CORPUS:-}" ] && [ -d "$top/../shared/corpus" ]; then
	PD_CORPUS=$(cd "$top/../shared/corpus" && pwd)
fi
PD_TOP=$top
PATH=$PD_BIN:$PATH
export PD_BIN PD_TBIN PD_CORPUS PD_TOP PATH
# The leak check, less a library's own leak (tests/lsan.supp says which).
if [ "${PD_SANITIZE:-}" = 1 ]; then
	LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
	export LSAN_OPTIONS
fi
pass=0 fail=0 skip=0
failed=
# What a run must leave as it found it: /dev/null, and the folder that
# holds the checkout (tests write only in their scratch directories).
# That folder is listed after the run's own scratch directory is made,
# which is there too when the checkout is in $TMPDIR (a clone made with
# mktemp -d), and only what appears in it counts: other programs may
# take their own files away meanwhile.
null_kind=$(stat -c %F /dev/null)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pdtest.XXXXXX")
ls -A "$top/.." | sort > "$scratch/beside.before"
# perf record and perf inject copy every file they see into the build-id
# cache, ~/.debug by default: the run's own instead, so that a run
# leaves the user's alone, and two runs at once (perf 6.1 asserts in
# build-id.c when another perf changes the cache under it) cannot meet.
# perf takes its cache from its config only (it sets PERF_BUILDID_DIR
# for its children, never reads it): a config of the run's own, which
# also keeps the user's ~/.perfconfig out of the tests. Our tools read
# PERF_BUILDID_DIR, so they look where perf wrote.
PERF_BUILDID_DIR=$scratch/buildid-cache
PERF_CONFIG=$scratch/perfconfig
printf '[buildid]\n\tdir = %s\n' "$PERF_BUILDID_DIR" > "$PERF_CONFIG"
export PERF_BUILDID_DIR PERF_CONFIG
if [ -n "${PD_PRESERVE:-}" ]; then
	echo "scratch directories kept in $scratch"
else
	trap 'rm -rf "$scratch"' EXIT INT TERM
fi

want() {
	[ $# -eq 1 ] && return 0
	name=$1; shift
	for p; do case "$name" in *"$p"*) return 0;; esac; done
	return 1
}

# perf 6.1 itself now and then aborts in its build-id code (an assertion
# at util/build-id.c:1010, then stack smashing), seen about one run in
# ten on a loaded machine, with or without a build-id cache, and twice
# in a row once (pdsort/merge under the sanitizers, beside another test
# run): a case that failed so is run up to twice more, and says so,
# rather than fail on perf's bug.
perf_aborted() { grep -q 'assertion failed at util/build-id\.c' "$1"; }

run() {	# name command...
	name=$1; shift
	dir=$scratch/$(echo "$name" | tr '/' '_')
	again=
	aborts=0
	start=$(date +%s)
	while :; do
		rm -rf "$dir"
		mkdir -p "$dir"
		(cd "$dir" && "$@") >"$dir.log" 2>&1
		rc=$?
		case $rc in 0|77) break;; esac
		[ "$aborts" -lt 2 ] && perf_aborted "$dir.log" || break
		aborts=$((aborts + 1))
		again=", again: perf aborted $aborts run$([ $aborts -gt 1 ] && echo s)"
	done
	secs=$(( $(date +%s) - start ))
	case $rc in
	0)	pass=$((pass + 1)); echo "ok      $name (${secs}s$again)";;
	77)	skip=$((skip + 1))
		why=$(tail -n 1 "$dir.log")
		echo "$why" >> "$scratch/skipped"
		echo "skip    $name: $why";;
	*)	fail=$((fail + 1)); failed="$failed $name"
		echo "FAIL    $name (exit $rc$again)"
		# The reason first: a long message's head would be cut off.
		grep -m 1 '^FAIL: ' "$dir.log" | cut -c 1-300 |
		    sed 's/^/        | /'
		tail -n 15 "$dir.log" | sed 's/^/        | /';;
	esac
	[ -n "${PD_PRESERVE:-}" ] || rm -rf "$dir" "$dir.log"
}

for t in "$PD_TBIN"/test_*; do
	[ -x "$t" ] || continue
	n=unit/${t##*/}
	want "$n" "$@" && run "$n" "$t"
done
for t in "$top"/tests/cli/*/*.sh; do
	[ -f "$t" ] || continue
	n=${t#"$top"/tests/cli/}
	n=${n%.sh}
	want "$n" "$@" && run "$n" sh "$t"
done
if [ "$(stat -c %F /dev/null)" != "$null_kind" ]; then
	fail=$((fail + 1)); failed="$failed (/dev/null)"
	echo "FAIL    /dev/null is now a $(stat -c %F /dev/null), was a $null_kind"
fi
ls -A "$top/.." | sort | comm -13 "$scratch/beside.before" - > "$scratch/beside.new"
if [ -s "$scratch/beside.new" ]; then
	fail=$((fail + 1)); failed="$failed (stray-files)"
	echo "FAIL    files appeared beside the checkout:"
	sed 's/^/        | /' "$scratch/beside.new"
fi
# Skipped areas stay visible: one line per reason, with its count.
if [ -s "$scratch/skipped" ]; then
	echo "skipped, by reason:"
	sort "$scratch/skipped" | uniq -c | sort -rn |
	    sed 's/^ *\([0-9]*\) /  \1  /'
fi
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
