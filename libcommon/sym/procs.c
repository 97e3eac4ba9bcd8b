/* SPDX-License-Identifier: MIT */
/*
 * Processes, threads and their maps, from COMM, FORK, EXIT, MMAP and
 * MMAP2 records, kept the way perf's machine.c keeps them: a thread has
 * a comm and belongs to a process (pid); maps belong to the process, so
 * threads share them; a new process starts with a copy of its parent's
 * maps; a map that overlaps older ones cuts them.
 */
#include "libcommon/sym/symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/idmap.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/symint.h"

/* Pids, tids and strings come from the stream: seeded, mixed hashes. */
static uint64_t
hash32(const struct pd_syms *sy, uint32_t k)
{
	return pd_idmap_mix(k, sy->seed);
}

static uint64_t
hashstr(const struct pd_syms *sy, const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL ^ sy->seed;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return pd_idmap_mix(h, 0);
}

/*
 * Strings (comms, dso names) are kept once each, so memory follows the
 * number of distinct strings, not of threads or records.
 */
const char *
pd_syms_intern(struct pd_syms *sy, const char *s, size_t len)
{
	struct strset *ss = &sy->strs;
	size_t i, mask;
	char *p;

	if (ss->n * 2 >= ss->cap) {
		size_t ncap = ss->cap ? ss->cap * 2 : 256, j;
		char **nv = calloc(ncap, sizeof(*nv));

		if (nv == NULL)
			return NULL;
		for (j = 0; j < ss->cap; j++) {
			if (ss->v[j] == NULL)
				continue;
			i = hashstr(sy, ss->v[j], strlen(ss->v[j])) & (ncap - 1);
			while (nv[i] != NULL)
				i = (i + 1) & (ncap - 1);
			nv[i] = ss->v[j];
		}
		free(ss->v);
		ss->v = nv;
		ss->cap = ncap;
	}
	mask = ss->cap - 1;
	for (i = hashstr(sy, s, len) & mask; ss->v[i] != NULL; i = (i + 1) & mask)
		if (strncmp(ss->v[i], s, len) == 0 && ss->v[i][len] == '\0')
			return ss->v[i];
	if ((p = malloc(len + 1)) == NULL)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	ss->v[i] = p;
	ss->n++;
	return p;
}

static struct thread *
thread_get(struct pd_syms *sy, uint32_t tid, int create)
{
	size_t i, mask;

	if (sy->tcap == 0 || (create && sy->tn * 2 >= sy->tcap)) {
		size_t ncap = sy->tcap ? sy->tcap * 2 : 64, j;
		struct thread *nt;

		if (!create)
			return NULL;
		if ((nt = calloc(ncap, sizeof(*nt))) == NULL)
			return NULL;
		for (j = 0; j < sy->tcap; j++) {
			if (!sy->threads[j].used)
				continue;
			i = hash32(sy, sy->threads[j].tid) & (ncap - 1);
			while (nt[i].used)
				i = (i + 1) & (ncap - 1);
			nt[i] = sy->threads[j];
		}
		free(sy->threads);
		sy->threads = nt;
		sy->tcap = ncap;
	}
	mask = sy->tcap - 1;
	for (i = hash32(sy, tid) & mask; sy->threads[i].used; i = (i + 1) & mask)
		if (sy->threads[i].tid == tid)
			return &sy->threads[i];
	if (!create)
		return NULL;
	sy->threads[i].used = 1;
	sy->threads[i].tid = tid;
	sy->threads[i].pid = tid;
	sy->threads[i].comm = NULL;
	sy->threads[i].later = NULL;
	sy->tn++;
	return &sy->threads[i];
}

