# Samples printed from their event's line (pddump/evline.c) are byte for
# byte what the field visitor prints: lines.txt and lines.json were made
# by the visitor alone, before the lines, from a stream with every kind
# of head (fields unsampled, a period not sampled, pid -1, an empty and
# a long chain, a field after the chain, a sample longer than its fields
# and one cut short, a name to quote, one of 200 control bytes, a rename
# midway) and events the lines leave to the visitor (READ, a name longer
# than a line takes). lines.sums holds the sha256 of both forms of every
# shipped capture as the visitor printed them (remake it with the
# command below only for a change of the output meant for both).
. "$PD_TOP/tests/cli/lib.sh"
d=$PD_TOP/tests/cli/pddump
mkpipe pddump-lines > l.data || fail "mkpipe"
pddump l.data > out.txt || fail "text: exit $?"
diff -u "$d/lines.txt" out.txt || fail "text differs from the visitor's"
pddump --json l.data > out.json || fail "json: exit $?"
diff -u "$d/lines.json" out.json || fail "JSON differs from the visitor's"
# The same through a pipe, with -x, which adds bytes after each line.
pddump < l.data | cmp -s - out.txt || fail "stdin differs"
[ "$(pddump -x l.data | grep -c '^    0000: ')" = 18 ] || fail "-x lines"

# sha256 sums: ( cd tests/data/corpus && for f in *.data bigendian/*.data;
# do for m in text json; do ... pddump [--json] "$f" 2>&1 | sha256sum ...)
command -v sha256sum >/dev/null || skip "no sha256sum"
n=0
while read -r sum form f; do
	p=$PD_TOP/tests/data/corpus/$f
	[ -f "$p" ] || fail "shipped capture missing: $f"
	if [ "$form" = json ]; then
		got=$(pddump --json "$p" 2>&1 | sha256sum)
	else
		got=$(pddump "$p" 2>&1 | sha256sum)
	fi
	[ "${got%% *}" = "$sum" ] || fail "$f ($form): output differs from the visitor's"
	n=$((n + 1))
done < "$d/lines.sums"
[ "$n" -ge 28 ] || fail "only $n sums checked"
