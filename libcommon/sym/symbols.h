/* SPDX-License-Identifier: MIT */
/*
 * The symbolizer: processes and their maps from COMM, FORK, EXIT, MMAP
 * and MMAP2 records, user addresses resolved through each mapped ELF
 * file's .symtab/.dynsym (libdwfl, one module per file, loaded on first
 * use), kernel addresses through /proc/kallsyms (when the stream comes
 * from this host) or a kallsyms file. Build ids from the stream are
 * checked against the files on disk: a file that does not match gives
 * "[unknown]" and a note, never a wrong name.
 *
 * Memory is bounded by what the stream describes (processes, maps,
 * files), never by the number of samples. Nothing here prints: notes for
 * the user come out of pd_syms_next_note().
 */
#ifndef PD_SYMBOLS_H
#define PD_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct pd_evlist;
struct pd_evsel;
struct pd_rec;
struct pd_sample;

struct pd_syms;			/* processes, maps, dsos, kernel symbols */

/* --kallsyms HOST=FILE options at most; --symfs HOST=DIR likewise. */
#define PD_SYMS_KFILES_MAX	64

struct pd_syms_opts {
	const char	*kallsyms;	/* --kallsyms FILE, or NULL: /proc/kallsyms
					   when the stream is from this host;
					   a merged stream's first host's */
	const char	*kallsyms_hosts[PD_SYMS_KFILES_MAX];
					/* --kallsyms HOST=FILE, each
					   "HOST=FILE": HOST's kernel */
	size_t		 nkallsyms_hosts;
	const char	*debug_dir;	/* NULL: /usr/lib/debug */
	int		 dso_only;	/* name dsos only: read no file */
	int		 no_debuginfod;	/* never ask DEBUGINFOD_URLS' servers */
	const char	*symfs;		/* --symfs DIR: the recording host's
					   root under DIR (a merged stream's
					   every host's), or NULL */
	const char	*symfs_hosts[PD_SYMS_KFILES_MAX];
					/* --symfs HOST=DIR, each "HOST=DIR":
					   HOST's root */
	size_t		 nsymfs_hosts;
	int		 verbose;	/* a note for each path tried */
};

/*
 * A --kallsyms argument into o: "HOST=FILE" (HOST not empty, without
 * '/') names HOST's kernel symbols, anything else is a plain FILE (the
 * last one counts; "./a=b" is the file a=b). The string must outlive
 * o. 0, or -1 past PD_SYMS_KFILES_MAX hosts (a usage error).
 */
int	pd_syms_opts_kallsyms(struct pd_syms_opts *o, const char *arg);

/*
 * A --symfs argument into o, by the same rule: "HOST=DIR" is HOST's
 * files' root (host HOST of a merged stream, or a one-host stream whose
 * HOSTNAME is HOST), anything else a plain DIR, every host's (the last
 * one counts). 0, or -1 past PD_SYMS_KFILES_MAX hosts.
 */
int	pd_syms_opts_symfs(struct pd_syms_opts *o, const char *arg);

/*
 * Where the file of a map with a build id is looked for, in this
 * order: its host's --symfs HOST=DIR/path (the host of its pid:
 * pd_hosts_pid()), opts.symfs/path; perf's build-id cache
 * ($PERF_BUILDID_DIR, else ~/.debug: .build-id/xx/rest/elf, then its
 * debug); the file at its path on this machine; debuginfod
 * (DEBUGINFOD_URLS, as the debug info below). A file whose build id
 * differs is never used. Each file is looked for once, on its first
 * address. A map without a build id whose path the stream gave
 * different ones (HEADER_BUILD_ID) is read from its host's DIR only.
 */

/*
 * With DEBUGINFOD_URLS set, libdwfl asks its servers for the debug info
 * of each file it finds none for locally, and the stream picks the
 * files. A query that gets no byte in PD_SYMS_DFD_STALL seconds is
 * given up and debuginfod is not asked again in this run; all queries
 * together get PD_SYMS_DFD_BUDGET seconds. Each is said in a note.
 */
#define PD_SYMS_DFD_STALL	2
#define PD_SYMS_DFD_BUDGET	10

/*
 * What one file named by a stream may cost: an ELF file (or its vdso
 * image) above PD_SYMS_ELF_MAX bytes, or a JIT's /tmp/perf-PID.map above
 * PD_SYMS_PERFMAP_MAX, is not read (a note says so).
 */
#define PD_SYMS_ELF_MAX		(1ULL << 30)
#define PD_SYMS_PERFMAP_MAX	(64ULL << 20)

