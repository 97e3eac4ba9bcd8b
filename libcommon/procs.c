/* SPDX-License-Identifier: MIT */
/*
 * Processes, threads and their maps, from COMM, FORK, EXIT, MMAP and
 * MMAP2 records, kept the way perf's machine.c keeps them: a thread has
 * a comm and belongs to a process (pid); maps belong to the process, so
 * threads share them; a new process starts with a copy of its parent's
 * maps; a map that overlaps older ones cuts them.
 */
#include "libcommon/symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "libcommon/evlist.h"
#include "libcommon/perf.h"
#include "libcommon/record.h"
#include "libcommon/sample.h"
#include "libcommon/symint.h"

/* Pids, tids and strings come from the stream: seeded, mixed hashes. */
static uint64_t
hash32(const struct pd_syms *sy, uint32_t k)
{
	return pd_syms_mix(k ^ sy->seed);
}

static uint64_t
hashstr(const struct pd_syms *sy, const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL ^ sy->seed;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return pd_syms_mix(h);
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
	sy->tn++;
	return &sy->threads[i];
}

struct proc *
pd_syms_proc(struct pd_syms *sy, uint32_t pid, int create)
{
	size_t i, mask;

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
	}
	mask = sy->pcap - 1;
	for (i = hash32(sy, pid) & mask; sy->procs[i].used; i = (i + 1) & mask)
		if (sy->procs[i].pid == pid)
			return &sy->procs[i];
	if (!create)
		return NULL;
	memset(&sy->procs[i], 0, sizeof(sy->procs[i]));
	sy->procs[i].used = 1;
	sy->procs[i].pid = pid;
	sy->procs[i].gen = ++sy->gen;
	sy->pn++;
	return &sy->procs[i];
}

