# SPDX-License-Identifier: MIT
# Issue 18 finding 8, tracepoints: tracepoint ids are per kernel build.
# Joining a stream from a kernel where sched_switch is 372 with one where
# it is 374 (and 372 is sched_wakeup) printed the second input's
# sched_switch samples as sched_wakeup, exit 0. pdcat now checks each
# input's tracepoint formats against the earlier inputs' and refuses such
# a join with one line, as it reads the inputs' attrs and tracing data
# (before their other records); the same kernel twice still joins, with
# one tracing data record (perf 6.1 reads one: pdcat/tracing-perf.sh).
. "$PD_TOP/tests/cli/lib.sh"
mkpipe tp-kernel a > a.data && mkpipe tp-kernel b > b.data || fail "mkpipe"
pdcat a.data a.data > j.data || fail "a+a: exit $?"
pddump j.data > dump.txt || fail "a+a: pddump exit $?"
[ "$(grep -c 'SAMPLE.*event=sched:sched_switch' dump.txt)" = 2 ] ||
	fail "a+a: $(grep SAMPLE dump.txt)"
[ "$(grep -c ' TRACING_DATA ' dump.txt)" = 1 ] ||
	fail "a+a: not one tracing data: $(grep TRACING_DATA dump.txt)"
[ "$(grep -c '^  raw: common_type=' dump.txt)" = 2 ] ||
	fail "a+a: samples without their fields: $(cat dump.txt)"
expect_fail 1 "b.data: offset 0xa8: tracepoint id 374 is sched:sched_switch here but sched:sched_wakeup in an earlier input" \
	pdcat a.data b.data
# Refused while the attrs are read: no sample, no tracing data is out.
pddump out.bin > dump.txt 2>&1
[ "$(grep -c -e SAMPLE -e TRACING_DATA dump.txt)" = 0 ] ||
	fail "a+b: $(cat dump.txt)"
expect_fail 1 "tracepoint id 372 is sched:sched_switch here" pdcat b.data a.data
exit 0
