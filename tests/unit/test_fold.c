/* SPDX-License-Identifier: MIT */
/*
 * Frame names as stackcollapse-perf.pl --all writes them, case by case
 * (its documented rules), and the comm's spaces.
 */
#include <stdio.h>
#include <string.h>

#include "libcommon/sym/fold.h"
#include "libcommon/sym/stacks.h"
#include "libcommon/sym/symbols.h"
#include "tests/unit/t.h"

/* The frames of one name joined with ';', as they reach a stack. */
static const char *
fold(const char *name, const char *dso, int java)
{
	static char out[512];
	char buf[256];
	ssize_t n, i;
	size_t o = 0, p = 0;

	n = pd_fold_frame(name, dso, java, buf, sizeof(buf));
	if (n < 0)
		return "ERROR";
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		o += snprintf(out + o, sizeof(out) - o, "%s%s", i ? ";" : "",
		    buf + p);
		p += strlen(buf + p) + 1;
	}
	return out;
}

#define F(want, name, dso)	T(strcmp(fold((name), (dso), 0), (want)) == 0)

/* Stack i of the fold's stacks, sorted by text, joined with ';'. */
static const char *
stack(struct pd_fold *f, size_t i, uint64_t *count, uint64_t *period)
{
	static char out[512];
	struct pd_stacks *st = pd_fold_stacks(f);
	struct pd_stack s;
	size_t k, o = 0;

	T(pd_stacks_sort(st, PD_STACKS_BY_TEXT) == 0);
	pd_stacks_get(st, i, &s);
	for (k = 0; k < s.n; k++)
		o += snprintf(out + o, sizeof(out) - o, "%s%s", k ? ";" : "",
		    pd_stacks_name(st, s.ids[k], NULL));
	*count = s.count;
	*period = s.period;
	return out;
}

/* pd_fold_add: names as a symbolizer gives them, innermost first. */
static void
adding(void)
{
	struct pd_fold *f = pd_fold_new();
	static const char prog[] = "/tmp/prog", kk[] = "[kernel.kallsyms]";
	struct pd_symres r[3] = {
		{ .name = "hot", .off = 4, .dso = prog },
		{ .name = "a", .off = 8, .dso = prog },
		{ .name = NULL, .dso = prog },
	};
	struct pd_symres k[1] = {
		{ .name = "do_syscall_64", .dso = kk, .kernel = 1 }
	};
	uint64_t c, p;

	T(f != NULL);
	T(pd_fold_add(f, "cycles", "my prog", 7, r, 3, 100) == 1);
	T(pd_fold_add(f, "cycles", "my prog", 7, r, 3, 50) == 1);
	T(pd_fold_add(f, "instructions", "my prog", 7, r, 3, 9) == 0);
	T(pd_fold_add(f, "cycles", NULL, 0, k, 1, 1) == 1);
	T(pd_fold_add(f, "cycles", NULL, 42, k, 1, 1) == 1);
	T(pd_fold_add(f, "cycles", NULL, (uint32_t)-1, r, 0, 1) == 1);
	T(pd_fold_add(f, "cycles", "java", 1, r, 1, 1) == 1);
	T(strcmp(pd_fold_event(f), "cycles") == 0);
	T(pd_fold_left_out(f) == 1);
	T(pd_stacks_count(pd_fold_stacks(f)) == 5);
	T(strcmp(stack(f, 0, &c, &p), ":-1") == 0 && c == 1);
	T(strcmp(stack(f, 1, &c, &p), ":42;do_syscall_64_[k]") == 0);
	T(strcmp(stack(f, 2, &c, &p), "java;hot") == 0);
	T(strcmp(stack(f, 3, &c, &p), "my_prog;[prog];a;hot") == 0 &&
	    c == 2 && p == 150);
	T(strcmp(stack(f, 4, &c, &p), "swapper;do_syscall_64_[k]") == 0);
	/* Forgetting the strings keeps the stacks. */
	pd_fold_forget(f);
	T(pd_fold_add(f, "cycles", "my prog", 7, r, 3, 1) == 1);
	T(pd_stacks_count(pd_fold_stacks(f)) == 5);
	T(strcmp(stack(f, 3, &c, &p), "my_prog;[prog];a;hot") == 0 &&
	    c == 3 && p == 151);
	pd_fold_free(f);
	pd_fold_free(NULL);
}

