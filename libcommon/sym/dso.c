/* SPDX-License-Identifier: MIT */
/*
 * Dsos: the files maps name, one per path and build id (or inode), and
 * their symbols. A file is loaded once, on the first address that falls
 * in it: libdwfl opens it (and finds separate debuginfo under the debug
 * dir by build id or debuglink, or from debuginfod), its .symtab (else
 * .dynsym) becomes a symtab (symtab.h), and the Dwfl is ended again, so
 * no file stays open; only a view that shows source lines or inlined
 * functions opens a file's DWARF again, and keeps it (pd_dso_dwarf).
 */
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "libcommon/stream/esc.h"
#include "libcommon/stream/idmap.h"
#include "libcommon/stream/perf.h"
#include "libcommon/sym/symint.h"
#include "libcommon/sym/symtab.h"

static void
dso_free(struct dso *d)
{
	/* A dso sharing another's file frees nothing of it. */
	if (d->shares == NULL) {
		pd_symtab_free(&d->st);
		free(d->loads);
	}
	if (d->dwfl != NULL)
		dwfl_end(d->dwfl);
	free(d->file);
	free(d->name_buf);
	free(d->path);
	free(d);
}

void
pd_dsos_free(struct pd_syms *sy)
{
	struct dso *d, *next;
	size_t i;

	for (i = 0; i < sy->dcap; i++)
		for (d = sy->dhash[i]; d != NULL; d = next) {
			next = d->next;
			dso_free(d);
		}
	free(sy->dhash);
	free(sy->fhash);
	for (i = 0; i < sy->nbids; i++)
		free(sy->bids[i].path);
	free(sy->bids);
	free(sy->bidhash);
}

/* FNV-1a from a per-run seed, mixed. */
static uint64_t
hash_name(const struct pd_syms *sy, const char *s)
{
	uint64_t h = 1469598103934665603ULL ^ sy->seed;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return pd_idmap_mix(h, 0);
}

/* The slot of a dso of name on host in a table of cap: apart per host. */
static size_t
dso_slot(const struct pd_syms *sy, const char *name, unsigned host,
    size_t cap)
{
	return (hash_name(sy, name) + host * 0x9e3779b97f4a7c15ULL) &
	    (cap - 1);
}

static int
dhash_grow(struct pd_syms *sy)
{
	size_t ncap = sy->dcap ? sy->dcap * 2 : 256, i;
	struct dso **nh, *d, *next;

	if ((nh = calloc(ncap, sizeof(*nh))) == NULL)
		return -1;
	for (i = 0; i < sy->dcap; i++)
		for (d = sy->dhash[i]; d != NULL; d = next) {
			size_t k = dso_slot(sy, d->name, d->host, ncap);

			next = d->next;
			d->next = nh[k];
			nh[k] = d;
		}
	free(sy->dhash);
	sy->dhash = nh;
	sy->dcap = ncap;
	return 0;
}

/* perf's is_anon_memory: maps perf looks up in /tmp/perf-PID.map. */
static int
is_anon(const char *path)
{
	return strcmp(path, "//anon") == 0 ||
	    strncmp(path, "/dev/zero", 9) == 0 ||
	    strncmp(path, "/anon_hugepage", 14) == 0;
}

/* A module's dso name as perf makes it: "/x/nf-nat.ko.xz" -> "[nf_nat]". */
static char *
module_name(const char *path)
{
	const char *b = strrchr(path, '/');
	char *s, *p;

	if (path[0] == '[')
		return strdup(path);
	b = b != NULL ? b + 1 : path;
	if (asprintf(&s, "[%s", b) < 0)
		return NULL;
	if ((p = strchr(s, '.')) != NULL)
		*p = '\0';
	for (p = s; *p != '\0'; p++)
		if (*p == '-')
			*p = '_';
	p = s;
	if (asprintf(&s, "%s]", p) < 0)
		s = NULL;
	free(p);
	return s;
}

static void
dso_set_bid(struct dso *d, const unsigned char *bid, size_t len)
{
	if (len > 20)
		len = 20;
	memcpy(d->bid, bid, len);
	d->bidlen = len;
}

/*
 * A path with "//" and "/./" collapsed, or NULL when it has none (or
 * out of memory: the path is then used as it is). The kernel never
 * writes them; a stream that does would make one dso per spelling of
 * one file.
 */
static char *
normal_path(const char *path)
{
	const char *p;
	char *s, *q;

	for (p = path; *p != '\0'; p++)
		if (p[0] == '/' && (p[1] == '/' || (p[1] == '.' &&
		    (p[2] == '/' || p[2] == '\0'))))
			break;
	if (*p == '\0' || (s = strdup(path)) == NULL)
		return NULL;
	for (p = path, q = s; *p != '\0'; ) {
		if (p[0] == '/' && p[1] == '/') {
			p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '.' && (p[2] == '/' ||
		    p[2] == '\0')) {
			p += 2;
			continue;
		}
		*q++ = *p++;
	}
	if (q > s + 1 && q[-1] == '/')
		q--;
	if (q == s)
		*q++ = '/';
	*q = '\0';
	return s;
}

/* The HEADER_BUILD_ID note of a path, or NULL. */
static struct bidnote *
bid_find(const struct pd_syms *sy, const char *path)
{
	size_t i;

	if (sy->nbids == 0)
		return NULL;
	for (i = sy->bidhash[hash_name(sy, path) & (sy->bidcap - 1)]; i != 0;
	    i = sy->bids[i - 1].next)
		if (strcmp(sy->bids[i - 1].path, path) == 0)
			return &sy->bids[i - 1];
	return NULL;
}

/* Whether two build ids are one: the shorter (zeros cut) starts the other. */
static int
bid_same(const unsigned char *a, size_t alen, const unsigned char *b,
    size_t blen)
{
	return memcmp(a, b, alen < blen ? alen : blen) == 0;
}

/*
 * Calls fn for every dso of path (as a map or HEADER_BUILD_ID names
 * it): those on its name's chains whose path it is.
 */
static void
dsos_of_path(struct pd_syms *sy, const char *path,
    void (*fn)(struct pd_syms *, struct dso *, void *), void *arg)
{
	const char *keys[3];
	struct dso *d, *next;
	char *mod = NULL;
	size_t i, nk = 0;
	unsigned h;

	if (sy->dcap == 0)
		return;
	/* The chains a dso of this path can be on: its name's. */
	keys[nk++] = path;
	if (strncmp(path, "[kernel.kallsyms", 16) == 0)
		keys[nk++] = "[kernel.kallsyms]";
	else if ((mod = module_name(path)) != NULL)
		keys[nk++] = mod;
	/* Every host's: the record does not say whose it is. */
	for (h = 0; h < sy->dhosts; h++)
		for (i = 0; i < nk; i++)
			for (d = sy->dhash[dso_slot(sy, keys[i], h, sy->dcap)];
			    d != NULL; d = next) {
				next = d->next;
				if (d->host == h && strcmp(d->path, path) == 0)
					fn(sy, d, arg);
			}
	free(mod);
}

