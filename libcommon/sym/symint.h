/* SPDX-License-Identifier: MIT */
/*
 * The symbolizer's private parts, shared by procs.c (processes, threads
 * and maps), symbols.c (dsos, ELF symbols through libdwfl) and
 * kallsyms.c (kernel symbols). Tools include symbols.h only.
 */
#ifndef PD_SYMINT_H
#define PD_SYMINT_H

#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/feature.h"
#include "libcommon/sym/hosts.h"
#include "libcommon/sym/symbols.h"
#include "libcommon/sym/symtab.h"

enum dso_kind {
	DSO_FILE,		/* an ELF file on disk */
	DSO_NOFILE,		/* [heap], [stack], /SYSV...: no symbols */
	DSO_PERFMAP,		/* //anon...: a JIT's /tmp/perf-PID.map */
	DSO_VDSO,		/* [vdso]: our own image when on this host */
	DSO_KERNEL,		/* [kernel.kallsyms] */
	DSO_MODULE		/* a kernel module, "[ext4]" */
};

/* One PT_LOAD segment: file offsets to virtual addresses. */
struct load {
	uint64_t	 off, filesz, vaddr;
};

struct dso {
	char		*path;		/* as in the mmap record */
	unsigned	 host;		/* of its maps' pids (hosts.h): a
					   host's file is its own dso */
	const char	*name;		/* what perf prints in parentheses */
	int		 name_plain;	/* name needs no escape (esc.h) */
	char		*name_buf;	/* name when it is not path */
	enum dso_kind	 kind;
	unsigned char	 bid[20];	/* the build id the stream gave */
	size_t		 bidlen;	/* 0: the stream gave none */
	int		 bid_note;	/* bid is a HEADER_BUILD_ID's, not
					   its map's own */
	unsigned char	 fbid[20];	/* the file's, once loaded */
	size_t		 fbidlen;
	int		 late;		/* a late build id was checked */
	uint64_t	 ino;		/* MMAP2's device and inode, or 0 */
	uint32_t	 maj, min;
	int		 loaded;	/* 0: not yet; 1: tried (syms maybe) */
	int		 wrong;		/* not the file recorded: build id
					   or inode differs */
	int		 stripped;	/* 1: no .symtab; 2: and that was said */
	int		 overflow;	/* stands for files past DSO_SAME_MAX */
	struct symtab	 st;
	struct load	*loads;
	size_t		 nloads;
	struct dso	*shares;	/* st and loads are this one's */
	char		*file;		/* the file read when not path (build-id
					   cache, debuginfod, vdso), or NULL */
	struct Dwfl	*dwfl;		/* its DWARF, opened on the first
					   pd_syms_inline() that needs it */
	struct Dwfl_Module *dwmod;
	int		 dwtried;	/* 1: dwfl opened or refused */
	uint64_t	 fdev, fino;	/* the file read, when it owns st */
	struct dso	*next;		/* hash chain */
	struct dso	*fnext;		/* chain by fdev and fino */
};

/*
 * Different files of one path (replaced while recorded: another inode
 * or build id) each get a dso up to this many; the rest share one that
 * shows no symbols, so a stream cannot make one hash chain long.
 */
#define DSO_SAME_MAX	16

/*
 * Map entries kept for all processes at most (a FORK shares its
 * parent's until one of them changes): 48 bytes each. Past it a map is
 * dropped, counted as an unusable record and said once.
 */
#define PD_SYMS_MAPS_MAX	(2U << 20)

/* Maps sorted by start, not overlapping, and the dso of each. */
struct mapv {
	struct pd_map	*maps;
	struct dso	**dsos;
	size_t		 n, cap;
	uint64_t	 id;		/* of this content: pd_syms_maps_id() */
	size_t		*refs;		/* maps and dsos shared by *refs procs
					   (a FORK's copy), or NULL: own */
};

/* One process's maps: the base, cut by the newer recent ones. */
struct proc {
	uint32_t	 pid;
	int		 used;
	struct mapv	 base, recent;
	uint64_t	 gen;
	uint64_t	 cut;		/* pd_syms_maps_cut() */
	size_t		 last;		/* index of the last map hit */
};

