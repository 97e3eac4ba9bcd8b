/* SPDX-License-Identifier: MIT */
/*
 * pdstat --top: samples grouped by perf report's sort keys, weighted by
 * period as perf report's Overhead is. A row is the values of the keys
 * asked for (the others stay zero): the comm at the sample's place in
 * perf's delivery order (pd_syms_report_comm), the thread, the dso, and
 * the symbol (a symbol of a dso, or, when unresolved, the address
 * itself). With --children a sample's period also goes, once, to each
 * other row its callchain passes through, as perf's cumulative entries.
 * Rows are bounded: past ROWS_MAX distinct keys the rest is counted in
 * the totals only and said so.
 *
 * With --tree each row also keeps its samples' callchains as a tree of
 * functions, perf's callchain_node radix tree unpacked to one node per
 * frame (the same shape once runs of single-child nodes are joined):
 * callee order (the row's function, then its callers) without
 * --children; with it, caller order from the row's frame down, as perf
 * appends from its cursor for each cumulative entry. Frames are keyed
 * as perf's CCKEY_FUNCTION: by function, or by dso and address where
 * unresolved. Nodes are bounded too (TREE_NODES_MAX): a chain past
 * them is cut and said so.
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
#include "libcommon/sym/unwind.h"

#define ROWS_MAX	(1U << 20)
#define TREE_NODES_MAX	(1U << 22)
#define TREE_DEPTH_MAX	1024	/* levels of branches printed */
#define TREE_MARGIN	12	/* perf's callchain__fprintf_left_margin */
#define TREE_LIMIT	0.5	/* perf report -g graph,0.5: % of the event */

/* The key fields of a row, compared and hashed whole. */
struct key {
	const char	*comm;		/* interned by the pd_syms; NULL: */
	const struct pd_syms_later *later;	/* named later, or ":tid" */
	const char	*dso;		/* strings live in the pd_syms */
	const char	*sym;		/* NULL: unresolved, see addr */
	uint64_t	 addr;
	uint32_t	 tid;
	int		 ev;
};

struct row {
	struct key	 k;
	uint64_t	 samples, period;
	uint64_t	 acc;		/* --children: period through it */
	uint64_t	 stamp;		/* the last sample that added to acc */
	uint32_t	 tree;		/* --tree: its root node, 0: none yet */
	unsigned char	 kernel, used;
};

struct evtot {
	uint64_t	 samples, period, dropped;
	uint64_t	 cut;		/* --tree: chains cut, no nodes left */
};

/* A node of a row's call graph: one frame's function under its parent. */
struct tnode {
	const char	*sym;		/* NULL: unresolved, keyed by dso, addr */
	const char	*dso;
	uint64_t	 addr;		/* the frame's address, as perf shows it */
	uint64_t	 hit;		/* period of the chains ending here */
	uint64_t	 cumul;		/* ... and of those going on below */
	uint32_t	 parent, kids, sib;	/* first child, next sibling */
	uint32_t	 nkids;
};

struct symtop {
	struct symtop_opts o;
	unsigned	 has[SYMTOP_NKEYS];	/* 1: key asked for */
	struct row	*rows;
	size_t		 cap, n;
	struct evtot	*tot;
	size_t		 ntot;
	uint64_t	 seed;		/* addresses come from the stream */
	uint64_t	 seq;		/* samples so far: row stamps */
	struct pd_syms	*sy;		/* of the samples: names at the end */
	struct pd_frame	*fr;		/* needs_frames: a sample's frames */
	struct pd_symres *res;		/* ... and their names */
	size_t		 nfr, frcap;
	struct tnode	*tn;		/* --tree: every row's nodes; 0 unused */
	size_t		 tnn, tncap;
	uint32_t	*th;		/* tn's children by parent and key */
	size_t		 thcap;
	int		 tree_oom;
	int		 sym_first;	/* --sort begins with sym */
	struct pd_klater kl;		/* its kernel ips kept: symtop_settle */
};

static const struct {
	const char	*name, *alias, *plural, *head;
} keys[SYMTOP_NKEYS] = {
	[SYMTOP_COMM] =	{ "comm", NULL, "comms", "comm" },
	[SYMTOP_PID] =	{ "pid", "tid", "threads", "pid:comm" },
	[SYMTOP_DSO] =	{ "dso", NULL, "dsos", "dso" },
	[SYMTOP_SYM] =	{ "sym", "symbol", "symbols", "symbol" },
};

int
symtop_parse_sort(struct symtop_opts *o, const char *list, const char **why)
{
	const char *p = list, *e;
	size_t len, i, j;

	o->nkeys = 0;
	for (;;) {
		e = strchr(p, ',');
		len = e != NULL ? (size_t)(e - p) : strlen(p);
		for (i = 0; i < SYMTOP_NKEYS; i++)
			if ((strlen(keys[i].name) == len &&
			    memcmp(keys[i].name, p, len) == 0) ||
			    (keys[i].alias != NULL &&
			    strlen(keys[i].alias) == len &&
			    memcmp(keys[i].alias, p, len) == 0))
				break;
		if (i == SYMTOP_NKEYS) {
			*why = "keys are comm, pid (or tid), dso, sym";
			return -1;
		}
		for (j = 0; j < o->nkeys; j++)
			if (o->key[j] == i) {
				*why = "a key given twice";
				return -1;
			}
		o->key[o->nkeys++] = i;
		if (e == NULL)
			return 0;
		p = e + 1;
	}
}

int
symtop_dso_only(const struct symtop_opts *o)
{
	size_t i;

	if (o->nkeys == 0 || o->tree)
		return 0;
	for (i = 0; i < o->nkeys; i++)
		if (o->key[i] == SYMTOP_SYM)
			return 0;
	return 1;
}