/*
 * Another build id for a path: the one its dsos took from a note goes
 * again where they have not been read by it; said where they have.
 */
static void
bid_retract(struct pd_syms *sy, struct dso *d, void *arg)
{
	(void)arg;
	if (!d->bid_note)
		return;
	d->bid_note = 0;
	if (!d->loaded) {
		d->bidlen = 0;
		return;
	}
	pd_syms_note(sy, "%s: different build ids in the stream (several "
	    "hosts?): the names shown before were found by the first, "
	    "maybe another host's file's", d->path);
}

/*
 * Keeps a HEADER_BUILD_ID's path and build id for dsos made later (the
 * first one of a path counts), and gives it to those of that path now;
 * a path given different ones gives none (pd_dso_load).
 */
int
pd_syms_bid_add(struct pd_syms *sy, const char *path, size_t len,
    const unsigned char *bid, size_t bidlen)
{
	struct bidnote *b, *nb;
	size_t *nh, i, k, ncap;
	char *p, *np;

	if ((p = strndup(path, len)) == NULL)
		return -1;
	if ((np = normal_path(p)) != NULL) {
		free(p);
		p = np;
	}
	if ((b = bid_find(sy, p)) != NULL) {
		if (!b->differs && !bid_same(b->bid, b->len, bid, bidlen)) {
			b->differs = 1;
			dsos_of_path(sy, p, bid_retract, NULL);
		}
		if (b->differs) {
			free(p);
			return 1;
		}
		goto apply;
	}
	if (sy->nbids == sy->bidcap) {
		ncap = sy->bidcap ? sy->bidcap * 2 : 32;
		if ((nb = realloc(sy->bids, ncap * sizeof(*nb))) == NULL)
			goto fail;
		sy->bids = nb;
		if ((nh = calloc(ncap, sizeof(*nh))) == NULL)
			goto fail;
		free(sy->bidhash);
		sy->bidhash = nh;
		sy->bidcap = ncap;
		for (i = 0; i < sy->nbids; i++) {
			k = hash_name(sy, sy->bids[i].path) & (ncap - 1);
			sy->bids[i].next = nh[k];
			nh[k] = i + 1;
		}
	}
	b = &sy->bids[sy->nbids];
	b->path = p;
	memcpy(b->bid, bid, bidlen);
	b->len = bidlen;
	b->differs = b->said = 0;
	k = hash_name(sy, p) & (sy->bidcap - 1);
	b->next = sy->bidhash[k];
	sy->bidhash[k] = ++sy->nbids;
	pd_syms_dso_bid(sy, p, bid, bidlen);
	return 0;
apply:
	pd_syms_dso_bid(sy, p, bid, bidlen);
	free(p);
	return 0;
fail:
	free(p);
	return -1;
}

struct dso *
pd_syms_dso(struct pd_syms *sy, const char *path, const struct dso_id *id,
    int kernel, uint32_t pid, unsigned host)
{
	const unsigned char *bid = id->bid;
	size_t bidlen = id->bidlen;
	char *name = NULL, *norm = NULL;
	const char *key = path;
	const struct bidnote *bn;
	enum dso_kind kind;
	struct dso *d, *ovf = NULL;
	size_t k, same = 0;

	if (kernel) {
		if (strncmp(path, "[kernel.kallsyms", 16) == 0) {
			kind = DSO_KERNEL;
			key = "[kernel.kallsyms]";
		} else {
			kind = DSO_MODULE;
			if ((name = module_name(path)) == NULL)
				return NULL;
			key = name;
		}
	} else if (strcmp(path, "[vdso]") == 0)
		kind = DSO_VDSO;
	else if (is_anon(path)) {
		kind = DSO_PERFMAP;
		if (asprintf(&name, "/tmp/perf-%d.map", (int)pid) < 0)
			return NULL;
		key = name;
	} else if (path[0] == '/' && strncmp(path, "/SYSV", 5) != 0) {
		kind = DSO_FILE;
		if ((norm = normal_path(path)) != NULL)
			key = path = norm;
	} else
		kind = DSO_NOFILE;

	if (sy->dcap == 0 && dhash_grow(sy) < 0)
		goto fail;
	k = dso_slot(sy, key, host, sy->dcap);
	for (d = sy->dhash[k]; d != NULL; d = d->next) {
		if (d->host != host || strcmp(d->name, key) != 0 ||
		    d->kind != kind)
			continue;
		if (d->overflow) {
			ovf = d;
			continue;
		}
		same++;
		/* A file replaced while recorded is another dso. */
		if (id->ino != 0 && d->ino != 0 && (id->ino != d->ino ||
		    id->maj != d->maj || id->min != d->min))
			continue;
		if (bidlen == 0 || d->bidlen == 0 ||
		    (d->bidlen == bidlen && memcmp(d->bid, bid, bidlen) == 0))
			break;
	}
	if (d != NULL) {
		/* A build id that arrives before the file is loaded counts. */
		if (bidlen > 0 && d->bidlen == 0 && !d->loaded) {
			dso_set_bid(d, bid, bidlen);
			d->bid_note = 0;
		}
		if (id->ino != 0 && d->ino == 0) {
			d->ino = id->ino;
			d->maj = id->maj;
			d->min = id->min;
		}
		free(name);
		free(norm);
		return d;
	}
	if (same >= DSO_SAME_MAX && ovf != NULL) {
		free(name);
		free(norm);
		return ovf;
	}
	if (sy->dn * 2 >= sy->dcap && dhash_grow(sy) < 0)
		goto fail;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		goto fail;
	if ((d->path = strdup(path)) == NULL) {
		free(d);
		goto fail;
	}
	d->kind = kind;
	d->host = host;
	if (host >= sy->dhosts)
		sy->dhosts = host + 1;
	d->ino = id->ino;
	d->maj = id->maj;
	d->min = id->min;
	d->name_buf = name;
	d->name = name != NULL ? name : kind == DSO_KERNEL ?
	    "[kernel.kallsyms]" : d->path;
	/* Once per dso, not once per frame printed: views check this. */
	d->name_plain = !pd_esc_needed(d->name, strlen(d->name));
	if (same >= DSO_SAME_MAX) {
		/* The one for all further files of this path: no names. */
		d->overflow = 1;
		d->wrong = 1;
		d->loaded = 1;
		d->ino = 0;
		pd_syms_note(sy, "%s: more than %d different files of this "
		    "path (inode or build id); the symbols of the rest are "
		    "not shown", d->path, DSO_SAME_MAX);
	} else if (bidlen > 0)
		dso_set_bid(d, bid, bidlen);
	else if ((bn = bid_find(sy, path)) != NULL && !bn->differs) {
		dso_set_bid(d, bn->bid, bn->len);
		d->bid_note = 1;
	}
	k = dso_slot(sy, d->name, d->host, sy->dcap);
	d->next = sy->dhash[k];
	sy->dhash[k] = d;
	sy->dn++;
	free(norm);
	return d;
fail:
	free(name);
	free(norm);
	return NULL;
}


