# SPDX-License-Identifier: MIT
# The human summary of a small stream, line for line.
. "$PD_TOP/tests/cli/lib.sh"
. "$PD_TOP/tests/cli/pdstat/fixture.sub"

fixture > in.data
pdstat in.data > out.txt 2> err.txt || fail "exit $?: $(cat err.txt)"
[ -s err.txt ] && fail "stderr: $(cat err.txt)"
cat > want.txt <<'END'
in.data: pipe stream, 596 bytes
  hostname      fixture-host

              record        count                    bytes
                LOST            1  (  7.7%)             24
                COMM            2  ( 15.4%)             48
            THROTTLE            1  (  7.7%)             32
          UNTHROTTLE            1  (  7.7%)             32
              SAMPLE            4  ( 30.8%)            192
        LOST_SAMPLES            1  (  7.7%)             16
                ATTR            1  (  7.7%)            144
      FINISHED_ROUND            1  (  7.7%)              8
             FEATURE            1  (  7.7%)             84
               TOTAL           13                      580

event                                 samples               period         lost
cpu-clock                                   4                 4000           10

lost          7 events in 1 LOST records
lost samples  3 in 1 LOST_SAMPLES records
throttle      1 THROTTLE, 1 UNTHROTTLE
time          1.000000000 .. 3.500000000, span 2.500000 s

   cpu      samples
     0            2
     1            2

     pid      samples  comm
     100            3  busy
     200            1  idle

comm                  samples
busy                        3
idle                        1
END
diff -u want.txt out.txt || fail "summary differs"

# The same from standard input, named <stdin>; and two inputs give two
# summaries, in order.
pdstat < in.data | head -n 1 | grep -qx '<stdin>: pipe stream, 596 bytes' ||
	fail "stdin not named <stdin>"
cp in.data b.data
pdstat in.data b.data > two.txt || fail "two inputs: exit $?"
[ "$(grep -c 'pipe stream, 596 bytes' two.txt)" = 2 ] ||
	fail "two inputs: not two summaries"
grep -n 'pipe stream' two.txt | tail -n 1 | grep -q 'b.data' ||
	fail "two inputs: out of order"
exit 0
