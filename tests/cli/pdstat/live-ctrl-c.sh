# SPDX-License-Identifier: MIT
# Ctrl-C typed at a terminal under `pdrecord | pdstat -p`: the status
# line ends with a newline, so that pdrecord's closing summary starts on
# a line of its own, and pdstat then prints its summary of every record.
# A pseudo-terminal (python3's pty) sends the real ^C to the pipeline.
. "$PD_TOP/tests/cli/lib.sh"
need_root
need_perf
cat > ctrlc_pty.py <<'PY'
import os, pty, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c",
        "trap : INT; pdrecord -a | pdstat -p > out.data 2> /dev/tty; echo rc=$?"])
out = b""
import select
def pump(secs):
    global out
    end = time.time() + secs
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                b = os.read(fd, 65536)
            except OSError:
                return
            if not b:
                return
            out += b
pump(3)
os.write(fd, b"\x03")
pump(20)
os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
PY
timeout 60 python3 ctrlc_pty.py > tty.txt 2>&1 || fail "pty: $(cat tty.txt)"
# Line by line, without the clear-to-end-of-line sequences.
tr '\r' '\n' < tty.txt | sed "s/$(printf '\033')\[K//g" > lines.txt
grep -q 'records/s' lines.txt || fail "no status line: $(cat lines.txt)"
# pdrecord's summary begins a line: after a newline or a carriage return
# and a clear, never after status text.
grep -Eq '^pdrecord: [0-9]+ bytes, [0-9]+ samples' lines.txt ||
	fail "pdrecord's summary glued to the status line: $(cat -v tty.txt)"
grep -q 'records/s.*pdrecord:' lines.txt &&
	fail "pdrecord's summary glued to the status line: $(cat -v tty.txt)"
grep -q '^rc=0' lines.txt || fail "pdstat did not end normally: $(cat -v tty.txt)"
n=$(sed -n 's/^pdrecord: [0-9]* bytes, \([0-9]*\) samples.*/\1/p' lines.txt)
grep -Eq "^ *SAMPLE +$n " lines.txt || fail "pdstat's summary lacks the $n samples: $(cat lines.txt)"
exit 0