/* The end of a note that a file is not shown: where else it was looked. */
#define LOOKED(sy)	(sy)->looked[0] != '\0' ? " (looked also in: " : "", \
			(sy)->looked, (sy)->looked[0] != '\0' ? ")" : ""

struct late_bid {
	const unsigned char *bid;
	size_t		 len;
};

/*
 * A HEADER_BUILD_ID for d: taken when it is not loaded yet; when it is
 * (a pipe stream gives them last), checked, and a mismatch said.
 */
static void
dso_take_bid(struct pd_syms *sy, struct dso *d, void *arg)
{
	const struct late_bid *lb = arg;
	char want[41], have[41];

	if (d->bidlen != 0 || d->overflow)
		return;
	if (!d->loaded) {
		dso_set_bid(d, lb->bid, lb->len);
		d->bid_note = 1;
		return;
	}
	if (d->late || d->fbidlen == 0 || d->st.n == 0 ||
	    (d->fbidlen >= lb->len && memcmp(d->fbid, lb->bid, lb->len) == 0))
		return;
	d->late = 1;
	d->wrong = 1;
	pd_bid_hex(want, lb->bid, lb->len > 20 ? 20 : lb->len);
	pd_bid_hex(have, d->fbid, d->fbidlen);
	pd_syms_note(sy, "%s: build id %s, given after its samples, does not "
	    "match the file's %s; the names shown for it may be wrong",
	    d->path, want, have);
}

/*
 * A HEADER_BUILD_ID: dsos of that path not loaded yet take it; one
 * already loaded without a build id (a pipe stream gives them last) is
 * checked now, and a mismatch said: names shown for it may be wrong.
 */
void
pd_syms_dso_bid(struct pd_syms *sy, const char *path,
    const unsigned char *bid, size_t bidlen)
{
	struct late_bid lb = { bid, bidlen };

	dsos_of_path(sy, path, dso_take_bid, &lb);
}

#define PROC_MAGIC	0x9fa0		/* <linux/magic.h> PROC_SUPER_MAGIC */
#define SYSFS_MAGIC	0x62656572	/* SYSFS_MAGIC */

/*
 * A stream names any path it likes: a FIFO would block the open or the
 * read forever, a device (/dev/zero, /dev/urandom) never ends, and
 * /proc or /sys files (/proc/self/mem, /proc/kcore) are "regular" files
 * whose reads do things. Only regular files of a bounded size are read.
 */
static int
open_checked(const char *path, uint64_t max, int flags, struct stat *st,
    const char **why)
{
	struct statfs sf;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
	    flags)) < 0) {
		*why = errno == ELOOP && (flags & O_NOFOLLOW) ?
		    "a symbolic link" : strerror(errno);
		return -1;
	}
	if (fstat(fd, st) < 0) {
		*why = strerror(errno);
		goto fail;
	}
	if (!S_ISREG(st->st_mode) || (fstatfs(fd, &sf) == 0 &&
	    (sf.f_type == PROC_MAGIC || sf.f_type == SYSFS_MAGIC))) {
		*why = "not a regular file";
		goto fail;
	}
	if ((uint64_t)st->st_size > max) {
		*why = max == PD_SYMS_ELF_MAX ? "larger than 1 GiB" :
		    max == PD_SYMS_PERFMAP_MAX ? "larger than 64 MiB" :
		    "too large";
		goto fail;
	}
	/* Regular files never block; reads need no O_NONBLOCK. */
	(void)fcntl(fd, F_SETFL, 0);
	return fd;
fail:
	close(fd);
	errno = EINVAL;		/* ENOENT only for a missing file */
	return -1;
}

int
pd_syms_open(const char *path, uint64_t max, struct stat *st,
    const char **why)
{
	return open_checked(path, max, 0, st, why);
}

void
pd_bid_hex(char *buf, const unsigned char *bid, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(buf + 2 * i, "%02x", bid[i]);
	buf[2 * len] = '\0';
}

/*
 * What perf's symbol filter asks of a symbol's section, worked out once
 * per section of the file the symbols come from: a symbol used to cost
 * a section header lookup, and each symbol of a file without .symtab a
 * walk over all its sections.
 */
#define SEC_KNOWN	1
#define SEC_ALLOC	2	/* SHF_ALLOC */
#define SEC_TEXT	4	/* its name has "text" */

struct secs {
	Elf		*elf;		/* whose sections these are */
	unsigned char	*v;		/* SEC_* by index, 0: not yet */
	size_t		 n;
	int		 symtab;	/* it has a .symtab */
};

static int
has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL &&
		    sh.sh_type == SHT_SYMTAB)
			return 1;
	return 0;
}

static unsigned
sec_flags(Elf *elf, GElf_Word shndx)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	size_t shstrndx;
	const char *sname;
	unsigned f = SEC_KNOWN;

	if ((scn = elf_getscn(elf, shndx)) == NULL ||
	    gelf_getshdr(scn, &sh) == NULL || !(sh.sh_flags & SHF_ALLOC))
		return f;
	f |= SEC_ALLOC;
	if (elf_getshdrstrndx(elf, &shstrndx) == 0 &&
	    (sname = elf_strptr(elf, shstrndx, sh.sh_name)) != NULL &&
	    strstr(sname, "text") != NULL)
		f |= SEC_TEXT;
	return f;
}

/* The sections of elf in c, cleared when they were another file's. */
static void
secs_of(struct secs *c, Elf *elf)
{
	size_t n;

	if (c->elf == elf)
		return;
	free(c->v);
	c->v = NULL;
	c->n = 0;
	c->elf = elf;
	c->symtab = has_symtab(elf);
	if (elf_getshdrnum(elf, &n) == 0 && n > 0 &&
	    (c->v = calloc(n, 1)) != NULL)
		c->n = n;
}

/* perf's symbol filter: functions, IFUNCs, and labels in text sections. */
static int
want_sym(struct secs *c, const GElf_Sym *sym, GElf_Word shndx,
    const char *name)
{
	unsigned type = GELF_ST_TYPE(sym->st_info), f;

	if (name == NULL || name[0] == '\0' || shndx == SHN_UNDEF)
		return 0;
	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
		return 0;
	if (type == STT_NOTYPE && (shndx == SHN_ABS ||
	    shndx >= SHN_LORESERVE))
		return 0;
	if (shndx >= SHN_LORESERVE)
		return 1;
	if (shndx < c->n) {
		if ((f = c->v[shndx]) == 0)
			f = c->v[shndx] = sec_flags(c->elf, shndx);
	} else
		f = sec_flags(c->elf, shndx);
	if (!(f & SEC_ALLOC))
		return 0;
	return type != STT_NOTYPE || (f & SEC_TEXT);
}

