# SPDX-License-Identifier: MIT
# Every man page is clean under mandoc -Tlint and has the sections a
# reader looks for; every tool built has its page.
. "$PD_TOP/tests/cli/lib.sh"
command -v mandoc >/dev/null 2>&1 || skip "mandoc not installed"
out=$PWD/lint.out
cd "$PD_TOP" || fail "no $PD_TOP"
n=0
for m in man/*.[1-8]; do
	[ -f "$m" ] || continue
	n=$((n + 1))
	# A reference to a page of ours must find it in man/; pages of
	# other packages are there only when those are installed.
	mandoc -Tlint "$m" 2>&1 | while IFS= read -r line; do
		case $line in
		*"outdated mandoc.db"*)	# the system's index, not our page
			continue;;
		*"referenced manual not found: Xr "*)
			ref=${line##*Xr }
			name=${ref%% *}
			ref=${ref#* }
			sec=${ref%% *}
			case $name in
			pd*)	[ -f "man/$name.$sec" ] && continue;;
			*)	continue;;
			esac;;
		esac
		echo "$line"
	done > "$out"
	[ -s "$out" ] && fail "$(cat "$out")"
	case $m in
	*.1) want="NAME SYNOPSIS DESCRIPTION EXIT.STATUS EXAMPLES DIAGNOSTICS SEE.ALSO";;
	*) want="NAME DESCRIPTION SEE.ALSO";;
	esac
	for s in $want; do
		grep -q "^\.Sh $(echo "$s" | tr . ' ')\$" "$m" ||
			fail "$m: no section $s"
	done
done
[ "$n" -gt 0 ] || fail "no man pages in man/"
for t in "$PD_BIN"/pd*; do
	[ -x "$t" ] || continue
	[ -f "man/${t##*/}.1" ] || fail "${t##*/} has no man/${t##*/}.1"
done
echo "$n pages clean"
