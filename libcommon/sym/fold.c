/* SPDX-License-Identifier: MIT */
/*
 * The frame-name rules of stackcollapse-perf.pl (its documented behaviour
 * with --all, reimplemented; none of its code), so that our folded output
 * and `perf script | stackcollapse-perf.pl --all` compare with diff.
 */
#include "libcommon/sym/fold.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/perf.h"
#include "libcommon/sym/stacks.h"
#include "libcommon/sym/symbols.h"

size_t
pd_fold_comm(const char *comm, char *buf, size_t len)
{
	size_t i;

	if (len == 0)
		return 0;
	for (i = 0; comm[i] != '\0' && i < len - 1; i++)
		buf[i] = comm[i] == ' ' ? '_' : comm[i];
	buf[i] = '\0';
	return i;
}

/* Does s hold ".(" and, later, ")."? (a Go method: "net/http.(*Client).Do") */
static int
go_method(const char *s, size_t n)
{
	const char *open = memmem(s, n, ".(", 2);

	return open != NULL && memmem(open + 2, n - (open + 2 - s), ").",
	    2) != NULL;
}

static int
suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && memcmp(s + n - m, suf, m) == 0;
}

/* /tmp/perf-<digits>.map or .../jitted-<digits>-<digits>.so in s */
static int
jit_dso(const char *s)
{
	const char *p;

	for (p = s; (p = strstr(p, "/tmp/perf-")) != NULL; p++) {
		const char *q = p + 10;

		if (*q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (strncmp(q, ".map", 4) == 0)
			return 1;
	}
	for (p = s; (p = strstr(p, "/jitted-")) != NULL; p++) {
		const char *q = p + 8;

		if (*q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (*q++ != '-' || *q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (strncmp(q, ".so", 3) == 0)
			return 1;
	}
	return 0;
}

/*
 * One part of a name, tidied, into out (room for n + 1 bytes, n >= 1):
 * returns the length.
 */
static size_t
tidy(const char *s, size_t n, const char *dso, int java, char *out,
    size_t room)
{
	const char *p;
	size_t i, o = 0, cut = n;

	if (n == 9 && memcmp(s, "[unknown]", 9) == 0) {
		const char *base = "unknown";
		size_t blen;

		if (dso != NULL && strcmp(dso, "[unknown]") != 0) {
			base = strrchr(dso, '/');
			base = base != NULL ? base + 1 : dso;
		}
		/*
		 * A file gone since it was mapped: perf names it "path
		 * (deleted)", which stackcollapse-perf.pl's pattern splits
		 * in two ("[unknown] "); its name alone is better.
		 */
		blen = strlen(base);
		if (suffix(base, " (deleted)"))
			blen -= 10;
		o = snprintf(out, room, "[%.*s]", (int)blen, base);
		if (o >= room)
			o = room - 1;
		s = out;
		n = o;
		/* Tidied in place below: the writes never pass the reads. */
		cut = n;
	}
	if (!go_method(s, n)) {
		for (p = s; (p = memchr(p, '(', n - (p - s))) != NULL; p++)
			if (n - (p - s) < 20 ||
			    memcmp(p + 1, "anonymous namespace)", 20) != 0) {
				cut = p - s;
				break;
			}
	}
	o = 0;
	i = 0;
	if (java && memchr(s, '/', cut) != NULL && cut > 0 && s[0] == 'L')
		i = 1;
	for (; i < cut && o < room - 1; i++) {
		char c = s[i];

		if (c == '"' || c == '\'')
			continue;
		out[o++] = c == ';' ? ':' : c;
	}
	return o;
}

ssize_t
pd_fold_frame(const char *name, const char *dso, int java, char *buf,
    size_t len)
{
	static const char *const unknown = "[unknown]";
	const char *part, *end, *arrow;
	size_t o = 0, k = 0, n, nparts;
	const char *ann = NULL;

	if (name == NULL)
		name = unknown;
	if (name[0] == '(')
		return 0;
	if (dso != NULL && (dso[0] == '[' || suffix(dso, "vmlinux")) &&
	    strstr(dso, "unknown") == NULL)
		ann = "_[k]";
	else if (dso != NULL && jit_dso(dso))
		ann = "_[j]";

	/* Perl's split drops trailing empty parts: "a->" is one frame. */
	end = name + strlen(name);
	while (end - name >= 2 && end[-2] == '-' && end[-1] == '>')
		end -= 2;
	if (end == name)
		return 0;
	for (nparts = 1, part = name; (arrow = memmem(part, end - part,
	    "->", 2)) != NULL; part = arrow + 2)
		nparts++;
	if (len < nparts)
		return -1;

	for (part = name; k < nparts; part = arrow + 2, k++) {
		const char *a = k > 0 ? "_[i]" : ann;
		size_t room = len - o - (nparts - k - 1);	/* keep 1 each */

		arrow = memmem(part, end - part, "->", 2);
		if (arrow == NULL)
			arrow = end;
		/* tidy() writes the "[dso]" form first: it needs room. */
		n = tidy(part, arrow - part, dso, java, buf + o, room);
		if (a != NULL) {
			size_t m = strlen(a);

			if (n + m > room - 1)
				m = room - 1 - n;
			memcpy(buf + o + n, a, m);
			n += m;
		}
		buf[o + n] = '\0';
		o += n + 1;
	}
	return nparts;
}

/*
 * The folding of samples. Naming a frame costs more than counting it,
 * so each (name, dso) the symbolizer hands out is named once: its
 * strings live as long as the pd_syms, so their addresses are the key
 * of a cache of interned ids. A comm has a small cache of its own
 * (struct comm_slot).
 */
#define IDS_MAX		2048	/* frames of one stack, comm included */
#define FRAME_BUF	8192	/* one frame's folded names */

/*
 * The comms of recent samples and their ids: folding and interning
 * a sample's comm anew was a tenth of a flame graph's instructions.
 * A slot is found by the comm's address and taken only when it still
 * holds the slot's copy of the text, since the address may hold
 * another string by then (a buffer, a freed pd_syms' string).
 */
#define COMM_SLOTS	64
#define COMM_TEXT	32

struct comm_slot {
	const char	*at;
	uint32_t	 id;
	int		 java;
	char		 text[COMM_TEXT];
};

struct cent {
	const char	*name, *dso;
	uint32_t	 off;		/* into cids */
	uint16_t	 n;
	uint8_t		 java, used;
};

/*
 * Kernel frames kept by address. /proc/kallsyms takes the kernel 30 to
 * 50 ms to write, a fifth of a flame graph of 800,000 samples and most
 * of a small one's; it is read ahead on a thread, and while it is
 * (pd_klater_ask), a sample's kernel frames go into its stack as ids of
 * their own (KEPT | index) and the stack into `pend`. When the names
 * come, or anything they depend on is about to change (pd_klater),
 * name_kept() names each kept address once, as its samples would have
 * named it then, and moves every pending stack into the real ones with
 * its frames spelled out. The stacks are the
 * same as if the names had been there all along: the order stacks are
 * added in shows nowhere (they are sorted before anything is written),
 * and a stack that reaches IDS_MAX, where a frame's spelling would
 * change what is cut, is not kept but waits for the names.
 */
#define KEPT		0x80000000U

struct kept {
	uint64_t	 addr;
	uint32_t	 at, n;		/* in kids, once named */
	int		 java;
};

static int	name_kept(void *, struct pd_syms *);

struct pd_fold {
	struct pd_stacks	*st;
	int			 view;	/* our word of the pd_syms' address
					   cache: an address's ids; -1: none
					   asked for yet, -2: none left */
	struct cent		*cache;
	size_t			 ccap, cn;	/* ccap: a power of two */
	uint32_t		*cids;
	size_t			 ncids, cids_cap;
	char			*event;
	uint64_t		 left_out;
	struct pd_syms		*inl;		/* inlined functions from */
	/* Kernel frames kept by address (struct kept). */
	struct pd_klater	 kl;
	struct pd_stacks	*pend;		/* the stacks that hold them */
	struct kept		*kept;
	size_t			 nkept, keptcap;
	uint32_t		*kslot;		/* kept index + 1; 0: free */
	size_t			 kscap;		/* a power of two */
	uint32_t		*kids;		/* their ids, once named */
	size_t			 nkids, kidscap;
	struct comm_slot	 comms[COMM_SLOTS];
	uint32_t		 ids[IDS_MAX];
	size_t			 nids;		/* in ids, by stack_frames */
	char			 buf[FRAME_BUF];
};

struct pd_fold *
pd_fold_new(void)
{
	struct pd_fold *f = calloc(1, sizeof(*f));

	if (f != NULL && (f->st = pd_stacks_new()) == NULL) {
		free(f);
		f = NULL;
	}
	if (f != NULL) {
		f->view = -1;
		f->kl.settle = name_kept;
		f->kl.ctx = f;
	}
	return f;
}

void
pd_fold_free(struct pd_fold *f)
{
	if (f == NULL)
		return;
	pd_klater_drop(&f->kl);
	pd_stacks_free(f->pend);
	free(f->kept);
	free(f->kslot);
	free(f->kids);
	pd_stacks_free(f->st);
	free(f->cache);
	free(f->cids);
	free(f->event);
	free(f);
}

void
pd_fold_forget(struct pd_fold *f)
{
	/* Out of memory: the next pd_fold_add_frames says so. */
	(void)pd_fold_settle(f);
	if (f->cache != NULL)
		memset(f->cache, 0, f->ccap * sizeof(*f->cache));
	f->cn = 0;
	f->ncids = 0;
	/* A new pd_syms has a new address cache. */
	f->view = -1;
	f->inl = NULL;		/* that pd_syms goes: set again for the next */
}

void
pd_fold_set_inline(struct pd_fold *f, struct pd_syms *sy)
{
	f->inl = sy;
}

struct pd_stacks *
pd_fold_stacks(struct pd_fold *f)
{
	return f->st;
}

const char *
pd_fold_event(const struct pd_fold *f)
{
	return f->event;
}

uint64_t
pd_fold_left_out(const struct pd_fold *f)
{
	return f->left_out;
}

static size_t
cache_slot(const struct pd_fold *f, const char *name, const char *dso,
    int java)
{
	uint64_t h = (uintptr_t)name * 0x9e3779b97f4a7c15ULL ^
	    (uintptr_t)dso * 0xc2b2ae3d27d4eb4fULL ^ (uint64_t)java;
	size_t i;

	h ^= h >> 29;
	for (i = h & (f->ccap - 1); f->cache[i].used &&
	    (f->cache[i].name != name || f->cache[i].dso != dso ||
	    f->cache[i].java != java); i = (i + 1) & (f->ccap - 1))
		;
	return i;
}

static int
cache_grow(struct pd_fold *f)
{
	struct cent *old = f->cache;
	size_t ocap = f->ccap, i;

	f->ccap = ocap ? ocap * 2 : 4096;
	if ((f->cache = calloc(f->ccap, sizeof(*f->cache))) == NULL) {
		f->cache = old;
		f->ccap = ocap;
		return -1;
	}
	for (i = 0; i < ocap; i++)
		if (old[i].used)
			f->cache[cache_slot(f, old[i].name, old[i].dso,
			    old[i].java)] = old[i];
	free(old);
	return 0;
}

/* Room for need ids in *v (capacity *cap, doubled). 0, or -1 (memory). */
static int
ids_room(uint32_t **v, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap * 2 : 4096;
	uint32_t *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if ((q = realloc(*v, n * sizeof(*q))) == NULL)
		return -1;
	*v = q;
	*cap = n;
	return 0;
}

/* The interned ids of one resolved frame: *ids, *n (0: no frame). */
static int
frame_ids(struct pd_fold *f, const char *name, const char *dso, int java,
    const uint32_t **ids, size_t *n)
{
	struct cent *c;
	size_t i, p = 0;
	ssize_t m;

	if ((f->cn + 1) * 2 > f->ccap && cache_grow(f) < 0)
		return -1;
	c = &f->cache[cache_slot(f, name, dso, java)];
	if (!c->used) {
		m = pd_fold_frame(name, dso, java, f->buf, sizeof(f->buf));
		if (m < 0)
			m = 0;
		if (ids_room(&f->cids, &f->cids_cap, f->ncids + m) < 0)
			return -1;
		for (i = 0; i < (size_t)m; i++) {
			size_t len = strlen(f->buf + p);

			if (pd_stacks_intern(f->st, f->buf + p, len,
			    &f->cids[f->ncids + i]) < 0)
				return -1;
			p += len + 1;
		}
		c->name = name;
		c->dso = dso;
		c->java = java;
		c->off = f->ncids;
		c->n = m;
		c->used = 1;
		f->ncids += m;
		f->cn++;
	}
	*ids = f->cids + c->off;
	*n = c->n;
	return 0;
}

/*
 * The functions inlined at a resolved frame, outermost first, after its
 * own names (the function it is in) at f->ids[*k]: named as frames of
 * its dso. Returns the count of frames added (0: nothing inlined), or
 * -1 when out of memory.
 */
static int
inline_ids(struct pd_fold *f, const struct pd_symres *r, int java, size_t *k)
{
	const struct pd_srcframe *sf;
	const uint32_t *fid;
	size_t n, m, j;

	if (f->inl == NULL || r->file == NULL ||
	    (n = pd_syms_inline(f->inl, r, &sf)) <= 1)
		return 0;
	for (j = n - 1; j-- > 0;) {
		if (frame_ids(f, sf[j].name, r->dso, java, &fid, &m) < 0)
			return -1;
		if (m > IDS_MAX - *k)
			m = IDS_MAX - *k;
		while (m-- > 0)
			f->ids[(*k)++] = *fid++;
	}
	return (int)n - 1;
}

/*
 * The event filter and the comm, the stack's first frame: 1 and *java,
 * 0 when the sample is left out, -1 when out of memory.
 */
static int
fold_head(struct pd_fold *f, const char *event, const char *comm,
    uint32_t tid, int *java)
{
	struct comm_slot *cs;
	char cbuf[64];
	size_t len;

	if (event == NULL)
		event = "";
	if (f->event == NULL) {
		if ((f->event = strdup(event)) == NULL)
			return -1;
	} else if (strcmp(f->event, event) != 0) {
		f->left_out++;
		return 0;
	}
	/*
	 * perf names a thread it saw no COMM for ":tid", and the idle
	 * task (no COMM ever) "swapper".
	 */
	if (comm == NULL && tid == 0)
		comm = "swapper";
	else if (comm == NULL) {
		snprintf(cbuf, sizeof(cbuf), ":%" PRId32, (int32_t)tid);
		comm = cbuf;
	}
	cs = &f->comms[((uintptr_t)comm >> 4 ^ (uintptr_t)comm >> 11) &
	    (COMM_SLOTS - 1)];
	if (cs->at == comm && strcmp(cs->text, comm) == 0) {
		f->ids[0] = cs->id;
		*java = cs->java;
		return 1;
	}
	len = pd_fold_comm(comm, f->buf, sizeof(f->buf));
	*java = strcmp(f->buf, "java") == 0;
	if (pd_stacks_intern(f->st, f->buf, len, &f->ids[0]) < 0)
		return -1;
	if ((len = strlen(comm)) < COMM_TEXT) {
		cs->at = comm;
		memcpy(cs->text, comm, len + 1);
		cs->id = f->ids[0];
		cs->java = *java;
	}
	return 1;
}

int
pd_fold_add(struct pd_fold *f, const char *event, const char *comm,
    uint32_t tid, const struct pd_symres *syms, size_t n, uint64_t period)
{
	const uint32_t *fid;
	size_t i, k = 1, m;
	int java, r;

	if ((r = fold_head(f, event, comm, tid, &java)) <= 0)
		return r;
	for (i = n; i-- > 0;) {
		if (frame_ids(f, syms[i].name, syms[i].dso != NULL ?
		    syms[i].dso : "[unknown]", java, &fid, &m) < 0)
			return -1;
		if (m > IDS_MAX - k)
			m = IDS_MAX - k;
		/* Mostly one id: a loop beats a call to memcpy. */
		while (m-- > 0)
			f->ids[k++] = *fid++;
		if (inline_ids(f, &syms[i], java, &k) < 0)
			return -1;
	}
	if (pd_stacks_add(f->st, f->ids, k, 1, period) < 0)
		return -1;
	return 1;
}

/* The id of kernel address addr kept for later; -1: out of memory. */
static int
keep(struct pd_fold *f, uint64_t addr, int java, uint32_t *id)
{
	uint64_t key = addr << 1 | (uint64_t)java;
	size_t i, mask;
	uint32_t k;

	if ((f->nkept + 1) * 2 > f->kscap) {
		size_t cap = f->kscap ? f->kscap * 2 : 1024, n;
		uint32_t *v = calloc(cap, sizeof(*v));

		if (v == NULL)
			return -1;
		free(f->kslot);
		f->kslot = v;
		f->kscap = cap;
		for (n = 0; n < f->nkept; n++) {
			key = f->kept[n].addr << 1 | (uint64_t)f->kept[n].java;
			for (i = (key * 0x9e3779b97f4a7c15ULL) >> 40 & (cap - 1);
			    v[i] != 0; i = (i + 1) & (cap - 1))
				;
			v[i] = (uint32_t)n + 1;
		}
		key = addr << 1 | (uint64_t)java;
	}
	mask = f->kscap - 1;
	for (i = (key * 0x9e3779b97f4a7c15ULL) >> 40 & mask;
	    (k = f->kslot[i]) != 0; i = (i + 1) & mask)
		if (f->kept[k - 1].addr == addr && f->kept[k - 1].java == java) {
			*id = KEPT | (k - 1);
			return 0;
		}
	if (f->nkept == f->keptcap) {
		size_t cap = f->keptcap ? f->keptcap * 2 : 1024;
		struct kept *v = realloc(f->kept, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		f->kept = v;
		f->keptcap = cap;
	}
	f->kept[f->nkept].addr = addr;
	f->kept[f->nkept].java = java;
	f->kslot[i] = (uint32_t)++f->nkept;
	*id = KEPT | (uint32_t)(f->nkept - 1);
	return 0;
}

/* The kept frames named (pd_klater's settle). */
static int
name_kept(void *ctx, struct pd_syms *sy)
{
	struct pd_fold *f = ctx;
	struct pd_stack s;
	const uint32_t *fid;
	size_t i, j, k, m;
	int r = -1;

	/* Each kept address named once, by the rules of its samples. */
	for (i = 0; i < f->nkept; i++) {
		struct kept *kp = &f->kept[i];
		struct pd_symc *c = pd_syms_lookup(sy, 0,
		    PERF_RECORD_MISC_KERNEL, kp->addr);

		if (frame_ids(f, c->r.name, c->r.dso != NULL ? c->r.dso :
		    "[unknown]", kp->java, &fid, &m) < 0)
			goto out;
		if (ids_room(&f->kids, &f->kidscap, f->nkids + m) < 0)
			goto out;
		memcpy(f->kids + f->nkids, fid, m * sizeof(*fid));
		kp->at = (uint32_t)f->nkids;
		kp->n = (uint32_t)m;
		f->nkids += m;
	}
	/* Each pending stack spelled out, as pd_fold_add_frames does. */
	for (i = 0; f->pend != NULL && i < pd_stacks_count(f->pend); i++) {
		pd_stacks_get(f->pend, i, &s);
		for (j = k = 0; j < s.n; j++) {
			const struct kept *kp;

			if (!(s.ids[j] & KEPT)) {
				if (k < IDS_MAX)
					f->ids[k++] = s.ids[j];
				continue;
			}
			kp = &f->kept[s.ids[j] & ~KEPT];
			m = kp->n < IDS_MAX - k ? kp->n : IDS_MAX - k;
			memcpy(f->ids + k, f->kids + kp->at, m * sizeof(*fid));
			k += m;
		}
		if (pd_stacks_add(f->st, f->ids, k, s.count, s.period) < 0)
			goto out;
	}
	r = 0;
out:
	pd_stacks_free(f->pend);
	f->pend = NULL;
	f->nkept = f->nkids = 0;
	if (f->kslot != NULL)
		memset(f->kslot, 0, f->kscap * sizeof(*f->kslot));
	return r;
}

int
pd_fold_settle(struct pd_fold *f)
{
	return pd_klater_settle(&f->kl);
}

/*
 * The stack of a sample as pd_fold_stack_frames makes it; with `defer`,
 * its kernel frames are kept by address while their names wait (*kept
 * then 1: the stack goes into f->pend).
 */
static int
stack_frames(struct pd_fold *f, struct pd_syms *sy, const char *event,
    uint32_t pid, uint32_t tid, const struct pd_frame *frames, size_t n,
    int defer, int *kept)
{
	const uint32_t *fid;
	size_t i, k = 1, m;
	int java, rv;
	uint32_t kid;

	*kept = 0;
	if ((rv = fold_head(f, event, pd_syms_comm(sy, pid, tid), tid,
	    &java)) <= 0)
		return rv;
	if (f->view == -1 && (f->view = pd_syms_view_new(sy)) < 0)
		f->view = -2;
	for (i = n; i-- > 0;) {
		struct pd_symc *c;
		uint64_t v;

		if (defer && frames[i].cpumode == PERF_RECORD_MISC_KERNEL) {
			if (keep(f, frames[i].addr, java, &kid) < 0)
				return -1;
			if (k < IDS_MAX)
				f->ids[k++] = kid;
			*kept = 1;
			continue;
		}
		c = pd_syms_lookup(sy, pid, frames[i].cpumode, frames[i].addr);
		/* A java frame is named otherwise: not kept. */
		if (f->view >= 0 && !java && (v = c->view[f->view]) != 0) {
			fid = f->cids + (uint32_t)(v >> 16);
			m = v & 0xffff;
		} else {
			if (frame_ids(f, c->r.name, c->r.dso != NULL ?
			    c->r.dso : "[unknown]", java, &fid, &m) < 0)
				return -1;
			/*
			 * With inlined functions: the frames straight into
			 * the stack, not kept in the view word (the
			 * symbolizer caches each address's).
			 */
			if (c->r.file != NULL && f->inl != NULL) {
				if (m > IDS_MAX - k)
					m = IDS_MAX - k;
				while (m-- > 0)
					f->ids[k++] = *fid++;
				if (inline_ids(f, &c->r, java, &k) < 0)
					return -1;
				continue;
			}
			if (f->view >= 0 && !java)
				c->view[f->view] = (uint64_t)(fid - f->cids) <<
				    16 | m | 1ULL << 63;
		}
		if (m > IDS_MAX - k)
			m = IDS_MAX - k;
		while (m-- > 0)
			f->ids[k++] = *fid++;
	}
	f->nids = k;
	return 1;
}

int
pd_fold_add_frames(struct pd_fold *f, struct pd_syms *sy, const char *event,
    uint32_t pid, uint32_t tid, const struct pd_frame *frames, size_t n,
    uint64_t period)
{
	int r, defer, kept;

	if ((defer = pd_klater_ask(&f->kl, sy)) < 0)
		return -1;
	if ((r = stack_frames(f, sy, event, pid, tid, frames, n, defer,
	    &kept)) <= 0)
		return r;
	if (kept && f->nids >= IDS_MAX) {
		/* Cut short: only the names say where. */
		if (pd_fold_settle(f) < 0)
			return -1;
		if ((r = stack_frames(f, sy, event, pid, tid, frames, n, 0,
		    &kept)) <= 0)
			return r;
	}
	if (kept) {
		if (f->pend == NULL && (f->pend = pd_stacks_new()) == NULL)
			return -1;
		return pd_stacks_add(f->pend, f->ids, f->nids, 1, period) < 0 ?
		    -1 : 1;
	}
	if (pd_stacks_add(f->st, f->ids, f->nids, 1, period) < 0)
		return -1;
	return 1;
}

int
pd_fold_stack_frames(struct pd_fold *f, struct pd_syms *sy, const char *event,
    uint32_t pid, uint32_t tid, const struct pd_frame *frames, size_t n,
    const uint32_t **ids, size_t *nids)
{
	int kept, r;

	/* Its caller keeps the ids: nothing may be spelled out later. */
	if (pd_fold_settle(f) < 0)
		return -1;
	if ((r = stack_frames(f, sy, event, pid, tid, frames, n, 0,
	    &kept)) <= 0)
		return r;
	*ids = f->ids;
	*nids = f->nids;
	return 1;
}
