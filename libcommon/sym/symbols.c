/* SPDX-License-Identifier: MIT */
/*
 * The symbolizer: an address of a process at a time, through that
 * process's maps (procs.c) to a dso and its symbols (dso.c), or to the
 * kernel's (kallsyms.c).
 */
#include "libcommon/sym/symbols.h"

#include <elfutils/debuginfod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "libcommon/stream/idmap.h"
#include "libcommon/stream/perf.h"
#include "libcommon/sym/symint.h"
#include "libcommon/sym/symtab.h"

/*
 * perf's build-id cache, as perf buildid-cache and perf archive fill it:
 * $PERF_BUILDID_DIR, else ~/.debug; kept only when it has a .build-id
 * (or a [kernel.kallsyms]) directory, so a note names it only where
 * there was one to look in.
 */
static int
bid_dir(struct pd_syms *sy)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	struct stat st;
	char *p;

	if (env != NULL && env[0] != '\0')
		p = strdup(env);
	else if (home != NULL && home[0] == '/') {
		if (asprintf(&p, "%s/.debug", home) < 0)
			p = NULL;
	} else
		return 0;
	if (p == NULL)
		return -1;
	sy->bid_dir = p;
	if (asprintf(&p, "%s/.build-id", sy->bid_dir) < 0)
		return -1;
	if (stat(p, &st) < 0 || !S_ISDIR(st.st_mode)) {
		free(p);
		if (asprintf(&p, "%s/[kernel.kallsyms]", sy->bid_dir) < 0)
			return -1;
		if (stat(p, &st) < 0 || !S_ISDIR(st.st_mode)) {
			free(sy->bid_dir);
			sy->bid_dir = NULL;
		}
	}
	free(p);
	return 0;
}

/*
 * An option's argument: a plain one into *plain, "HOST=X" (HOST not
 * empty, without '/') into v. 0, or -1 past PD_SYMS_KFILES_MAX.
 */
static int
opts_host_arg(const char *arg, const char **plain, const char **v,
    size_t *n)
{
	const char *eq = strchr(arg, '=');

	if (eq == NULL || eq == arg || memchr(arg, '/', eq - arg) != NULL) {
		*plain = arg;
		return 0;
	}
	if (*n >= PD_SYMS_KFILES_MAX)
		return -1;
	v[(*n)++] = arg;
	return 0;
}

int
pd_syms_opts_kallsyms(struct pd_syms_opts *o, const char *arg)
{
	return opts_host_arg(arg, &o->kallsyms, o->kallsyms_hosts,
	    &o->nkallsyms_hosts);
}

int
pd_syms_opts_symfs(struct pd_syms_opts *o, const char *arg)
{
	return opts_host_arg(arg, &o->symfs, o->symfs_hosts,
	    &o->nsymfs_hosts);
}

/* Copies of n "HOST=X" arguments into *v: 0, or -1 out of memory. */
static int
host_args_dup(char ***v, size_t *nv, const char *const *args, size_t n)
{
	if (n == 0)
		return 0;
	if ((*v = calloc(n, sizeof(**v))) == NULL)
		return -1;
	for (; *nv < n; ++*nv)
		if (strchr(args[*nv], '=') == NULL ||
		    ((*v)[*nv] = strdup(args[*nv])) == NULL)
			return -1;
	return 0;
}

const char *
pd_syms_host_arg(char *const *v, size_t n, const char *host)
{
	const char *eq;
	size_t i;

	for (i = 0; host != NULL && i < n; i++) {
		eq = strchr(v[i], '=');
		if ((size_t)(eq - v[i]) == strlen(host) &&
		    memcmp(v[i], host, eq - v[i]) == 0)
			return eq + 1;
	}
	return NULL;
}

/* Whether the HOST of a "HOST=X" is one of the stream's hosts. */
static int
host_known(const struct pd_syms *sy, const char *arg)
{
	size_t len = strchr(arg, '=') - arg, k;
	const char *name;

	for (k = 0; k == 0 || k < sy->hosts.n; k++)
		if ((name = pd_syms_host_called(sy, k)) != NULL &&
		    strlen(name) == len && memcmp(name, arg, len) == 0)
			return 1;
	return 0;
}

