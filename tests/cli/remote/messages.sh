# SPDX-License-Identifier: MIT
# What the remote side says arrives on ssh's stderr, never in the stream,
# through a real sshd (sshd.inc): pdrecord's summary and its errors, and
# the recorded command's own stdout and stderr; ssh returns pdrecord's
# status (the command's). The stream that arrives parses clean.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/remote/sshd.inc"
need_perf
start_sshd

# The words are made by printf, so that they are not in the command
# line, which the stream carries.
$ssh $ssh_host "$PD_BIN/pdrecord -e cpu-clock -- sh -c 'printf \"remote-%s\\n\" said-out; printf \"remote-%s\\n\" said-err >&2; exit 3'" \
    < /dev/null > s.data 2> s.err
rc=$?
[ "$rc" = 3 ] || fail "ssh exit $rc, wanted the command's 3: $(cat s.err)"
grep -qx 'remote-said-out' s.err || fail "the command's stdout is not on ssh's stderr: $(cat s.err)"
grep -qx 'remote-said-err' s.err || fail "the command's stderr is not on ssh's stderr: $(cat s.err)"
sum=$(sed -n 's/^pdrecord: \([0-9]*\) bytes, \([0-9]*\) samples, 0 lost$/\1 \2/p' s.err)
[ -n "$sum" ] || fail "no pdrecord summary on ssh's stderr: $(cat s.err)"
[ "$(wc -l < s.err)" = 3 ] || fail "ssh's stderr: $(cat s.err)"
grep -q 'remote-said\|pdrecord: [0-9]' s.data && fail "a message is in the stream"
set -- $sum
[ "$(wc -c < s.data)" = "$1" ] || fail "the stream has $(wc -c < s.data) bytes, pdrecord wrote $1"
n=$(pdstat s.data 2> stat.err | awk '$1 == "SAMPLE" { print $2; exit }')
[ -s stat.err ] && fail "pdstat: $(cat stat.err)"
[ "${n:-0}" = "$2" ] || fail "pdstat counts ${n:-0} samples, pdrecord wrote $2"
perf script -i s.data > /dev/null 2> script.err || fail "perf script: $(cat script.err)"
[ -s script.err ] && fail "perf script: $(cat script.err)"

# A refusal: one line on ssh's stderr, the usage status, no stream.
$ssh $ssh_host "$PD_BIN/pdrecord -e no-such-event -- true" < /dev/null > r.data 2> r.err
rc=$?
[ "$rc" = 2 ] || fail "refusal: ssh exit $rc, wanted 2: $(cat r.err)"
[ "$(cat r.err)" = "pdrecord: -e no-such-event: unknown event 'no-such-event'" ] ||
	fail "refusal: $(cat r.err)"
[ -s r.data ] && fail "refusal: a stream was written"
exit 0
