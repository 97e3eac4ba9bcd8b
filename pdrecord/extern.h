/* SPDX-License-Identifier: MIT */
/*
 * pdrecord's parts (OpenBSD's extern.h): the state the recording shares
 * and the functions each part offers the others. Each variable is
 * defined by the part whose job it is (the queue's in queue.c, the
 * events' and options in events.c, the rings' in rings.c, the targets'
 * in targets.c), so the parts depend on one another one way and main()
 * on all of them.
 */
#ifndef PD_PDRECORD_EXTERN_H
#define PD_PDRECORD_EXTERN_H

#include <linux/perf_event.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcommon/rec/events.h"

struct pd_writer;
struct pd_zenc;

#define CHUNK_SIZE	(4 << 20)
#define POOL_MAX	16		/* free chunks kept */
#define POOL_PREFAULT	4		/* chunks touched before recording */
#define QUEUE_MAX	((size_t)1 << 30)	/* user-space buffer bound */
#define TRACEFS		"/sys/kernel/tracing"
#define MAX_CPUS	4096

/* The user-space queue: a list of chunks, written out in order. */
struct chunk {
	struct chunk	*next;
	size_t		 len;		/* bytes filled */
	size_t		 off;		/* bytes already written */
	unsigned char	 data[];
};

struct queue {
	struct chunk	*head, *tail;
	struct chunk	*free;		/* written chunks kept for reuse */
	int		 nfree;
	size_t		 bytes;		/* queued, not yet written */
};

struct ring {
	int				 fd;
	struct perf_event_mmap_page	*page;
	unsigned char			*data;
	size_t				 size;	/* data area, power of 2 */
};

struct ev {
	struct pd_event		 spec;
	struct perf_event_attr	 attr;
	uint64_t		*ids;
	size_t			 nids;
	int			*fds;	/* per (cpu, thread) slot */
};

/* The set of mapped file names, for HEADER_BUILD_ID at the end. */
struct strset {
	char	**v;
	size_t	  cap, n;
};

/* The options, as main() parsed them. */
struct options {
	int		 all_cpus, data, period, quiet, sample_cpu, switches;
	int		 no_inherit;	/* -i */
	int		 callchain;	/* 0, 1 fp, 2 dwarf */
	unsigned	 stack_size;
	const char	*cpu_list, *pids, *tids, *events, *outpath;
	long long	 freq, count;
	int		 clockid, use_clockid;
	unsigned	 mmap_pages;
	int		 zlevel;	/* -1: no compression */
};
extern struct options opt;

/* The recording, shared by the parts (defined in pdrecord.c). */
extern struct queue q;
extern struct ev *evs;
extern size_t nevs;
extern struct ring *rings;
extern int nrings;
extern int cpus[MAX_CPUS], ncpus;
extern pid_t *threads;
extern int nthreads;
extern struct strset files;
extern unsigned long long nsamples, nlost, nbytes;
extern int reader_gone;
extern int out_fd, direct_failed;
extern int cmd_is_target;	/* the command is recorded (not -p/-t) */
extern struct pd_writer *zw;	/* -z: the compressor's writer, into */
extern struct pd_zenc *zenc;	/* put_out(); NULL without -z */

/* pdrecord.c */
int	perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu,
	    int group);
void	zfail(void) __attribute__((noreturn));
/* queue.c */
struct chunk	*chunk_new(int huge);
int	queue_drain(int fd);
int	queue_put(const void *p, size_t n);
int	queue_write(int fd);
int	put_out(const unsigned char *p, size_t n);
int	zsink(void *ctx, const void *p, size_t n);
/* files.c */
void	note_buf(const unsigned char *p, size_t len);
void	note_record(const unsigned char *rec);
/* rings.c */
int	read_rings(void);
/* targets.c */
int	add_pids(const char *list, int all_threads);
void	add_thread(pid_t t);
void	online_cpus(void);
int	check_cpus_online(const char *arg);
int	parse_cpu_list(const char *s);
/* events.c */
void	build_attrs(int per_cpu_target, int has_command);
unsigned default_mmap_pages(void);
void	enable_events(int on);
/*
 * Mounts tracefs on TRACEFS if it is not. 0; -1 (errno) when mounting
 * failed; -2 when it is mounted but not readable by us.
 */
int	mount_tracefs(void);
/* The line for mount_tracefs's r (-1 or -2) with event's name. */
void	tracefs_error(const char *event, int r);
/* kernel.perf_event_paranoid (2 when it cannot be read). */
int	perf_paranoid(void);
int	open_events(void);
int	parse_clockid(const char *s);
/* preamble.c */
void	build_ids(void);
int	preamble(int argc, char **argv, pid_t child);
/* command.c */
pid_t	start_command(char **argv, int go[2], int *execfd,
	    int stdout_to_stderr);

#endif /* PD_PDRECORD_EXTERN_H */
