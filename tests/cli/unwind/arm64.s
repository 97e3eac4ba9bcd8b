// SPDX-License-Identifier: MIT
// The aarch64 workload for unwind/arm64.sh, built with clang and ld.lld
// for aarch64 and never run: main -> a -> b -> c, each with the usual
// frame record (stp x29, x30, [sp, #-16]!) described by CFI, so the
// stack a sample in c would copy is known word by word: at sp + 16 * k
// + 8 the return address into the k-th caller, 8 bytes past its start.
	.text
	.globl	c
	.type	c, %function
c:	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
1:	add	x0, x0, #1		// the sample's pc: c + 4
	b	1b
	.cfi_endproc
	.size	c, .-c

	.globl	b
	.type	b, %function
b:	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	bl	c
	ldp	x29, x30, [sp], #16
	ret
	.cfi_endproc
	.size	b, .-b

	.globl	a
	.type	a, %function
a:	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	bl	b
	ldp	x29, x30, [sp], #16
	ret
	.cfi_endproc
	.size	a, .-a

	.globl	main
	.type	main, %function
main:	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	bl	a
	ldp	x29, x30, [sp], #16
	ret
	.cfi_endproc
	.size	main, .-main
