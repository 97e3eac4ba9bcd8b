# SPDX-License-Identifier: MIT
# C++ names: pddump -s demangles them as perf script does (libiberty,
# without parameters): namespaces, templates, overloads, operators,
# constructors and lambdas, for the ip and every callchain entry.
. "$PD_TOP/tests/cli/lib.sh"
need_perf
need_root
command -v python3 >/dev/null || skip "no python3"
cxx=
for c in clang++ g++; do
	command -v $c >/dev/null 2>&1 && { cxx=$c; break; }
done
[ -n "$cxx" ] || skip "no C++ compiler"

# No C++ library is used, so the C driver links it.
cat > t.cc <<'EOC'
static volatile unsigned long sink;
namespace ns {
struct W {
	W(int n);
	int operator()(int n) const;
	static void spin(int n);
	static void spin(long n);
};
}
__attribute__((noinline)) void ns::W::spin(int n)
{
	for (long i = 0; i < n * 300000L; i++)
		sink += i;
}
__attribute__((noinline)) void ns::W::spin(long n) { spin((int)n); }
__attribute__((noinline)) ns::W::W(int n) { spin(n); }
__attribute__((noinline)) int ns::W::operator()(int n) const
{
	spin((long)n);
	return n;
}
template <typename T> __attribute__((noinline)) void hot(T n)
{
	ns::W w(n);
	w(n);
}
int main()
{
	auto f = [](int n) __attribute__((noinline)) { hot<long>(n); };
	for (int i = 0; i < 400; i++)
		f(1);
	return 0;
}
EOC
$cxx -O1 -g -fno-omit-frame-pointer -fno-exceptions -fno-rtti -c t.cc \
    -o t.o 2> cc.err || skip "$cxx: $(head -n 3 cc.err)"
cc -o t t.o 2> cc.err || fail "link: $(cat cc.err)"

perf record -g -o - -- ./t > t.pd 2> rec.err || fail "perf record: $(cat rec.err)"
perf script -i - --ns -F comm,tid,time,ip,sym,symoff,dso < t.pd > t.perf \
    2> script.err || fail "perf script: $(cat script.err)"
pddump -s --json -t SAMPLE t.pd > t.json 2> t.notes || fail "pddump -s"
python3 "$PD_TOP/tests/cli/sym/symcmp.py" t.json t.perf > t.cmp ||
	fail "pddump -s and perf script differ: $(cat t.cmp)"
cat t.cmp
# Demangled, as perf shows them; never the mangled names.
for want in 'ns::W::spin' 'ns::W::W' 'ns::W::operator()' 'hot<long>'; do
	grep -qF "\"sym\":\"$want\"" t.json || fail "no $want in: $(grep -o '"sym":"[^"]*"' t.json | sort -u | head)"
done
# The lambda: main::{lambda(int)#1} from g++, main::$_0 from clang++.
grep -q '"sym":"main::[^"]*::operator()"' t.json || fail "no lambda"
! grep -q '"sym":"_Z' t.json || fail "a mangled name: $(grep -o '"sym":"_Z[^"]*"' t.json | head -3)"
# pprof: each function's name demangled, its system_name the file's.
pdstat --pprof t.pb.gz t.pd > /dev/null 2>&1 || fail "pdstat --pprof"
export PYTHONPATH="$PD_TOP/tests/cli/export"	# pb.py
python3 - t.pb.gz <<'EOP' || fail "pprof names"
import sys
from pb import fields, profile
b = profile(sys.argv[1])
strings, funcs = [], []
for f, v in fields(b):
    if f == 6:
        strings.append(v.decode())
    elif f == 5:
        d = dict((k, x) for k, x in fields(v) if k in (2, 3))
        funcs.append((d.get(2, 0), d.get(3, 0)))
pairs = [(strings[n], strings[s]) for n, s in funcs]
spin = [s for n, s in pairs if n == "ns::W::spin"]
if not spin or not spin[0].startswith("_ZN2ns1W4spin"):
    sys.exit("FAIL: ns::W::spin's system_name: %s" % spin)
if any(n.startswith("_Z") for n, s in pairs):
    sys.exit("FAIL: a mangled name")
print("pprof: ns::W::spin is %s in the file" % spin[0])
EOP