static int	name_kept(void *, struct pd_syms *);

struct symtop *
symtop_new(const struct symtop_opts *o)
{
	struct symtop *t;
	size_t i;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->o = *o;
	/* perf does not repeat the row's symbol atop its tree then. */
	t->sym_first = o->nkeys > 0 && o->key[0] == SYMTOP_SYM;
	if (t->o.nkeys == 0) {
		t->o.key[0] = SYMTOP_SYM;
		t->o.nkeys = 1;
	}
	for (i = 0; i < t->o.nkeys; i++)
		t->has[t->o.key[i]] = 1;
	t->seed = pd_idmap_seed();
	t->kl.settle = name_kept;
	t->kl.ctx = t;
	return t;
}

void
symtop_free(struct symtop *t)
{
	if (t == NULL)
		return;
	pd_klater_drop(&t->kl);
	free(t->rows);
	free(t->tot);
	free(t->fr);
	free(t->res);
	free(t->tn);
	free(t->th);
	free(t);
}

/*
 * The one place that says which views need every callchain frame of a
 * sample named (not just its ip): inclusive rows and the call graphs.
 */
static int
needs_frames(const struct symtop_opts *o)
{
	return o->children || o->tree;
}

int
symtop_stacks(const struct symtop *t)
{
	return needs_frames(&t->o);
}

static uint64_t
key_hash(const struct symtop *t, const struct key *k)
{
	uint64_t h = (uint64_t)k->ev * 0x9e3779b97f4a7c15ULL;

	h ^= (uint64_t)(uintptr_t)k->dso * 0xc2b2ae3d27d4eb4fULL;
	h ^= (uint64_t)(uintptr_t)k->sym * 0x165667b19e3779f9ULL;
	h ^= (uint64_t)(uintptr_t)k->comm * 0x27d4eb2f165667c5ULL;
	h ^= (uint64_t)(uintptr_t)k->later * 0x94d049bb133111ebULL;
	h ^= (uint64_t)k->tid << 32;
	return pd_idmap_mix(h ^ pd_idmap_mix(k->addr, t->seed), t->seed);
}

static int
key_eq(const struct key *a, const struct key *b)
{
	return a->ev == b->ev && a->dso == b->dso && a->sym == b->sym &&
	    a->addr == b->addr && a->comm == b->comm &&
	    a->later == b->later && a->tid == b->tid;
}

/*
 * A kernel ip kept by address while its name waits for /proc/kallsyms,
 * read ahead on a thread (pd_klater): its row's dso is this
 * (by address), its sym NULL, its addr the ip, until symtop_settle.
 */
static const char kept_dso[] = "[kernel ip kept]";

/* The rows moved to a table of ncap; those kept by address left out. */
static int
rehash(struct symtop *t, size_t ncap, int drop_kept)
{
	size_t i, j, n = 0;
	struct row *nr;

	if ((nr = calloc(ncap, sizeof(*nr))) == NULL)
		return -1;
	for (i = 0; i < t->cap; i++) {
		struct row *r = &t->rows[i];

		if (!r->used || (drop_kept && r->k.dso == kept_dso))
			continue;
		j = key_hash(t, &r->k) & (ncap - 1);
		while (nr[j].used)
			j = (j + 1) & (ncap - 1);
		nr[j] = *r;
		n++;
	}
	free(t->rows);
	t->rows = nr;
	t->cap = ncap;
	t->n = n;
	return 0;
}

static int
grow(struct symtop *t)
{
	return rehash(t, t->cap ? t->cap * 2 : 1024, 0);
}

/*
 * The row of k (its dso and symbol filled from res first), made if
 * new; NULL when the table is full (dropped) or out of memory (*oom).
 */
static struct row *
row_get(struct symtop *t, struct key *k, const struct pd_symres *res,
    uint64_t addr, int *oom)
{
	struct row *r;
	size_t i;

	if (t->has[SYMTOP_DSO] || t->has[SYMTOP_SYM])
		k->dso = res->dso;
	if (t->has[SYMTOP_SYM]) {
		k->sym = res->name;
		/* Unresolved: one row per address, as perf groups. */
		k->addr = res->name != NULL ? 0 : addr;
	}
	if (t->n * 2 >= t->cap) {
		if (t->n >= ROWS_MAX)
			return NULL;
		if (grow(t) < 0) {
			*oom = 1;
			return NULL;
		}
	}
	i = key_hash(t, k) & (t->cap - 1);
	for (;;) {
		r = &t->rows[i];
		if (!r->used)
			break;
		if (key_eq(&r->k, k))
			return r;
		i = (i + 1) & (t->cap - 1);
	}
	r->used = 1;
	r->k = *k;
	r->kernel = res->kernel;
	t->n++;
	return r;
}

static int
count_ev(struct symtop *t, int ev, uint64_t period)
{
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
	return 0;
}

/* ----- call graphs (--tree) ----- */

static uint64_t
tnode_hash(const struct symtop *t, uint32_t parent, const char *sym,
    const char *dso, uint64_t addr)
{
	uint64_t h = (uint64_t)parent * 0x9e3779b97f4a7c15ULL;

	h ^= (uint64_t)(uintptr_t)sym * 0xc2b2ae3d27d4eb4fULL;
	h ^= (uint64_t)(uintptr_t)dso * 0x165667b19e3779f9ULL;
	return pd_idmap_mix(h ^ pd_idmap_mix(addr, t->seed), t->seed);
}