static Elf_Scn *
section_by_name(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *s;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, sh) != NULL &&
		    (s = elf_strptr(elf, shstrndx, sh->sh_name)) != NULL &&
		    strcmp(s, name) == 0)
			return scn;
	return NULL;
}

/*
 * "name@plt" for each .rela.plt entry, laid over .plt after its header
 * one entry apart, as perf's dso__synthesize_plt_symbols does on x86.
 * The entry is sh_entsize, 16 or 8 bytes; lld leaves it 0, and then
 * the size is 8 where .plt is 8-aligned, else 16, as perf 6.3 and
 * later take it. Added after the builder's symbols (b->nplt), so that
 * the size-0 symbol before .plt (_init for GNU ld, _fini for lld),
 * which the fixup stretches over it, does not hide them: perf 6.1
 * names an entry by it ("_init+0x50"), or, for lld, "[unknown]".
 */
static void
add_plt(struct pd_symtab_builder *b, Elf *elf)
{
	GElf_Shdr rsh, psh, dsh;
	Elf_Scn *rscn, *dscn, *sscn;
	Elf_Data *rd, *dd;
	GElf_Ehdr eh;
	GElf_Rela rela;
	GElf_Rel rel;
	GElf_Sym sym;
	size_t i, nrel, len;
	uint64_t addr, ent;
	const char *name;
	char buf[1024], *dm;

	if (gelf_getehdr(elf, &eh) == NULL || eh.e_machine != EM_X86_64)
		return;
	if ((rscn = section_by_name(elf, ".rela.plt", &rsh)) == NULL &&
	    (rscn = section_by_name(elf, ".rel.plt", &rsh)) == NULL)
		return;
	if (section_by_name(elf, ".plt", &psh) == NULL ||
	    (dscn = elf_getscn(elf, rsh.sh_link)) == NULL ||
	    gelf_getshdr(dscn, &dsh) == NULL || dsh.sh_type != SHT_DYNSYM ||
	    (sscn = elf_getscn(elf, dsh.sh_link)) == NULL ||
	    (rd = elf_getdata(rscn, NULL)) == NULL ||
	    (dd = elf_getdata(dscn, NULL)) == NULL || rsh.sh_entsize == 0)
		return;
	if ((ent = psh.sh_entsize) != 8 && ent != 16)
		ent = psh.sh_addralign == 8 ? 8 : 16;
	(void)sscn;
	nrel = rsh.sh_size / rsh.sh_entsize;
	addr = psh.sh_addr + ent;	/* after the header entry */
	for (i = 0; i < nrel; i++, addr += ent) {
		size_t si;

		if (rsh.sh_type == SHT_RELA) {
			if (gelf_getrela(rd, i, &rela) == NULL)
				break;
			si = GELF_R_SYM(rela.r_info);
		} else {
			if (gelf_getrel(rd, i, &rel) == NULL)
				break;
			si = GELF_R_SYM(rel.r_info);
		}
		if (gelf_getsym(dd, si, &sym) == NULL ||
		    (name = elf_strptr(elf, dsh.sh_link, sym.st_name)) == NULL)
			continue;
		dm = pd_symtab_demangle(name);
		len = strlen(dm != NULL ? dm : name);
		if (len + 4 < sizeof(buf)) {
			memcpy(buf, dm != NULL ? dm : name, len);
			memcpy(buf + len, "@plt", 5);
			len += 4;
		} else
			len = sizeof(buf);
		free(dm);
		if (len >= sizeof(buf))
			continue;
		/* The last b->nplt symbols: the fixups leave them alone. */
		if (pd_symtab_add(b, addr, ent, buf, len, STB_GLOBAL, 0) < 0)
			break;
		b->nplt++;
	}
}

/*
 * Says so and marks the dso when the stream's build id for it is not
 * the file's (bits, n: the file's; n <= 0 none). 1 then, else 0.
 */
static int
bid_differs(struct pd_syms *sy, struct dso *d, const unsigned char *bits,
    int n)
{
	char want[41], have[41];

	if (d->bidlen == 0 || (n > 0 && (size_t)n >= d->bidlen &&
	    memcmp(bits, d->bid, d->bidlen) == 0))
		return 0;
	pd_bid_hex(want, d->bid, d->bidlen);
	if (n > 0)
		pd_bid_hex(have, bits, n > 20 ? 20 : n);
	pd_syms_note(sy, "%s: build id %s does not match the file%s%s;"
	    " its symbols are not shown%s%s%s", d->path, want,
	    n > 0 ? "'s " : " (it has none)", n > 0 ? have : "",
	    LOOKED(sy));
	d->wrong = 1;
	return 1;
}

static uint64_t
hash_file(const struct pd_syms *sy, uint64_t dev, uint64_t ino)
{
	return pd_idmap_mix(dev * 0x9e3779b97f4a7c15ULL ^ ino, sy->seed);
}

/* The dso that read the file st is of (device and inode), or NULL. */
static struct dso *
file_find(const struct pd_syms *sy, const struct stat *st)
{
	struct dso *o;

	if (sy->fcap == 0)
		return NULL;
	for (o = sy->fhash[hash_file(sy, st->st_dev, st->st_ino) &
	    (sy->fcap - 1)]; o != NULL; o = o->fnext)
		if (o->fdev == st->st_dev && o->fino == st->st_ino)
			return o;
	return NULL;
}

/* Remembers that d read the file st is of; nothing when out of memory. */
static void
file_add(struct pd_syms *sy, struct dso *d, const struct stat *st)
{
	struct dso **nh, *o, *next;
	size_t ncap, i, k;

	if (sy->fn * 2 >= sy->fcap) {
		ncap = sy->fcap ? sy->fcap * 2 : 64;
		if ((nh = calloc(ncap, sizeof(*nh))) == NULL)
			return;
		for (i = 0; i < sy->fcap; i++)
			for (o = sy->fhash[i]; o != NULL; o = next) {
				next = o->fnext;
				k = hash_file(sy, o->fdev, o->fino) & (ncap - 1);
				o->fnext = nh[k];
				nh[k] = o;
			}
		free(sy->fhash);
		sy->fhash = nh;
		sy->fcap = ncap;
	}
	d->fdev = st->st_dev;
	d->fino = st->st_ino;
	k = hash_file(sy, d->fdev, d->fino) & (sy->fcap - 1);
	d->fnext = sy->fhash[k];
	sy->fhash[k] = d;
	sy->fn++;
}

