/* SPDX-License-Identifier: MIT */
/*
 * Sampled user registers (PERF_SAMPLE_REGS_USER) per architecture: the
 * kernel's perf register numbering (asm/perf_regs.h) and how it maps to
 * the DWARF register numbers an unwinder works with (the psABIs). One
 * format fact, one place.
 */
#ifndef PD_PERFREGS_H
#define PD_PERFREGS_H

#include <stddef.h>
#include <stdint.h>

/* Architectures whose sampled registers we know. */
#define PD_REGS_NONE	0
#define PD_REGS_X86_64	1	/* REGS_ABI_64 on x86 */
#define PD_REGS_I386	2	/* REGS_ABI_32 on x86 (also compat tasks) */
#define PD_REGS_ARM64	3	/* REGS_ABI_64 on arm64 */

/* The most DWARF registers any of them has for unwinding. */
#define PD_REGS_DWARF_MAX	32

/*
 * The architecture of a stream's registers: from the header's arch
 * string (uname -m: "x86_64", "aarch64", "arm64", "i686"; NULL or "" if
 * unknown), the sample's regs abi (1 = 32-bit, 2 = 64-bit) and, when
 * the arch is unknown, the attr's sample_regs_user mask (perf's default
 * masks differ). PD_REGS_NONE when the registers cannot be used.
 */
int	pd_regs_arch(const char *arch, uint64_t abi, uint64_t mask);

/* The ELF e_machine of an architecture's objects (EM_X86_64...), or 0. */
int	pd_regs_elf_machine(int arch);

/*
 * A sample's registers as DWARF registers. `mask`, `regs` and `nr` are
 * the sample's (regs holds nr u64s in mask bit order, unaligned).
 * dw[0..PD_REGS_DWARF_MAX) receives each DWARF register's value and bit r
 * of *valid says whether register r was sampled; *ip and *sp the
 * program counter and stack pointer. *ndw is how many DWARF registers
 * the arch unwinds with (x86_64 17, with the return address column as
 * the pc; i386 9; arm64 32, pc apart). Returns 0, or -1 when the arch is
 * unknown or the ip or sp was not sampled.
 */
int	pd_regs_dwarf(int arch, uint64_t mask, const unsigned char *regs,
	    unsigned nr, uint64_t *dw, uint64_t *valid, unsigned *ndw,
	    uint64_t *ip, uint64_t *sp);

/*
 * Sets pc and sp among the DWARF registers pd_regs_dwarf() gave, for a
 * step an unwinder takes by hand where there is no CFI. Returns 0, or
 * -1 when the arch has no DWARF column for the pc (arm64) or is unknown.
 */
int	pd_regs_dwarf_set_pc_sp(int arch, uint64_t *dw, uint64_t *valid,
	    uint64_t pc, uint64_t sp);

#endif /* PD_PERFREGS_H */
