/* SPDX-License-Identifier: MIT */
/*
 * Perf's user register numbering -> DWARF register numbers. The perf
 * numbers are the kernel's uapi (arch/x86/include/uapi/asm/perf_regs.h,
 * arch/arm64/include/uapi/asm/perf_regs.h); the DWARF numbers are the
 * psABIs' (x86-64 psABI 3.6.2, i386 SysV ABI, AAPCS64 DWARF).
 */
#include "libcommon/sym/perfregs.h"

#include <elf.h>
#include <string.h>

#include "libcommon/stream/perf.h"

/* x86 (both ABIs share the perf numbering; R8..R15 only exist in 64). */
enum {
	X86_AX, X86_BX, X86_CX, X86_DX, X86_SI, X86_DI, X86_BP, X86_SP,
	X86_IP, X86_FLAGS, X86_CS, X86_SS, X86_DS, X86_ES, X86_FS, X86_GS,
	X86_R8, X86_R9, X86_R10, X86_R11, X86_R12, X86_R13, X86_R14, X86_R15
};

/* arm64: X0..X30 are 0..30 (X29 the frame pointer, X30 the LR). */
#define ARM64_SP	31
#define ARM64_PC	32

struct regmap {
	int		 ndw;		/* DWARF registers the unwinder takes */
	unsigned	 ip, sp;	/* perf numbers of pc and sp */
	int		 dwarf_of_ip;	/* the DWARF column holding the pc; -1 */
	signed char	 dw[64];	/* perf number -> DWARF number, or -1 */
};

/*
 * Written as "DWARF number d holds perf register p", the way the ABIs
 * list them; turned into perf-indexed tables once.
 */
static const unsigned char x86_64_dw2perf[17] = {
	X86_AX, X86_DX, X86_CX, X86_BX, X86_SI, X86_DI, X86_BP, X86_SP,
	X86_R8, X86_R9, X86_R10, X86_R11, X86_R12, X86_R13, X86_R14, X86_R15,
	X86_IP,		/* 16: the return address column is the pc */
};
static const unsigned char i386_dw2perf[9] = {
	X86_AX, X86_CX, X86_DX, X86_BX, X86_SP, X86_BP, X86_SI, X86_DI,
	X86_IP,		/* 8: eip, the return address column */
};

static void
build(struct regmap *m, const unsigned char *dw2perf, int n)
{
	int d;

	memset(m->dw, -1, sizeof(m->dw));
	for (d = 0; d < n; d++)
		m->dw[dw2perf[d]] = (signed char)d;
	m->ndw = n;
}

static const struct regmap *
regmap(int arch)
{
	static struct regmap x86_64, i386, arm64;
	static int done;
	int i;

	if (!done) {
		build(&x86_64, x86_64_dw2perf, 17);
		x86_64.ip = X86_IP;
		x86_64.sp = X86_SP;
		x86_64.dwarf_of_ip = 16;
		build(&i386, i386_dw2perf, 9);
		i386.ip = X86_IP;
		i386.sp = X86_SP;
		i386.dwarf_of_ip = 8;
		memset(arm64.dw, -1, sizeof(arm64.dw));
		for (i = 0; i <= ARM64_SP; i++)
			arm64.dw[i] = (signed char)i;
		arm64.ndw = 32;
		arm64.ip = ARM64_PC;
		arm64.sp = ARM64_SP;
		arm64.dwarf_of_ip = -1;
		done = 1;
	}
	switch (arch) {
	case PD_REGS_X86_64:
		return &x86_64;
	case PD_REGS_I386:
		return &i386;
	case PD_REGS_ARM64:
		return &arm64;
	}
	return NULL;
}

int
pd_regs_arch(const char *arch, uint64_t abi, uint64_t mask)
{
	int x86;

	if (abi != PERF_SAMPLE_REGS_ABI_32 && abi != PERF_SAMPLE_REGS_ABI_64)
		return PD_REGS_NONE;
	if (arch != NULL && *arch != '\0') {
		if (strcmp(arch, "aarch64") == 0 || strcmp(arch, "arm64") == 0)
			return abi == PERF_SAMPLE_REGS_ABI_64 ?
			    PD_REGS_ARM64 : PD_REGS_NONE;
		x86 = strcmp(arch, "x86_64") == 0 || strcmp(arch, "amd64") == 0 ||
		    (arch[0] == 'i' && strcmp(arch + 2, "86") == 0);
		if (!x86)
			return PD_REGS_NONE;
	} else {
		/*
		 * No arch named: arm64 samples have the pc at bit 32 (perf's
		 * mask is bits 0-32), x86 ones never set a bit above 23.
		 */
		if (mask >> 32 & 1)
			return abi == PERF_SAMPLE_REGS_ABI_64 ?
			    PD_REGS_ARM64 : PD_REGS_NONE;
		if (mask >> 24 != 0)
			return PD_REGS_NONE;
	}
	return abi == PERF_SAMPLE_REGS_ABI_64 ? PD_REGS_X86_64 : PD_REGS_I386;
}

int
pd_regs_elf_machine(int arch)
{
	switch (arch) {
	case PD_REGS_X86_64:
		return EM_X86_64;
	case PD_REGS_I386:
		return EM_386;
	case PD_REGS_ARM64:
		return EM_AARCH64;
	}
	return 0;
}

int
pd_regs_dwarf(int arch, uint64_t mask, const unsigned char *regs,
    unsigned nr, uint64_t *dw, uint64_t *valid, unsigned *ndw,
    uint64_t *ip, uint64_t *sp)
{
	const struct regmap *m;
	unsigned b, i = 0;
	int have_ip = 0, have_sp = 0;
	uint64_t v;

	*valid = 0;
	*ndw = 0;
	memset(dw, 0, PD_REGS_DWARF_MAX * sizeof(*dw));
	if ((m = regmap(arch)) == NULL || regs == NULL)
		return -1;
	for (b = 0; b < 64 && i < nr; b++) {
		if (!(mask >> b & 1))
			continue;
		v = pd_get_u64(regs + 8 * (size_t)i++);
		/* A 32-bit task's registers are 32 bits wide. */
		if (arch == PD_REGS_I386)
			v &= 0xffffffff;
		if (b == m->ip) {
			*ip = v;
			have_ip = 1;
		}
		if (b == m->sp) {
			*sp = v;
			have_sp = 1;
		}
		if (m->dw[b] >= 0) {
			dw[m->dw[b]] = v;
			*valid |= 1ULL << m->dw[b];
		}
	}
	*ndw = m->ndw;
	return have_ip && have_sp ? 0 : -1;
}

int
pd_regs_dwarf_set_pc_sp(int arch, uint64_t *dw, uint64_t *valid,
    uint64_t pc, uint64_t sp)
{
	const struct regmap *m;
	int dsp;

	if ((m = regmap(arch)) == NULL || m->dwarf_of_ip < 0 ||
	    (dsp = m->dw[m->sp]) < 0)
		return -1;
	dw[m->dwarf_of_ip] = pc;
	dw[dsp] = sp;
	*valid |= 1ULL << m->dwarf_of_ip | 1ULL << dsp;
	return 0;
}
