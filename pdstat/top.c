/* SPDX-License-Identifier: MIT */
/*
 * pdstat --top: samples grouped by the symbol of their ip (perf report's
 * "sym" key: a symbol of a dso, or, when unresolved, the address
 * itself) or by dso, weighted by period as perf report's Overhead is.
 * Rows are bounded: past ROWS_MAX distinct keys the rest is counted
 * in the totals only and said so.
 */
#include "pdstat/top.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/cli/json.h"
#include "libcommon/stream/esc.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/idmap.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/symbols.h"

#define ROWS_MAX	(1U << 20)

struct row {
	const char	*dso;		/* strings live in the pd_syms */
	const char	*sym;		/* NULL: unresolved, see addr */
	uint64_t	 addr;
	uint64_t	 samples, period;
	int		 ev;
	int		 kernel;
	int		 used;
};

struct evtot {
	uint64_t	 samples, period, dropped;
};

struct symtop {
	int		 by_dso;
	struct row	*rows;
	size_t		 cap, n;
	struct evtot	*tot;
	size_t		 ntot;
	uint64_t	 seed;		/* addresses come from the stream */
};

struct symtop *
symtop_new(int by_dso)
{
	struct symtop *t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->by_dso = by_dso;
	t->seed = pd_idmap_seed();
	return t;
}

void
symtop_free(struct symtop *t)
{
	if (t == NULL)
		return;
	free(t->rows);
	free(t->tot);
	free(t);
}

static int	count(struct symtop *, int, uint64_t, const struct pd_symres *);

int
symtop_sample(struct symtop *t, struct pd_syms *sy, const struct pd_evsel *ev,
    const struct pd_rec *rec, const struct pd_sample *s)
{
	struct pd_symres ip;

	if (s->type & PERF_SAMPLE_IP)
		pd_syms_resolve(sy, s->pid, rec->misc &
		    PERF_RECORD_MISC_CPUMODE_MASK, s->ip, &ip);
	return count(t, ev->idx, s->type & PERF_SAMPLE_PERIOD ? s->period :
	    ev->attr.sample_period, s->type & PERF_SAMPLE_IP ? &ip : NULL);
}

static uint64_t
row_hash(const struct symtop *t, int ev, const char *dso, const char *sym,
    uint64_t addr)
{
	uint64_t h = (uint64_t)ev * 0x9e3779b97f4a7c15ULL;

	h ^= (uint64_t)(uintptr_t)dso * 0xc2b2ae3d27d4eb4fULL;
	h ^= (uint64_t)(uintptr_t)sym * 0x165667b19e3779f9ULL;
	return pd_idmap_mix(h ^ pd_idmap_mix(addr, t->seed), t->seed);
}

static int
grow(struct symtop *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 1024, i, j;
	struct row *nr;

	if ((nr = calloc(ncap, sizeof(*nr))) == NULL)
		return -1;
	for (i = 0; i < t->cap; i++) {
		struct row *r = &t->rows[i];

		if (!r->used)
			continue;
		j = row_hash(t, r->ev, r->dso, r->sym, r->addr) & (ncap - 1);
		while (nr[j].used)
			j = (j + 1) & (ncap - 1);
		nr[j] = *r;
	}
	free(t->rows);
	t->rows = nr;
	t->cap = ncap;
	return 0;
}

static int
count(struct symtop *t, int ev, uint64_t period, const struct pd_symres *ip)
{
	struct pd_symres res;
	const char *sym;
	uint64_t addr;
	size_t i;
	struct row *r;

	if ((size_t)ev >= t->ntot) {
		size_t n = ev + 8;
		struct evtot *nt = realloc(t->tot, n * sizeof(*nt));

		if (nt == NULL)
			return -1;
		memset(nt + t->ntot, 0, (n - t->ntot) * sizeof(*nt));
		t->tot = nt;
		t->ntot = n;
	}
	t->tot[ev].samples++;
	t->tot[ev].period += period;
	if (ip == NULL)
		return 0;
	res = *ip;
	sym = t->by_dso ? NULL : res.name;
	/* Unresolved: one row per address in the dso, as perf groups. */
	addr = t->by_dso || res.name != NULL ? 0 : res.rel;
	if (t->n * 2 >= t->cap) {
		if (t->n >= ROWS_MAX) {
			t->tot[ev].dropped++;
			return 0;
		}
		if (grow(t) < 0)
			return -1;
	}
	i = row_hash(t, ev, res.dso, sym, addr) & (t->cap - 1);
	for (;;) {
		r = &t->rows[i];
		if (!r->used)
			break;
		if (r->ev == ev && r->dso == res.dso && r->sym == sym &&
		    r->addr == addr)
			goto found;
		i = (i + 1) & (t->cap - 1);
	}
	r->used = 1;
	r->ev = ev;
	r->dso = res.dso;
	r->sym = sym;
	r->addr = addr;
	r->kernel = res.kernel;
	t->n++;
found:
	r->samples++;
	r->period += period;
	return 0;
}