/* The stream's hosts as a note says them, into buf. */
static void
hosts_said(const struct pd_syms *sy, char *buf, size_t len)
{
	const char *name;
	size_t k, n;

	if (sy->hosts.n == 0) {
		name = pd_syms_host_called(sy, 0);
		snprintf(buf, len, "%s%s", name != NULL ? "its host: " :
		    "it names no host", name != NULL ? name : "");
		return;
	}
	n = snprintf(buf, len, "its hosts:");
	for (k = 0; k < sy->hosts.n && n < len; k++)
		n += snprintf(buf + n, len - n, "%s %s", k > 0 ? "," : "",
		    pd_syms_host_called(sy, k));
}

void
pd_syms_end(struct pd_syms *sy, const struct pd_evlist *el)
{
	static const char *const opt[] = { "--kallsyms", "--symfs" };
	char *const *v[2] = { sy->kfiles, sy->sdirs };
	size_t nv[2] = { sy->nkfiles, sy->nsdirs }, i, j, nev;
	char hosts[256];

	pd_syms_kernel_changing(sy);	/* its notes before the end's */
	if (sy->nkfiles + sy->nsdirs == 0)
		return;
	/* The hosts of the events as they are now. */
	if (el != NULL && (nev = pd_evlist_count(el)) > 0 &&
	    sy->hosts.nev != nev)
		(void)pd_hosts_slow(&sy->hosts, el, pd_evlist_at(el, nev - 1));
	hosts_said(sy, hosts, sizeof(hosts));
	for (i = 0; i < 2; i++)
		for (j = 0; j < nv[i]; j++)
			if (!host_known(sy, v[i][j]))
				pd_syms_note(sy, "%s %s: no host %.*s in the "
				    "stream (%s); not used", opt[i], v[i][j],
				    (int)(strchr(v[i][j], '=') - v[i][j]),
				    v[i][j], hosts);
}

const char *
pd_syms_host_called(const struct pd_syms *sy, unsigned k)
{
	const char *name = pd_hosts_name(&sy->hosts, k);

	if (name != NULL || k != 0)
		return name;
	return sy->hi.seen & 1U << PD_FEAT_HOSTNAME ? sy->hi.hostname : NULL;
}

struct pd_syms *
pd_syms_new(const struct pd_syms_opts *o)
{
	struct pd_syms *sy;
	const char *dd = o != NULL && o->debug_dir != NULL ? o->debug_dir :
	    "/usr/lib/debug";

	if ((sy = calloc(1, sizeof(*sy))) == NULL)
		return NULL;
	sy->seed = pd_idmap_seed();
	sy->k0.kern.used = 1;
	sy->k0.kern.pid = UINT32_MAX;
	sy->kh = &sy->k0;
	sy->dso_only = o != NULL && o->dso_only;
	sy->dfd_off = o != NULL && o->no_debuginfod;
	pd_dso_dfd_allow(!sy->dfd_off && pd_dso_dfd_urls());
	/* "-": no CRC check; then the file's dir, its .debug, the tree. */
	if (asprintf(&sy->debug_path, "-:.debug:%s", dd) < 0) {
		sy->debug_path = NULL;
		goto fail;
	}
	if (o != NULL && o->kallsyms != NULL &&
	    (sy->kallsyms_path = strdup(o->kallsyms)) == NULL)
		goto fail;
	if (o != NULL && (host_args_dup(&sy->kfiles, &sy->nkfiles,
	    o->kallsyms_hosts, o->nkallsyms_hosts) < 0 ||
	    host_args_dup(&sy->sdirs, &sy->nsdirs, o->symfs_hosts,
	    o->nsymfs_hosts) < 0))
		goto fail;
	if (o != NULL && o->symfs != NULL && o->symfs[0] != '\0' &&
	    (sy->symfs = strdup(o->symfs)) == NULL)
		goto fail;
	sy->verbose = o != NULL && o->verbose;
	if (bid_dir(sy) < 0)
		goto fail;
	return sy;
fail:
	pd_syms_free(sy);
	return NULL;
}

