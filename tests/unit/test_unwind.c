/* SPDX-License-Identifier: MIT */
/*
 * The DWARF unwinder on a real stack: this program's own. It takes its
 * registers and 8 KiB of its stack at a known point (main -> outer ->
 * inner -> snap), as the kernel would for PERF_SAMPLE_REGS_USER and
 * STACK_USER, describes its maps through the symbolizer (the MMAP2
 * records pdrecord would synthesize), and checks that the walk names
 * snap, inner, outer and main in that order. Then it feeds the unwinder
 * garbage (random registers and stack words, short copies, registers
 * missing) for crashes and out-of-bounds reads (ASan under SANITIZE=1).
 */
#include "libcommon/sym/unwind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/symbols.h"
#include "libcommon/rec/synth.h"
#include "tests/unit/t.h"

#define STACK	8192

static uint64_t regs[20];		/* perf x86 order, mask 0xff0fff */
static unsigned char stack[STACK];
static volatile int sink;

#if defined(__x86_64__)
/*
 * The stack from sp upward, byte by byte: it spans other functions'
 * frames, which the sanitizer would flag for memcpy.
 */
__attribute__((noinline, no_sanitize_address)) static void
copy_stack(uint64_t sp)
{
	const volatile unsigned char *p = (const unsigned char *)sp;
	size_t i;

	for (i = 0; i < STACK; i++)
		stack[i] = p[i];
}

/* rbx rbp rsp rip r12-r15 (what CFI may use); the rest stay 0. */
__attribute__((noinline)) static void
snap(void)
{
	__asm__ volatile(
	    "movq %%rbx, 8(%0)\n\t"
	    "movq %%rbp, 48(%0)\n\t"
	    "movq %%rsp, 56(%0)\n\t"
	    "leaq 0(%%rip), %%rax\n\t"
	    "movq %%rax, 64(%0)\n\t"
	    "movq %%r12, 128(%0)\n\t"
	    "movq %%r13, 136(%0)\n\t"
	    "movq %%r14, 144(%0)\n\t"
	    "movq %%r15, 152(%0)\n\t"
	    : : "r"(regs) : "rax", "memory");
	copy_stack(regs[7]);
}

__attribute__((noinline)) static void
inner(void)
{
	snap();
	sink++;
}

__attribute__((noinline)) static void
outer(void)
{
	inner();
	sink++;
}
#endif

/* Our maps as the symbolizer would learn them from a stream. */
static struct pd_syms *
our_syms(void)
{
	struct pd_syms *sy = pd_syms_new(NULL);
	struct pd_evlist el;
	struct pd_synth b = { 0 };
	struct pd_rec rec;
	size_t off = 0;

	pd_evlist_init(&el);
	if (sy == NULL || pd_synth_process(&b, getpid(), 0, 0, 0) < 0)
		abort();
	while (off + 8 <= b.len) {
		memset(&rec, 0, sizeof(rec));
		rec.data = b.p + off;
		rec.type = pd_get_u32(b.p + off);
		rec.misc = pd_get_u16(b.p + off + 4);
		rec.size = pd_get_u16(b.p + off + 6);
		if (rec.size < 8)
			abort();
		(void)pd_syms_record(sy, &el, &rec);
		off += rec.size;
	}
	pd_synth_free(&b);
	pd_evlist_free(&el);
	return sy;
}

static void
sample_init(struct pd_sample *s, unsigned nregs, uint64_t dyn)
{
	memset(s, 0, sizeof(*s));
	s->type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER |
	    PERF_SAMPLE_STACK_USER;
	s->pid = s->tid = getpid();
	s->ip = regs[8];
	s->regs_user_abi = PERF_SAMPLE_REGS_ABI_64;
	s->regs_user_mask = 0xff0fff;
	s->regs_user_nr = nregs;
	s->regs_user = (const unsigned char *)regs;
	s->stack_size = STACK;
	s->stack_dyn_size = dyn;
	s->stack = stack;
}

static const char *
name_of(struct pd_syms *sy, uint64_t addr)
{
	struct pd_symres r;

	pd_syms_resolve(sy, getpid(), PERF_RECORD_MISC_USER, addr, &r);
	return r.name != NULL ? r.name : "[unknown]";
}

