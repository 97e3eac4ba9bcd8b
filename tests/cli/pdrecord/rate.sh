# SPDX-License-Identifier: MIT
# -F 1000 over one second of a busy CPU gives 1000 samples, +/- 10%.
# One second of the program's own CPU time: on a shared machine the
# wall time may be longer, and cpu-clock counts only time on the CPU.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdrecord/lib.inc"
need_root
need_perf
build_busy

pdrecord -q -F 1000 -- ./busy 1000 > f.data 2> rec.err || fail "pdrecord: $(cat rec.err)"
n=$(samples < f.data)
echo "$n samples"
[ "${n:-0}" -ge 900 ] && [ "${n:-0}" -le 1100 ] || fail "$n samples, wanted 1000 +/- 100"
