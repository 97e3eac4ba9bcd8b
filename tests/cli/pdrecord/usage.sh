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