/*
 * Opens a file a stream names, read-only, only when it is a regular
 * file (not on /proc or /sys) of at most `max` bytes: O_NONBLOCK, so a
 * FIFO cannot block the open, then fstat. Returns the descriptor (the
 * caller closes it) with *st filled, or -1 with *why saying why not
 * ("not a regular file", "larger than ...", or strerror).
 */
struct stat;
int	pd_syms_open(const char *path, uint64_t max, struct stat *st,
	    const char **why);

/* A new symbolizer (opts may be NULL), or NULL when out of memory. */
struct pd_syms	*pd_syms_new(const struct pd_syms_opts *);

/* Frees everything, the libdwfl handles included. NULL is fine. */
void		 pd_syms_free(struct pd_syms *);

/*
 * Header facts: HEADER_FEATURE records / file-mode features (os release,
 * hostname, build ids) and HEADER_BUILD_ID records. Call for every
 * record in stream order; it also takes COMM, FORK, EXIT, MMAP, MMAP2
 * (and ignores the rest), so a tool can simply feed it everything.
 * Returns 0, or -1 on a record it cannot use (never fatal for the tool:
 * count it).
 */
int	pd_syms_record(struct pd_syms *, const struct pd_evlist *,
	    const struct pd_rec *);

/*
 * The sample about to be resolved is of event ev (of el): its kernel
 * addresses resolve in its host's kernel from now on. A stream that
 * pdsort merged from several hosts (hosts.h) has a kernel per host:
 * each kernel MMAP and MMAP2 sets the maps of its event's host, and
 * each host's symbols are found as a one-host stream's are (a kallsyms
 * file named for it, its kernel build id, the host rule with its own
 * HOSTNAME and OSRELEASE). Returns the host's number, 0 for a one-host
 * stream; cheap (a table lookup by the event's index).
 */
unsigned	 pd_syms_set_event(struct pd_syms *, const struct pd_evlist *,
		    const struct pd_evsel *);

/*
 * Kernel names may wait for /proc/kallsyms, which is read ahead on a
 * thread (30 to 50 ms of the kernel's time). A tool that can name its
 * kernel frames later (the folded stacks, pdstat --top) keeps them by
 * address meanwhile, through a pd_klater of its own, with `settle`
 * (and ctx) set: settle names the frames kept, through sy as it stands,
 * and returns 0, or -1 when out of memory.
 *
 * pd_klater_ask, for a sample with kernel frames: 1 when they may be
 * kept (sy's names still wait); 0 when they are to be named now (those
 * kept before are then named first); -1 when a settle failed (this one
 * or any before: every call after says so, pd_klater_settle's too). The
 * symbolizer settles the kept frames itself before the kernel's maps,
 * host, build id or a header fact change, at pd_syms_end and at
 * pd_syms_free, while it is still as they were sampled in. One
 * pd_klater per pd_syms at a time: another's samples are named now.
 * pd_klater_settle names them now; pd_klater_drop, before the tool
 * goes, forgets them unnamed.
 */
struct pd_klater {
	int		(*settle)(void *ctx, struct pd_syms *sy);
	void		*ctx;
	struct pd_syms	*sy;		/* whose names they wait for; NULL */
	int		 failed;	/* a settle failed */
};

int	pd_klater_ask(struct pd_klater *, struct pd_syms *);
int	pd_klater_settle(struct pd_klater *);
void	pd_klater_drop(struct pd_klater *);

/* The host the last pd_syms_set_event() set: 0 before any. */
unsigned	 pd_syms_host(const struct pd_syms *);

/*
 * Host k's name in a merged stream, or NULL for a one-host stream. The
 * string is valid until the next pd_syms_record().
 */
const char	*pd_syms_host_name(struct pd_syms *, unsigned k);

/*
 * One frame of a sample: the sample ip, then each callchain entry, with
 * PERF_CONTEXT_* markers turned into the cpumode of the frames after
 * them (and skipped), as perf script does.
 */
struct pd_frame {
	uint64_t	addr;
	uint8_t		cpumode;	/* PERF_RECORD_MISC_KERNEL/USER/... */
};

/*
 * Frames of a parsed sample: the callchain when present (perf script's
 * order: innermost first), else just the ip (cpumode from `misc`).
 * Returns the count stored (<= max).
 */
size_t	pd_sample_frames(const struct pd_sample *, uint16_t misc,
	    struct pd_frame *out, size_t max);

/*
 * An address resolved. name NULL = unknown ("[unknown]"); dso is what
 * perf script prints in parentheses ("[kernel.kallsyms]",
 * "/usr/lib/x86_64-linux-gnu/libc.so.6", "[unknown]"). The strings live
 * as long as the pd_syms.
 */