struct proc *
pd_syms_proc(struct pd_syms *sy, uint32_t pid, int create)
{
	size_t i, mask;

	if (sy->plast != NULL && sy->plast->pid == pid)
		return sy->plast;
	if (sy->pcap == 0 || (create && sy->pn * 2 >= sy->pcap)) {
		size_t ncap = sy->pcap ? sy->pcap * 2 : 64, j;
		struct proc *np;

		if (!create)
			return NULL;
		if ((np = calloc(ncap, sizeof(*np))) == NULL)
			return NULL;
		for (j = 0; j < sy->pcap; j++) {
			if (!sy->procs[j].used)
				continue;
			i = hash32(sy, sy->procs[j].pid) & (ncap - 1);
			while (np[i].used)
				i = (i + 1) & (ncap - 1);
			np[i] = sy->procs[j];
		}
		free(sy->procs);
		sy->procs = np;
		sy->pcap = ncap;
		sy->plast = NULL;
	}
	mask = sy->pcap - 1;
	for (i = hash32(sy, pid) & mask; sy->procs[i].used; i = (i + 1) & mask)
		if (sy->procs[i].pid == pid)
			return sy->plast = &sy->procs[i];
	if (!create)
		return NULL;
	memset(&sy->procs[i], 0, sizeof(sy->procs[i]));
	sy->procs[i].used = 1;
	sy->procs[i].pid = pid;
	sy->procs[i].gen = ++sy->gen;
	sy->pn++;
	return &sy->procs[i];
}

/*
 * A process's maps are two sorted arrays of maps that do not overlap:
 * the base, and the recent ones, all newer, which cut the base's where
 * they overlap them. A new map goes into the short recent array; when
 * that is full it is merged into the base in one linear pass. So a map
 * costs O(sqrt(maps)) however the stream orders the addresses (inserted
 * into one sorted array, maps in descending order cost O(maps) each).
 */
static size_t
recent_max(const struct proc *p)
{
	size_t k = 256;

	while (k * k < p->base.n)
		k *= 2;
	return k;
}

/* Drops a vector of maps; a shared one stays with the others. */
static void
vec_free(struct pd_syms *sy, struct mapv *v)
{
	if (v->refs != NULL && --*v->refs > 0) {
		/* Another process still has them. */
	} else {
		sy->nmaps -= v->n;
		free(v->maps);
		free(v->dsos);
		free(v->refs);
	}
	memset(v, 0, sizeof(*v));
}

/* Drops the process's maps; shared ones stay with the others. */
static void
proc_clear(struct pd_syms *sy, struct proc *p)
{
	vec_free(sy, &p->base);
	vec_free(sy, &p->recent);
	p->last = 0;
}

/* Map entries for `more` new ones, within PD_SYMS_MAPS_MAX. 0, or -1. */
static int
maps_take(struct pd_syms *sy, size_t more)
{
	if (more > PD_SYMS_MAPS_MAX - sy->nmaps) {
		if (!sy->maps_full)
			pd_syms_note(sy, "more than %u maps kept: further "
			    "maps are dropped and counted as unusable; their "
			    "samples show as [unknown]", PD_SYMS_MAPS_MAX);
		sy->maps_full = 1;
		return -1;
	}
	sy->nmaps += more;
	return 0;
}

void
pd_syms_procs_free(struct pd_syms *sy)
{
	size_t i;

	for (i = 0; i < sy->pcap; i++)
		if (sy->procs[i].used)
			proc_clear(sy, &sy->procs[i]);
	free(sy->procs);
	for (i = 0; i < sy->nkv; i++)
		proc_clear(sy, &sy->kv[i]->kern);
	if (sy->nkv == 0)
		proc_clear(sy, &sy->k0.kern);
	free(sy->threads);
	while (sy->laters != NULL) {
		struct pd_syms_later *l = sy->laters;

		sy->laters = l->next;
		free(l);
	}
	for (i = 0; i < sy->strs.cap; i++)
		free(sy->strs.v[i]);
	free(sy->strs.v);
}

static int
vec_reserve(struct mapv *v, size_t n)
{
	size_t ncap;
	struct pd_map *nm;
	struct dso **nd;

	if (n <= v->cap)
		return 0;
	ncap = v->cap ? v->cap * 2 : 16;
	while (ncap < n)
		ncap *= 2;
	if ((nm = realloc(v->maps, ncap * sizeof(*nm))) == NULL)
		return -1;
	v->maps = nm;
	if ((nd = realloc(v->dsos, ncap * sizeof(*nd))) == NULL)
		return -1;
	v->dsos = nd;
	v->cap = ncap;
	return 0;
}

