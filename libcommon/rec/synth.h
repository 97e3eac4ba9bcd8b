/* SPDX-License-Identifier: MIT */
/*
 * Building records a recorder writes before, between and after the
 * kernel's: HEADER_ATTR, HEADER_FEATURE (host facts read from uname,
 * /proc and /sys), HEADER_TRACING_DATA with its blob (from tracefs),
 * COMM/FORK/MMAP2 for threads that already exist (from /proc), the
 * kernel's MMAP, FINISHED_INIT/ROUND and HEADER_BUILD_ID (build ids
 * from buildid.h). Records are appended to a growable buffer in native
 * byte order, each padded to 8 bytes except FEATURE bodies, which are
 * byte-identical to perf's.
 */
#ifndef PD_SYNTH_H
#define PD_SYNTH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct perf_event_attr;
struct pd_buildid_cache;

/*
 * A growable byte buffer. Start zeroed; pd_synth_free() releases it.
 * With `bids` set (the caller's, kept across buffers), the MMAP2 of a
 * file carries its build id, as the kernel's do with attr.build_id.
 */
struct pd_synth {
	unsigned char	*p;
	size_t		 len;
	size_t		 cap;
	struct pd_buildid_cache *bids;
};

/* Appends n bytes (p NULL: n zero bytes). 0 or -1 (no memory). */
int	pd_synth_put(struct pd_synth *, const void *p, size_t n);
void	pd_synth_free(struct pd_synth *);

/*
 * HEADER_ATTR: the attr (attr->size bytes) and its sample ids, in
 * several records when one cannot hold them (event.h). 0/-1.
 */
int	pd_synth_attr(struct pd_synth *, const struct perf_event_attr *attr,
	    const uint64_t *ids, size_t nids);

/* An event as EVENT_DESC describes it. */
struct pd_synth_event {
	const struct perf_event_attr	*attr;
	const char			*name;
	const uint64_t			*ids;
	size_t				 nids;
};

/*
 * The FEATURE records perf 6.1 writes that describe the host and the
 * run: hostname, osrelease, version, arch, nrcpus, cpudesc, cpuid,
 * total_mem, cmdline (argv, with argv[0] replaced by this program's
 * path), event_desc; in increasing id order. Facts the host cannot tell
 * (cpuid off x86) are left out. No end marker (see FORMAT.md B.3.4).
 * 0, or -1 (no memory).
 */
int	pd_synth_features(struct pd_synth *, int argc, char **argv,
	    const struct pd_synth_event *evs, size_t nevs);

/*
 * The clock features perf record -k writes, for the events' clock
 * `clockid`: CLOCKID (23: its resolution in ns) and CLOCK_DATA (29:
 * the wall clock and that clock read together now, which puts every
 * event time on the wall-clock axis). Two calls, so that a caller can
 * keep perf's increasing feature order around COMPRESSED (27). 0/-1.
 */
int	pd_synth_clockid(struct pd_synth *, int clockid);
int	pd_synth_clock_data(struct pd_synth *, int clockid);

/* One FEATURE record with an arbitrary body. 0 or -1. */
int	pd_synth_feature(struct pd_synth *, unsigned feat, const void *body,
	    size_t len);

/* A tracepoint whose format goes into the tracing data. */
struct pd_synth_tp {
	const char	*sys;
	const char	*name;
};

/*
 * HEADER_TRACING_DATA and its blob (version 0.6, FORMAT.md B.7): header
 * page and event, the format files of the tracepoints, an empty
 * kallsyms, printk formats and saved cmdlines, from the tracefs mount.
 * 0, or -1 with errno set (a format file cannot be read, no memory).
 */
int	pd_synth_tracing_data(struct pd_synth *, const char *tracefs,
	    const struct pd_synth_tp *tps, size_t n);

/*
 * Kernel-type records for existing state. Each carries an all-zero
 * sample_id_all trailer of id_hdr_size bytes, as perf's do.
 */
int	pd_synth_comm(struct pd_synth *, pid_t pid, pid_t tid, const char *comm,
	    size_t id_hdr_size);
int	pd_synth_fork(struct pd_synth *, pid_t pid, pid_t ppid, pid_t tid,
	    pid_t ptid, size_t id_hdr_size);

/*
 * COMM (and, with `fork`, FORK) for every thread of process pid, then
 * MMAP2 for its executable mappings (all mappings with `data`), all
 * from /proc; with b->bids, a file's MMAP2 gives its build id instead
 * of its inode (PERF_RECORD_MISC_MMAP_BUILD_ID) where it can be read.
 * A process that vanished meanwhile is skipped: 0. -1 only for no
 * memory.
 */
int	pd_synth_process(struct pd_synth *, pid_t pid, int fork, int data,
	    size_t id_hdr_size);

/*
 * pd_synth_process (no FORK) for each process the threads tids[0..n)
 * belong to, once each, in the order of their first thread. 0, or -1
 * for no memory.
 */
int	pd_synth_processes_of(struct pd_synth *, const pid_t *tids, size_t n,
	    int data, size_t id_hdr_size);
/* COMM/FORK/MMAP2 for every process in /proc (perf record -a). 0/-1. */
int	pd_synth_all_processes(struct pd_synth *, int data, size_t id_hdr_size);

/*
 * The kernel's MMAP ("[kernel.kallsyms]_text", pid -1) from /proc/kallsyms
 * and one MMAP per module from /proc/modules; with b->bids, MMAP2s with
 * their build ids (/sys/kernel/notes, /sys/module/NAME/notes). 0, or -1
 * (no memory); without readable addresses nothing is written.
 */
int	pd_synth_kernel_mmaps(struct pd_synth *, size_t id_hdr_size);

/* A record that is only a header: FINISHED_ROUND, FINISHED_INIT. */
int	pd_synth_empty(struct pd_synth *, uint32_t type);

/*
 * HEADER_BUILD_ID: misc carries the cpumode (user or kernel), pid is
 * -1 for the host. 0 or -1.
 */
int	pd_synth_build_id(struct pd_synth *, uint16_t misc, int32_t pid,
	    const unsigned char *id, size_t idlen, const char *filename);

#endif /* PD_SYNTH_H */
