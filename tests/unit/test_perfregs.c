/* SPDX-License-Identifier: MIT */
/*
 * Sampled user registers as DWARF registers: each arch's perf numbering
 * (asm/perf_regs.h) lands in the psABI's DWARF column, the arch comes
 * from the header string or else the mask, and short or partial
 * register sets never read past what the sample holds.
 */
#include "libcommon/sym/perfregs.h"

#include <stdio.h>
#include <string.h>

#include "tests/unit/t.h"

/* A register's value names its perf number: 0x1000 + n. */
static unsigned char regs[64 * 8];

static unsigned
fill(uint64_t mask)
{
	unsigned b, n = 0;
	uint64_t v;

	for (b = 0; b < 64; b++)
		if (mask >> b & 1) {
			v = 0x1000 + b;
			memcpy(regs + 8 * n++, &v, 8);
		}
	return n;
}

int
main(void)
{
	uint64_t dw[PD_REGS_DWARF_MAX], valid, ip = 0, sp = 0;
	const uint64_t x86 = 0xff0fff, arm = 0x1ffffffffULL;
	unsigned ndw, nr, i;

	/* The arch: named, or told by the mask. */
	T(pd_regs_arch("x86_64", 2, x86) == PD_REGS_X86_64);
	T(pd_regs_arch("x86_64", 1, x86) == PD_REGS_I386);
	T(pd_regs_arch("i686", 1, x86) == PD_REGS_I386);
	T(pd_regs_arch("aarch64", 2, arm) == PD_REGS_ARM64);
	T(pd_regs_arch("arm64", 2, arm) == PD_REGS_ARM64);
	T(pd_regs_arch("aarch64", 1, arm) == PD_REGS_NONE);
	T(pd_regs_arch(NULL, 2, arm) == PD_REGS_ARM64);
	T(pd_regs_arch("", 2, x86) == PD_REGS_X86_64);
	T(pd_regs_arch(NULL, 2, 1ULL << 40) == PD_REGS_NONE);
	T(pd_regs_arch("x86_64", 0, x86) == PD_REGS_NONE);
	T(pd_regs_arch("ppc64le", 2, x86) == PD_REGS_NONE);
	T(pd_regs_elf_machine(PD_REGS_X86_64) == 62);
	T(pd_regs_elf_machine(PD_REGS_ARM64) == 183);
	T(pd_regs_elf_machine(PD_REGS_NONE) == 0);

	/* x86-64: DWARF 0-16 are rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip. */
	nr = fill(x86);
	T(nr == 20);
	T(pd_regs_dwarf(PD_REGS_X86_64, x86, regs, nr, dw, &valid, &ndw,
	    &ip, &sp) == 0);
	T(ndw == 17 && valid == 0x1ffff);
	T(dw[0] == 0x1000 && dw[1] == 0x1003 && dw[2] == 0x1002);
	T(dw[3] == 0x1001 && dw[4] == 0x1004 && dw[5] == 0x1005);
	T(dw[6] == 0x1006 && dw[7] == 0x1007);
	for (i = 8; i < 16; i++)
		T(dw[i] == 0x1000 + 16 + (i - 8));
	T(dw[16] == 0x1008);
	T(ip == 0x1008 && sp == 0x1007);

	/* i386: eax ecx edx ebx esp ebp esi edi eip, 32 bits wide. */
	T(pd_regs_dwarf(PD_REGS_I386, x86, regs, nr, dw, &valid, &ndw,
	    &ip, &sp) == 0);
	T(ndw == 9 && valid == 0x1ff);
	T(dw[1] == 0x1002 && dw[2] == 0x1003 && dw[3] == 0x1001);
	T(dw[4] == 0x1007 && dw[5] == 0x1006 && dw[8] == 0x1008);

	/* arm64: x0-x30 and sp are DWARF 0-31; the pc stands apart. */
	nr = fill(arm);
	T(pd_regs_dwarf(PD_REGS_ARM64, arm, regs, nr, dw, &valid, &ndw,
	    &ip, &sp) == 0);
	T(ndw == 32 && valid == 0xffffffffULL);
	T(dw[0] == 0x1000 && dw[29] == 0x1000 + 29 && dw[30] == 0x1000 + 30);
	T(dw[31] == 0x1000 + 31);
	T(ip == 0x1000 + 32 && sp == 0x1000 + 31);

	/* Fewer registers than the mask: only those are read; no ip, -1. */
	nr = fill(x86);
	T(pd_regs_dwarf(PD_REGS_X86_64, x86, regs, 8, dw, &valid, &ndw,
	    &ip, &sp) == -1);
	T(valid == 0xff);
	/* A mask without the sp: no walk can start. */
	nr = fill(x86 & ~0x80ULL);
	T(pd_regs_dwarf(PD_REGS_X86_64, x86 & ~0x80ULL, regs, nr, dw, &valid,
	    &ndw, &ip, &sp) == -1);
	/* Unknown arch, no regs. */
	T(pd_regs_dwarf(PD_REGS_NONE, x86, regs, nr, dw, &valid, &ndw,
	    &ip, &sp) == -1);
	T(pd_regs_dwarf(PD_REGS_X86_64, x86, NULL, 0, dw, &valid, &ndw,
	    &ip, &sp) == -1);
	return T_END();
}
