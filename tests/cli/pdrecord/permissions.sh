# SPDX-License-Identifier: MIT
# What a user who is not root may record, at the perf_event_paranoid
# levels that decide it, as a user this case creates (and removes):
#   2  a command of one's own, user space only (named "cpu-clock:u" as
#      perf names it); :k, -a, another user's process and an unreadable
#      tracefs each fail with one line naming the level needed and the fix;
#      perf fails :k too
#   1  :k records the kernel; -a still fails, naming 0
#   0  -a records
# and as root, whatever the level: :k and -a record.
#
# perf_event_paranoid is the machine's: the case holds a lock on it (the
# file itself, flock(1)) while it changes it, so two runs of this case
# never interleave, and the EXIT trap puts the old value back and removes
# the user however the case ends (a fail, an error, INT or TERM). Tests
# running as root meanwhile are not affected: CAP_PERFMON bypasses it.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
for c in setpriv useradd userdel flock; do
	command -v "$c" >/dev/null 2>&1 || skip "no $c"
done
P=/proc/sys/kernel/perf_event_paranoid
[ -w "$P" ] || skip "$P is not writable here"

# As root, at any level: the kernel only, and every CPU.
pdrecord -q -e cpu-clock:k -- true > k.data 2> err.txt ||
	fail "as root, -e cpu-clock:k: $(cat err.txt)"
pddump -t ATTR k.data | grep -q exclude_user ||
	fail "as root, :k: exclude_user not set"
pddump -t ATTR k.data | grep -q exclude_kernel &&
	fail "as root, :k: the kernel was excluded"
pdrecord -q -a -- true > a.data 2> err.txt ||
	fail "as root, -a: $(cat err.txt)"

# The sanitizer's runtime asks for more than a plain user may have.
[ -z "${PD_SANITIZE:-}" ] || [ "$PD_SANITIZE" != 1 ] ||
	skip "root part passed; the user part runs in the plain build"

exec 9< "$P"
flock 9 || fail "flock $P"
old=$(cat "$P")
user=pdt$$
cleanup() {
	echo "$old" > "$P"
	userdel "$user" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
useradd --system --no-create-home --no-user-group --gid 65534 \
    --shell /usr/sbin/nologin "$user" || skip "useradd $user failed"
uid=$(id -u "$user")
cp "$(command -v pdrecord)" ./pdrecord && chmod 755 . ./pdrecord
mkdir home && chown "$uid" home
asuser() {
	setpriv --reuid="$uid" --regid=65534 --clear-groups \
	    env HOME="$PWD/home" "$@"
}
# The event names of a stream, as its EVENT_DESC has them.
names() {
	perf report --header-only -i - < "$1" 2>/dev/null |
	    sed -n 's/^# event : name = \([^,]*\),.*/\1/p' | tr '\n' ' '
}

echo 2 > "$P"
asuser ./pdrecord -q -e cpu-clock -- /bin/true > u.data 2> err.txt ||
	fail "paranoid 2: exit $?: $(cat err.txt)"
[ -s err.txt ] && fail "paranoid 2: $(cat err.txt)"
pddump -t ATTR u.data | grep -q exclude_kernel ||
	fail "paranoid 2: kernel not excluded"
asuser perf record -q -e cpu-clock -o - -- /bin/true > perf.data 2>/dev/null ||
	fail "paranoid 2: perf record -e cpu-clock"
[ "$(names u.data)" = "$(names perf.data)" ] ||
	fail "paranoid 2: named '$(names u.data)', perf: '$(names perf.data)'"
perf script -i - < u.data > /dev/null 2> perr.txt ||
	fail "perf script: $(cat perr.txt)"
expect_fail 1 'kernel samples need kernel.perf_event_paranoid 1 or less, and it is 2 (sysctl -w kernel.perf_event_paranoid=1' \
    asuser ./pdrecord -q -e cpu-clock:k -- /bin/true
asuser perf record -q -e cpu-clock:k -o - -- /bin/true > /dev/null 2>&1 &&
	fail "paranoid 2: perf records :k, pdrecord refuses it"
expect_fail 1 '-a (all processes on the CPUs) needs kernel.perf_event_paranoid 0 or less, and it is 2' \
    asuser ./pdrecord -q -a -- /bin/true
expect_fail 1 'process 1 belongs to uid 0' \
    asuser ./pdrecord -q -p 1 -- /bin/true
if ! asuser test -r /sys/kernel/tracing/events; then
	expect_fail 1 'tracefs on /sys/kernel/tracing is mounted but not readable' \
	    asuser ./pdrecord -q -e sched:sched_switch -- /bin/true
	expect_fail 1 'mount -o remount,mode=755' \
	    asuser ./pdrecord -q -e 'sched:*' -- /bin/true
fi

echo 1 > "$P"
asuser ./pdrecord -q -e cpu-clock:k -- /bin/true > k.data 2> err.txt ||
	fail "paranoid 1, :k: $(cat err.txt)"
pddump -t ATTR k.data | grep -q exclude_kernel &&
	fail "paranoid 1, :k: the kernel was excluded"
[ "$(names k.data)" = "cpu-clock:k " ] ||
	fail "paranoid 1, :k: named '$(names k.data)'"
expect_fail 1 'needs kernel.perf_event_paranoid 0 or less, and it is 1' \
    asuser ./pdrecord -q -a -- /bin/true

echo 0 > "$P"
asuser ./pdrecord -q -a -- /bin/true > a.data 2> err.txt ||
	fail "paranoid 0, -a: $(cat err.txt)"
perf script -i - < a.data > /dev/null 2> perr.txt ||
	fail "paranoid 0, -a: perf script: $(cat perr.txt)"
echo "root; paranoid 2, 1 and 0 as $user (uid $uid); restored to $old"