void
pd_syms_free(struct pd_syms *sy)
{
	size_t i;

	if (sy == NULL)
		return;
	pd_syms_kernel_changing(sy);	/* while everything is in place */
	pd_kallsyms_prefetch_free(sy);
	pd_syms_procs_free(sy);
	pd_srcache_free(sy);
	pd_dsos_free(sy);
	free(sy->dwcb);		/* after the Dwfls that use it */
	for (i = 0; i < sy->nkv; i++) {
		pd_symtab_free(&sy->kv[i]->ksyms);
		if (sy->kv[i] != &sy->k0)
			free(sy->kv[i]);
	}
	if (sy->nkv == 0)
		pd_symtab_free(&sy->k0.ksyms);
	free(sy->kv);
	pd_hosts_free(&sy->hosts);
	for (i = 0; i < sy->nkfiles; i++)
		free(sy->kfiles[i]);
	free(sy->kfiles);
	for (i = 0; i < sy->nsdirs; i++)
		free(sy->sdirs[i]);
	free(sy->sdirs);
	free(sy->rels);
	for (i = 0; i < sy->nnotes; i++)
		free(sy->notes[i]);
	free(sy->kallsyms_path);
	free(sy->debug_path);
	free(sy->symfs);
	free(sy->bid_dir);
	pd_dfd_free(sy->dfd);
	free(sy->symc);
	free(sy);
}

/* A file offset as the ELF file's virtual address, through PT_LOAD. */
static int
off_to_vaddr(const struct dso *d, uint64_t off, uint64_t *va)
{
	size_t i;

	for (i = 0; i < d->nloads; i++)
		if (off >= d->loads[i].off &&
		    off - d->loads[i].off < d->loads[i].filesz) {
			*va = off - d->loads[i].off + d->loads[i].vaddr;
			return 0;
		}
	return -1;
}

/*
 * An address of a file without a symbol table had no name: say so once
 * for the file, for the first few such files (a system-wide stream
 * meets dozens of stripped system libraries).
 */
static void
stripped(struct pd_syms *sy, struct dso *d)
{
	if (d->stripped != 1)
		return;
	d->stripped = 2;
	if (sy->nstripped++ < STRIPPED_NOTES)
		pd_syms_note(sy, "%s: no symbol table (stripped) and no debug "
		    "info; addresses outside its dynamic symbols show as "
		    "[unknown]%s", d->path,
		    sy->nstripped == STRIPPED_NOTES ? " (further such files "
		    "are not named)" : "");
}

static void
resolve(struct pd_syms *sy, uint32_t pid, uint8_t cpumode, uint64_t addr,
    struct pd_symres *r)
{
	const struct pd_map *m;
	const struct sym *s;
	struct dso *d;
	uint64_t va;

	r->name = r->raw = NULL;
	r->off = 0;
	r->dso = "[unknown]";
	r->dso_plain = 1;
	r->kernel = 0;
	r->rel = addr;
	r->file = NULL;
	r->va = 0;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		struct khost *kh = sy->kh;

		r->kernel = 1;
		if (pd_syms_find_map(sy, pid, 1, addr, &m, &d) < 0) {
			/* No kernel maps in the stream: the host's kernel. */
			if ((kh->kern.base.n > 0 || kh->kern.recent.n > 0) ||
			    sy->dso_only || pd_kallsyms_load(sy, kh) <= 0)
				return;
			r->dso = "[kernel.kallsyms]";
		} else {
			r->dso = d->name;
			r->dso_plain = d->name_plain;
			/* perf's kernel maps are identity maps. */
			if (sy->dso_only || pd_kallsyms_load(sy, kh) <= 0)
				return;
		}
		if ((s = pd_symtab_find(&kh->ksyms, addr)) != NULL) {
			r->name = r->raw = s->name;
			r->off = addr - s->start;
		}
		return;
	}
	if (cpumode != PERF_RECORD_MISC_USER ||
	    pd_syms_find_map(sy, pid, 0, addr, &m, &d) < 0)
		return;
	r->dso = d->name;
	r->dso_plain = d->name_plain;
	r->rel = addr - m->start + m->pgoff;
	if (sy->dso_only)
		return;
	if (!d->loaded)
		pd_dso_load(sy, d);
	if (d->st.n == 0) {
		stripped(sy, d);
		return;
	}
	/* A JIT's map file has the addresses themselves. */
	if (d->kind == DSO_PERFMAP)
		va = addr;
	else if (off_to_vaddr(d, addr - m->start + m->pgoff, &va) < 0)
		return;
	if ((s = pd_symtab_find(&d->st, va)) != NULL) {
		r->name = pd_symtab_name(&d->st, s);
		r->raw = pd_symtab_raw(&d->st, s);
		r->off = va - s->start;
		if (d->kind == DSO_FILE) {
			r->file = d;
			r->va = va;
		}
	} else
		stripped(sy, d);
}

