# SPDX-License-Identifier: MIT
# Usage errors: no target, bad options and values; --help and --version.
. "$PD_TOP/tests/cli/lib.sh"

pdrecord --help > help.txt || fail "--help failed"
grep -q '^usage: pdrecord' help.txt || fail "--help: $(cat help.txt)"
pdrecord --version | grep -q '^pdrecord (pdtools) ' || fail "--version"

pdrecord > out.bin 2> err.txt
[ $? = 2 ] || fail "no target: not exit 2"
grep -q 'no target' err.txt || fail "no target: $(cat err.txt)"
grep -q '^usage: pdrecord' err.txt || fail "no target: no usage line"

pdrecord --bogus -a > out.bin 2> err.txt
[ $? = 2 ] || fail "bad option: not exit 2"
expect_fail 2 'power of 2' pdrecord -m 3 -a
expect_fail 2 "unknown event 'nosuchevent'" pdrecord -e nosuchevent -a
expect_fail 2 "'{' without '}'" pdrecord -e '{cpu-clock,task-clock' -a
expect_fail 2 'unknown event modifier' pdrecord -e cpu-clock:x -a
expect_fail 2 'bad CPU list' pdrecord -C 1-x -- true
expect_fail 2 'unknown clock' pdrecord -k nosuchclock -a
expect_fail 2 'fp or dwarf' pdrecord --call-graph lbr -a
expect_fail 2 'go without' pdrecord -p 1 -a
# Issue 24: a bad value is one line that says what is wrong, exit 2.
expect_fail 2 "-F abc: not a frequency" pdrecord -F abc -a
expect_fail 2 "-F 0: not a frequency" pdrecord -F 0 -a
expect_fail 2 "-c 0: not a sample period" pdrecord -c 0 -a
expect_fail 2 "bad process id 'abc'" pdrecord -p abc
expect_fail 2 "bad process id '1x'" pdrecord -t 1x
n=$(getconf _NPROCESSORS_CONF)
expect_fail 2 "cpu $n is not online" pdrecord -C "$n" -- true

# Above the kernel's maximum, -F is lowered to it with one warning, as
# perf 6.1 does, and the attr says the maximum.
if [ "$(id -u)" = 0 ]; then
	max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
	pdrecord -e cpu-clock -F $((max * 2)) -- true > f.data 2> err.txt ||
		fail "-F $((max * 2)): exit $?: $(cat err.txt)"
	grep -q "above the maximum of $max Hz" err.txt ||
		fail "-F $((max * 2)): $(cat err.txt)"
	pddump -t ATTR f.data | grep -q "sample_period=$max " ||
		fail "-F $((max * 2)): not lowered: $(pddump -t ATTR f.data)"
fi
