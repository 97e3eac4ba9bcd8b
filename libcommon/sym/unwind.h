/* SPDX-License-Identifier: MIT */
/*
 * DWARF unwinding of samples recorded with `--call-graph dwarf`
 * (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER) through libdwfl's
 * unwinder: the sample's user registers start the walk, its stack copy
 * and the mapped ELF files are the memory it reads, the files' CFI
 * (.eh_frame, else .debug_frame) says how each frame was built.
 *
 * One libdwfl session per address space (pid), kept while its maps stay
 * as they are and updated when the symbolizer's map generation changes,
 * so each file's CFI is parsed once, not per sample. At most
 * PD_UNWIND_SPACES address spaces are kept (least recently used goes):
 * libdwfl holds each module's file open, and 16 processes of some 30
 * files each stay well under the usual limit of 1024 descriptors.
 */
#ifndef PD_UNWIND_H
#define PD_UNWIND_H

#include <stddef.h>
#include <stdint.h>

struct pd_frame;
struct pd_rec;
struct pd_sample;
struct pd_syms;

#define PD_UNWIND_SPACES	16
/* perf's default --max-stack (sysctl kernel.perf_event_max_stack). */
#define PD_UNWIND_MAX		127

struct pd_unwind;

/*
 * A new unwinder over `syms` (which tracks the processes and maps; it
 * must outlive the unwinder), or NULL when out of memory.
 */
struct pd_unwind	*pd_unwind_new(struct pd_syms *syms);

/* Ends every libdwfl session. NULL is fine. */
void		 pd_unwind_free(struct pd_unwind *);

/*
 * The header facts it needs (the arch, from HEADER_FEATURE); call it for
 * every record in stream order, it ignores the rest.
 */
void	pd_unwind_record(struct pd_unwind *, const struct pd_rec *);

/*
 * The user frames of a parsed sample, innermost first, into ips[0..max):
 * the sampled user pc, then each caller's return address minus 1 (so it
 * names the call, as perf does). Returns the count: 0 when the sample
 * has no usable user registers or stack (abi NONE, unknown arch, no pc
 * or sp, no stack copy or a dyn_size of 0), 1
 * when the walk could not go past the first frame (no ELF file for it,
 * no CFI). The walk stops at a frame whose pc is in
 * no mapped file and never reads memory outside the sample's stack copy
 * and the mapped files, so any bytes are safe to give it.
 */
size_t	pd_unwind_sample(struct pd_unwind *, const struct pd_sample *,
	    uint64_t *ips, size_t max);

/*
 * The callchain perf script prints for a sample, as pd_sample_frames()
 * frames (symbols.h): for a sample with REGS_USER and STACK_USER, its
 * recorded callchain (the kernel's part under --call-graph dwarf), then
 * the unwound user frames (cpumode USER); for any other sample, or when
 * both come out empty, what pd_sample_frames() gives. Returns the count
 * stored (<= max).
 */
size_t	pd_unwind_frames(struct pd_unwind *, const struct pd_sample *,
	    uint16_t misc, struct pd_frame *out, size_t max);

/*
 * Of the samples pd_unwind_frames() was given that carry user registers
 * and a stack copy: how many, and how many of them could not be unwound
 * past their first user frame (no file or no CFI for it, registers of
 * another architecture, an empty stack copy), for a tool's note.
 */
void	pd_unwind_counts(const struct pd_unwind *, uint64_t *tried,
	    uint64_t *failed);

#endif /* PD_UNWIND_H */
