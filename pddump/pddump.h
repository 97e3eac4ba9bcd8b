/* SPDX-License-Identifier: MIT */
/*
 * pddump's parts: the main loop (pddump.c) hands each record to the
 * printers (print.c: text and JSON, output only; the decoding is
 * libcommon/stream/decode.h's) or to the stack folder (fold.c).
 */
#ifndef PDDUMP_PDDUMP_H
#define PDDUMP_PDDUMP_H

#include <stdint.h>

#include "libcommon/sym/symbols.h"

struct evlines;
struct symtexts;
struct pd_evlist;
struct pd_evsel;
struct pd_fold;
struct pd_offcpu;
struct pd_reader;
struct pd_rec;
struct pd_sample;
struct pd_symq;
struct pd_symq_res;
struct pd_tptext;
struct pd_unwind;

/* Which frames -s follows with the functions inlined at them. */
enum {
	INL_NONE,		/* --no-inline */
	INL_UNWOUND,		/* DWARF-unwound stacks: perf script's way */
	INL_ALL			/* --inline: every callchain */
};

struct dumper {
	int			 json, hex, syms;
	unsigned		 sym_bad;	/* records -s could not use */
	struct pd_syms_opts	 sopts;
	struct pd_syms		*sy;
	struct pd_fold		*fold;		/* --folded */
	int			 by_period;	/* --folded=period */
	struct pd_offcpu	*offcpu;	/* --folded=offcpu */
	uint64_t		 offcpu_min;	/* --offcpu-min, ns */
	uint64_t		 fold_bad;	/* samples it could not read */
	uint64_t		 fold_bad_off;	/* the first one's offset */
	const char		*fold_bad_why;
	struct pd_symq		*sq;
	const struct pd_symq_res *res;	/* the current sample's names */
	int			 unwind;	/* --unwind */
	struct pd_unwind	*uw;
	int			 inl;		/* INL_*: inlined frames */
	int			 srcline;	/* --srcline */
	int			 filter;
	uint64_t		 want[4];	/* types 0..255 */
	struct pd_tptext	*tptext;	/* NULL: --raw */
	struct pd_reader	*rd;
	struct pd_evlist	*el;
	struct evlines		*lines;		/* evline.c's, by event */
	struct symtexts		*symtexts;	/* symtext.c's */
};

/* print.c: one record, its line (text) or object (JSON), whole. */
void	print_rec(struct dumper *, const struct pd_rec *rec);
/* -s: a sample's comm, symbol and named callchain (d->res). */
void	print_sample_syms(struct dumper *, int has_tid, int has_callchain);
/* The symbolizer's notes, each a warning. */
void	print_notes(struct dumper *);

/*
 * evline.c: a sample whose event samples only head fields and a
 * callchain, printed from its event's line, made once (print.c's text
 * or JSON, byte for byte). 1 printed; 0 not (print it with the visitor).
 */
int	evline_sample(struct dumper *, const struct pd_rec *rec);
void	evline_free(struct dumper *);

/*
 * symtext.c: -s text's "sym+0xoff (dso)" from its symbol's and file's
 * text, made once. 1 printed; 0 not (print it the long way).
 */
int	symtext_put(struct dumper *, const struct pd_symres *r);
void	symtext_free(struct dumper *);

/* fold.c: --folded. */
void	fold_sample(void *ctx, const struct pd_evsel *ev,
	    const struct pd_rec *rec, const struct pd_sample *s);
void	fold_print(struct dumper *);

#endif /* PDDUMP_PDDUMP_H */