struct pd_symres {
	const char	*name;
	const char	*raw;		/* name as the file has it (mangled) */
	uint64_t	 off;		/* addr - symbol start */
	const char	*dso;
	int		 kernel;	/* 1: a kernel frame (folded: _[k]) */
	int		 dso_plain;	/* 1: dso holds no byte pd_esc would
					   change: text may print it as is */
	uint64_t	 rel;		/* addr in the dso's terms (map start
					   -> pgoff; addr without a map), as
					   perf report shows unresolved ones */
	const void	*file;		/* the ELF file of a user address,
					   for pd_syms_inline(); or NULL */
	uint64_t	 va;		/* addr as the file's own address */
};

void	pd_syms_resolve(struct pd_syms *, uint32_t pid, uint8_t cpumode,
	    uint64_t addr, struct pd_symres *);

/*
 * Source lines and inlined functions of a resolved user address (r from
 * pd_syms_resolve, any time later), from the DWARF of its file or of
 * the file's separate debug info (found as its symbols were: build-id
 * cache, debug dir, debuginfod). Nothing is read until the first call
 * for a file; each address is looked up once (cached).
 *
 * Returns n and *out: out[0] the innermost function inlined at the
 * address, ..., out[n - 1] the function the code is in, as DWARF names
 * them (linkage names demangled as symbols are); each with the source
 * line in it: out[0] the address's, out[i] where out[i - 1] was
 * inlined (its call site). n 1: nothing inlined there. 0: no debug
 * info for the address (a kernel one, a file without DWARF). *out is
 * valid until the next call; its strings live as long as the pd_syms.
 */
struct pd_srcframe {
	const char	*name;		/* NULL: DWARF names none */
	const char	*file;		/* source file as DWARF says it, or
					   NULL (line 0): unknown */
	uint32_t	 line;
};

size_t	pd_syms_inline(struct pd_syms *, const struct pd_symres *r,
	    const struct pd_srcframe **out);

/*
 * The same lookups on a thread beside the caller's (the caller goes on
 * reading the stream; the second core reads the DWARF), the answers in
 * the order asked, each with the caller's tag. Without a thread (none
 * could start; DEBUGINFOD_URLS names servers, whose queries note in
 * the pd_syms) a lookup is made as it is pushed. Each is made as
 * pd_syms_inline makes it, but names are strings of the queue, valid
 * until pd_srcq_free.
 *
 * pd_srcq_push: 1 queued, 0 nothing to look up (no debug info). Call
 * it only when pd_srcq_room says so: a full queue is emptied by
 * pd_srcq_pop. pd_srcq_pop: 1 with the next answer (out valid until
 * the next call), 0 none ready (wait 0) or none asked. pd_srcq_free
 * before the pd_syms is freed: the lookups read its files.
 */
struct pd_srcq;
struct pd_srcq	*pd_srcq_new(struct pd_syms *);
int	pd_srcq_room(const struct pd_srcq *);
int	pd_srcq_push(struct pd_srcq *, struct pd_syms *,
	    const struct pd_symres *r, uint64_t tag);
int	pd_srcq_pop(struct pd_srcq *, int wait, uint64_t *tag,
	    const struct pd_srcframe **out, size_t *n);
void	pd_srcq_free(struct pd_srcq *);

/* The part of a source path perf's srcline prints: its last name. */
const char	*pd_srcframe_base(const struct pd_srcframe *);

/*
 * The address cache every view resolves through (pd_syms_resolve
 * does too): an address is resolved once for each set of maps it is
 * seen in. Keyed by (the generation of the process's maps, address) -
 * a generation changes with every map a process gains or loses and is
 * never shared by two processes; kernel addresses by the kernel maps'
 * generation - so an answer is never that of other maps.
 * Direct-mapped, allocated on the first address and doubled while
 * half its entries fill, up to PD_SYMS_CACHE: memory is bounded
 * whatever the stream, and a stream that names a few thousand
 * addresses (most do) keeps a table of its size, not of the most.
 *
 * Beside each answer, PD_SYMS_VIEWS words a view may keep what it
 * made of it (its interned ids, its table's row): a view asks for a
 * word of its own once per pd_syms (pd_syms_view_new), reads it back
 * at the next lookup of the same address and finds 0 when the answer
 * is new. The entry is valid until the next lookup.
 */
#define PD_SYMS_CACHE	(1U << 15)
#define PD_SYMS_CACHE0	(1U << 11)
#define PD_SYMS_VIEWS	4

struct pd_symc {
	struct pd_symres	 r;
	uint64_t		 view[PD_SYMS_VIEWS];	/* 0: none yet */
};