int
main(void)
{
	char buf[64];

	adding();

	F("main", "main", "/tmp/prog");
	F("native_safe_halt_[k]", "native_safe_halt", "[kernel.kallsyms]");
	F("tcp_sendmsg_[k]", "tcp_sendmsg", "/lib/modules/6.1/build/vmlinux");
	F("ipv4_conntrack_local_[k]", "ipv4_conntrack_local",
	    "[nf_conntrack_ipv4]");
	F("__vdso_clock_gettime_[k]", "__vdso_clock_gettime", "[vdso]");
	F("[unknown]", NULL, "[unknown]");
	F("[unknown]", "[unknown]", "[unknown]");
	F("[unknown]", NULL, NULL);
	F("[libc.so.6]", NULL, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	/* A deleted file: its name, not stackcollapse-perf.pl's "[unknown] ". */
	F("[memfd:jit]", NULL, "/memfd:jit (deleted)");
	F("[libx.so]", NULL, "/usr/lib/libx.so (deleted)");
	F("[[kernel.kallsyms]]_[k]", NULL, "[kernel.kallsyms]");
	F("foo", "foo(int, char const*)", "/bin/x");
	F("ns::(anonymous namespace)::f", "ns::(anonymous namespace)::f(int)",
	    "/bin/x");
	F("net/http.(*Client).Do", "net/http.(*Client).Do", "/bin/go");
	F("a:b", "a;b", "/bin/x");
	F("operatorx", "operator\"x'", "/bin/x");
	F("RegExp:[&<>]", "RegExp:[&<>\"']", "/tmp/perf-7539.mop");
	F("RegExp:[&<>]_[j]", "RegExp:[&<>\"']", "/tmp/perf-7539.map");
	F("f_[j]", "f", "/home/u/.debug/jit/jitted-123-45.so");
	F("outer;inner_[i]", "outer->inner", "/bin/x");
	F("outer_[k];inner_[i]", "outer->inner", "[kernel.kallsyms]");
	F("outer", "outer->", "/bin/x");
	F("", "(deleted)", "/bin/x");
	F("", "(anonymous namespace)::f", "/bin/x");
	/* Java: "Lpkg/Class;.m(...)" becomes "pkg/Class:.m". */
	T(strcmp(fold("Lorg/mozilla/javascript/MemberBox;.<init>(Ljava/lang/"
	    "reflect/Method;)V", "/tmp/perf-1.map", 1),
	    "org/mozilla/javascript/MemberBox:.<init>_[j]") == 0);
	T(strcmp(fold("Lfoo", "/bin/x", 1), "Lfoo") == 0);
	T(strcmp(fold("Lorg/x;.m", "/bin/x", 0), "Lorg/x:.m") == 0);
	/* Cut to fit, never past the buffer. */
	T(pd_fold_frame("abcdefgh", "[kernel.kallsyms]", 0, buf, 4) == 1 &&
	    strcmp(buf, "abc") == 0);
	T(pd_fold_frame("a->b->c", "/x", 0, buf, 2) == -1);
	T(pd_fold_frame("a->b->c", "/x", 0, buf, 3) == 3);

	T(pd_fold_comm("V8 WorkerThread", buf, sizeof(buf)) == 15 &&
	    strcmp(buf, "V8_WorkerThread") == 0);
	T(pd_fold_comm("abcdef", buf, 4) == 3 && strcmp(buf, "abc") == 0);
	return T_END();
}
