# SPDX-License-Identifier: MIT
# A bad record ends the run with one error line and exit 1, after every
# record before it, queued ones included, was written.
. "$PD_TOP/tests/cli/lib.sh"
d=$PD_TOP/tests/cli/pdsort
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
command -v $PY >/dev/null || skip "no python3"
$PY "$d/gen.py" stream 3 > full.data
# The first 3000 records, then a header claiming 4 bytes.
$PY - <<'PY'
import struct
d = open('full.data', 'rb').read()
pos = 16
for _ in range(3000):
    pos += struct.unpack_from('<H', d, pos + 6)[0]
open('good.data', 'wb').write(d[:pos])
open('bad.data', 'wb').write(d[:pos] + struct.pack('<IHH', 9, 0, 4) + bytes(8))
open('cut.data', 'wb').write(d[:pos] + d[pos:pos + 20])
PY
off=$(printf '0x%x' $(wc -c < good.data))
$PY "$d/gen.py" model good.data want.data > /dev/null
$PY "$d/check.py" rounds want.data | grep -qv '^0$' ||
	fail "the fixture queues nothing"
expect_fail 1 "pdsort: bad.data: offset $off: record size 4 < 8" \
	pdsort bad.data
cmp -s want.data out.bin || fail "bad.data: queued records were not written"
expect_fail 1 "pdsort: <stdin>: offset $off:" sh -c 'pdsort < cut.data'
cmp -s want.data out.bin || fail "cut.data: queued records were not written"
exit 0