struct thread {
	uint32_t	 tid, pid;
	int		 used;
	const char	*comm;
	struct pd_syms_later *later;	/* named by its first comm, or NULL */
};

struct strset {
	char		**v;
	size_t		 cap, n;
};

/* One host's kernel: its maps and symbols. */
struct khost {
	unsigned	 k;		/* its number (hosts.h); its name:
					   khost_name() */
	struct proc	 kern;		/* kernel and module maps */
	/* kernel symbols: tried once, on the first kernel address */
	int		 ktried;	/* 0 not yet, 1 usable, -1 not */
	int		 host;		/* a merged host's pd_kallsyms_host
					   + 2, 0: unknown */
	struct symtab	 ksyms;
	char		 kref[32];	/* "_text" or "_stext" of the mmap */
	uint64_t	 kref_addr;	/* its address in the mmap (pgoff) */
	unsigned char	 kbid[20];	/* the stream's kernel build id */
	size_t		 kbidlen;	/* 0: none (yet) */
	int		 kbid_note;	/* kbid is a HEADER_BUILD_ID's, not
					   its kernel map's own */
	int		 kbid_used;	/* ksyms were looked for by kbid */
	int		 kbid_host;	/* ksyms are /proc/kallsyms taken
					   without a build id (host rule) */
};

/* Hosts of a merged stream with a kernel each, at most. */
#define PD_SYMS_KHOSTS_MAX	512

#define NOTE_MAX	64
#define STRIPPED_NOTES	8

struct pd_syms {
	char		*kallsyms_path;	/* the --kallsyms file, or NULL */
	char		*symfs;		/* --symfs DIR, or NULL */
	char		*bid_dir;	/* perf's build-id cache, or NULL */
	int		 verbose;	/* note each path tried */
	struct debuginfod_client *dfd;	/* for executables; made once */
	char		 looked[256];	/* where a dso's file was looked for
					   besides its path, for the note
					   that it is not shown */
	char		*debug_path;	/* dwfl's debuginfo_path */
	int		 dso_only;	/* pd_syms_opts.dso_only */
	int		 dfd_off;	/* 1: no debuginfod (option, or given
					   up: dfd_why says why) */
	const char	*dfd_why;
	uint64_t	 dfd_spent;	/* ns in debuginfod queries */
	uint64_t	 dfd_start;	/* this query's start, ns */
	uint64_t	 dfd_bytes;	/* its progress */

	struct pd_header_info hi;
	uint64_t	 seed;		/* of every hash here: a stream cannot
					   choose names or ids that collide */

	struct thread	*threads;	/* open addressing by tid */
	size_t		 tcap, tn;
	struct proc	*procs;		/* open addressing by pid */
	size_t		 pcap, pn;
	struct proc	*plast;		/* the last one found (frames of a
					   sample are of one process) */
	uint64_t	 gen;		/* source of proc gens */

	struct dso	**dhash;	/* dsos by name and host */
	size_t		 dcap, dn;
	unsigned	 dhosts;	/* 1 + the highest host of a dso */
	struct dso	**fhash;	/* loaded dsos by device and inode */
	size_t		 fcap, fn;
	size_t		 nmaps;		/* map entries kept, shared once */
	int		 maps_full;	/* PD_SYMS_MAPS_MAX said */

	struct strset	 strs;		/* interned comms and names */
	struct pd_syms_later *laters;	/* every one made, to free */
	size_t		 nlaters;

	/*
	 * HEADER_BUILD_ID: path -> build id, applied to dsos by path;
	 * none when the stream gives a path different ones (differs).
	 */
	struct bidnote {
		char		*path;
		unsigned char	 bid[20];
		size_t		 len;
		int		 differs;	/* another build id was given */
		int		 said;		/* and a note said so */
		size_t		 next;	/* hash chain: index + 1, 0 ends */
	}		*bids;
	size_t		 nbids, bidcap;
	size_t		*bidhash;	/* index + 1 by path, bidcap slots */

