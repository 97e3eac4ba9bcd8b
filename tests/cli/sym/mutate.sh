# SPDX-License-Identifier: MIT
# Mutated streams (bit flips, truncations, header.size changes) through
# pddump -s and pdstat --top: no signal, no hang, exit 0 or 1; garbage
# MMAP paths and callchains only ever give [unknown].
. "$PD_TOP/tests/cli/lib.sh"
command -v timeout >/dev/null 2>&1 || skip "no timeout(1)"
n=60
[ "${PD_SANITIZE:-}" = 1 ] && n=15
mkdir in out
for c in ok sample-callchain sample-full file-mode; do
	mkpipe "$c" > in/$c || fail "mkpipe $c"
done
if [ "$(id -u)" = 0 ] && command -v gcc >/dev/null 2>&1; then
	. "$PD_TOP/tests/cli/sym/hot.sub"
	build_hot .
	pdrecord -q -g -o in/hot.pd -- ./hot 50 || fail pdrecord
fi
"$PD_TBIN/gen/mutate" 9 "$n" out in/* || fail mutate
bad=0
for f in out/*; do
	for cmd in "pddump -s" "pddump -s --json" "pdstat --top 5"; do
		# shellcheck disable=SC2086
		timeout 10 $cmd < "$f" > /dev/null 2> err.txt
		rc=$?
		case $rc in
		0|1)	;;
		*)	echo "$cmd: exit $rc on $f: $(tail -n 3 err.txt)"
			cp "$f" "keep.${f##*/}"
			bad=$((bad + 1));;
		esac
	done
done
[ "$bad" = 0 ] || fail "$bad runs failed"
echo "$n mutated streams"