/* ---- debuginfod ---- */

/*
 * libdwfl asks debuginfod for debug info from inside
 * dwfl_standard_find_debuginfo(), with a client it makes per Dwfl, and
 * has no switch for it but the environment: libdebuginfod reads
 * DEBUGINFOD_URLS at each query. Executables we ask for ourselves,
 * with one client. Both get dfd_progress, called about once a second
 * while a query waits, which can end it.
 */
static struct pd_syms *dfd_sy;	/* the symbolizer querying (one thread) */

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Gives up the query when no server has answered (b, the size of the
 * download, is known once one has: -1 before) or the budget is spent.
 */
static int
dfd_progress(debuginfod_client *client, long a, long b)
{
	struct pd_syms *sy = dfd_sy;
	uint64_t t;

	(void)client;
	(void)a;
	if (sy == NULL)
		return 0;
	t = now_ns() - sy->dfd_start;
	if (b > 0)
		sy->dfd_bytes = b;
	if (sy->dfd_bytes == 0 &&
	    t >= (uint64_t)PD_SYMS_DFD_STALL * 1000000000) {
		sy->dfd_why = "no server answered in 2 s";
		return 1;
	}
	if (sy->dfd_spent + t >= (uint64_t)PD_SYMS_DFD_BUDGET * 1000000000) {
		sy->dfd_why = "the 10 s for all queries are spent";
		return 1;
	}
	return 0;
}

/*
 * libdebuginfod, opened the first time a query needs it, as libdw opens
 * it: linked in, it and libcurl's thirty libraries cost every run of
 * pddump and pdstat at start-up (2.3 ms of CPU became 7.9), asked or not.
 */
static struct {
	int	  tried;
	debuginfod_client *(*begin)(void);
	void	(*end)(debuginfod_client *);
	void	(*set_progressfn)(debuginfod_client *,
		    debuginfod_progressfn_t);
	int	(*find_executable)(debuginfod_client *, const unsigned char *,
		    int, char **);
} dfd_lib;

/*
 * Whether libdebuginfod may be opened in this process: debuginfod is to
 * be asked (pd_dso_dfd_allow).
 */
static int dfd_allowed;

void
pd_dso_dfd_allow(int on)
{
	dfd_allowed |= on;
}

/*
 * Every dlopen(3) of the process comes here first (an executable's
 * definition interposes on libc's), so that libdebuginfod is opened
 * only when debuginfod is to be asked. libdw 0.188 opens it, and with
 * it libcurl and some thirty libraries, the first time any file has no
 * debug info on this host, asked or not (it has no switch for it but
 * this): 7.5 MB of a flame graph's 37.6 MB peak RSS, and start-up
 * time. Refused, libdwfl goes on as a libdw built without debuginfod.
 */
void *
dlopen(const char *file, int mode)
{
	/* Libraries may dlopen from their own threads: found atomically. */
	static void *next;
	void *(*fn)(const char *, int);
	void *p;

	if (file != NULL && !dfd_allowed &&
	    strstr(file, "libdebuginfod.so") != NULL)
		return NULL;
	if ((p = __atomic_load_n(&next, __ATOMIC_ACQUIRE)) == NULL) {
		if ((p = dlsym(RTLD_NEXT, "dlopen")) == NULL)
			return NULL;
		__atomic_store_n(&next, p, __ATOMIC_RELEASE);
	}
	*(void **)&fn = p;
	return fn(file, mode);
}

/* 0 when libdebuginfod is there to call, else -1 (and it stays so). */
static int
dfd_load(void)
{
	void *h;

	if (dfd_lib.tried)
		return dfd_lib.find_executable != NULL ? 0 : -1;
	dfd_lib.tried = 1;
	if ((h = dlopen("libdebuginfod.so.1", RTLD_LAZY)) == NULL)
		return -1;
	*(void **)&dfd_lib.begin = dlsym(h, "debuginfod_begin");
	*(void **)&dfd_lib.end = dlsym(h, "debuginfod_end");
	*(void **)&dfd_lib.set_progressfn = dlsym(h,
	    "debuginfod_set_progressfn");
	*(void **)&dfd_lib.find_executable = dlsym(h,
	    "debuginfod_find_executable");
	if (dfd_lib.begin == NULL || dfd_lib.end == NULL ||
	    dfd_lib.set_progressfn == NULL) {
		dfd_lib.find_executable = NULL;
		return -1;
	}
	return dfd_lib.find_executable != NULL ? 0 : -1;
}

void
pd_dfd_free(debuginfod_client *c)
{
	if (c != NULL && dfd_load() == 0)
		dfd_lib.end(c);
}

/* Installs dfd_progress on the Dwfl's debuginfod client, if it has one. */
static void
dfd_hook(Dwfl *dwfl)
{
	debuginfod_client *c;

	/* libdw opened libdebuginfod for it: the same library here. */
	if ((c = dwfl_get_debuginfod_client(dwfl)) != NULL && dfd_load() == 0)
		dfd_lib.set_progressfn(c, dfd_progress);
}

/* Whether debuginfod may be asked now. */
static int
dfd_on(const struct pd_syms *sy)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	return !sy->dfd_off && urls != NULL && urls[0] != '\0';
}

int
pd_dso_dfd_urls(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	return urls != NULL && urls[0] != '\0';
}

static void
dfd_begin(struct pd_syms *sy)
{
	dfd_sy = sy;
	sy->dfd_start = now_ns();
	sy->dfd_bytes = 0;
	sy->dfd_why = NULL;
}

/*
 * After a query that returned fd: libdebuginfod's -errno, -ENOENT for
 * "no server has it"; anything else (refused, timed out, ended here)
 * is a server that failed, and debuginfod is not asked again.
 */
static void
dfd_end(struct pd_syms *sy, int fd)
{
	dfd_sy = NULL;
	sy->dfd_spent += now_ns() - sy->dfd_start;
	if (sy->dfd_why == NULL && fd < -1 && fd != -ENOENT)
		sy->dfd_why = strerror(-fd);
	if (sy->dfd_why == NULL &&
	    sy->dfd_spent >= (uint64_t)PD_SYMS_DFD_BUDGET * 1000000000)
		sy->dfd_why = "the 10 s for all queries are spent";
	if (sy->dfd_why != NULL) {
		sy->dfd_off = 1;
		pd_syms_note(sy, "debuginfod: %s; not asked again in this run "
		    "(debuginfod-find fills its cache beforehand)", sy->dfd_why);
	}
}

/*
 * libdwfl's standard search (the file's directory, its .debug, the
 * debug dir, by build id and by debuglink), then, unless it is off for
 * this run, debuginfod, bounded as PD_SYMS_DFD_* say.
 */