/*
 * The key of an address's maps, which also says whose they are: a
 * process's generation (each is given to one process only; 0: no such
 * process, not cached), the kernel maps' with the top bit, or for the
 * cpumodes that name nothing (guests, hypervisor) one of their own.
 */
#define GEN_KERNEL	(1ULL << 63)
#define GEN_NONE	(1ULL << 62)

static inline uint64_t
maps_gen(struct pd_syms *sy, uint32_t pid, uint8_t cpumode)
{
	const struct proc *p;

	if (cpumode == PERF_RECORD_MISC_KERNEL)
		return sy->kh->kern.gen | GEN_KERNEL;
	if (cpumode != PERF_RECORD_MISC_USER)
		return GEN_NONE;
	/* A sample's frames are of one process: the last one found. */
	if ((p = sy->plast) == NULL || p->pid != pid)
		p = pd_syms_proc(sy, pid, 0);
	return p != NULL ? p->gen : 0;
}

static inline struct symc_ent *
symc_slot(struct symc_ent *t, size_t n, uint64_t gen, uint64_t addr)
{
	return &t[((addr ^ gen * 0xc2b2ae3d27d4eb4fULL) *
	    0x9e3779b97f4a7c15ULL) >> 40 & (n - 1)];
}

/*
 * Twice the entries, those held moved over (two that now meet: the
 * first stays, as the cache would keep one). 0, or -1 out of memory.
 */
static int
symc_grow(struct pd_syms *sy)
{
	struct symc_ent *t, *e;
	size_t i, n = sy->symc_n ? sy->symc_n * 2 : PD_SYMS_CACHE0;

	if ((t = calloc(n, sizeof(*t))) == NULL)
		return -1;
	sy->symc_fill = 0;
	for (i = 0; i < sy->symc_n; i++) {
		if (sy->symc[i].gen == 0)
			continue;
		e = symc_slot(t, n, sy->symc[i].gen, sy->symc[i].addr);
		if (e->gen == 0) {
			*e = sy->symc[i];
			sy->symc_fill++;
		}
	}
	free(sy->symc);
	sy->symc = t;
	sy->symc_n = n;
	return 0;
}

struct pd_symc *
pd_syms_lookup(struct pd_syms *sy, uint32_t pid, uint8_t cpumode,
    uint64_t addr)
{
	struct symc_ent *e;
	uint64_t gen = maps_gen(sy, pid, cpumode);

	if (gen == 0 || (sy->symc == NULL && symc_grow(sy) < 0)) {
		resolve(sy, pid, cpumode, addr, &sy->symc_one.r);
		memset(sy->symc_one.view, 0, sizeof(sy->symc_one.view));
		return &sy->symc_one;
	}
	e = symc_slot(sy->symc, sy->symc_n, gen, addr);
	if (e->gen == gen && e->addr == addr)
		return &e->c;
	if (e->gen == 0) {
		/* Half the slots taken: twice as many, while it may grow. */
		if ((sy->symc_fill + 1) * 2 > sy->symc_n &&
		    sy->symc_n < PD_SYMS_CACHE && symc_grow(sy) == 0)
			e = symc_slot(sy->symc, sy->symc_n, gen, addr);
		if (e->gen == 0)
			sy->symc_fill++;
	}
	resolve(sy, pid, cpumode, addr, &e->c.r);
	memset(e->c.view, 0, sizeof(e->c.view));
	e->addr = addr;
	e->gen = gen;
	return &e->c;
}

void
pd_syms_resolve(struct pd_syms *sy, uint32_t pid, uint8_t cpumode,
    uint64_t addr, struct pd_symres *r)
{
	*r = pd_syms_lookup(sy, pid, cpumode, addr)->r;
}

int
pd_syms_view_new(struct pd_syms *sy)
{
	return sy->nviews < PD_SYMS_VIEWS ? sy->nviews++ : -1;
}

int
pd_syms_file_ok(struct pd_syms *sy, uint32_t pid, uint64_t addr)
{
	const struct pd_map *m;
	struct dso *d;

	if (pd_syms_find_map(sy, pid, 0, addr, &m, &d) < 0 || sy->dso_only)
		return 1;
	if (!d->loaded)
		pd_dso_load(sy, d);
	return !d->wrong;
}