	/*
	 * Kernels: one per host of a merged stream (hosts.h), k0 the
	 * first's and a one-host stream's; kh the one the current
	 * sample's kernel addresses resolve in (pd_syms_set_event).
	 */
	struct khost	 k0;
	struct khost	**kv;		/* kv[k]: host k's; kv[0] = &k0 */
	size_t		 nkv;
	struct khost	*kh;
	struct pd_hosts	 hosts;		/* events to hosts */
	int		 host;		/* pd_kallsyms_host + 2, 0: unknown */
	struct pd_kprefetch *kpre;	/* /proc/kallsyms read ahead, or NULL */
	int		 kpre_tried;	/* one read ahead at most */
	struct pd_klater *klater;	/* kernel frames kept, or NULL */
	/* --kallsyms HOST=FILE, each "HOST=FILE" */
	char		**kfiles;
	size_t		 nkfiles;
	/* --symfs HOST=DIR, each "HOST=DIR" */
	char		**sdirs;
	size_t		 nsdirs;
	/* OSRELEASE of each HOSTNAME the stream gave (merged: several) */
	struct hostrel {
		char	 host[128], release[128];
	}		*rels;
	size_t		 nrels;

	char		*notes[NOTE_MAX];
	size_t		 nnotes, note_next;
	unsigned	 notes_dropped;
	int		 notes_more;	/* say notes_dropped: input ended */
	unsigned	 nstripped;	/* files said to have no symtab */

	struct srcache	*src;		/* pd_syms_inline()'s, or NULL */
	void		*dwcb;		/* the Dwfl_Callbacks those Dwfls
					   keep a pointer to, or NULL */
	unsigned	 ndwfl;		/* files whose DWARF is open */
	struct symc_ent	*symc;		/* the address cache */
	size_t		 symc_n;	/* its entries: PD_SYMS_CACHE0 to
					   PD_SYMS_CACHE, a power of two */
	size_t		 symc_fill;	/* of them taken */
	struct pd_symc	 symc_one;	/* an answer not cached */
	int		 nviews;	/* view words handed out */
};

/*
 * The value of the "HOST=X" of v (--kallsyms, --symfs) named for host,
 * or NULL (none; host NULL).
 */
const char	*pd_syms_host_arg(char *const *v, size_t n, const char *host);

/*
 * What host k is called, for the HOST= of the options: a merged host's
 * name, a one-host stream's HOSTNAME; NULL when the stream says none.
 */
const char	*pd_syms_host_called(const struct pd_syms *, unsigned k);

/* kh's host's name in a merged stream, or NULL: one host's stream. */
static inline const char *
khost_name(const struct pd_syms *sy, const struct khost *kh)
{
	return pd_hosts_name(&sy->hosts, kh->k);
}

/* symbols.c: an entry of the address cache (pd_syms_lookup). */
struct symc_ent {
	uint64_t	 addr, gen;	/* gen 0: empty; it names the process */
	struct pd_symc	 c;
};

/* procs.c */
const char	*pd_syms_intern(struct pd_syms *, const char *s, size_t len);
struct proc	*pd_syms_proc(struct pd_syms *, uint32_t pid, int create);
void		 pd_syms_procs_free(struct pd_syms *);
int		 pd_syms_find_map(struct pd_syms *, uint32_t pid, int kernel,
		    uint64_t addr, const struct pd_map **, struct dso **);

/* dso.c */
/* Which file a map was of: the MMAP2 build id, or its inode. */
struct dso_id {
	const unsigned char *bid;
	size_t		 bidlen;
	uint64_t	 ino;		/* 0: unknown */
	uint32_t	 maj, min;
};

/* A build id as hex into buf (2 * len + 1 bytes), as perf prints it. */
void		 pd_bid_hex(char *buf, const unsigned char *bid, size_t len);
struct dso	*pd_syms_dso(struct pd_syms *, const char *path,
		    const struct dso_id *, int kernel, uint32_t pid,
		    unsigned host);
void		 pd_syms_dso_bid(struct pd_syms *, const char *path,
		    const unsigned char *bid, size_t bidlen);