static int
find_debuginfo(Dwfl_Module *mod, void **ud, const char *modname,
    Dwarf_Addr base, const char *file_name, const char *debuglink,
    GElf_Word crc, char **debuginfo_file_name)
{
	struct pd_syms *sy = *ud;
	const char *urls = getenv("DEBUGINFOD_URLS");
	char *save = NULL;
	int fd;

	if (sy == NULL || urls == NULL || urls[0] == '\0')
		return dwfl_standard_find_debuginfo(mod, ud, modname, base,
		    file_name, debuglink, crc, debuginfo_file_name);
	if (sy->dfd_off) {
		/* Local only: the environment is the only switch. */
		if ((save = strdup(urls)) == NULL)
			return -1;
		unsetenv("DEBUGINFOD_URLS");
		fd = dwfl_standard_find_debuginfo(mod, ud, modname, base,
		    file_name, debuglink, crc, debuginfo_file_name);
		setenv("DEBUGINFOD_URLS", save, 1);
		free(save);
		return fd;
	}
	dfd_begin(sy);
	fd = dwfl_standard_find_debuginfo(mod, ud, modname, base,
	    file_name, debuglink, crc, debuginfo_file_name);
	dfd_end(sy, fd);
	return fd;
}

/* The executable of a build id from debuginfod: its cached path, or NULL. */
static char *
dfd_executable(struct pd_syms *sy, const unsigned char *bid, size_t len)
{
	char *path = NULL;
	int fd;

	if (sy->dfd == NULL) {
		if (dfd_load() < 0 || (sy->dfd = dfd_lib.begin()) == NULL)
			return NULL;
		dfd_lib.set_progressfn(sy->dfd, dfd_progress);
	}
	dfd_begin(sy);
	fd = dfd_lib.find_executable(sy->dfd, bid, (int)len, &path);
	dfd_end(sy, fd);
	if (fd < 0) {
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

/* ---- where a dso's file is ---- */

/*
 * The GNU build id of the ELF file at path (at most 20 bytes in id):
 * its length, 0 when it has none, -1 when it cannot be read (*why).
 */
static int
file_bid(const char *path, unsigned char id[20], const char **why)
{
	const void *bits;
	struct stat st;
	ssize_t n = -1;
	Elf *e;
	int fd;

	if ((fd = pd_syms_open(path, PD_SYMS_ELF_MAX, &st, why)) < 0) {
		if (errno == ENOENT)
			*why = "missing";
		return -1;
	}
	elf_version(EV_CURRENT);
	if ((e = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL ||
	    elf_kind(e) != ELF_K_ELF)
		*why = "not an ELF file";
	else if ((n = dwelf_elf_gnu_build_id(e, &bits)) > 0)
		memcpy(id, bits, n > 20 ? 20 : n);
	else
		n = 0;
	elf_end(e);
	close(fd);
	return n > 20 ? 20 : (int)n;
}

/*
 * Whether the file at path is the dso's: its build id is the one the
 * stream gave (any ELF file when it gave none). With -v, said.
 */
static int
file_is(struct pd_syms *sy, const struct dso *d, const char *path)
{
	unsigned char id[20];
	const char *why = NULL;
	int n, ok;

	n = file_bid(path, id, &why);
	ok = n >= 0 && (d->bidlen == 0 || ((size_t)n >= d->bidlen &&
	    memcmp(id, d->bid, d->bidlen) == 0));
	if (sy->verbose)
		pd_syms_note(sy, "%s: %s: %s", d->path, path, ok ? "used" :
		    n < 0 ? why : n == 0 ? "has no build id" :
		    "another build id");
	return ok;
}

static void
looked_add(struct pd_syms *sy, const char *what, const char *dir)
{
	size_t n = strlen(sy->looked);

	snprintf(sy->looked + n, sizeof(sy->looked) - n, "%s%s%s%s",
	    n > 0 ? ", " : "", what, dir != NULL ? " " : "",
	    dir != NULL ? dir : "");
}

/* The --symfs HOST=DIR of d's host, or NULL. */
static const char *
host_symfs(const struct pd_syms *sy, const struct dso *d)
{
	return pd_syms_host_arg(sy->sdirs, sy->nsdirs,
	    pd_syms_host_called(sy, d->host));
}

/* d's file under a --symfs dir when it is d's (file_is), or NULL. */
static char *
symfs_file(struct pd_syms *sy, const struct dso *d, const char *dir)
{
	char *p;

	if (asprintf(&p, "%s%s", dir, d->path) < 0)
		return NULL;
	if (file_is(sy, d, p))
		return p;
	free(p);
	return NULL;
}

/*
 * The file to read for a dso: NULL for the one at its path on this
 * machine, or one found by its build id (malloc'd): under --symfs, in
 * perf's build-id cache, from debuginfod. This machine's file is tried
 * before debuginfod: every file used has the stream's build id, so the
 * order changes what it costs, not what is found. sy->looked says where
 * else it was looked for. Once per dso, never per sample.
 */
static char *
dso_locate(struct pd_syms *sy, struct dso *d)
{
	static const char *const ents[] = { "elf", "debug" };
	const char *dirs[2];
	char hex[41], *p;
	size_t i;

	sy->looked[0] = '\0';
	/* Its host's tree, then every host's. */
	dirs[0] = host_symfs(sy, d);
	dirs[1] = sy->symfs;
	for (i = 0; i < 2; i++) {
		if (dirs[i] == NULL)
			continue;
		if ((p = symfs_file(sy, d, dirs[i])) != NULL)
			return p;
		looked_add(sy, "--symfs", dirs[i]);
	}
	if (d->bidlen == 0)
		return NULL;
	pd_bid_hex(hex, d->bid, d->bidlen);
	if (sy->bid_dir != NULL) {
		for (i = 0; i < sizeof(ents) / sizeof(ents[0]); i++) {
			if (asprintf(&p, "%s/.build-id/%.2s/%s/%s", sy->bid_dir,
			    hex, hex + 2, ents[i]) < 0)
				return NULL;
			if (file_is(sy, d, p))
				return p;
			free(p);
		}
		looked_add(sy, "the build-id cache", sy->bid_dir);
	}
	if (!dfd_on(sy))
		return NULL;
	if (file_is(sy, d, d->path))
		return NULL;
	if ((p = dfd_executable(sy, d->bid, d->bidlen)) != NULL) {
		if (file_is(sy, d, p))
			return p;
		free(p);
	}
	looked_add(sy, "debuginfod", NULL);
	return NULL;
}

/*
 * Loads `file` (the dso's path, or the vdso image) through libdwfl and
 * keeps its symbols and PT_LOAD segments in the dso. A file already
 * read for another dso (a link, another spelling of its path) is
 * shared, not read again: memory follows the files, not their names.
 */
static void
load_elf(struct pd_syms *sy, struct dso *d, const char *file)
{
	Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &sy->debug_path,
	};
	struct pd_symtab_builder b;
	struct secs secs = { 0 };
	const unsigned char *bits;
	struct dso *o;
	void **ud;
	GElf_Addr vaddr, bias;
	GElf_Phdr ph;
	GElf_Sym sym;
	GElf_Word shndx;
	Dwfl_Module *mod;
	Dwfl *dwfl;
	Elf *elf, *selfp;
	size_t i, nph;
	int n, nsyms, symtab = 0;
	struct stat stb;
	const char *why, *raw;
	char magic[SELFMAG];
	size_t rawlen;
	void *map;
	int fd;

	memset(&b, 0, sizeof(b));
	b.mangled = 1;		/* demangled when named (symtab.h) */
	if ((fd = pd_syms_open(file, PD_SYMS_ELF_MAX, &stb, &why)) < 0) {
		pd_syms_note(sy, "%s: %s; its symbols are not shown%s%s%s",
		    d->path, why, LOOKED(sy));
		return;
	}
	/*
	 * Without a build id, the inode MMAP2 gave tells whether this is
	 * still the file that was mapped, on this host (anonymous devices,
	 * as overlayfs has, do not keep their numbers: not checked).
	 */
	if (d->bidlen == 0 && d->ino != 0 && file == d->path &&
	    major(stb.st_dev) != 0 && pd_kallsyms_host(sy) == 1 &&
	    (stb.st_ino != d->ino || major(stb.st_dev) != d->maj ||
	    minor(stb.st_dev) != d->min)) {
		pd_syms_note(sy, "%s: not the file that was recorded "
		    "(inode %" PRIu64 ", now %" PRIu64 "); its symbols are not "
		    "shown", d->path, d->ino, (uint64_t)stb.st_ino);
		d->wrong = 1;
		close(fd);
		return;
	}
	/*
	 * One file read once, by device and inode; not the vdso's image,
	 * a memfd whose inode number the next one may take again.
	 */
	if (file == d->path && (o = file_find(sy, &stb)) != NULL) {
		close(fd);
		memcpy(d->fbid, o->fbid, o->fbidlen);
		d->fbidlen = o->fbidlen;
		if (bid_differs(sy, d, o->fbid, (int)o->fbidlen))
			return;
		d->shares = o;
		d->st = o->st;
		d->loads = o->loads;
		d->nloads = o->nloads;
		d->stripped = o->stripped;
		return;
	}
	/* Only the magic of a file that is not ELF is ever read. */
	if (pread(fd, magic, SELFMAG, 0) != SELFMAG ||
	    memcmp(magic, ELFMAG, SELFMAG) != 0) {
		pd_syms_note(sy, "%s: not an ELF file; its symbols are not "
		    "shown", d->path);
		close(fd);
		return;
	}
	if ((dwfl = dwfl_begin(&cb)) == NULL) {
		close(fd);
		return;
	}
	/*
	 * The names stay in the file (pd_symtab_builder): a mapping of
	 * it that nothing reads yet, made while fd is ours. Like libdw's
	 * own mapping of the debug info, it holds the file as it is: one
	 * replaced (a package upgrade renames a new file in) leaves it
	 * whole; one cut short in place under us would fault, as it does
	 * every program that has it mapped.
	 */
	if (S_ISREG(stb.st_mode) && stb.st_size > 0 &&
	    (uint64_t)stb.st_size <= SIZE_MAX && (map = mmap(NULL,
	    stb.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) != MAP_FAILED)
		pd_symtab_builder_map(&b, NULL, map, stb.st_size);
	/* On success libdwfl owns fd (and never opens the path itself). */
	if ((mod = dwfl_report_elf(dwfl, d->path, file, fd, 0, false)) == NULL)
		close(fd);
	dwfl_report_end(dwfl, NULL, NULL);
	if (mod == NULL) {
		pd_syms_note(sy, "%s: %s; its symbols are not shown",
		    d->path, dwfl_errmsg(-1));
		goto out;
	}
	/* find_debuginfo's: the module's user data is the symbolizer. */
	if (dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL,
	    NULL) != NULL)
		*ud = sy;
	if (dfd_on(sy))
		dfd_hook(dwfl);
	n = dwfl_module_build_id(mod, &bits, &vaddr);
	if (n > 0) {
		d->fbidlen = n > 20 ? 20 : n;
		memcpy(d->fbid, bits, d->fbidlen);
	}
	if (bid_differs(sy, d, bits, n))
		goto out;
	if ((elf = dwfl_module_getelf(mod, &bias)) == NULL)
		goto out;
	/*
	 * libelf's image is the file as it is (ours begins with ELF's
	 * magic, so libdwfl decompressed nothing): a name there is at
	 * the same offset in the map.
	 */
	if (b.map != NULL && (raw = elf_rawfile(elf, &rawlen)) != NULL &&
	    rawlen == b.maplen)
		pd_symtab_builder_map(&b, raw, b.map, b.maplen);
	if (elf_getphdrnum(elf, &nph) == 0 && nph > 0 &&
	    (d->loads = calloc(nph, sizeof(*d->loads))) != NULL) {
		for (i = 0; i < nph; i++) {
			if (gelf_getphdr(elf, i, &ph) == NULL ||
			    ph.p_type != PT_LOAD)
				continue;
			d->loads[d->nloads].off = ph.p_offset;
			d->loads[d->nloads].filesz = ph.p_filesz;
			d->loads[d->nloads].vaddr = ph.p_vaddr;
			d->nloads++;
		}
	}
	if ((nsyms = dwfl_module_getsymtab(mod)) < 0)
		nsyms = 0;
	for (n = 1; n < nsyms; n++) {
		const char *name;

		name = dwfl_module_getsym_info(mod, n, &sym, &vaddr, &shndx,
		    &selfp, &bias);
		if (selfp == NULL)
			continue;
		secs_of(&secs, selfp);
		if (!want_sym(&secs, &sym, shndx, name))
			continue;
		if (secs.symtab)
			symtab = 1;
		if (pd_symtab_add(&b, sym.st_value, sym.st_size, name,
		    strlen(name), GELF_ST_BIND(sym.st_info), 0) < 0)
			break;
	}
	if (b.n > 0 || nsyms > 0)
		add_plt(&b, elf);
	/* Said when one of its addresses has no name (see stripped()). */
	d->stripped = !symtab && d->kind == DSO_FILE;
	if (pd_symtab_finish(&b, &d->st, 0) < 0)
		pd_syms_note(sy, "%s: out of memory", d->path);
	else if (file == d->path)
		file_add(sy, d, &stb);
out:
	free(secs.v);
	pd_symtab_builder_free(&b);
	dwfl_end(dwfl);
}

struct Dwfl_Module *
pd_dso_dwarf(struct pd_syms *sy, struct dso *d)
{
	Dwfl_Callbacks *cb = sy->dwcb;
	const char *file, *why;
	Dwfl_Module *mod;
	struct stat st;
	void **ud;
	int fd;

	if (d->shares != NULL)
		d = d->shares;
	if (d->dwtried)
		return d->dwmod;
	d->dwtried = 1;
	/* Only a file whose symbols were read: the same file, checked. */
	if (d->kind != DSO_FILE || d->wrong || d->st.n == 0)
		return NULL;
	if (sy->ndwfl >= PD_SYMS_DWFL_MAX) {
		if (sy->ndwfl++ == PD_SYMS_DWFL_MAX)
			pd_syms_note(sy, "debug info of more than %d files is "
			    "not read: their source lines and inlined "
			    "functions are not shown", PD_SYMS_DWFL_MAX);
		return NULL;
	}
	/* The Dwfl keeps a pointer to its callbacks: one set for all. */
	if (cb == NULL) {
		if ((cb = calloc(1, sizeof(*cb))) == NULL)
			return NULL;
		cb->find_elf = dwfl_build_id_find_elf;
		cb->find_debuginfo = find_debuginfo;
		cb->section_address = dwfl_offline_section_address;
		cb->debuginfo_path = &sy->debug_path;
		sy->dwcb = cb;
	}
	file = d->file != NULL ? d->file : d->path;
	if ((fd = pd_syms_open(file, PD_SYMS_ELF_MAX, &st, &why)) < 0)
		return NULL;
	if ((d->dwfl = dwfl_begin(cb)) == NULL) {
		close(fd);
		return NULL;
	}
	/* On success libdwfl owns fd. */
	if ((mod = dwfl_report_elf(d->dwfl, d->path, file, fd, 0,
	    false)) == NULL)
		close(fd);
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (mod == NULL || dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL,
	    NULL, NULL) == NULL) {
		dwfl_end(d->dwfl);
		d->dwfl = NULL;
		return NULL;
	}
	*ud = sy;
	if (dfd_on(sy))
		dfd_hook(d->dwfl);
	sy->ndwfl++;
	return d->dwmod = mod;
}

/*
 * The vdso: when the stream is from this host, our own vdso is the one
 * the recorded processes had (perf uses its own image the same way).
 */
static void
load_vdso(struct pd_syms *sy, struct dso *d)
{
	const unsigned char *img = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const void *)img;
	char path[64];
	size_t len;
	int fd;

	if (img == NULL || pd_kallsyms_host(sy) != 1 ||
	    memcmp(img, ELFMAG, SELFMAG) != 0 ||
	    img[EI_CLASS] != ELFCLASS64)
		return;
	/* The section headers are the image's end. */
	len = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (len == 0 || len > (1 << 20))
		return;
	if ((fd = memfd_create("vdso", MFD_CLOEXEC)) < 0)
		return;
	if (write(fd, img, len) == (ssize_t)len) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		load_elf(sy, d, path);
	}
	close(fd);
}

