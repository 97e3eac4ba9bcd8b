/* SPDX-License-Identifier: MIT */
/*
 * Kernel symbols, looked for once, on the first kernel address: a
 * kallsyms file the user names (--kallsyms, --symfs), the kallsyms of
 * the stream's kernel build id (this machine's /proc/kallsyms when it
 * is that kernel in that boot, else perf's build-id cache), or, for a
 * stream that gives no kernel build id, /proc/kallsyms when the stream
 * comes from this host and boot (same os release and hostname, and the
 * kernel mmap's reference symbol at the address kallsyms gives). A file
 * of another boot is relocated by the difference at that reference
 * symbol, as perf does for KASLR. Where the load would read
 * /proc/kallsyms, a thread reads it ahead from the kernel map on
 * (pd_kallsyms_prefetch).
 */
#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <gelf.h>

#include "libcommon/stream/elfnote.h"
#include "libcommon/stream/perf.h"
#include "libcommon/sym/symint.h"
#include "libcommon/sym/symtab.h"

/* Whether the stream gave its host's name and kernel release. */
static int
names_host(const struct pd_syms *sy)
{
	const unsigned need = 1U << PD_FEAT_HOSTNAME | 1U << PD_FEAT_OSRELEASE;

	return (sy->hi.seen & need) == need;
}

/* Whether name and rel are this machine's: 1, 0, -1 when it cannot tell. */
static int
this_host(const char *name, const char *rel)
{
	struct utsname u;

	if (uname(&u) < 0)
		return -1;
	return strcmp(u.release, rel) == 0 && strcmp(u.nodename, name) == 0;
}

int
pd_kallsyms_host(struct pd_syms *sy)
{
	if (sy->host == 0)
		sy->host = names_host(sy) ?
		    this_host(sy->hi.hostname, sy->hi.osrelease) + 2 : 1;
	return sy->host - 2;
}

/*
 * The name and kernel release of kh's host: the stream's (one host),
 * or a merged host's name and the OSRELEASE that followed its HOSTNAME
 * (the merge passes each input's features on, in the inputs' order).
 * 1 when both are known.
 */
static int
host_names(const struct pd_syms *sy, const struct khost *kh,
    const char **name, const char **rel)
{
	const char *kname = khost_name(sy, kh);
	size_t i;

	if (kname == NULL) {
		*name = sy->hi.hostname;
		*rel = sy->hi.osrelease;
		return names_host(sy);
	}
	for (i = 0; i < sy->nrels; i++)
		if (strcmp(sy->rels[i].host, kname) == 0) {
			*name = kname;
			*rel = sy->rels[i].release;
			return 1;
		}
	return 0;
}

/* The host rule for kh's host: 1 this host, 0 not, -1 cannot tell. */
static int
khost_here(struct pd_syms *sy, struct khost *kh)
{
	const char *name, *rel;

	if (khost_name(sy, kh) == NULL)
		return pd_kallsyms_host(sy);
	if (kh->host == 0)
		kh->host = host_names(sy, kh, &name, &rel) ?
		    this_host(name, rel) + 2 : 1;
	return kh->host - 2;
}

/*
 * The kallsyms file the user named for kh's host: --kallsyms HOST=FILE
 * for its name (a one-host stream's: the HOSTNAME it gives), else a
 * plain --kallsyms FILE for a one-host stream or a merge's first host;
 * NULL when none.
 */
static const char *
khost_file(const struct pd_syms *sy, const struct khost *kh)
{
	const char *file;

	if (khost_name(sy, kh) == NULL && sy->kallsyms_path != NULL)
		return sy->kallsyms_path;
	if ((file = pd_syms_host_arg(sy->kfiles, sy->nkfiles,
	    pd_syms_host_called(sy, kh->k))) != NULL)
		return file;
	return kh->k == 0 ? sy->kallsyms_path : NULL;
}

struct kparse {
	struct pd_symtab_builder b;
	const char	*kref;		/* the reference symbol's name */
	uint64_t	 ref;		/* the reference symbol's address */
	int		 has_ref;
	size_t		 n, nonzero;
};

/*
 * 8 hex digits at p as their value in *v: 1, or 0 when one is not a
 * hex digit. All 8 at once: /proc/kallsyms gives every address as 16
 * digits, and a digit at a time was a third of parsing it.
 */