static uint64_t
rnd(void)
{
	return (uint64_t)random() << 33 ^ (uint64_t)random() << 11 ^
	    (uint64_t)random();
}

int
main(void)
{
	volatile unsigned char pad[4 * STACK];	/* room above the frames */
	struct pd_syms *sy;
	struct pd_unwind *u;
	struct pd_sample s;
	struct pd_frame fr[300];
	uint64_t ips[PD_UNWIND_MAX], keep[20];
	unsigned char keepst[STACK];
	size_t n, i, k;
	int round;

	pad[0] = 1;
	sink = pad[0];
	sy = our_syms();
	T((u = pd_unwind_new(sy)) != NULL);
#if defined(__x86_64__)
	outer();
	sample_init(&s, 20, STACK);
	n = pd_unwind_sample(u, &s, ips, PD_UNWIND_MAX);
	T(n >= 4);
	if (n >= 4) {
		T(strcmp(name_of(sy, ips[0]), "snap") == 0);
		T(strcmp(name_of(sy, ips[1]), "inner") == 0);
		T(strcmp(name_of(sy, ips[2]), "outer") == 0);
		T(strcmp(name_of(sy, ips[3]), "main") == 0);
	}
	for (i = 0; i < n && i < 8; i++)
		printf("  frame %zu: %s\n", i, name_of(sy, ips[i]));
	/* The same through pd_unwind_frames, each a user frame. */
	T(pd_unwind_frames(u, &s, PERF_RECORD_MISC_USER, fr, 300) == n);
	T(fr[0].addr == ips[0] && fr[0].cpumode == PERF_RECORD_MISC_USER);
	/* Bounded by max; a second walk (cached Dwfl) gives the same. */
	T(pd_unwind_sample(u, &s, ips, 2) == 2);
	T(strcmp(name_of(sy, ips[1]), "inner") == 0);
	/* A stack copy cut after snap's frame: the walk stops early. */
	sample_init(&s, 20, 16);
	n = pd_unwind_sample(u, &s, ips, PD_UNWIND_MAX);
	T(n >= 1 && n < 4);
	/* Nothing captured: no frame, as in perf. */
	sample_init(&s, 20, 0);
	T(pd_unwind_sample(u, &s, ips, PD_UNWIND_MAX) == 0);
	sample_init(&s, 20, STACK);
	s.regs_user_abi = 0;
	T(pd_unwind_sample(u, &s, ips, PD_UNWIND_MAX) == 0);
	/* The ip not among the registers: no walk. */
	sample_init(&s, 8, STACK);
	T(pd_unwind_sample(u, &s, ips, PD_UNWIND_MAX) == 0);
	/* A pid with no maps: the first frame only. */
	sample_init(&s, 20, STACK);
	s.pid = s.tid = 0x7ffffff0;
	T(pd_unwind_sample(u, &s, ips, PD_UNWIND_MAX) == 1);
#endif
	/* Garbage: random registers, random stack words, random sizes. */
	memcpy(keep, regs, sizeof(keep));
	memcpy(keepst, stack, sizeof(keepst));
	srandom(9);
	for (round = 0; round < 300; round++) {
		memcpy(regs, keep, sizeof(regs));
		memcpy(stack, keepst, sizeof(stack));
		for (k = 0; k < 1 + (size_t)round % 7; k++)
			regs[random() % 20] = round & 1 ? rnd() :
			    keep[random() % 20] + random() % 64;
		for (k = 0; k < (size_t)round % 50; k++) {
			uint64_t v = round & 2 ? rnd() : keep[8] + random() % 4096;

			memcpy(stack + 8 * (random() % (STACK / 8)), &v, 8);
		}
		sample_init(&s, random() % 21, random() % (STACK + 1));
		if (round % 5 == 0)
			s.regs_user_mask = rnd();
		/* A 32-bit task's registers, in a 64-bit process's maps. */
		if (round % 3 == 0)
			s.regs_user_abi = PERF_SAMPLE_REGS_ABI_32;
		n = pd_unwind_sample(u, &s, ips, 1 + random() % PD_UNWIND_MAX);
		T(n <= PD_UNWIND_MAX);
	}
	pd_unwind_free(u);
	pd_syms_free(sy);
	return T_END();
}