int
pd_syms_map_at(struct pd_syms *sy, uint32_t pid, uint8_t cpumode,
    uint64_t addr, struct pd_mapres *r)
{
	const struct pd_map *m;
	struct dso *d;
	int kernel = cpumode == PERF_RECORD_MISC_KERNEL;
	size_t n;

	/*
	 * The maps merged first, so that a map that a later one cuts
	 * shows as cut (its end, or its start and offset, where the later
	 * one begins), whatever the lookups before this one did.
	 */
	if (cpumode == PERF_RECORD_MISC_USER)
		(void)pd_syms_maps(sy, pid, &n, NULL);
	if ((!kernel && cpumode != PERF_RECORD_MISC_USER) ||
	    pd_syms_find_map(sy, pid, kernel, addr, &m, &d) < 0)
		return -1;
	r->start = m->start;
	r->end = m->end;
	r->pgoff = m->pgoff;
	r->dso = d->name;
	if (d->bidlen > 0) {
		r->bid = d->bid;
		r->bidlen = d->bidlen;
	} else {
		r->bid = d->fbid;
		r->bidlen = d->fbidlen;
	}
	r->symbols = kernel ? sy->kh->ktried > 0 :
	    d->loaded && !d->wrong && d->st.n > 0;
	return 0;
}

struct khost *
pd_syms_khost(struct pd_syms *sy, unsigned k)
{
	struct khost **nv, *kh;
	size_t n;

	if (k < sy->nkv)
		return sy->kv[k];
	if (k >= PD_SYMS_KHOSTS_MAX)
		return NULL;
	if ((nv = realloc(sy->kv, (k + 1) * sizeof(*nv))) == NULL)
		return NULL;
	sy->kv = nv;
	for (n = sy->nkv; n <= k; n++) {
		if (n == 0)
			kh = &sy->k0;
		else if ((kh = calloc(1, sizeof(*kh))) == NULL)
			return NULL;
		else {
			kh->kern.used = 1;
			kh->kern.pid = UINT32_MAX;
			/* Its own key in the address cache (maps_gen). */
			kh->kern.gen = ++sy->gen;
		}
		kh->k = n;
		sy->kv[n] = kh;
		sy->nkv = n + 1;
	}
	return sy->kv[k];
}

unsigned
pd_syms_set_event(struct pd_syms *sy, const struct pd_evlist *el,
    const struct pd_evsel *ev)
{
	unsigned k = ev != NULL ? pd_hosts_event(&sy->hosts, el, ev) : 0;
	struct khost *kh;

	if (k == sy->kh->k)
		return k;
	pd_syms_kernel_changing(sy);
	/* Out of memory: the first host's (as before there were hosts). */
	if ((kh = pd_syms_khost(sy, k)) == NULL) {
		sy->kh = &sy->k0;
		return 0;
	}
	sy->kh = kh;
	return k;
}

int
pd_klater_ask(struct pd_klater *kl, struct pd_syms *sy)
{
	int waits = pd_kallsyms_waits(sy);

	if (kl->failed)
		return -1;
	if (kl->sy != NULL && (kl->sy != sy || !waits) &&
	    pd_klater_settle(kl) < 0)
		return -1;
	if (!waits)
		return 0;
	if (kl->sy == NULL) {
		if (sy->klater != NULL)
			return 0;	/* another tool's */
		sy->klater = kl;
		kl->sy = sy;
	}
	return 1;
}

int
pd_klater_settle(struct pd_klater *kl)
{
	struct pd_syms *sy = kl->sy;

	if (sy == NULL)
		return kl->failed ? -1 : 0;
	pd_klater_drop(kl);
	if (kl->settle(kl->ctx, sy) < 0)
		kl->failed = 1;		/* and said by every call after */
	return kl->failed ? -1 : 0;
}

void
pd_klater_drop(struct pd_klater *kl)
{
	if (kl->sy != NULL && kl->sy->klater == kl)
		kl->sy->klater = NULL;
	kl->sy = NULL;
}

unsigned
pd_syms_host(const struct pd_syms *sy)
{
	return sy->kh->k;
}

const char *
pd_syms_host_name(struct pd_syms *sy, unsigned k)
{
	return pd_hosts_name(&sy->hosts, k);
}