/* Drops the process's maps; shared ones stay with the others. */
static void
proc_clear(struct pd_syms *sy, struct proc *p)
{
	if (p->refs != NULL && --*p->refs > 0) {
		/* Another process still has them. */
	} else {
		sy->nmaps -= p->n;
		free(p->maps);
		free(p->dsos);
		free(p->refs);
	}
	p->maps = NULL;
	p->dsos = NULL;
	p->refs = NULL;
	p->n = p->cap = 0;
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

/*
 * Makes the process's maps its own before they change: a FORK's child
 * shares its parent's until then, so a thousand children of a process
 * with a thousand maps cost a thousand pointers, not a million maps.
 */
static int
proc_own(struct pd_syms *sy, struct proc *p)
{
	struct pd_map *nm;
	struct dso **nd;
	size_t ncap;

	if (p->refs == NULL)
		return 0;
	if (*p->refs == 1) {
		free(p->refs);
		p->refs = NULL;
		return 0;
	}
	if (maps_take(sy, p->n) < 0)
		return -1;
	/* Room for a few more, not the parent's slack. */
	ncap = p->n + p->n / 4 + 4;
	nm = malloc(ncap * sizeof(*nm));
	nd = malloc(ncap * sizeof(*nd));
	if (nm == NULL || nd == NULL) {
		free(nm);
		free(nd);
		sy->nmaps -= p->n;
		return -1;
	}
	memcpy(nm, p->maps, p->n * sizeof(*nm));
	memcpy(nd, p->dsos, p->n * sizeof(*nd));
	--*p->refs;
	p->refs = NULL;
	p->maps = nm;
	p->dsos = nd;
	p->cap = ncap;
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
	proc_clear(sy, &sy->kern);
	free(sy->threads);
	for (i = 0; i < sy->strs.cap; i++)
		free(sy->strs.v[i]);
	free(sy->strs.v);
}

static int
proc_reserve(struct proc *p, size_t n)
{
	size_t ncap;
	struct pd_map *nm;
	struct dso **nd;

	if (n <= p->cap)
		return 0;
	ncap = p->cap ? p->cap * 2 : 16;
	while (ncap < n)
		ncap *= 2;
	if ((nm = realloc(p->maps, ncap * sizeof(*nm))) == NULL)
		return -1;
	p->maps = nm;
	if ((nd = realloc(p->dsos, ncap * sizeof(*nd))) == NULL)
		return -1;
	p->dsos = nd;
	p->cap = ncap;
	return 0;
}

/* The index of the first map whose end is above addr. */
static size_t
first_above(const struct proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Inserts [m.start, m.end) and cuts what it overlaps, keeping the parts
 * of older maps before and after it (perf's maps__fixup_overlappings).
 */
static int
proc_insert(struct pd_syms *sy, struct proc *p, const struct pd_map *m,
    struct dso *dso)
{
	size_t i, j, k;
	struct pd_map head, tail;
	struct dso *hd = NULL, *td = NULL;
	int has_head = 0, has_tail = 0;

	if (m->end <= m->start || proc_own(sy, p) < 0)
		return -1;
	i = first_above(p, m->start);
	for (j = i; j < p->n && p->maps[j].start < m->end; j++) {
		if (j == i && p->maps[j].start < m->start) {
			head = p->maps[j];
			head.end = m->start;
			hd = p->dsos[j];
			has_head = 1;
		}
		if (p->maps[j].end > m->end) {
			tail = p->maps[j];
			tail.start = m->end;
			tail.pgoff += m->end - p->maps[j].start;
			td = p->dsos[j];
			has_tail = 1;
		}
	}
	/* maps[i, j) go; head, m, tail come in. */
	if (j > i)
		p->cut = m->gen;
	k = (size_t)has_head + 1 + (size_t)has_tail;
	if (k > j - i && maps_take(sy, k - (j - i)) < 0)
		return -1;
	if (proc_reserve(p, p->n - (j - i) + k) < 0) {
		if (k > j - i)
			sy->nmaps -= k - (j - i);
		return -1;
	}
	if (k < j - i)
		sy->nmaps -= (j - i) - k;
	memmove(p->maps + i + k, p->maps + j, (p->n - j) * sizeof(*p->maps));
	memmove(p->dsos + i + k, p->dsos + j, (p->n - j) * sizeof(*p->dsos));
	p->n = p->n - (j - i) + k;
	if (has_head) {
		p->maps[i] = head;
		p->dsos[i++] = hd;
	}
	p->maps[i] = *m;
	p->dsos[i++] = dso;
	if (has_tail) {
		p->maps[i] = tail;
		p->dsos[i] = td;
	}
	p->last = 0;
	return 0;
}

/* The child's maps are its parent's, shared until one changes. */
static int
proc_copy(struct pd_syms *sy, struct proc *dst, struct proc *src)
{
	if (dst == src)
		return 0;
	proc_clear(sy, dst);
	if (src == NULL || src->n == 0)
		return 0;
	if (src->refs == NULL) {
		if ((src->refs = malloc(sizeof(*src->refs))) == NULL)
			return -1;
		*src->refs = 1;
	}
	++*src->refs;
	dst->refs = src->refs;
	dst->maps = src->maps;
	dst->dsos = src->dsos;
	dst->n = src->n;
	dst->cap = src->cap;
	return 0;
}

/* The map holding addr, or -1; remembers the hit for the next call. */
static long
proc_find(struct proc *p, uint64_t addr)
{
	size_t i;

	if (p->last < p->n && p->maps[p->last].start <= addr &&
	    addr < p->maps[p->last].end)
		return p->last;
	i = first_above(p, addr);
	if (i < p->n && p->maps[i].start <= addr) {
		p->last = i;
		return i;
	}
	return -1;
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
	struct proc *p = kernel ? &sy->kern : pd_syms_proc(sy, pid, 0);
	long i;
	size_t k;

	if (p == NULL)
		return -1;
	if ((i = proc_find(p, addr)) < 0) {
		/*
		 * The kernel image's map ends at _etext, yet its .init.text
		 * lies above (the idle tasks' stacks start there). perf,
		 * reading /proc/kcore, names it the kernel's: so does the
		 * image's map here, up to the next kernel map.
		 */
		k = first_above(p, addr);
		if (!kernel || k == 0 || !is_kernel_mmap(p->maps[k - 1].path))
			return -1;
		i = k - 1;
	}
	*m = &p->maps[i];
	*dso = p->dsos[i];
	return 0;
}

/* A string field of `rec` at off, NUL-terminated within the record. */
static const char *
rec_str(const struct pd_rec *rec, size_t off, size_t *len)
{
	const char *s;
	const void *z;

	if (rec->size <= off)
		return NULL;
	s = (const char *)rec->data + off;
	if ((z = memchr(s, '\0', rec->size - off)) == NULL)
		return NULL;
	*len = (const char *)z - s;
	return s;
}

static int
do_comm(struct pd_syms *sy, const struct pd_rec *rec)
{
	struct thread *t;
	const char *s;
	size_t len;

	if (rec->size < 17 || (s = rec_str(rec, 16, &len)) == NULL)
		return -1;
	if ((t = thread_get(sy, pd_get_u32(rec->data + 12), 1)) == NULL)
		return -1;
	t->pid = pd_get_u32(rec->data + 8);
	/*
	 * An exec changes only the comm here, as in perf: the new image's
	 * MMAPs replace what they overlap, and ordering across CPUs makes
	 * flushing the maps at the COMM unsafe.
	 */
	t->comm = pd_syms_intern(sy, s, len);
	return t->comm != NULL ? 0 : -1;
}

static int
do_fork(struct pd_syms *sy, const struct pd_rec *rec)
{
	uint32_t pid, ppid, tid, ptid;
	struct thread *t, *parent;
	const char *comm = NULL;
	struct proc *pp, *cp;

	if (rec->size < 32)
		return -1;
	pid = pd_get_u32(rec->data + 8);
	ppid = pd_get_u32(rec->data + 12);
	tid = pd_get_u32(rec->data + 16);
	ptid = pd_get_u32(rec->data + 20);
	if ((parent = thread_get(sy, ptid, 0)) != NULL)
		comm = parent->comm;
	if ((t = thread_get(sy, tid, 1)) == NULL)
		return -1;
	t->pid = pid;
	t->comm = comm;
	if (pid == ppid)
		return 0;	/* a thread: it shares its process's maps */
	/* A new process: a copy of its parent's maps. */
	if ((cp = pd_syms_proc(sy, pid, 1)) == NULL)
		return -1;
	pp = pd_syms_proc(sy, ppid, 0);
	cp->gen = cp->cut = ++sy->gen;
	return proc_copy(sy, cp, pp);
}


static int
do_mmap(struct pd_syms *sy, const struct pd_rec *rec)
{
	struct pd_map m;
	struct proc *p;
	struct dso *dso;
	struct dso_id id;
	const char *path;
	size_t len;
	unsigned cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint32_t pid;
	int kernel;

	memset(&id, 0, sizeof(id));
	if (rec->type == PERF_RECORD_MMAP) {
		if ((path = rec_str(rec, 40, &len)) == NULL)
			return -1;
		m.prot = rec->misc & PERF_RECORD_MISC_MMAP_DATA ?
		    PROT_READ : PROT_READ | PROT_EXEC;
	} else {
		if ((path = rec_str(rec, 72, &len)) == NULL)
			return -1;
		m.prot = pd_get_u32(rec->data + 64);
		if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			id.bidlen = rec->data[40];
			if (id.bidlen > 20)
				id.bidlen = 20;
			id.bid = rec->data + 44;
		} else {
			id.maj = pd_get_u32(rec->data + 40);
			id.min = pd_get_u32(rec->data + 44);
			id.ino = pd_get_u64(rec->data + 48);
		}
	}
	pid = pd_get_u32(rec->data + 8);
	m.start = pd_get_u64(rec->data + 16);
	m.end = m.start + pd_get_u64(rec->data + 24);
	m.pgoff = pd_get_u64(rec->data + 32);
	if (m.end < m.start)
		m.end = UINT64_MAX;
	if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    cpumode == PERF_RECORD_MISC_GUEST_USER)
		return 0;	/* guests are not resolved */
	kernel = cpumode == PERF_RECORD_MISC_KERNEL;
	if (kernel) {
		p = &sy->kern;
		if (is_kernel_mmap(path)) {
			const char *ref = strchr(path, ']');

			snprintf(sy->kref, sizeof(sy->kref), "%s",
			    ref != NULL ? ref + 1 : "");
			sy->kref_addr = m.pgoff;
		}
	} else if ((p = pd_syms_proc(sy, pid, 1)) == NULL)
		return -1;
	if ((dso = pd_syms_dso(sy, path, &id, kernel, pid)) == NULL)
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
	unsigned char bid[20];
	const char *path;
	size_t len, idlen = 20;

	if ((path = rec_str(rec, 36, &len)) == NULL || len == 0)
		return -1;
	if (rec->misc & (1 << 15)) {	/* PERF_RECORD_MISC_BUILD_ID_SIZE */
		idlen = rec->data[32];
		if (idlen > 20)
			idlen = 20;
	}
	memcpy(bid, rec->data + 12, idlen);
	/* Without the size byte, trailing zeros are padding. */
	if (!(rec->misc & (1 << 15)))
		while (idlen > 0 && bid[idlen - 1] == 0)
			idlen--;
	return pd_syms_bid_add(sy, path, len, bid, idlen);
}

int
pd_syms_record(struct pd_syms *sy, const struct pd_evlist *el,
    const struct pd_rec *rec)
{
	(void)el;
	switch (rec->type) {
	case PERF_RECORD_COMM:
		return do_comm(sy, rec);
	case PERF_RECORD_FORK:
		return do_fork(sy, rec);
	case PERF_RECORD_EXIT:
		/* perf keeps exited threads for late samples; so do we. */
		return rec->size >= 32 ? 0 : -1;
	case PERF_RECORD_MMAP:
		return rec->size >= 41 ? do_mmap(sy, rec) : -1;
	case PERF_RECORD_MMAP2:
		return rec->size >= 73 ? do_mmap(sy, rec) : -1;
	case PD_RECORD_HEADER_BUILD_ID:
		return rec->size >= 37 ? do_build_id(sy, rec) : -1;
	case PD_RECORD_HEADER_FEATURE:
		return pd_header_info_update(&sy->hi, rec);
	}
	return 0;
}

const struct pd_map *
pd_syms_maps(struct pd_syms *sy, uint32_t pid, size_t *nmaps, uint64_t *gen)
{
	struct proc *p = pd_syms_proc(sy, pid, 0);

	if (p == NULL || p->n == 0) {
		*nmaps = 0;
		if (gen != NULL)
			*gen = p != NULL ? p->gen : 0;
		return NULL;
	}
	*nmaps = p->n;
	if (gen != NULL)
		*gen = p->gen;
	return p->maps;
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