/*
 * A HEADER_BUILD_ID's path and build id, kept for the dsos of that path
 * without their own: 0; 1 when the stream gave that path another build
 * id before (then none is given to them: a merge's hosts may have
 * different files at one path, and the record does not say whose it
 * is); -1 out of memory.
 */
int		 pd_syms_bid_add(struct pd_syms *, const char *path,
		    size_t len, const unsigned char *bid, size_t bidlen);
/*
 * The DWARF of a dso's file (libdwfl, with the same search for debug
 * info as its symbols), opened on the first call and kept until the
 * dso is freed; NULL when it has none or past PD_SYMS_DWFL_MAX files.
 */
#define PD_SYMS_DWFL_MAX	64
struct Dwfl_Module *pd_dso_dwarf(struct pd_syms *, struct dso *);
/*
 * Whether DEBUGINFOD_URLS names servers: then finding a file's debug
 * info may ask them, or (asked no more) unset it for a while, and notes
 * and budgets in the pd_syms.
 */
int		 pd_dso_dfd_urls(void);
/* Lets libdebuginfod be opened (on: debuginfod is to be asked). */
void		 pd_dso_dfd_allow(int on);
/* srcline.c: pd_syms_inline()'s cache freed. */
void		 pd_srcache_free(struct pd_syms *);
/* A dso's symbols, loaded on its first address; every dso freed. */
void		 pd_dso_load(struct pd_syms *, struct dso *);
void		 pd_dsos_free(struct pd_syms *);

/* notes.c: a note for the tool to print (bounded, escaped). */
void		 pd_syms_note(struct pd_syms *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));

/*
 * kallsyms.c: whether the stream comes from this host (1), not (0), or
 * cannot tell (-1); and the kernel symbols loaded once: 1 usable, 0 not
 * (a note says why).
 */
int		 pd_kallsyms_host(struct pd_syms *);
int		 pd_kallsyms_load(struct pd_syms *, struct khost *);
/*
 * The build id of the stream's [kernel.kallsyms] (its MMAP2, a BUILD_ID
 * record); the first one counts. One given after kernel symbols came
 * from /proc/kallsyms without it is checked against this machine's.
 */
void		 pd_kallsyms_bid(struct pd_syms *, struct khost *,
		    const unsigned char *bid, size_t len);
/*
 * The stream's kernel map of kh was read: /proc/kallsyms read ahead on
 * a thread when pd_kallsyms_load would read it for kh (the user named
 * no file, and the stream's kernel build id, or else its host and
 * release, are this machine's). pd_kallsyms_prefetch_free stops and
 * drops a read ahead no load took.
 */
void		 pd_kallsyms_prefetch(struct pd_syms *, struct khost *);
void		 pd_kallsyms_prefetch_free(struct pd_syms *);
/* 1 while the current kernel's names wait for the read ahead. */
int		 pd_kallsyms_waits(const struct pd_syms *);

/*
 * The kernel's maps, host or build id are about to change (or the
 * input ends): kernel frames a tool keeps by address are named now, in
 * the state they were sampled in (pd_klater).
 */
static inline void
pd_syms_kernel_changing(struct pd_syms *sy)
{
	if (sy->klater != NULL)
		(void)pd_klater_settle(sy->klater);	/* failed: sticks */
}

/*
 * The stream gave [kernel.kallsyms] different build ids (BUILD_ID
 * records, which do not say whose kernel is theirs): kh's, when it took
 * one of them, is dropped before its symbols are looked for by it
 * (then found as for a stream without one), or said to be in doubt.
 */
void		 pd_kallsyms_bid_differs(struct pd_syms *, struct khost *);
/* Host k's kernel, made on first use; NULL when out of memory. */
struct khost	*pd_syms_khost(struct pd_syms *, unsigned k);
/* The host of a kernel record (its sample_id_all trailer's event). */
struct khost	*pd_syms_rec_khost(struct pd_syms *, const struct pd_evlist *,
		    const struct pd_rec *);

/* Ends a client of libdebuginfod (dso.c, which opens the library). */
void	pd_dfd_free(struct debuginfod_client *);

#endif /* PD_SYMINT_H */