struct pd_symc	*pd_syms_lookup(struct pd_syms *, uint32_t pid,
		    uint8_t cpumode, uint64_t addr);

/* A view word of its own (an index in pd_symc.view), or -1: all taken. */
int		 pd_syms_view_new(struct pd_syms *);

/*
 * The map an address of a process falls in at this time, as an export
 * format describes it (pprof's Mapping): start, end and file offset,
 * the dso's name as pd_syms_resolve gives it, and its build id (the
 * stream's, else the file's once its symbols were loaded; len 0: none).
 * kernel: cpumode is a kernel one. Returns 0 and fills *m, or -1 when
 * no map holds addr. The strings live as long as the pd_syms.
 */
struct pd_mapres {
	uint64_t		 start, end, pgoff;
	const char		*dso;
	const unsigned char	*bid;
	size_t			 bidlen;
	int			 symbols;	/* the file's symbols are read */
};

int	pd_syms_map_at(struct pd_syms *, uint32_t pid, uint8_t cpumode,
	    uint64_t addr, struct pd_mapres *m);

/*
 * The process's current user maps (for DWARF unwinding), sorted by
 * start; *gen changes whenever that process's maps change. NULL and
 * *nmaps 0 if the process is unknown. Valid until the next
 * pd_syms_record().
 */
struct pd_map {
	uint64_t	 start, end, pgoff;
	const char	*path;		/* as in the MMAP/MMAP2 record */
	uint32_t	 prot;
	uint64_t	 gen;		/* the generation it came in with */
};

const struct pd_map	*pd_syms_maps(struct pd_syms *, uint32_t pid,
			    size_t *nmaps, uint64_t *gen);

/*
 * The generation at which the process last lost or cut a map (or got
 * another set: FORK), 0 if never. Maps since then only came in, so a
 * user of pd_syms_maps() synced at generation g later than that needs
 * to look only at the maps whose gen is above g.
 */
uint64_t		 pd_syms_maps_cut(struct pd_syms *, uint32_t pid);

/*
 * What pd_syms_maps() last returned for the process, as a number:
 * processes with equal ids (a FORK's children, until their maps
 * change) have the same maps. 0: none to compare.
 */
uint64_t		 pd_syms_maps_id(struct pd_syms *, uint32_t pid);

/*
 * 0 when the file of the user map holding addr in process pid is known
 * not to be the one recorded (its build id or inode differs, said once
 * as a note), else 1. Loads the file's symbols if need be.
 */
int	pd_syms_file_ok(struct pd_syms *, uint32_t pid, uint64_t addr);

/*
 * perf script's comm for the thread (the thread's own comm, else its
 * process's), or NULL when neither is known.
 */
const char		*pd_syms_comm(struct pd_syms *, uint32_t pid,
			    uint32_t tid);

/*
 * perf report's comm for a sample of thread tid, asked at the sample's
 * place in perf's delivery order (as pd_symq hands samples out): the
 * thread's own comm then, "swapper" for tid 0; unlike pd_syms_comm(),
 * never its process's. A thread not named yet (its samples came before
 * its COMM) has none then: perf names those samples by the first comm
 * the thread gets later (it overrides the ":tid" a thread starts
 * with), or ":tid" when none comes before a FORK starts another thread
 * with that tid. For such a sample the call returns NULL and sets
 * *later to the thread's handle, whose comm is that first comm once it
 * comes (NULL until then); one handle per thread. Names are interned:
 * equal names, equal pointers. Both live as long as the pd_syms.
 * Past PD_SYMS_LATER_MAX handles (or out of memory) *later is NULL.
 */
struct pd_syms_later {
	const char		*comm;
	uint32_t		 tid;
	struct pd_syms_later	*next;		/* the pd_syms' list */
};

#define PD_SYMS_LATER_MAX	(1U << 16)

const char	*pd_syms_report_comm(struct pd_syms *, uint32_t tid,
		    const struct pd_syms_later **later);

/*
 * The input ended (el: its events): a note for each --kallsyms
 * HOST=FILE and --symfs HOST=DIR whose HOST is no host of the stream
 * (a merged stream's, or a one-host stream's HOSTNAME), so a name
 * mistyped is not taken for a file that did not help. Call once.
 */
void		 pd_syms_end(struct pd_syms *, const struct pd_evlist *el);

/*
 * Notes for the user (build-id mismatch, missing file, stripped file,
 * kallsyms not usable), each once; the tool prints them to stderr.
 * Returns the next unread note, or NULL. The string lives as long as
 * the pd_syms.
 */
const char	*pd_syms_next_note(struct pd_syms *);

#endif /* PD_SYMBOLS_H */
