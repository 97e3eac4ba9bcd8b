#!/bin/sh
# SPDX-License-Identifier: MIT
# stress.sh N [PATTERN...]: runs the test runner N times in a row with
# two busy CPU loops beside it, as a loaded CI machine would be, and
# stops at the first run that fails. `make check-stress N=20 TESTS=...`.
# A case that measures time or memory must pass here every time.
n=${1:-20}
shift
top=$(cd "$(dirname "$0")/.." && pwd)
busy() { while :; do :; done; }
busy & b1=$!
busy & b2=$!
trap 'kill $b1 $b2 2>/dev/null' EXIT INT TERM
i=1
while [ "$i" -le "$n" ]; do
	sh "$top/tests/run.sh" "$@" > "${TMPDIR:-/tmp}/pdstress.$$.log" 2>&1
	rc=$?
	echo "run $i of $n: $(tail -n 1 "${TMPDIR:-/tmp}/pdstress.$$.log")"
	if [ "$rc" -ne 0 ]; then
		grep -A 15 '^FAIL' "${TMPDIR:-/tmp}/pdstress.$$.log"
		rm -f "${TMPDIR:-/tmp}/pdstress.$$.log"
		exit 1
	fi
	i=$((i + 1))
done
rm -f "${TMPDIR:-/tmp}/pdstress.$$.log"
echo "$n runs passed under load"