/*
 * A JIT's symbols: /tmp/perf-PID.map, lines of "START SIZE name" (hex,
 * absolute addresses), as perf reads it for anonymous executable maps.
 * Only for a stream from this host: the file is this machine's.
 */
static void
load_perfmap(struct pd_syms *sy, struct dso *d)
{
	struct pd_symtab_builder b;
	char *line = NULL, *p, *q;
	size_t cap = 0;
	ssize_t len;
	uint64_t start, size;
	struct stat st;
	const char *why;
	FILE *f;
	int fd;

	if (pd_kallsyms_host(sy) != 1)
		return;
	/*
	 * Not through a symbolic link: anyone can make one in /tmp, to a
	 * file of root's that the owner check below would then pass.
	 */
	if ((fd = open_checked(d->name, PD_SYMS_PERFMAP_MAX, O_NOFOLLOW, &st,
	    &why)) < 0) {
		if (errno != ENOENT)
			pd_syms_note(sy, "%s: %s; its symbols are not shown",
			    d->name, why);
		return;
	}
	/*
	 * perf reads a map file only when it is owned by the user running
	 * perf or by root: anyone can write to /tmp, and a map file names
	 * every address in the process.
	 */
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		pd_syms_note(sy, "%s: not owned by the current user or root; "
		    "its symbols are not shown", d->name);
		close(fd);
		return;
	}
	if ((f = fdopen(fd, "r")) == NULL) {
		close(fd);
		return;
	}
	memset(&b, 0, sizeof(b));
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		start = strtoull(line, &p, 16);
		if (p == line || *p != ' ')
			continue;
		size = strtoull(p + 1, &q, 16);
		if (q == p + 1 || *q != ' ' || q[1] == '\0')
			continue;
		if (pd_symtab_add(&b, start, size, q + 1, strlen(q + 1),
		    STB_GLOBAL, 0) < 0)
			break;
	}
	free(line);
	fclose(f);
	if (pd_symtab_finish(&b, &d->st, 0) < 0)
		pd_syms_note(sy, "%s: out of memory", d->name);
}