/* Room for one more node and its hash slot; -1: full or out of memory. */
static int
tnode_room(struct symtop *t)
{
	size_t i, j, ncap;

	if (t->tnn + 1 > t->tncap) {
		struct tnode *nt;

		if (t->tncap >= TREE_NODES_MAX)
			return -1;
		ncap = t->tncap ? t->tncap * 2 : 1024;
		if ((nt = realloc(t->tn, ncap * sizeof(*nt))) == NULL) {
			t->tree_oom = 1;
			return -1;
		}
		if (t->tncap == 0) {
			memset(&nt[0], 0, sizeof(nt[0]));
			t->tnn = 1;	/* 0 says none */
		}
		t->tn = nt;
		t->tncap = ncap;
	}
	if ((t->tnn + 1) * 2 > t->thcap) {
		uint32_t *nh;

		ncap = t->thcap ? t->thcap * 2 : 2048;
		if ((nh = calloc(ncap, sizeof(*nh))) == NULL) {
			t->tree_oom = 1;
			return -1;
		}
		for (i = 1; i < t->tnn; i++) {
			const struct tnode *n = &t->tn[i];

			if (n->parent == 0)	/* roots are the rows' */
				continue;
			j = tnode_hash(t, n->parent, n->sym, n->dso, n->addr) &
			    (ncap - 1);
			while (nh[j] != 0)
				j = (j + 1) & (ncap - 1);
			nh[j] = i;
		}
		free(t->th);
		t->th = nh;
		t->thcap = ncap;
	}
	return 0;
}

/* A new node under parent (0: a root, found through its row). 0: none. */
static uint32_t
tnode_new(struct symtop *t, uint32_t parent, const char *sym, const char *dso,
    uint64_t addr, size_t slot)
{
	struct tnode *n;
	uint32_t i = t->tnn++;

	n = &t->tn[i];
	memset(n, 0, sizeof(*n));
	n->sym = sym;
	n->dso = dso;
	n->addr = addr;
	if (parent != 0) {
		n->parent = parent;
		n->sib = t->tn[parent].kids;
		t->tn[parent].kids = i;
		t->tn[parent].nkids++;
		t->th[slot] = i;
	}
	return i;
}

/* The child of parent for a frame so named, made if new; 0: no room. */
static uint32_t
tnode_child(struct symtop *t, uint32_t parent, const char *sym,
    const char *dso, uint64_t addr)
{
	const struct tnode *n;
	size_t j;

	/* perf's match_chain: by name; else by dso and address. */
	if (sym != NULL) {
		dso = NULL;
		addr = 0;
	}
	if (tnode_room(t) < 0)
		return 0;
	j = tnode_hash(t, parent, sym, dso, addr) & (t->thcap - 1);
	for (; t->th[j] != 0; j = (j + 1) & (t->thcap - 1)) {
		n = &t->tn[t->th[j]];
		if (n->parent == parent && n->sym == sym && n->dso == dso &&
		    n->addr == addr)
			return t->th[j];
	}
	return tnode_new(t, parent, sym, dso, addr, j);
}

static uint32_t
tnode_root(struct symtop *t)
{
	return tnode_room(t) < 0 ? 0 : tnode_new(t, 0, NULL, NULL, 0, 0);
}

/*
 * The frames first, first+step, ... (n of them) of the sample named in
 * t->res, as one chain of row r's tree, weighing period. A chain that
 * does not fit ends where the room did, counted in cut.
 */
static void
tree_add(struct symtop *t, struct row *r, size_t first, int step, size_t n,
    uint64_t period, uint64_t *cut)
{
	uint32_t cur, next;
	size_t i, f;

	if (r->tree == 0 && (r->tree = tnode_root(t)) == 0) {
		(*cut)++;
		return;
	}
	cur = r->tree;
	t->tn[cur].cumul += period;
	for (i = 0, f = first; i < n; i++, f += step) {
		if ((next = tnode_child(t, cur, t->res[f].name, t->res[f].dso,
		    t->fr[f].addr)) == 0) {
			(*cut)++;
			break;
		}
		cur = next;
		t->tn[cur].cumul += period;
	}
	t->tn[cur].hit += period;
}

/* src's chains added under dst (rows merged once their comms are named). */
static void
tree_merge(struct symtop *t, uint32_t dst, uint32_t src)
{
	uint32_t c, d;

	t->tn[dst].hit += t->tn[src].hit;
	t->tn[dst].cumul += t->tn[src].cumul;
	for (c = t->tn[src].kids; c != 0; c = t->tn[c].sib) {
		if ((d = tnode_child(t, dst, t->tn[c].sym, t->tn[c].dso,
		    t->tn[c].addr)) == 0)
			return;
		tree_merge(t, d, c);
	}
}

/* The tree of two rows shown as one: a new root, a and b unchanged. */
static uint32_t
tree_union(struct symtop *t, uint32_t a, uint32_t b)
{
	uint32_t u;

	if (a == 0 || b == 0)
		return a != 0 ? a : b;
	if ((u = tnode_root(t)) == 0)
		return a;
	tree_merge(t, u, a);
	tree_merge(t, u, b);
	return u;
}

/* ----- samples ----- */

/*
 * The sample's frames (innermost first) named, in t->fr and t->res; a
 * dwarf sample's user part unwound when uw is there, as perf report
 * does, with room for the walk's frames past the recorded chain.
 */
static int
frames_name(struct symtop *t, struct pd_syms *sy, struct pd_unwind *uw,
    const struct pd_rec *rec, const struct pd_sample *s)
{
	size_t i, n;

	n = (s->type & PERF_SAMPLE_CALLCHAIN) && s->callchain_nr > 0 ?
	    s->callchain_nr : 1;
	if (uw != NULL)
		n += PD_UNWIND_MAX;
	if (n > t->frcap) {
		struct pd_frame *f = realloc(t->fr, n * sizeof(*f));
		struct pd_symres *r;

		if (f == NULL)
			return -1;
		t->fr = f;
		if ((r = realloc(t->res, n * sizeof(*r))) == NULL)
			return -1;
		t->res = r;
		t->frcap = n;
	}
	t->nfr = uw != NULL ? pd_unwind_frames(uw, s, rec->misc, t->fr, n) :
	    pd_sample_frames(s, rec->misc, t->fr, n);
	for (i = 0; i < t->nfr; i++)
		pd_syms_resolve(sy, s->pid, t->fr[i].cpumode, t->fr[i].addr,
		    &t->res[i]);
	return 0;
}