/* The index of the first map whose end is above addr. */
static size_t
first_above(const struct mapv *v, uint64_t addr)
{
	size_t lo = 0, hi = v->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Inserts [m.start, m.end) into the recent maps and cuts what it
 * overlaps there, keeping the parts of older maps before and after it
 * (perf's maps__fixup_overlappings). 1 when it cut a map, 0 when not,
 * -1 when out of memory or over PD_SYMS_MAPS_MAX.
 */
static int
vec_insert(struct pd_syms *sy, struct mapv *v, const struct pd_map *m,
    struct dso *dso)
{
	size_t i, i0, j, k;
	struct pd_map head, tail;
	struct dso *hd = NULL, *td = NULL;
	int has_head = 0, has_tail = 0;

	i0 = i = first_above(v, m->start);
	for (j = i; j < v->n && v->maps[j].start < m->end; j++) {
		if (j == i && v->maps[j].start < m->start) {
			head = v->maps[j];
			head.end = m->start;
			hd = v->dsos[j];
			has_head = 1;
		}
		if (v->maps[j].end > m->end) {
			tail = v->maps[j];
			tail.start = m->end;
			tail.pgoff += m->end - v->maps[j].start;
			td = v->dsos[j];
			has_tail = 1;
		}
	}
	/* maps[i, j) go; head, m, tail come in. */
	k = (size_t)has_head + 1 + (size_t)has_tail;
	if (k > j - i && maps_take(sy, k - (j - i)) < 0)
		return -1;
	if (vec_reserve(v, v->n - (j - i) + k) < 0) {
		if (k > j - i)
			sy->nmaps -= k - (j - i);
		return -1;
	}
	if (k < j - i)
		sy->nmaps -= (j - i) - k;
	memmove(v->maps + i + k, v->maps + j, (v->n - j) * sizeof(*v->maps));
	memmove(v->dsos + i + k, v->dsos + j, (v->n - j) * sizeof(*v->dsos));
	v->n = v->n - (j - i) + k;
	if (has_head) {
		v->maps[i] = head;
		v->dsos[i++] = hd;
	}
	v->maps[i] = *m;
	v->dsos[i++] = dso;
	if (has_tail) {
		v->maps[i] = tail;
		v->dsos[i] = td;
	}
	return j > i0;
}

/* Appends the map, as it is or a part of it [s, e), to out. */
static void
put_piece(struct mapv *out, const struct pd_map *m, struct dso *d,
    uint64_t s, uint64_t e)
{
	struct pd_map *x = &out->maps[out->n];

	*x = *m;
	x->start = s;
	x->end = e;
	x->pgoff += s - m->start;
	out->dsos[out->n++] = d;
}

/*
 * The recent maps merged into the base: the base's maps less what the
 * recent ones cover, and the recent ones, in one sorted array. Linear.
 * 0, or -1 when out of memory (nothing changed).
 */
static int
proc_merge(struct pd_syms *sy, struct proc *p)
{
	struct mapv *b = &p->base, *r = &p->recent, out;
	struct pd_map pc;
	size_t i, j, k, t, nb;
	uint64_t pos;

	if (r->n == 0)
		return 0;
	memset(&out, 0, sizeof(out));
	/* Each recent map splits at most one base map in two. */
	out.cap = b->n + 2 * r->n;
	out.maps = malloc(out.cap * sizeof(*out.maps));
	out.dsos = malloc(out.cap * sizeof(*out.dsos));
	if (out.maps == NULL || out.dsos == NULL) {
		free(out.maps);
		free(out.dsos);
		return -1;
	}
	/* Pieces of the base maps first, at the end of out. */
	for (i = 0, k = 0; i < b->n; i++) {
		const struct pd_map *m = &b->maps[i];

		while (k < r->n && r->maps[k].end <= m->start)
			k++;
		pos = m->start;
		for (t = k; t < r->n && r->maps[t].start < m->end; t++) {
			if (r->maps[t].start > pos)
				put_piece(&out, m, b->dsos[i], pos,
				    r->maps[t].start);
			if (r->maps[t].end > pos)
				pos = r->maps[t].end;
		}
		if (pos < m->end)
			put_piece(&out, m, b->dsos[i], pos, m->end);
	}
	nb = out.n;
	/* Then merged with the recent ones, from the back, in place. */
	i = nb;
	j = r->n;
	out.n = nb + r->n;
	for (k = out.n; k-- > 0; ) {
		if (j > 0 && (i == 0 ||
		    r->maps[j - 1].start > out.maps[i - 1].start)) {
			j--;
			out.maps[k] = r->maps[j];
			out.dsos[k] = r->dsos[j];
		} else {
			i--;
			pc = out.maps[i];
			out.maps[k] = pc;
			out.dsos[k] = out.dsos[i];
		}
	}
	/* The count: out replaces the recent maps and, if its own, the base. */
	if (b->refs != NULL && *b->refs > 1)
		sy->nmaps += out.n - r->n;
	else
		sy->nmaps += out.n - r->n - b->n;
	if (b->refs != NULL && --*b->refs > 0)
		b->refs = NULL;
	else {
		free(b->maps);
		free(b->dsos);
		free(b->refs);
		b->refs = NULL;
	}
	b->maps = out.maps;
	b->dsos = out.dsos;
	b->n = out.n;
	b->cap = out.cap;
	b->id = ++sy->gen;
	r->n = 0;
	p->last = 0;
	return 0;
}

/*
 * A new map: into the recent ones (merged into the base first when
 * they are many). It cuts what it overlaps; p->cut says when it did.
 */
static int
proc_insert(struct pd_syms *sy, struct proc *p, const struct pd_map *m,
    struct dso *dso)
{
	size_t k;
	int r;

	if (m->end <= m->start)
		return -1;
	if (p->recent.n >= recent_max(p) && proc_merge(sy, p) < 0)
		return -1;
	if ((r = vec_insert(sy, &p->recent, m, dso)) < 0)
		return -1;
	k = first_above(&p->base, m->start);
	if (r > 0 || (k < p->base.n && p->base.maps[k].start < m->end))
		p->cut = m->gen;
	return 0;
}

/* The child's maps are its parent's, shared until one changes. */
static int
proc_copy(struct pd_syms *sy, struct proc *dst, struct proc *src)
{
	if (dst == src)
		return 0;
	proc_clear(sy, dst);
	if (src == NULL || proc_merge(sy, src) < 0 || src->base.n == 0)
		return src == NULL || src->base.n == 0 ? 0 : -1;
	if (src->base.refs == NULL) {
		if ((src->base.refs = malloc(sizeof(*src->base.refs))) == NULL)
			return -1;
		*src->base.refs = 1;
	}
	++*src->base.refs;
	dst->base = src->base;
	return 0;
}

/* The map holding addr: the recent ones first, as they are newer. */
static int
proc_find(struct proc *p, uint64_t addr, const struct pd_map **m,
    struct dso **d)
{
	const struct mapv *b = &p->base, *r = &p->recent;
	size_t i;

	if (r->n > 0) {
		i = first_above(r, addr);
		if (i < r->n && r->maps[i].start <= addr) {
			*m = &r->maps[i];
			*d = r->dsos[i];
			return 0;
		}
	}
	if (p->last < b->n && b->maps[p->last].start <= addr &&
	    addr < b->maps[p->last].end)
		i = p->last;
	else if ((i = first_above(b, addr)) >= b->n || b->maps[i].start > addr)
		return -1;
	p->last = i;
	*m = &b->maps[i];
	*d = b->dsos[i];
	return 0;
}

/* "[kernel.kallsyms]" and what follows, as perf's is_kernel_mmap. */
static int
is_kernel_mmap(const char *path)
{
	return strncmp(path, "[kernel.kallsyms", 16) == 0;
}

/* The map and dso holding a user or kernel address. */
int
pd_syms_find_map(struct pd_syms *sy, uint32_t pid, int kernel,
    uint64_t addr, const struct pd_map **m, struct dso **dso)
{
	struct proc *p = kernel ? &sy->kh->kern : pd_syms_proc(sy, pid, 0);
	size_t k;

	if (p == NULL)
		return -1;
	if (proc_find(p, addr, m, dso) == 0)
		return 0;
	/*
	 * The kernel image's map ends at _etext, yet its .init.text lies
	 * above (the idle tasks' stacks start there). perf, reading
	 * /proc/kcore, names it the kernel's: so does the image's map
	 * here, up to the next kernel map.
	 */
	if (!kernel || proc_merge(sy, p) < 0)
		return -1;
	k = first_above(&p->base, addr);
	if (k == 0 || !is_kernel_mmap(p->base.maps[k - 1].path))
		return -1;
	*m = &p->base.maps[k - 1];
	*dso = p->base.dsos[k - 1];
	return 0;
}

static int
do_comm(struct pd_syms *sy, const struct pd_rec *rec)
{
	struct pd_record_comm c;
	struct thread *t;

	if (pd_record_comm_parse(rec, &c) < 0 ||
	    (t = thread_get(sy, c.tid, 1)) == NULL)
		return -1;
	t->pid = c.pid;
	/*
	 * An exec changes only the comm here, as in perf: the new image's
	 * MMAPs replace what they overlap, and ordering across CPUs makes
	 * flushing the maps at the COMM unsafe.
	 */
	t->comm = pd_syms_intern(sy, c.comm, c.comm_len);
	/* Its first comm names its samples before it (perf's override). */
	if (t->later != NULL) {
		t->later->comm = t->comm;
		t->later = NULL;
	}
	return t->comm != NULL ? 0 : -1;
}

static int
do_fork(struct pd_syms *sy, const struct pd_rec *rec)
{
	struct pd_record_fork f;
	struct thread *t, *parent;
	const char *comm = NULL;
	struct proc *pp, *cp;

	if (pd_record_fork_parse(rec, &f) < 0)
		return -1;
	if ((parent = thread_get(sy, f.ptid, 0)) != NULL)
		comm = parent->comm;
	if ((t = thread_get(sy, f.tid, 1)) == NULL)
		return -1;
	t->pid = f.pid;
	t->comm = comm;
	/* A new thread: the old one's samples stay unnamed (":tid"). */
	t->later = NULL;
	if (f.pid == f.ppid)
		return 0;	/* a thread: it shares its process's maps */
	/* A new process: a copy of its parent's maps. */
	if ((cp = pd_syms_proc(sy, f.pid, 1)) == NULL)
		return -1;
	pp = pd_syms_proc(sy, f.ppid, 0);
	cp->gen = cp->cut = ++sy->gen;
	return proc_copy(sy, cp, pp);
}


static int
do_mmap(struct pd_syms *sy, const struct pd_evlist *el,
    const struct pd_rec *rec)
{
	struct pd_record_mmap m1;
	struct pd_record_mmap2 m2;
	struct pd_map m;
	struct proc *p;
	struct dso *dso;
	struct dso_id id;
	const char *path;
	unsigned cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint32_t pid;
	int kernel;

	memset(&id, 0, sizeof(id));
	if (rec->type == PERF_RECORD_MMAP) {
		if (pd_record_mmap_parse(rec, &m1) < 0)
			return -1;
		/* what MMAP2 would say */
		memset(&m2, 0, sizeof(m2));
		m2.pid = m1.pid;
		m2.start = m1.start;
		m2.len = m1.len;
		m2.pgoff = m1.pgoff;
		m2.filename = m1.filename;
		m2.prot = rec->misc & PERF_RECORD_MISC_MMAP_DATA ?
		    PROT_READ : PROT_READ | PROT_EXEC;
	} else {
		if (pd_record_mmap2_parse(rec, &m2) < 0)
			return -1;
		if (m2.build_id != NULL) {
			id.bidlen = m2.build_id_size;
			id.bid = m2.build_id;
		} else {
			id.maj = m2.maj;
			id.min = m2.min;
			id.ino = m2.ino;
		}
	}
	path = m2.filename;
	m.prot = m2.prot;
	pid = m2.pid;
	m.start = m2.start;
	m.end = m.start + m2.len;
	m.pgoff = m2.pgoff;
	if (m.end < m.start)
		m.end = UINT64_MAX;
	if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    cpumode == PERF_RECORD_MISC_GUEST_USER)
		return 0;	/* guests are not resolved */
	kernel = cpumode == PERF_RECORD_MISC_KERNEL;
	if (kernel) {
		struct khost *kh;

		pd_syms_kernel_changing(sy);
		/* Its host's kernel: a merged stream has several. */
		if ((kh = pd_syms_rec_khost(sy, el, rec)) == NULL)
			return -1;
		p = &kh->kern;
		if (is_kernel_mmap(path)) {
			const char *ref = strchr(path, ']');

			snprintf(kh->kref, sizeof(kh->kref), "%s",
			    ref != NULL ? ref + 1 : "");
			kh->kref_addr = m.pgoff;
			pd_kallsyms_bid(sy, kh, id.bid, id.bidlen);
			pd_kallsyms_prefetch(sy, kh);
		}
	} else if ((p = pd_syms_proc(sy, pid, 1)) == NULL)
		return -1;
	/* A host's file is its own: another host may have another. */
	if ((dso = pd_syms_dso(sy, path, &id, kernel, pid, kernel ? 0 :
	    pd_hosts_pid(&sy->hosts, el, pid))) == NULL)
		return -1;
	m.path = dso->path;
	m.gen = ++sy->gen;
	if (proc_insert(sy, p, &m, dso) < 0)
		return -1;
	p->gen = m.gen;
	return 0;
}

/* Applies HEADER_BUILD_ID: the build id the file had when recorded. */
static int
do_build_id(struct pd_syms *sy, const struct pd_rec *rec)
{
	struct pd_record_header_build_id b;
	size_t idlen;
	int r;

	if (pd_record_header_build_id_parse(rec, &b) < 0 ||
	    b.filename_len == 0)
		return -1;
	idlen = b.build_id_size;
	/* Without the size byte, trailing zeros are padding. */
	if (!(rec->misc & PD_RECORD_MISC_BUILD_ID_SIZE))
		while (idlen > 0 && b.build_id[idlen - 1] == 0)
			idlen--;
	if ((r = pd_syms_bid_add(sy, b.filename, b.filename_len, b.build_id,
	    idlen)) < 0)
		return -1;
	if (b.filename_len != 17 ||
	    memcmp(b.filename, "[kernel.kallsyms]", 17) != 0)
		return 0;
	/*
	 * Which host's kernel it is, the record does not say: the first
	 * host's, unless the stream gives the kernel different ones.
	 */
	if (r == 1)
		pd_kallsyms_bid_differs(sy, &sy->k0);
	else if (sy->k0.kbidlen == 0) {
		pd_kallsyms_bid(sy, &sy->k0, b.build_id, idlen);
		sy->k0.kbid_note = sy->k0.kbidlen > 0;
	}
	return 0;
}

/*
 * The header's facts; and each OSRELEASE with the HOSTNAME before it,
 * as a merge gives every input's (the host rule of each host).
 */
static int
header_feature(struct pd_syms *sy, const struct pd_rec *rec)
{
	struct hostrel *nr;
	size_t i;

	if (pd_header_info_update(&sy->hi, rec) < 0)
		return -1;
	if (pd_feat_id(rec) != PD_FEAT_OSRELEASE ||
	    !(sy->hi.seen & 1U << PD_FEAT_HOSTNAME))
		return 0;
	for (i = 0; i < sy->nrels; i++)
		if (strcmp(sy->rels[i].host, sy->hi.hostname) == 0)
			return 0;
	if (sy->nrels >= PD_SYMS_KHOSTS_MAX ||
	    (nr = realloc(sy->rels, (sy->nrels + 1) * sizeof(*nr))) == NULL)
		return 0;
	sy->rels = nr;
	snprintf(nr[sy->nrels].host, sizeof(nr->host), "%s", sy->hi.hostname);
	snprintf(nr[sy->nrels].release, sizeof(nr->release), "%s",
	    sy->hi.osrelease);
	sy->nrels++;
	return 0;
}

int
pd_syms_record(struct pd_syms *sy, const struct pd_evlist *el,
    const struct pd_rec *rec)
{
	struct pd_record_fork f;

	switch (rec->type) {
	case PERF_RECORD_COMM:
		return do_comm(sy, rec);
	case PERF_RECORD_FORK:
		return do_fork(sy, rec);
	case PERF_RECORD_EXIT:
		/* perf keeps exited threads for late samples; so do we. */
		return pd_record_fork_parse(rec, &f);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return do_mmap(sy, el, rec);
	case PD_RECORD_HEADER_BUILD_ID:
		/* The kernel's build id, or a host's name, picks its file. */
		pd_syms_kernel_changing(sy);
		return do_build_id(sy, rec);
	case PD_RECORD_HEADER_FEATURE:
		pd_syms_kernel_changing(sy);
		return header_feature(sy, rec);
	case PD_RECORD_HEADER_ATTR:
	case PD_RECORD_EVENT_UPDATE:
		/* Events or their names changed: their hosts may have. */
		pd_hosts_forget(&sy->hosts);
		return 0;
	}
	return 0;
}

struct khost *
pd_syms_rec_khost(struct pd_syms *sy, const struct pd_evlist *el,
    const struct pd_rec *rec)
{
	const struct pd_evsel *ev;

	if (el == NULL || (ev = pd_evlist_for_rec_other(el, rec)) == NULL)
		return &sy->k0;
	return pd_syms_khost(sy, pd_hosts_event(&sy->hosts, el, ev));
}

const struct pd_map *
pd_syms_maps(struct pd_syms *sy, uint32_t pid, size_t *nmaps, uint64_t *gen)
{
	struct proc *p = pd_syms_proc(sy, pid, 0);

	/* One array: the recent maps merged (out of memory: the base). */
	if (p != NULL)
		(void)proc_merge(sy, p);
	if (p == NULL || p->base.n == 0) {
		*nmaps = 0;
		if (gen != NULL)
			*gen = p != NULL ? p->gen : 0;
		return NULL;
	}
	*nmaps = p->base.n;
	if (gen != NULL)
		*gen = p->gen;
	return p->base.maps;
}

uint64_t
pd_syms_maps_id(struct pd_syms *sy, uint32_t pid)
{
	struct proc *p = pd_syms_proc(sy, pid, 0);

	return p != NULL && p->recent.n == 0 ? p->base.id : 0;
}

uint64_t
pd_syms_maps_cut(struct pd_syms *sy, uint32_t pid)
{
	struct proc *p = pd_syms_proc(sy, pid, 0);

	return p != NULL ? p->cut : 0;
}

const char *
pd_syms_comm(struct pd_syms *sy, uint32_t pid, uint32_t tid)
{
	struct thread *t;

	if ((t = thread_get(sy, tid, 0)) != NULL && t->comm != NULL)
		return t->comm;
	if ((t = thread_get(sy, pid, 0)) != NULL && t->comm != NULL)
		return t->comm;
	return NULL;
}

const char *
pd_syms_report_comm(struct pd_syms *sy, uint32_t tid,
    const struct pd_syms_later **later)
{
	struct pd_syms_later *l;
	struct thread *t;

	*later = NULL;
	if ((t = thread_get(sy, tid, 0)) != NULL && t->comm != NULL)
		return t->comm;
	/* perf's idle thread, named at its start. */
	if (tid == 0)
		return pd_syms_intern(sy, "swapper", 7);
	if (t != NULL && t->later != NULL) {
		*later = t->later;
		return NULL;
	}
	if (sy->nlaters >= PD_SYMS_LATER_MAX ||
	    (t == NULL && (t = thread_get(sy, tid, 1)) == NULL) ||
	    (l = calloc(1, sizeof(*l))) == NULL)
		return NULL;
	l->tid = tid;
	l->next = sy->laters;
	sy->laters = l;
	sy->nlaters++;
	t->later = l;
	*later = l;
	return NULL;
}

size_t
pd_sample_frames(const struct pd_sample *s, uint16_t misc,
    struct pd_frame *out, size_t max)
{
	uint8_t mode = PERF_RECORD_MISC_USER;
	uint64_t i, a;
	size_t n = 0;

	if (!(s->type & PERF_SAMPLE_CALLCHAIN) || s->callchain_nr == 0) {
		if (max == 0 || !(s->type & PERF_SAMPLE_IP))
			return 0;
		out[0].addr = s->ip;
		out[0].cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
		return 1;
	}
	/* perf starts a callchain in user mode until a marker says not. */
	for (i = 0; i < s->callchain_nr && n < max; i++) {
		a = pd_get_u64(s->callchain + 8 * i);
		if (a >= (uint64_t)PERF_CONTEXT_MAX) {
			switch (a) {
			case (uint64_t)PERF_CONTEXT_HV:
				mode = PERF_RECORD_MISC_HYPERVISOR;
				break;
			case (uint64_t)PERF_CONTEXT_KERNEL:
				mode = PERF_RECORD_MISC_KERNEL;
				break;
			case (uint64_t)PERF_CONTEXT_USER:
				mode = PERF_RECORD_MISC_USER;
				break;
			case (uint64_t)PERF_CONTEXT_GUEST_KERNEL:
				mode = PERF_RECORD_MISC_GUEST_KERNEL;
				break;
			case (uint64_t)PERF_CONTEXT_GUEST_USER:
				mode = PERF_RECORD_MISC_GUEST_USER;
				break;
			case PD_CONTEXT_USER_DEFERRED:
				i++;	/* its cookie follows */
				break;
			default:
				break;
			}
			continue;
		}
		out[n].addr = a;
		out[n].cpumode = mode;
		n++;
	}
	return n;
}