/*
 * Whether d's file cannot be picked by a build id: the stream gave its
 * path different ones (a merge of hosts whose files differ) and d none
 * of its own, so a file found by its path alone may be another host's.
 * Then only its host's --symfs HOST=DIR, which the user gave for that
 * host, is read for it; without one its symbols are not shown, said
 * once per path.
 */
static int
dso_unpicked(struct pd_syms *sy, struct dso *d)
{
	struct bidnote *bn;
	const char *dir;

	if (d->bidlen != 0 || (bn = bid_find(sy, d->path)) == NULL ||
	    !bn->differs)
		return 0;
	if (d->kind == DSO_FILE && (dir = host_symfs(sy, d)) != NULL &&
	    (d->file = symfs_file(sy, d, dir)) != NULL) {
		load_elf(sy, d, d->file);
		return 1;
	}
	if (!bn->said) {
		bn->said = 1;
		pd_syms_note(sy, "%s: different build ids in the stream "
		    "(several hosts?): matched by build id only; without "
		    "one, its symbols are not shown (see --symfs HOST=DIR)",
		    d->path);
	}
	d->wrong = 1;
	return 1;
}

void
pd_dso_load(struct pd_syms *sy, struct dso *d)
{
	char *file;

	d->loaded = 1;
	if ((d->kind == DSO_FILE || d->kind == DSO_VDSO) &&
	    dso_unpicked(sy, d))
		return;
	if (d->kind == DSO_FILE) {
		file = dso_locate(sy, d);
		load_elf(sy, d, file != NULL ? file : d->path);
		d->file = file;		/* its DWARF is read from it too */
		sy->looked[0] = '\0';
	}
	if (d->kind == DSO_VDSO)
		load_vdso(sy, d);
	else if (d->kind == DSO_PERFMAP)
		load_perfmap(sy, d);
}
