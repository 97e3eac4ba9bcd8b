#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Old binaries against new, side by side, on every capture we have: the
# check a restructuring must pass (byte-identical output, same exit
# status, same messages). Not part of make check; run by hand:
#
#   sh tests/compare.sh OLD_BINDIR NEW_BINDIR [DIR_OR_FILE ...]
#
# DIRs default to ../shared/corpus (when present) and tests/data/corpus.
# Each file goes through pdcat, pdsort, pdswap (-t swap and back),
# pddump, pddump --json, pddump -s, pdstat --json, pdstat --top 20 and
# pdstat --gecko.
# A difference prints the tool, the file and the first differing lines;
# the last line counts files, records and differences. Exit 1 on any.
# PD_COMPARE_ONLY="pddump -s" limits the commands (a grep -E pattern).
set -u
old=${1:?usage: compare.sh OLD_BINDIR NEW_BINDIR [DIR ...]}
new=${2:?usage: compare.sh OLD_BINDIR NEW_BINDIR [DIR ...]}
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
	[ -d "$here/../shared/corpus" ] && set -- "$here/../shared/corpus"
	set -- "$@" "$here/tests/data/corpus"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cmds='pdcat
pdsort
pdswap -t swap
pddump
pddump --json
pddump -s --no-debuginfod
pdstat --json
pdstat --top 20 --no-debuginfod
pdstat --gecko - --no-debuginfod'

nfiles=0 nrec=0 ndiff=0 nruns=0
one() {	# one capture, every command, old and new
	f=$1
	nfiles=$((nfiles + 1))
	n=$("$new/pdstat" --json "$f" 2>/dev/null |
	    sed -n 's/.*"count": \([0-9]*\).*/\1/p' |
	    awk '{ s += $1 } END { print s + 0 }')
	nrec=$((nrec + n))
	echo "$cmds" | while IFS= read -r c; do
		if [ -n "${PD_COMPARE_ONLY:-}" ] &&
		    ! echo "$c" | grep -Eq "$PD_COMPARE_ONLY"; then
			continue
		fi
		set -- $c
		tool=$1
		shift
		for side in old new; do
			eval "dir=\$$side"
			# Messages name the binary's path: compare from its name on.
			(cd "$(dirname "$f")" && "$dir/$tool" "$@" "$(basename "$f")" \
			    >"$tmp/$side.out" 2>"$tmp/$side.err"
			 echo "exit $?" >>"$tmp/$side.err")
			if [ "$c" = "pdswap -t swap" ]; then
				# and back again: the round trip is compared too
				"$dir/pdswap" -t swap <"$tmp/$side.out" \
				    >"$tmp/$side.back" 2>>"$tmp/$side.err"
				cat "$tmp/$side.back" >>"$tmp/$side.out"
			fi
		done
		if ! cmp -s "$tmp/old.out" "$tmp/new.out" ||
		    ! cmp -s "$tmp/old.err" "$tmp/new.err"; then
			echo "DIFF $c: $f"
			if cmp -s "$tmp/old.out" "$tmp/new.out"; then
				diff "$tmp/old.err" "$tmp/new.err" | sed -n 1,6p
			elif [ "$tool" = pddump ] || [ "$tool" = pdstat ]; then
				diff "$tmp/old.out" "$tmp/new.out" | sed -n 1,8p
			else
				cmp "$tmp/old.out" "$tmp/new.out" | sed -n 1p
			fi
			echo x >>"$tmp/diffs"
		fi
		echo x >>"$tmp/runs"
	done
}

files() {
	for a in "$@"; do
		if [ -f "$a" ]; then
			echo "$a"
		else
			find "$a" -type f ! -name '*.md' ! -name '*.sh' \
			    ! -name '*.txt' ! -path '*/reference/*' | sort
		fi
	done
}

files "$@" >"$tmp/list"
while IFS= read -r f; do
	case $f in
	*.xz)
		b=$(basename "$f" .xz)
		xz -dc "$f" >"$tmp/$b"
		one "$tmp/$b"
		rm -f "$tmp/$b" ;;
	*)	one "$f" ;;
	esac
done <"$tmp/list"
nruns=$(cat "$tmp/runs" 2>/dev/null | wc -l)
ndiff=$(cat "$tmp/diffs" 2>/dev/null | wc -l)
echo "$nfiles files, $nrec records, $nruns runs compared, $ndiff differ"
[ "$ndiff" -eq 0 ]
