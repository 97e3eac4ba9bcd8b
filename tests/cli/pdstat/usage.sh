# SPDX-License-Identifier: MIT
# Options: help, version, bad options.
. "$PD_TOP/tests/cli/lib.sh"

pdstat -h > out.txt || fail "-h: exit $?"
grep -q '^usage: pdstat \[-pv\] \[--json\] \[--flamegraph file.svg\]$' out.txt ||
	fail "-h: usage"
grep -q -- '--pass' out.txt || fail "-h: options"
grep -q -- '--build-ids' out.txt || fail "-h: --build-ids"
pdstat --build-ids --top 3 < /dev/null > /dev/null 2>&1
[ $? -eq 2 ] || fail "--build-ids --top: not exit 2"
pdstat --help | cmp - out.txt || fail "--help differs from -h"
pdstat --version | grep -q '^pdstat (pdtools) ' || fail "--version"
pdstat -x < /dev/null > out.txt 2> err.txt
[ $? -eq 2 ] || fail "-x: not exit 2"
grep -q '^usage: pdstat' err.txt || fail "-x: no usage line on stderr"
[ -s out.txt ] && fail "-x: wrote to stdout"
exit 0
