# SPDX-License-Identifier: MIT
# JIT code: samples in an anonymous executable map are named from the
# process's /tmp/perf-PID.map, with that file as their dso, as perf
# script names them (x86-64: the test writes machine code).
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v python3 >/dev/null || skip "no python3"
command -v cc >/dev/null || skip "no C compiler"
[ "$(uname -m)" = x86_64 ] || skip "the test's JIT code is x86-64"

cat > jit.c <<'EOC'
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* mov rcx, 0x08000000; 1: dec rcx; jnz 1b; ret */
static const unsigned char spin[] = {
	0x48, 0xc7, 0xc1, 0x00, 0x00, 0x00, 0x08,
	0x48, 0xff, 0xc9, 0x75, 0xfb, 0xc3
};

int
main(int argc, char **argv)
{
	char path[64];
	unsigned char *code;
	FILE *f;
	int i;

	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return 1;
	memset(code, 0xcc, 4096);
	memcpy(code + 0x40, spin, sizeof(spin));
	if (mprotect(code, 4096, PROT_READ | PROT_EXEC) < 0)
		return 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if ((f = fopen(path, "w")) == NULL)
		return 1;
	fprintf(f, "%lx %x jit_spin\n", (unsigned long)(code + 0x40),
	    (unsigned)sizeof(spin));
	fclose(f);
	for (i = 0; i < (argc > 1 ? 8 : 1); i++)
		((void (*)(void))(code + 0x40))();
	return 0;
}
EOC
# -fno-plt, -z now: no sample in a lazy PLT stub, which perf 6.1 names
# by _init and we by "name@plt".
cc -O1 -fno-plt -Wl,-z,now -o jit jit.c 2> cc.err || fail "cc: $(cat cc.err)"
./jit & pid=$!
wait $pid || fail "jit does not run"
rm -f /tmp/perf-$pid.map

perf record -o - -- ./jit 8 > jit.pd 2> rec.err || fail "perf record: $(cat rec.err)"
pid=$(pddump -t COMM jit.pd | sed -n 's/.*pid=\([0-9]*\).*comm=jit.*/\1/p' | head -n 1)
[ -n "$pid" ] || fail "no COMM of jit"
map=/tmp/perf-$pid.map
[ -f "$map" ] || fail "jit wrote no $map"
perf script -i - --ns -F comm,tid,time,ip,sym,symoff,dso < jit.pd > jit.perf \
    2> script.err || { rm -f "$map"; fail "perf script: $(cat script.err)"; }
pddump -s --json -t SAMPLE jit.pd > jit.json 2> jit.notes ||
	{ rm -f "$map"; fail "pddump -s"; }
# Without the file, the dso is still named, the symbol is not.
mv "$map" map.txt
pddump -s --json -t SAMPLE jit.pd > nomap.json 2>> jit.notes ||
	fail "pddump -s without the map"
python3 "$PD_TOP/tests/cli/sym/symcmp.py" jit.json jit.perf > jit.cmp ||
	fail "pddump -s and perf script differ: $(cat jit.cmp)"
cat jit.cmp
n=$(grep -c "\"sym\":\"jit_spin\",\"symoff\":[0-9]*,\"dso\":\"$map\"" jit.json)
[ "$n" -ge 20 ] || fail "only $n samples in jit_spin ($map)"
grep -q "\"sym\":\"jit_spin\"" nomap.json && fail "a name without the map"
grep -q "\"dso\":\"$map\"" nomap.json || fail "no dso $map without the map"
echo "$n samples in jit_spin"