/*
 * --children: the sample's period to each row its frames name, once
 * (perf's he_cache), beside the sample's own row. A frame perf does not
 * resolve keeps its raw address, as perf's callchain entries do, while
 * the sample's own row has it in the dso's terms; and one in no map
 * shows the level of the frame before it, callers first (perf's order
 * with --children), or of the sample: perf leaves it as it was. With
 * --tree the row gets the chain from that frame down to the sample.
 */
static int
count_frames(struct symtop *t, struct key *k, uint64_t period, int kernel,
    int tree, int ev)
{
	struct pd_symres res;
	struct row *r;
	size_t i;
	int oom = 0;

	for (i = t->nfr; i-- > 0; ) {
		res = t->res[i];
		if (strcmp(res.dso, "[unknown]") == 0)
			res.kernel = kernel;
		else
			kernel = res.kernel;
		if ((r = row_get(t, k, &res, t->fr[i].addr, &oom)) == NULL) {
			if (oom)
				return -1;
			continue;
		}
		if (r->stamp != t->seq) {
			r->stamp = t->seq;
			r->acc += period;
			if (tree)
				tree_add(t, r, i, -1, i + 1, period,
				    &t->tot[ev].cut);
		}
	}
	return 0;
}

/* The kept ips named (pd_klater's settle). */
static int
name_kept(void *ctx, struct pd_syms *sy)
{
	struct symtop *t = ctx;
	struct row *kept = NULL, *r;
	struct pd_symres res;
	size_t i, nk = 0;
	int oom = 0, rv = -1;

	/* The kept rows aside, the others in a table of their own. */
	for (i = 0; i < t->cap; i++)
		nk += t->rows[i].used && t->rows[i].k.dso == kept_dso;
	if (nk == 0)
		return 0;
	if ((kept = malloc(nk * sizeof(*kept))) == NULL)
		return -1;
	for (i = 0, nk = 0; i < t->cap; i++)
		if (t->rows[i].used && t->rows[i].k.dso == kept_dso)
			kept[nk++] = t->rows[i];
	if (rehash(t, t->cap, 1) < 0)
		goto out;
	/* Each into the row its name gives, as its samples would have. */
	for (i = 0; i < nk; i++) {
		struct key k = kept[i].k;

		pd_syms_resolve(sy, 0, PERF_RECORD_MISC_KERNEL, k.addr, &res);
		if ((r = row_get(t, &k, &res, res.rel, &oom)) == NULL) {
			if (oom)
				goto out;
			t->tot[k.ev].dropped += kept[i].samples;
			continue;
		}
		r->samples += kept[i].samples;
		r->period += kept[i].period;
	}
	rv = 0;
out:
	free(kept);
	return rv;
}

int
symtop_settle(struct symtop *t)
{
	return pd_klater_settle(&t->kl);
}

/*
 * Whether this sample's kernel ip may wait for its name: only for a
 * plain table by symbol (no frames, no trees), far from the rows' bound.
 */
static int
may_keep(struct symtop *t, struct pd_syms *sy)
{
	if (!t->has[SYMTOP_SYM] || needs_frames(&t->o) ||
	    t->n >= ROWS_MAX / 2)
		return 0;
	return pd_klater_ask(&t->kl, sy);
}