static int
row_cmp(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a;
	const struct row *y = *(const struct row *const *)b;
	int c;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if ((c = strcmp(x->dso, y->dso)) != 0)
		return c;
	if (x->sym != NULL && y->sym != NULL &&
	    (c = strcmp(x->sym, y->sym)) != 0)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The rows of event ev, hottest first; *n of them. NULL when none. */
static struct row **
ranked(struct symtop *t, int ev, size_t *n)
{
	struct row **v;
	size_t i, k = 0;

	*n = 0;
	if (t->n == 0 || (v = malloc(t->n * sizeof(*v))) == NULL)
		return NULL;
	for (i = 0; i < t->cap; i++)
		if (t->rows[i].used && t->rows[i].ev == ev)
			v[k++] = &t->rows[i];
	qsort(v, k, sizeof(*v), row_cmp);
	*n = k;
	return v;
}

static double
pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

static const char *
evname(const struct pd_evlist *el, int ev, char *buf, size_t len)
{
	const struct pd_evsel *e = pd_evlist_at(el, ev);

	if (e->name != NULL && e->name[0] != '\0')
		return e->name;
	pd_attr_default_name(&e->attr, buf, len);
	return buf;
}

void
symtop_print(struct symtop *t, FILE *f, const struct pd_evlist *el,
    size_t n)
{
	/* Names from the stream go out escaped (esc.h). */
	static char e1[1024], e2[1024];
	struct row **v;
	char buf[64];
	size_t ev, i, k;

	for (ev = 0; ev < pd_evlist_count(el) && ev < t->ntot; ev++) {
		if (t->tot[ev].samples == 0)
			continue;
		fprintf(f, "\ntop %s of %s (%% of %" PRIu64 " samples' "
		    "period)\n", t->by_dso ? "dsos" : "symbols",
		    pd_esc_str(evname(el, ev, buf, sizeof(buf)), e1,
		    sizeof(e1)), t->tot[ev].samples);
		fprintf(f, "%8s %10s  %s\n", "overhead", "samples",
		    t->by_dso ? "dso" : "symbol");
		v = ranked(t, ev, &k);
		for (i = 0; i < k && i < n; i++) {
			struct row *r = v[i];

			fprintf(f, "%7.2f%% %10" PRIu64 "  ",
			    pct(r->period, t->tot[ev].period), r->samples);
			if (t->by_dso)
				fprintf(f, "%s\n", pd_esc_str(r->dso, e2,
				    sizeof(e2)));
			else if (r->sym != NULL)
				fprintf(f, "[%c] %s  (%s)\n", r->kernel ? 'k' :
				    '.', pd_esc_str(r->sym, e1, sizeof(e1)),
				    pd_esc_str(r->dso, e2, sizeof(e2)));
			else
				fprintf(f, "[%c] 0x%016" PRIx64 "  (%s)\n",
				    r->kernel ? 'k' : '.', r->addr,
				    pd_esc_str(r->dso, e2, sizeof(e2)));
		}
		free(v);
		if (t->tot[ev].dropped > 0)
			fprintf(f, "  %" PRIu64 " samples past %u rows are "
			    "not in this table\n", t->tot[ev].dropped,
			    ROWS_MAX);
	}
}

void
symtop_json(struct symtop *t, FILE *f, const struct pd_evlist *el,
    size_t n)
{
	struct row **v;
	char buf[64];
	size_t ev, i, k;
	const char *sep = "";

	fputc('[', f);
	for (ev = 0; ev < pd_evlist_count(el) && ev < t->ntot; ev++) {
		if (t->tot[ev].samples == 0)
			continue;
		fprintf(f, "%s\n    {\"event\": ", sep);
		pd_json_str(f, evname(el, ev, buf, sizeof(buf)));
		fprintf(f, ", \"by\": \"%s\", \"samples\": %" PRIu64
		    ", \"period\": %" PRIu64 ", \"not_shown\": %" PRIu64
		    ", \"rows\": [", t->by_dso ? "dso" : "sym",
		    t->tot[ev].samples, t->tot[ev].period,
		    t->tot[ev].dropped);
		sep = ",";
		v = ranked(t, ev, &k);
		for (i = 0; i < k && i < n; i++) {
			struct row *r = v[i];

			fprintf(f, "%s\n      {", i ? "," : "");
			if (!t->by_dso) {
				fputs("\"sym\": ", f);
				if (r->sym != NULL)
					pd_json_str(f, r->sym);
				else
					fprintf(f, "null, \"addr\": \"0x%"
					    PRIx64 "\"", r->addr);
				fprintf(f, ", \"kernel\": %s, ", r->kernel ?
				    "true" : "false");
			}
			fputs("\"dso\": ", f);
			pd_json_str(f, r->dso);
			fprintf(f, ", \"samples\": %" PRIu64 ", \"period\": %"
			    PRIu64 ", \"percent\": %.2f}", r->samples,
			    r->period, pct(r->period, t->tot[ev].period));
		}
		free(v);
		fprintf(f, "%s]}", k ? "\n    " : "");
	}
	fprintf(f, "%s]", *sep ? "\n  " : "");
}
