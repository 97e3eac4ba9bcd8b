# SPDX-License-Identifier: MIT
# Each tool's usage line (--help) says what the SYNOPSIS of its page says.
. "$PD_TOP/tests/cli/lib.sh"
command -v mandoc >/dev/null 2>&1 || skip "mandoc not installed"
norm() { tr -s ' \t\n' '   ' | sed 's/^ //; s/ $//'; }
n=0
for m in "$PD_TOP"/man/*.1; do
	[ -f "$m" ] || continue
	t=${m##*/}
	t=${t%.1}
	[ -x "$PD_BIN/$t" ] || continue
	n=$((n + 1))
	# The rendered SYNOPSIS, overstrike removed, up to the next section.
	page=$(mandoc -Tascii -Owidth=500 "$m" | sed 's/.\x08//g' |
	    sed -n '/^SYNOPSIS/,/^[A-Z]/p' | sed '1d;$d' | norm)
	# "usage: X ..." and its indented continuation lines.
	use=$("$PD_BIN/$t" --help | awk '
		/^usage: / { on = 1; sub(/^usage: /, ""); print; next }
		on && /^[ \t]/ { print; next }
		{ on = 0 }' | norm)
	[ -n "$use" ] || fail "$t --help has no usage line"
	[ "$page" = "$use" ] ||
		fail "$t: SYNOPSIS '$page' but usage '$use'"
done
[ "$n" -gt 0 ] || skip "no tool with a page built"
echo "$n synopses match"