static int
hex8(const char *p, uint64_t *v)
{
	const uint64_t ones = 0x0101010101010101ULL, high = ones * 0x80;
	const unsigned char *b = (const unsigned char *)p;
	uint64_t x, y, dig, let;

	x = (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
	    (uint64_t)b[3] << 24 | (uint64_t)b[4] << 32 |
	    (uint64_t)b[5] << 40 | (uint64_t)b[6] << 48 |
	    (uint64_t)b[7] << 56;
	if (x & high)
		return 0;
	/* Each byte's top bit: it is in '0'..'9', or in 'a'..'f' folded. */
	dig = (x + ones * (0x80 - '0')) & ~(x + ones * (0x80 - '9' - 1)) &
	    high;
	y = x | ones * 0x20;
	let = (y + ones * (0x80 - 'a')) & ~(y + ones * (0x80 - 'f' - 1)) &
	    high;
	if ((dig | let) != high)
		return 0;
	/* Nibbles, first digit highest: pairs, then fours, then eights. */
	x = (x & ones * 0x0f) + (let >> 7) * 9;
	x = (x << 4 | x >> 8) & 0x00ff00ff00ff00ffULL;
	x = (x << 8 | x >> 16) & 0x0000ffff0000ffffULL;
	*v = (x << 16 | x >> 32) & 0xffffffffULL;
	return 1;
}

/*
 * The address a kallsyms line of len bytes starts with: 1 to 16 hex
 * digits and a space. Returns where the space is, or NULL. (strtoull,
 * with its locale and its overflow checks, was a third of loading
 * kallsyms.)
 */
static char *
hex_addr(char *p, size_t len, uint64_t *a)
{
	uint64_t v = 0, lo;
	unsigned c, d, n;

	if (len > 16 && p[16] == ' ' && hex8(p, &v) && hex8(p + 8, &lo)) {
		*a = v << 32 | lo;
		return p + 16;
	}
	for (n = 0; n < 17; n++) {
		c = (unsigned char)p[n];
		/* Unsigned: one compare for each range of digits. */
		if ((d = c - '0') > 9 && (d = (c | 0x20) - 'a') > 5)
			break;
		v = v << 4 | (c <= '9' ? d : d + 10);
	}
	if (n == 0 || n > 16 || p[n] != ' ')
		return NULL;
	*a = v;
	return p + n;
}

/*
 * One line of llen bytes, its newline replaced by a NUL. 0, or -1 out
 * of memory.
 */
static int
parse_line(char *line, size_t llen, struct kparse *kp)
{
	char *p, *end, *name, *mod;
	uint64_t a;
	size_t len;
	char type;

	if ((end = hex_addr(line, llen, &a)) == NULL)
		return 0;
	p = end + 1;
	type = *p;
	if (type == '\0' || p[1] != ' ')
		return 0;
	name = p + 2;
	len = strlen(name);
	mod = memchr(name, '\t', len);
	if (kp->has_ref == 0 && kp->kref[0] != '\0' && mod == NULL &&
	    strcmp(name, kp->kref) == 0) {
		kp->ref = a;
		kp->has_ref = 1;
	}
	if ((type | 0x20) != 't' && (type | 0x20) != 'w')
		return 0;
	kp->n++;
	if (a != 0)
		kp->nonzero++;
	return pd_symtab_add(&kp->b, a, 0, name,
	    mod != NULL ? (size_t)(mod - name) : len,
	    type == 'W' ? STB_WEAK : type == 'T' ? STB_GLOBAL : STB_LOCAL,
	    mod != NULL);
}

/*
 * The lines of fd, read in large chunks: getline's per-line calls were
 * a quarter of loading kallsyms (120,000 lines). 0, -1 when it cannot
 * be read, out of memory, or *stop (atomic; NULL: never) was set.
 */
static int
parse(int fd, struct kparse *kp, const int *stop)
{
	size_t cap = 1 << 18, have = 0, used;
	char *buf, *p, *nl, *nb;
	ssize_t n;
	int r = 0;

	if ((buf = malloc(cap)) == NULL)
		return -1;
	for (;;) {
		if (have == cap - 1) {
			/* A line longer than the buffer: a larger one. */
			if ((nb = realloc(buf, cap * 2)) == NULL) {
				r = -1;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		if (stop != NULL && __atomic_load_n(stop, __ATOMIC_RELAXED)) {
			r = -1;
			break;
		}
		if ((n = read(fd, buf + have, cap - 1 - have)) < 0) {
			if (errno == EINTR)
				continue;
			r = -1;
			break;
		}
		if (n == 0) {
			/* The last line, without its newline. */
			if (have > 0) {
				buf[have] = '\0';
				r = parse_line(buf, have, kp);
			}
			break;
		}
		have += n;
		for (p = buf; (nl = memchr(p, '\n', buf + have - p)) != NULL;
		    p = nl + 1) {
			*nl = '\0';
			if (parse_line(p, nl - p, kp) < 0) {
				r = -1;
				goto out;
			}
		}
		used = p - buf;
		memmove(buf, p, have - used);
		have -= used;
	}
out:
	free(buf);
	return r;
}

/* A kallsyms file read into a table, on either thread. */
struct kfile {
	struct kparse	 kp;
	struct symtab	 st;
	enum { KF_OK, KF_OPEN, KF_READ, KF_NOMEM } r;
	int		 err;		/* KF_OPEN: open's errno */
};

static void
kfile_read(struct kfile *f, const char *file, const char *kref,
    const int *stop)
{
	int fd;

	memset(f, 0, sizeof(*f));
	f->kp.kref = kref;
	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) < 0) {
		f->err = errno;
		f->r = KF_OPEN;
		return;
	}
	if (parse(fd, &f->kp, stop) < 0) {
		close(fd);
		pd_symtab_builder_free(&f->kp.b);
		f->r = KF_READ;
		return;
	}
	close(fd);
	if (pd_symtab_finish(&f->kp.b, &f->st, 1) < 0)
		f->r = KF_NOMEM;
}

/*
 * /proc/kallsyms read ahead. The kernel writes it 4 KiB a read(2), 30
 * to 50 ms of system time, and the first kernel address of a stream
 * recorded with --call-graph dwarf comes after its user stacks' files
 * are loaded and unwound: read on a thread from the kernel map on, it
 * is ready by then. The thread reads and parses it exactly as
 * load_file would, into a table of its own, which load_file takes.
 * Started at the first kernel sample instead, it came too late to hide
 * anything. So a stream with a kernel map and no kernel sample pays
 * for it: the other core's time, and the table's memory (about 6 MiB
 * at most) as far as the thread got before pd_syms_free stopped it.
 */
struct pd_kprefetch {
	pthread_t	 th;
	const struct khost *kh;
	char		 kref[sizeof(((struct khost *)0)->kref)];
	int		 stop;		/* atomic: not wanted */
	int		 done;		/* atomic: f is read */
	struct kfile	 f;
};

static void *
prefetch_run(void *arg)
{
	struct pd_kprefetch *p = arg;

	kfile_read(&p->f, "/proc/kallsyms", p->kref, &p->stop);
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

int
pd_kallsyms_waits(const struct pd_syms *sy)
{
	const struct pd_kprefetch *p = sy->kpre;

	return p != NULL && p->kh == sy->kh && sy->kh->ktried == 0 &&
	    strcmp(p->kref, sy->kh->kref) == 0 &&
	    !__atomic_load_n(&p->done, __ATOMIC_ACQUIRE);
}

/*
 * The read ahead for kh's /proc/kallsyms of its reference symbol: 1
 * with *f taken, else 0 (none; one for another host or reference
 * symbol is dropped).
 */
static int
prefetch_take(struct pd_syms *sy, const struct khost *kh, struct kfile *f)
{
	struct pd_kprefetch *p = sy->kpre;
	int mine;

	if (p == NULL)
		return 0;
	mine = p->kh == kh && strcmp(p->kref, kh->kref) == 0;
	if (!mine)
		__atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
	pthread_join(p->th, NULL);
	if (mine)
		*f = p->f;
	else if (p->f.r == KF_OK)
		pd_symtab_free(&p->f.st);
	free(p);
	sy->kpre = NULL;
	if (mine)
		f->kp.kref = kh->kref;
	return mine;
}

void
pd_kallsyms_prefetch_free(struct pd_syms *sy)
{
	struct kfile f;

	(void)prefetch_take(sy, NULL, &f);	/* no host's: dropped */
}

/*
 * Loads a kallsyms file into kh->ksyms: 1; 0 when it cannot be used
 * (*why says why); -2 when its reference symbol is not where the
 * stream's kernel map has it (*ref: where it is) and `relocate` is 0:
 * this machine's kernel of another boot. A file of another boot or host
 * is moved by that difference, as perf does for KASLR.
 */
static int
load_file(struct pd_syms *sy, struct khost *kh, const char *file,
    int relocate, const char **why, uint64_t *ref)
{
	struct kfile f;
	int64_t delta;
	size_t i;

	if (strcmp(file, "/proc/kallsyms") != 0 || !prefetch_take(sy, kh, &f))
		kfile_read(&f, file, kh->kref, NULL);
	switch (f.r) {
	case KF_OPEN:
		*why = strerror(f.err);
		return 0;
	case KF_READ:
		*why = "cannot read it";
		return 0;
	case KF_NOMEM:
		*why = "out of memory";
		return 0;
	case KF_OK:
		break;
	}
	kh->ksyms = f.st;
	if (f.kp.nonzero == 0) {
		pd_symtab_free(&kh->ksyms);
		*why = f.kp.n == 0 ? "no symbols" : "its addresses are hidden "
		    "(kernel.kptr_restrict; run as root)";
		return 0;
	}
	if (f.kp.has_ref && kh->kref_addr != f.kp.ref) {
		if (!relocate) {
			/* This host, yet another boot: never wrong names. */
			pd_symtab_free(&kh->ksyms);
			*ref = f.kp.ref;
			return -2;
		}
		delta = (int64_t)(kh->kref_addr - f.kp.ref);
		for (i = 0; i < kh->ksyms.n; i++) {
			kh->ksyms.syms[i].start += delta;
			kh->ksyms.syms[i].end += delta;
		}
	}
	return 1;
}

/* "host NAME: " before a merged host's notes, else "". */
static const char *
who(const struct pd_syms *sy, const struct khost *kh, char *buf, size_t len)
{
	const char *name = khost_name(sy, kh);

	if (name == NULL)
		return "";
	snprintf(buf, len, "host %s: ", name);
	return buf;
}

static void
note_boot(struct pd_syms *sy, struct khost *kh, const char *file,
    uint64_t ref)
{
	char w[160];

	pd_syms_note(sy, "%skernel symbols are not shown: the stream's "
	    "kernel map (%s at 0x%" PRIx64 ") does not match %s (0x%" PRIx64
	    "); see --kallsyms", who(sy, kh, w, sizeof(w)), kh->kref,
	    kh->kref_addr, file, ref);
}

/* A file the user gave, or this host's by the host rule: said if not. */
static int
take(struct pd_syms *sy, struct khost *kh, const char *file, int relocate)
{
	const char *why;
	uint64_t ref;
	char w[160];
	int r;

	if ((r = load_file(sy, kh, file, relocate, &why, &ref)) == 0)
		pd_syms_note(sy, "%s%s: %s; kernel symbols are not shown",
		    who(sy, kh, w, sizeof(w)), file, why);
	else if (r == -2)
		note_boot(sy, kh, file, ref);
	return r == 1;
}

/* This machine's kernel build id (/sys/kernel/notes): its length, or 0. */
static size_t
host_bid(unsigned char id[20])
{
	unsigned char buf[4096];
	size_t len;
	ssize_t n;
	int fd;

	if ((fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || pd_elfnote_build_id(buf, (size_t)n, id, &len) < 0)
		return 0;
	return len;
}

/*
 * The kernel symbols of the stream's kernel build id: this machine's
 * /proc/kallsyms when it is that kernel in the boot recorded (the exact
 * file), else perf's build-id cache (.build-id/xx/rest/kallsyms, or
 * [kernel.kallsyms]/ID/kallsyms where perf record and perf buildid-cache
 * put it: that kernel's symbols of the boot recorded there). Never this
 * machine's kallsyms of another kernel.
 */
static int
load_by_bid(struct pd_syms *sy, struct khost *kh)
{
	unsigned char hid[20];
	char want[41], have[41], *p;
	const char *why, *hwhy = NULL;
	uint64_t ref = 0;
	size_t hlen, i;
	int r, boot = 0;
	char w[160];

	pd_bid_hex(want, kh->kbid, kh->kbidlen);
	hlen = host_bid(hid);
	pd_bid_hex(have, hid, hlen);
	if (hlen == kh->kbidlen && memcmp(hid, kh->kbid, hlen) == 0) {
		r = load_file(sy, kh, "/proc/kallsyms", 0, &why, &ref);
		if (sy->verbose)
			pd_syms_note(sy, "[kernel.kallsyms]: /proc/kallsyms: %s",
			    r == 1 ? "used" : r == 0 ? why : "another boot");
		if (r == 1)
			return 1;
		boot = r == -2;
		hwhy = r == 0 ? why : NULL;
	}
	for (i = 0; sy->bid_dir != NULL && i < 2; i++) {
		if ((i == 0 ? asprintf(&p, "%s/.build-id/%.2s/%s/kallsyms",
		    sy->bid_dir, want, want + 2) : asprintf(&p,
		    "%s/[kernel.kallsyms]/%s/kallsyms", sy->bid_dir, want)) < 0)
			return 0;
		r = load_file(sy, kh, p, 1, &why, &ref);
		if (sy->verbose)
			pd_syms_note(sy, "[kernel.kallsyms]: %s: %s", p,
			    r == 1 ? "used" : why);
		free(p);
		if (r == 1)
			return 1;
	}
	if (boot)
		note_boot(sy, kh, "/proc/kallsyms", ref);
	else if (hwhy != NULL)
		pd_syms_note(sy, "%s/proc/kallsyms: %s; kernel symbols are "
		    "not shown", who(sy, kh, w, sizeof(w)), hwhy);
	else {
		/* Where the stream says it was recorded: the user's first
		 * question when the kernel is not named. */
		const char *rel = NULL, *hn = NULL;
		int named = host_names(sy, kh, &hn, &rel);

		pd_syms_note(sy, "%skernel symbols are not shown: no kallsyms "
		    "of the stream's kernel, build id %s (%s%s%s%sthis "
		    "machine's: %s; %s%s); see --kallsyms",
		    who(sy, kh, w, sizeof(w)), want,
		    named ? rel : "", named ? " on host " : "",
		    named ? hn : "", named ? "; " : "",
		    hlen > 0 ? have : "unknown",
		    sy->bid_dir != NULL ? "not in the build-id cache " :
		    "no build-id cache: $PERF_BUILDID_DIR or ~/.debug",
		    sy->bid_dir != NULL ? sy->bid_dir : "");
	}
	return 0;
}

/*
 * The proc/kallsyms of kh's host's --symfs HOST=DIR, else of a plain
 * --symfs DIR, the first there is (malloc'd), or NULL.
 */
static char *
symfs_kallsyms(struct pd_syms *sy, const struct khost *kh)
{
	const char *dirs[2];
	struct stat st;
	size_t i;
	char *p;

	dirs[0] = pd_syms_host_arg(sy->sdirs, sy->nsdirs,
	    pd_syms_host_called(sy, kh->k));
	dirs[1] = sy->symfs;
	for (i = 0; i < 2; i++) {
		if (dirs[i] == NULL ||
		    asprintf(&p, "%s/proc/kallsyms", dirs[i]) < 0)
			continue;
		if (stat(p, &st) == 0)
			return p;
		if (sy->verbose)
			pd_syms_note(sy, "[kernel.kallsyms]: %s: %s", p,
			    strerror(errno));
		free(p);
	}
	return NULL;
}

/*
 * Kernel symbols, looked for once: --kallsyms FILE; --symfs DIR's
 * proc/kallsyms (the host's HOST=DIR's, else a plain one's); by the
 * stream's kernel build id (load_by_bid); for a stream that gives none,
 * /proc/kallsyms when the stream names this host and boot (the host
 * rule).
 */
int
pd_kallsyms_load(struct pd_syms *sy, struct khost *kh)
{
	const char *file, *name, *rel;
	char *p, w[160];
	int h, r;

	if (kh->ktried != 0)
		return kh->ktried > 0;
	kh->ktried = -1;
	if ((file = khost_file(sy, kh)) != NULL)
		r = take(sy, kh, file, 1);
	else if ((p = symfs_kallsyms(sy, kh)) != NULL) {
		r = take(sy, kh, p, 1);
		free(p);
	} else if (kh->kbidlen > 0) {
		kh->kbid_used = 1;
		r = load_by_bid(sy, kh);
	}
	else if ((h = khost_here(sy, kh)) != 1) {
		if (h == 0) {
			(void)host_names(sy, kh, &name, &rel);
			pd_syms_note(sy, "%skernel symbols are not shown: "
			    "the stream is from %s (%s), not this host; "
			    "see --kallsyms", who(sy, kh, w, sizeof(w)), name,
			    rel);
		} else
			pd_syms_note(sy, "%skernel symbols are not shown: "
			    "the stream does not name its host; "
			    "see --kallsyms", who(sy, kh, w, sizeof(w)));
		r = 0;
	} else
		r = kh->kbid_host = take(sy, kh, "/proc/kallsyms", 0);
	if (r)
		kh->ktried = 1;
	return r;
}

void
pd_kallsyms_prefetch(struct pd_syms *sy, struct khost *kh)
{
	struct pd_kprefetch *p;
	unsigned char hid[20];

	/* Only where pd_kallsyms_load would read it, and once. */
	if (sy->kpre_tried || sy->dso_only || kh->ktried != 0 ||
	    khost_name(sy, kh) != NULL || khost_file(sy, kh) != NULL ||
	    sy->symfs != NULL || sy->nsdirs > 0)
		return;
	if (kh->kbidlen > 0) {
		if (host_bid(hid) != kh->kbidlen ||
		    memcmp(hid, kh->kbid, kh->kbidlen) != 0)
			return;
	} else if (!names_host(sy) ||
	    this_host(sy->hi.hostname, sy->hi.osrelease) != 1)
		return;
	sy->kpre_tried = 1;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return;
	p->kh = kh;
	memcpy(p->kref, kh->kref, sizeof(p->kref));
	if (pthread_create(&p->th, NULL, prefetch_run, p) != 0) {
		free(p);
		return;
	}
	sy->kpre = p;
}

void
pd_kallsyms_bid(struct pd_syms *sy, struct khost *kh,
    const unsigned char *bid, size_t len)
{
	unsigned char hid[20];
	char want[41], have[41], w[160];
	size_t hlen;

	if (len == 0 || kh->kbidlen != 0)
		return;
	pd_syms_kernel_changing(sy);
	kh->kbidlen = len > 20 ? 20 : len;
	memcpy(kh->kbid, bid, kh->kbidlen);
	/* A perf pipe stream gives it at its end: check the guess made. */
	if (!kh->kbid_host || kh->ktried <= 0)
		return;
	hlen = host_bid(hid);
	if (hlen == kh->kbidlen && memcmp(hid, kh->kbid, hlen) == 0)
		return;
	pd_bid_hex(want, kh->kbid, kh->kbidlen);
	pd_bid_hex(have, hid, hlen);
	pd_syms_note(sy, "%s[kernel.kallsyms]: build id %s, given after its "
	    "samples, is not this machine's kernel (%s); the kernel names "
	    "shown from /proc/kallsyms may be wrong", who(sy, kh, w, sizeof(w)),
	    want, hlen > 0 ? have : "unknown");
}

void
pd_kallsyms_bid_differs(struct pd_syms *sy, struct khost *kh)
{
	char w[160];

	if (!kh->kbid_note)
		return;
	kh->kbid_note = 0;
	if (!kh->kbid_used) {
		/* Its symbols not looked for yet, or found without it. */
		kh->kbidlen = 0;
		if (kh->ktried == 0)
			pd_syms_note(sy, "%s[kernel.kallsyms]: different "
			    "build ids in the stream (several hosts?): none "
			    "is taken for this kernel; see --kallsyms "
			    "HOST=FILE", who(sy, kh, w, sizeof(w)));
		return;
	}
	pd_syms_note(sy, "%s[kernel.kallsyms]: different build ids in the "
	    "stream (several hosts?): the kernel names shown were found by "
	    "the first, maybe another host's kernel's",
	    who(sy, kh, w, sizeof(w)));
}
