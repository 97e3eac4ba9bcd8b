/* SPDX-License-Identifier: MIT */
/*
 * pdstat --top: the samples of each event grouped by perf report's sort
 * keys (comm, pid, dso, sym, in the order given), as perf report --sort
 * counts them: by period (Overhead), or with --children by the period
 * of the samples whose callchain passes through the row too.
 */
#ifndef PDSTAT_TOP_H
#define PDSTAT_TOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pd_evlist;
struct pd_evsel;
struct pd_rec;
struct pd_sample;
struct pd_syms;
struct pd_unwind;
struct symtop;

/* perf report's sort keys that pdstat knows. */
enum symtop_key {
	SYMTOP_COMM,		/* the comm at the sample's time */
	SYMTOP_PID,		/* perf's "pid": the thread (tid) */
	SYMTOP_DSO,
	SYMTOP_SYM,		/* a symbol, or an unresolved address */
	SYMTOP_NKEYS
};

struct symtop_opts {
	unsigned char	 key[SYMTOP_NKEYS];	/* in sort order */
	size_t		 nkeys;			/* 0: sym */
	int		 children;		/* --children */
	double		 percent_limit;		/* --percent-limit */
	int		 limit_given;		/* percent_limit was given */
	int		 tree;			/* --tree: each row's call graph */
};

/*
 * Parses a --sort list ("comm,dso": perf's names, "symbol" and "tid"
 * too) into o. 0, or -1 with *why saying what is wrong.
 */
int	symtop_parse_sort(struct symtop_opts *o, const char *list,
	    const char **why);

/* 1 when o names no symbol (and draws no tree): files need not be read. */
int	symtop_dso_only(const struct symtop_opts *o);

/* 1 when the table names every frame of a sample (--children, --tree). */
int	symtop_stacks(const struct symtop *);

/* A table keyed as o says (copied). NULL when out of memory. */
struct symtop	*symtop_new(const struct symtop_opts *o);
void		 symtop_free(struct symtop *);

/*
 * A sample of ev, its ip (and with --children its frames) named through
 * sy as it stands (at the sample's time: names.h); uw, when not NULL,
 * unwinds the user stack of a --call-graph dwarf sample for its frames.
 * The rows point at sy's strings: print them before sy goes. 0, or -1
 * when out of memory.
 */
int	symtop_sample(struct symtop *, struct pd_syms *sy,
	    struct pd_unwind *uw, const struct pd_evsel *ev,
	    const struct pd_rec *rec, const struct pd_sample *s);

/*
 * While /proc/kallsyms is read ahead (pd_klater), a plain table by
 * symbol keeps a sample's kernel ip by address and names it when the
 * names are there or about to change; this names them now: call it
 * before pd_syms_end. 0, or -1 when out of memory.
 */
int	symtop_settle(struct symtop *);

/*
 * The n hottest rows of each event (those over the percent limit): a
 * text table, or a JSON array. With --tree the text has each row's
 * call graph under it as perf report --stdio prints it by default
 * (graph,0.5,callee; with --children caller): callers of the row, or
 * with --children what it calls, each branch with its share of the
 * event's period, those under 0.5% (or the --percent-limit) left out.
 */
void	symtop_print(struct symtop *, FILE *, const struct pd_evlist *,
	    size_t n);
void	symtop_json(struct symtop *, FILE *, const struct pd_evlist *,
	    size_t n);

#endif /* PDSTAT_TOP_H */
