/* SPDX-License-Identifier: MIT */
/*
 * pdstat's counts of one input: records by type, samples by event, CPU,
 * process and comm (the last two in perf's order: threads.h), lost
 * data, time span and the header's facts. Nothing here prints.
 */
#ifndef PDSTAT_STATS_H
#define PDSTAT_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"

struct pd_evlist;
struct pd_evsel;
struct pd_reader;
struct pd_rec;
struct pd_threads;

/*
 * Record types below TYPES_MAX are counted in arrays; the few others
 * (simpleperf's private records, garbage) in a short list whose last
 * slot takes whatever does not fit.
 */
#define TYPES_MAX	128
#define HIGH_MAX	16

struct typetab {
	uint64_t	count[TYPES_MAX];
	uint64_t	bytes[TYPES_MAX];
	uint32_t	htype[HIGH_MAX];
	uint64_t	hcount[HIGH_MAX];
	uint64_t	hbytes[HIGH_MAX];
	unsigned	nhigh;
};

#define CPUS_MAX	(1U << 14)

struct evstat {
	uint64_t	samples, period, lost;
};

#define STATS_HOSTS	8		/* hostnames listed (a merge's) */

struct stats {
	const char	*input;
	int		 file_mode, swapped;
	struct typetab	 recs;		/* records of the stream */
	struct typetab	 synth;		/* from a file header */
	uint64_t	 inner_count;	/* records inside COMPRESSED* */
	uint64_t	 inner_bytes;
	uint64_t	 zcount;	/* COMPRESSED* records themselves */
	uint64_t	 zbytes;
	uint64_t	 payload_bytes;
	uint64_t	 stream_bytes;	/* the input as a pipe stream */

	struct evstat	*ev;
	size_t		 nev;
	uint64_t	 samples;
	uint64_t	 unknown_id;	/* samples of no known event */

	uint64_t	 lost, lost_samples;
	uint64_t	 tmin, tmax;

	uint64_t	*cpu;
	size_t		 ncpu;
	uint64_t	 cpu_other;	/* cpu numbers >= CPUS_MAX */
	int		 have_cpu;

	struct pd_threads *thr;		/* samples by thread, in perf's order */
	int		 have_tid;

	struct pd_header_info hi;
	char		 hosts[STATS_HOSTS][64]; /* each HOSTNAME seen, once */
	unsigned	 nhosts;	/* how many: more than STATS_HOSTS too */
	unsigned	 left_out;	/* file sections a stream cannot carry */
	const char	*left_out_last;
	unsigned	 inexact;	/* foreign records converted in part */
	const char	*inexact_last;
	int		 complete;	/* read to its end */
	char		 error[320];	/* else where and why it stopped */
};

/*
 * Starts the counts of the input rd reads: 0, or -1 when out of
 * memory. stats_close() frees them.
 */
int	stats_open(struct stats *, struct pd_reader *rd);
void	stats_close(struct stats *);

/*
 * What else a record goes to as it passes, as stored, with the event
 * and time it was counted by (pd_symq_push_at's ev and time): 0; -1
 * with *why set (out of memory); -2 when writing failed (errno set);
 * -3 when the reader failed (its error is the input's).
 */
typedef int	(*stats_each_fn)(void *ctx, struct pd_reader *rd,
		    const struct pd_rec *rec, const struct pd_evsel *ev,
		    uint64_t time, const char **why);

/*
 * Reads the input to its end or its first error, counting every record
 * and handing it to each() when that is set. Then what still waits is
 * counted. Returns 0; -1 on bad input or out of memory (st->error says
 * where and why; the counts are those of the records before); -2 when
 * each() failed to write.
 */
int	stats_scan(struct stats *, struct pd_reader *rd, stats_each_fn each,
	    void *ctx);

static inline int
rec_is_compressed(uint32_t type)
{
	return type == PD_RECORD_COMPRESSED || type == PD_RECORD_COMPRESSED2;
}

/* A table's total count, and its bytes in *bytes. */
uint64_t	typetab_total(const struct typetab *, uint64_t *bytes);

#endif /* PDSTAT_STATS_H */
