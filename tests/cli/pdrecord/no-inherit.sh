# -i/--no-inherit, as perf record -i: the events are opened without
# inherit, so a child of the command is not recorded; without it, it is.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
cat > spin.sh <<'EOS'
exec sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done' child
EOS
inherit() { pddump -t ATTR "$1" | grep -c 'flags=[^ ]*[=|]inherit[| ]'; }
pdrecord -i -e task-clock -- sh -c 'sh spin.sh; true' > i.data 2> i.err ||
	fail "pdrecord -i: $(cat i.err)"
pdrecord -e task-clock -- sh -c 'sh spin.sh; true' > all.data 2> all.err ||
	fail "pdrecord: $(cat all.err)"
perf record -q -i -e task-clock -o - -- true > perf.data 2> /dev/null ||
	fail "perf record -i"
[ "$(inherit i.data)" = 0 ] || fail "-i: an attr with inherit"
[ "$(inherit perf.data)" = 0 ] || fail "perf record -i: an attr with inherit"
[ "$(inherit all.data)" -ge 1 ] || fail "no inherit without -i"
# The child's busy loop: recorded only without -i.
child() { pdstat "$1" | awk '$1 == "child" || $1 == "sh" { n += $2 } END { print n + 0 }'; }
ni=$(child i.data) na=$(child all.data)
[ "$na" -gt $((ni * 10)) ] || fail "-i: $ni samples, without: $na"
echo "-i: $ni samples; without -i: $na"