int
symtop_sample(struct symtop *t, struct pd_syms *sy, struct pd_unwind *uw,
    const struct pd_evsel *ev, const struct pd_rec *rec,
    const struct pd_sample *s)
{
	static const struct pd_symres none = { .dso = "[unknown]" };
	struct pd_symres ip;
	struct key k;
	struct row *r;
	uint64_t period = s->type & PERF_SAMPLE_PERIOD ? s->period :
	    ev->attr.sample_period;
	uint32_t tid = s->type & PERF_SAMPLE_TID ? s->tid : UINT32_MAX;
	int oom = 0, tree, keep;

	t->sy = sy;
	if (count_ev(t, ev->idx, period) < 0)
		return -1;
	if (!(s->type & PERF_SAMPLE_IP))
		return 0;
	memset(&k, 0, sizeof(k));
	k.ev = ev->idx;
	if (t->has[SYMTOP_COMM] &&
	    (k.comm = pd_syms_report_comm(sy, tid, &k.later)) == NULL &&
	    k.later == NULL)
		k.tid = tid;	/* ":tid", named by nothing */
	if (t->has[SYMTOP_PID])
		k.tid = tid;
	if (!t->has[SYMTOP_DSO] && !t->has[SYMTOP_SYM])
		ip = none;
	else if ((rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
	    PERF_RECORD_MISC_KERNEL && (keep = may_keep(t, sy)) != 0) {
		if (keep < 0)
			return -1;
		ip = none;
		ip.dso = kept_dso;
		ip.kernel = 1;
		ip.rel = s->ip;
	} else
		pd_syms_resolve(sy, s->pid, rec->misc &
		    PERF_RECORD_MISC_CPUMODE_MASK, s->ip, &ip);
	t->seq++;
	if ((r = row_get(t, &k, &ip, ip.rel, &oom)) == NULL) {
		if (oom)
			return -1;
		t->tot[ev->idx].dropped++;
		return 0;
	}
	r->samples++;
	r->period += period;
	if (!needs_frames(&t->o))
		return 0;
	if (frames_name(t, sy, uw, rec, s) < 0)
		return -1;
	/* perf draws no graph of samples recorded without -g. */
	tree = t->o.tree && (s->type & PERF_SAMPLE_CALLCHAIN) && t->nfr > 0;
	if (tree) {
		/* The whole chain: callers last, or with --children first. */
		if (t->o.children)
			tree_add(t, r, t->nfr - 1, -1, t->nfr, period,
			    &t->tot[ev->idx].cut);
		else
			tree_add(t, r, 0, 1, t->nfr, period,
			    &t->tot[ev->idx].cut);
		if (t->tree_oom)
			return -1;
	}
	if (!t->o.children)
		return 0;
	r->stamp = t->seq;
	r->acc += period;
	if (count_frames(t, &k, period, ip.kernel, tree, ev->idx) < 0)
		return -1;
	return t->tree_oom ? -1 : 0;
}

/* ----- output ----- */

/* A row as shown: comms named as they are at the end, rows merged. */
struct shown {
	const char	*comm;		/* NULL: cbuf */
	char		 cbuf[16];	/* ":tid" */
	uint32_t	 ctid;		/* of an unnamed comm */
	const struct row *r;
	uint64_t	 samples, period, acc;
	uint32_t	 tree;		/* --tree: its root node */
};

static const char *
comm_name(const struct shown *s)
{
	return s->comm != NULL ? s->comm : s->cbuf;
}

/* perf's short name of a dso: its file name. */
static const char *
dso_short(const char *dso)
{
	const char *p;

	if (dso[0] == '/' && (p = strrchr(dso, '/')) != NULL && p[1] != '\0')
		return p + 1;
	return dso;
}

static int
is_unknown(const char *dso)
{
	return strcmp(dso, "[unknown]") == 0;
}

static const struct symtop *sorting;	/* qsort has no context */

/* The same row once comms are named: merge them (as perf collapses). */
static int
same_cmp(const void *a, const void *b)
{
	const struct shown *x = a, *y = b;
	const struct key *p = &x->r->k, *q = &y->r->k;

	if (x->comm != y->comm)
		return (uintptr_t)x->comm < (uintptr_t)y->comm ? -1 : 1;
	if (x->ctid != y->ctid)
		return x->ctid < y->ctid ? -1 : 1;
	if (p->tid != q->tid)
		return p->tid < q->tid ? -1 : 1;
	if (p->dso != q->dso)
		return (uintptr_t)p->dso < (uintptr_t)q->dso ? -1 : 1;
	if (p->sym != q->sym)
		return (uintptr_t)p->sym < (uintptr_t)q->sym ? -1 : 1;
	return p->addr < q->addr ? -1 : p->addr > q->addr;
}

#define CMP(a, b)	((a) < (b) ? -1 : (a) > (b))

/*
 * perf report's output order: children, then self period, highest
 * first; then the keys in their order (comms and symbols by name,
 * threads by tid, dsos by short name, unknown ones and unresolved
 * symbols last); then ours, for a fixed order where perf has none.
 */
static int
rank_cmp(const void *a, const void *b)
{
	const struct shown *x = a, *y = b;
	const struct key *p = &x->r->k, *q = &y->r->k;
	size_t i;
	int c;

	if (sorting->o.children && x->acc != y->acc)
		return x->acc > y->acc ? -1 : 1;
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	for (i = 0; i < sorting->o.nkeys; i++) {
		switch (sorting->o.key[i]) {
		case SYMTOP_COMM:
			c = strcmp(comm_name(x), comm_name(y));
			break;
		case SYMTOP_PID:
			c = CMP(p->tid, q->tid);
			break;
		case SYMTOP_DSO:
			if ((c = CMP(is_unknown(p->dso),
			    is_unknown(q->dso))) == 0)
				c = strcmp(dso_short(p->dso),
				    dso_short(q->dso));
			break;
		default:
			if ((c = CMP(p->sym == NULL, q->sym == NULL)) == 0 &&
			    p->sym != NULL)
				c = strcmp(p->sym, q->sym);
			break;
		}
		if (c != 0)
			return c;
	}
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (p->dso != q->dso && (c = strcmp(p->dso, q->dso)) != 0)
		return c;
	if (p->sym != q->sym && p->sym != NULL && q->sym != NULL &&
	    (c = strcmp(p->sym, q->sym)) != 0)
		return c;
	if ((c = CMP(p->addr, q->addr)) != 0)
		return c;
	return strcmp(comm_name(x), comm_name(y));
}

/* The rows of event ev, hottest first; *n of them. NULL when none. */
static struct shown *
ranked(struct symtop *t, int ev, size_t *n)
{
	struct shown *v;
	size_t i, j, k = 0;
	int later = 0;

	*n = 0;
	if (t->n == 0 || (v = calloc(t->n, sizeof(*v))) == NULL)
		return NULL;
	for (i = 0; i < t->cap; i++) {
		const struct row *r = &t->rows[i];
		struct shown *s;

		if (!r->used || r->k.ev != ev)
			continue;
		s = &v[k++];
		s->r = r;
		s->samples = r->samples;
		s->period = r->period;
		s->acc = r->acc;
		s->tree = r->tree;
		s->comm = r->k.comm;
		if (r->k.later != NULL) {
			later = 1;
			s->comm = r->k.later->comm;
			if (s->comm == NULL)
				s->ctid = r->k.later->tid;
		} else if (s->comm == NULL && t->has[SYMTOP_COMM])
			s->ctid = r->k.tid;
		if (s->comm == NULL)
			snprintf(s->cbuf, sizeof(s->cbuf), ":%d",
			    (int)s->ctid);
	}
	if (later && k > 1) {
		qsort(v, k, sizeof(*v), same_cmp);
		for (i = 0, j = 1; j < k; j++) {
			if (same_cmp(&v[i], &v[j]) == 0) {
				v[i].samples += v[j].samples;
				v[i].period += v[j].period;
				v[i].acc += v[j].acc;
				v[i].tree = tree_union(t, v[i].tree,
				    v[j].tree);
			} else if (++i != j)
				v[i] = v[j];
		}
		k = i + 1;
	}
	sorting = t;
	qsort(v, k, sizeof(*v), rank_cmp);
	*n = k;
	return v;
}

static double
pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/* Whether s is shown: over the percent limit, as perf's. */
static int
over_limit(const struct symtop *t, const struct shown *s, int ev)
{
	return pct(t->o.children ? s->acc : s->period,
	    t->tot[ev].period) >= t->o.percent_limit;
}

/* perf's name of the thread tid (the "pid" key), as it is at the end. */
static const char *
thread_name(struct symtop *t, uint32_t tid, char *buf, size_t len)
{
	const struct pd_syms_later *l;
	const char *c = NULL;

	if (t->sy != NULL)
		c = pd_syms_report_comm(t->sy, tid, &l);
	if (c != NULL)
		return c;
	snprintf(buf, len, ":%d", (int)tid);
	return buf;
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

/* The text of the key column c of row s: escaped, in buf or static. */
static const char *
cell(struct symtop *t, const struct shown *s, unsigned c, char *buf,
    size_t len)
{
	/* Names from the stream go out escaped (esc.h). */
	char e1[512], e2[512], nb[16];
	const struct row *r = s->r;

	switch (c) {
	case SYMTOP_COMM:
		return pd_esc_str(comm_name(s), buf, len);
	case SYMTOP_PID:
		snprintf(buf, len, "%7d:%s", (int)r->k.tid, pd_esc_str(
		    thread_name(t, r->k.tid, nb, sizeof(nb)), e1,
		    sizeof(e1)));
		return buf;
	case SYMTOP_DSO:
		return pd_esc_str(r->k.dso, buf, len);
	}
	if (r->k.sym != NULL)
		snprintf(e2, sizeof(e2), "%s", pd_esc_str(r->k.sym, e1,
		    sizeof(e1)));
	else
		snprintf(e2, sizeof(e2), "0x%016" PRIx64, r->k.addr);
	if (t->has[SYMTOP_DSO])
		snprintf(buf, len, "[%c] %s", r->kernel ? 'k' : '.', e2);
	else
		snprintf(buf, len, "[%c] %s  (%s)", r->kernel ? 'k' : '.', e2,
		    pd_esc_str(r->k.dso, e1, sizeof(e1)));
	return buf;
}

/* How wide each key column of the rows shown is (the last: 0). */
static void
widths(struct symtop *t, const struct shown *v, size_t k, int ev, size_t n,
    size_t *w)
{
	char buf[1024];
	size_t i, j, len;

	for (j = 0; j < t->o.nkeys; j++)
		w[j] = strlen(keys[t->o.key[j]].head);
	for (i = 0, n = n < k ? n : k; i < k && n > 0; i++) {
		if (!over_limit(t, &v[i], ev))
			continue;
		n--;
		for (j = 0; j + 1 < t->o.nkeys; j++)
			if ((len = strlen(cell(t, &v[i], t->o.key[j], buf,
			    sizeof(buf)))) > w[j])
				w[j] = len;
	}
	w[t->o.nkeys - 1] = 0;
}

/* ----- call graphs, as perf report --stdio's graph mode ----- */

/* perf's min_callchain_hits: the limit's share of the event's period. */
static uint64_t
tree_min(const struct symtop *t, uint64_t total)
{
	return (uint64_t)(total * ((t->o.limit_given ? t->o.percent_limit :
	    TREE_LIMIT) / 100.0));
}

struct tprint {
	struct symtop	*t;
	FILE		*f;
	uint64_t	 total;		/* the event's period: 100% */
	uint64_t	 min;		/* branches under it are left out */
	size_t		 margin;
	char		 bars[TREE_DEPTH_MAX];	/* 1: a level's | goes on */
	int		 printed;
};

static const struct symtop *tsorting;	/* qsort has no context */

/*
 * Branches by their share, highest first; equal ones as perf leaves
 * them: its children are kept by name (or address) in reverse.
 */
static int
tnode_cmp(const void *a, const void *b)
{
	const struct tnode *x = &tsorting->tn[*(const uint32_t *)a];
	const struct tnode *y = &tsorting->tn[*(const uint32_t *)b];
	int c;

	if (x->cumul != y->cumul)
		return x->cumul > y->cumul ? -1 : 1;
	if ((x->sym == NULL) != (y->sym == NULL))
		return x->sym == NULL ? 1 : -1;
	if (x->sym != NULL && (c = strcmp(x->sym, y->sym)) != 0)
		return -c;
	return CMP(y->addr, x->addr);
}

/*
 * The children of n worth showing, in order: how many, in *out (freed
 * by the caller when not 0).
 */
static size_t
tnode_kids(struct symtop *t, uint32_t n, uint64_t min, uint32_t **out)
{
	uint32_t c, *v;
	size_t k = 0;

	*out = NULL;
	if (t->tn[n].nkids == 0 ||
	    (v = malloc(t->tn[n].nkids * sizeof(*v))) == NULL)
		return 0;
	for (c = t->tn[n].kids; c != 0; c = t->tn[c].sib)
		if (t->tn[c].cumul >= min)
			v[k++] = c;
	if (k == 0) {
		free(v);
		return 0;
	}
	tsorting = t;
	qsort(v, k, sizeof(*v), tnode_cmp);
	*out = v;
	return k;
}

/* A run of nodes perf keeps as one: no branch, no chain ends, within. */
static uint32_t
tnode_next(const struct symtop *t, uint32_t n)
{
	return t->tn[n].nkids == 1 && t->tn[n].hit == 0 ? t->tn[n].kids : 0;
}

static void
tnode_name(struct tprint *p, uint32_t n)
{
	const struct tnode *x = &p->t->tn[n];
	char buf[1024];

	if (x->sym != NULL)
		fputs(pd_esc_str(x->sym, buf, sizeof(buf)), p->f);
	else
		fprintf(p->f, "%#" PRIx64, x->addr);
	fputc('\n', p->f);
	p->printed = 1;
}

/*
 * The branches under node `parent` at depth (1: the first), each as
 * perf's __callchain__fprintf_graph draws it: a line of the levels'
 * bars, then the run of functions, the first with its share, then what
 * is under it. Bars of a level end at its last branch.
 */
static void
tree_level(struct tprint *p, uint32_t parent, size_t depth)
{
	uint32_t *kids, n;
	size_t k, i, d, last;
	int first;

	if (depth >= TREE_DEPTH_MAX ||
	    (k = tnode_kids(p->t, parent, p->min, &kids)) == 0)
		return;
	for (i = 0; i < k; i++) {
		fprintf(p->f, "%*s", (int)p->margin, "");
		for (d = 0, last = 0; d < depth; d++)
			if (p->bars[d])
				last = d + 1;
		for (d = 0; d < last; d++)
			fputs(p->bars[d] ? d + 1 < last ? "|          " : "|" :
			    "           ", p->f);
		fputc('\n', p->f);
		if (i + 1 == k)
			p->bars[depth - 1] = 0;
		for (n = kids[i], first = 1; ; first = 0) {
			fprintf(p->f, "%*s", (int)p->margin, "");
			for (d = 0; d < depth; d++) {
				fputc(p->bars[d] ? '|' : ' ', p->f);
				if (first && d + 1 == depth)
					fprintf(p->f, "--%.2f%%--", pct(
					    p->t->tn[n].cumul, p->total));
				else
					fputs("          ", p->f);
			}
			tnode_name(p, n);
			if (tnode_next(p->t, n) == 0)
				break;
			n = tnode_next(p->t, n);
		}
		p->bars[depth] = 1;
		tree_level(p, n, depth + 1);
	}
	free(kids);
}

/*
 * A row's call graph under it, as perf's callchain__fprintf_graph: when
 * one branch holds all of the row (parent: its period), that run is
 * drawn as "---" without a share, less the row's own symbol when perf
 * leaves that out (--sort sym...), and its branches below.
 */
static void
tree_print(struct symtop *t, FILE *f, uint32_t root, uint64_t parent,
    uint64_t total)
{
	struct tprint p;
	uint32_t *kids, n;
	size_t k;
	int i, top = 0;

	if (root == 0)
		return;
	memset(&p, 0, sizeof(p));
	p.t = t;
	p.f = f;
	p.total = total;
	p.min = tree_min(t, total);
	p.margin = TREE_MARGIN;
	k = tnode_kids(t, root, p.min, &kids);
	if (k == 1 && t->tn[kids[0]].cumul == parent) {
		for (n = kids[0], i = 0; ; i++) {
			if (i > 0 || !t->sym_first) {
				if (!top) {
					fprintf(f, "%*s|\n%*s---",
					    (int)p.margin, "",
					    (int)p.margin, "");
					p.margin += 3;
					top = 1;
				} else
					fprintf(f, "%*s", (int)p.margin, "");
				tnode_name(&p, n);
			}
			if (tnode_next(t, n) == 0)
				break;
			n = tnode_next(t, n);
		}
		root = n;
	}
	free(kids);
	p.bars[0] = 1;
	tree_level(&p, root, 1);
	if (p.printed)
		fputc('\n', f);
}

static void
print_event(struct symtop *t, FILE *f, const struct pd_evlist *el, int ev,
    size_t n)
{
	char buf[1024], eb[64], nb[64];
	size_t w[SYMTOP_NKEYS], i, j, k, shown;
	struct shown *v;
	const char *what;

	if (t->o.nkeys == 1)
		what = keys[t->o.key[0]].plural;
	else {
		for (i = 0, j = 0; i < t->o.nkeys; i++)
			j += snprintf(nb + j, sizeof(nb) - j, "%s%s",
			    i ? "," : "rows by ", keys[t->o.key[i]].name);
		what = nb;
	}
	fprintf(f, "\ntop %s of %s (%% of %" PRIu64 " samples' period)\n",
	    what, pd_esc_str(evname(el, ev, eb, sizeof(eb)), buf,
	    sizeof(buf)), t->tot[ev].samples);
	v = ranked(t, ev, &k);
	widths(t, v, k, ev, n, w);
	if (t->o.children)
		fprintf(f, "%8s %8s %10s", "children", "self", "samples");
	else
		fprintf(f, "%8s %10s", "overhead", "samples");
	for (j = 0; j < t->o.nkeys; j++)
		fprintf(f, "  %-*s", (int)w[j], keys[t->o.key[j]].head);
	fputc('\n', f);
	for (i = 0, shown = 0; i < k && shown < n; i++) {
		if (!over_limit(t, &v[i], ev))
			continue;
		shown++;
		if (t->o.children)
			fprintf(f, "%7.2f%% ", pct(v[i].acc,
			    t->tot[ev].period));
		fprintf(f, "%7.2f%% %10" PRIu64, pct(v[i].period,
		    t->tot[ev].period), v[i].samples);
		for (j = 0; j < t->o.nkeys; j++)
			fprintf(f, "  %-*s", (int)w[j], cell(t, &v[i],
			    t->o.key[j], buf, sizeof(buf)));
		fputc('\n', f);
		if (t->o.tree)
			tree_print(t, f, v[i].tree, t->o.children ?
			    v[i].acc : v[i].period, t->tot[ev].period);
	}
	free(v);
	if (t->tot[ev].dropped > 0)
		fprintf(f, "  %" PRIu64 " samples past %u rows are not in this "
		    "table\n", t->tot[ev].dropped, ROWS_MAX);
	if (t->tot[ev].cut > 0)
		fprintf(f, "  %" PRIu64 " call chains cut short: the trees "
		    "hold %u nodes\n", t->tot[ev].cut, TREE_NODES_MAX);
}

void
symtop_print(struct symtop *t, FILE *f, const struct pd_evlist *el,
    size_t n)
{
	size_t ev;

	for (ev = 0; ev < pd_evlist_count(el) && ev < t->ntot; ev++)
		if (t->tot[ev].samples > 0)
			print_event(t, f, el, ev, n);
}

/*
 * The branches under node n as a JSON array, as tree_level() draws
 * them: each its run of frames, its share and its own branches.
 */
static void
tree_json(struct symtop *t, FILE *f, uint32_t n, uint64_t min,
    uint64_t total, size_t depth)
{
	uint32_t *kids, m;
	size_t k, i;
	char buf[64];

	fputc('[', f);
	k = depth < TREE_DEPTH_MAX ? tnode_kids(t, n, min, &kids) : 0;
	for (i = 0; i < k; i++) {
		m = kids[i];
		fprintf(f, "%s{\"period\": %" PRIu64 ", \"percent\": %.2f, "
		    "\"frames\": [", i ? ", " : "", t->tn[m].cumul,
		    pct(t->tn[m].cumul, total));
		for (;;) {
			if (t->tn[m].sym != NULL)
				pd_json_str(f, t->tn[m].sym);
			else {
				snprintf(buf, sizeof(buf), "%#" PRIx64,
				    t->tn[m].addr);
				pd_json_str(f, buf);
			}
			if (tnode_next(t, m) == 0)
				break;
			m = tnode_next(t, m);
			fputs(", ", f);
		}
		fputs("], \"children\": ", f);
		tree_json(t, f, m, min, total, depth + 1);
		fputc('}', f);
	}
	if (k > 0)
		free(kids);
	fputc(']', f);
}

/* One row's keys as JSON members, each followed by ", ". */
static void
json_keys(struct symtop *t, FILE *f, const struct shown *s)
{
	const struct row *r = s->r;
	char nb[16];
	size_t j;

	for (j = 0; j < t->o.nkeys; j++) {
		switch (t->o.key[j]) {
		case SYMTOP_COMM:
			fputs("\"comm\": ", f);
			pd_json_str(f, comm_name(s));
			break;
		case SYMTOP_PID:
			fprintf(f, "\"pid\": %d, \"pid_comm\": ", (int)r->k.tid);
			pd_json_str(f, thread_name(t, r->k.tid, nb,
			    sizeof(nb)));
			break;
		case SYMTOP_DSO:
			fputs("\"dso\": ", f);
			pd_json_str(f, r->k.dso);
			break;
		case SYMTOP_SYM:
			fputs("\"sym\": ", f);
			if (r->k.sym != NULL)
				pd_json_str(f, r->k.sym);
			else
				fprintf(f, "null, \"addr\": \"0x%" PRIx64 "\"",
				    r->k.addr);
			fprintf(f, ", \"kernel\": %s", r->kernel ? "true" :
			    "false");
			if (!t->has[SYMTOP_DSO]) {
				fputs(", \"dso\": ", f);
				pd_json_str(f, r->k.dso);
			}
			break;
		}
		fputs(", ", f);
	}
}

void
symtop_json(struct symtop *t, FILE *f, const struct pd_evlist *el,
    size_t n)
{
	struct shown *v;
	char buf[64];
	size_t ev, i, j, k, shown;
	const char *sep = "";

	fputc('[', f);
	for (ev = 0; ev < pd_evlist_count(el) && ev < t->ntot; ev++) {
		if (t->tot[ev].samples == 0)
			continue;
		fprintf(f, "%s\n    {\"event\": ", sep);
		pd_json_str(f, evname(el, ev, buf, sizeof(buf)));
		fputs(", \"by\": \"", f);
		for (j = 0; j < t->o.nkeys; j++)
			fprintf(f, "%s%s", j ? "," : "",
			    keys[t->o.key[j]].name);
		fprintf(f, "\"%s, \"samples\": %" PRIu64 ", \"period\": %"
		    PRIu64 ", \"not_shown\": %" PRIu64 ", \"rows\": [",
		    t->o.children ? ", \"children\": true" : "",
		    t->tot[ev].samples, t->tot[ev].period,
		    t->tot[ev].dropped);
		sep = ",";
		v = ranked(t, ev, &k);
		for (i = 0, shown = 0; i < k && shown < n; i++) {
			if (!over_limit(t, &v[i], ev))
				continue;
			fprintf(f, "%s\n      {", shown++ ? "," : "");
			json_keys(t, f, &v[i]);
			fprintf(f, "\"samples\": %" PRIu64 ", \"period\": %"
			    PRIu64 ", \"percent\": %.2f", v[i].samples,
			    v[i].period, pct(v[i].period, t->tot[ev].period));
			if (t->o.children)
				fprintf(f, ", \"children_period\": %" PRIu64
				    ", \"children_percent\": %.2f", v[i].acc,
				    pct(v[i].acc, t->tot[ev].period));
			if (t->o.tree && v[i].tree != 0) {
				fputs(", \"callchain\": ", f);
				tree_json(t, f, v[i].tree, tree_min(t,
				    t->tot[ev].period), t->tot[ev].period, 0);
			}
			fputc('}', f);
		}
		free(v);
		fprintf(f, "%s]}", shown ? "\n    " : "");
	}
	fprintf(f, "%s]", *sep ? "\n  " : "");
}
