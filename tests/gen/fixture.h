/* SPDX-License-Identifier: MIT */
/*
 * The test fixture builder: synthetic perf.data streams written in
 * either byte order. Records that have a view in libcommon/stream/event.h
 * are written by the view's build function, so a fixture cannot disagree
 * with the format the tools read; the rest (HEADER_ATTR, samples, the
 * sample_id_all trailer, hostile bytes) are written field by field with
 * fx_u16..fx_u64 into an open record.
 *
 * A record is open from its writer (or fx_rec_begin) to fx_rec_end,
 * which sets its size to what was written since: a caller appends a
 * trailer, padding or a fault before ending it.
 */
#ifndef FIXTURE_H
#define FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/event.h"

struct fx {
	unsigned char	*buf;
	size_t		 len, cap;
	int		 be;	/* write as a big-endian machine would */
	int		 swap;	/* be, relative to this host (event.h's swap) */
};

void	fx_init(struct fx *, int be);
void	fx_set_be(struct fx *, int be);
void	fx_free(struct fx *);
/* n bytes at the end, uninitialised; aborts when out of memory. */
unsigned char	*fx_room(struct fx *, size_t n);
/* Writes the buffer to fd and empties it; exits on a write error. */
void	fx_flush(struct fx *, int fd);

/* Numbers of n bytes in the fixture's order. */
void	fx_put(struct fx *, uint64_t v, int n);
void	fx_u16(struct fx *, uint64_t v);
void	fx_u32(struct fx *, uint64_t v);
void	fx_u64(struct fx *, uint64_t v);
/* Overwrites the number of n bytes at offset at. */
void	fx_set(struct fx *, size_t at, uint64_t v, int n);
/* A number of n bytes in order `be`, at p (RAW data built apart). */
void	fx_put_at(unsigned char *p, uint64_t v, int n, int be);
void	fx_bytes(struct fx *, const void *p, size_t n);
void	fx_zero(struct fx *, size_t n);
/* A NUL-terminated string padded with zeros to a multiple of align. */
void	fx_str(struct fx *, const char *s, size_t align);

/* Opens a record; returns its offset for fx_rec_end. */
size_t	fx_rec_begin(struct fx *, uint32_t type, uint16_t misc);
void	fx_rec_end(struct fx *, size_t at);

/* The 16-byte pipe header. */
void	fx_pipe_header(struct fx *);

/* Open records, through event.h's views; each returns its offset. */
size_t	fx_comm(struct fx *, uint16_t misc, uint32_t pid, uint32_t tid,
	    const char *comm);
size_t	fx_fork(struct fx *, uint32_t type, const struct pd_record_fork *);
size_t	fx_mmap(struct fx *, uint16_t misc, uint32_t pid, uint32_t tid,
	    uint64_t start, uint64_t len, uint64_t pgoff, const char *filename);
/* m->filename_len is taken from m->filename. */
size_t	fx_mmap2(struct fx *, uint16_t misc, const struct pd_record_mmap2 *m);
/* A whole FINISHED_ROUND. */
void	fx_finished_round(struct fx *);

/*
 * A whole HEADER_FEATURE of a string feature (HOSTNAME, OSRELEASE, ...):
 * u32 len, then s with zeros to a multiple of len, as perf pads it.
 */
void	fx_feature_str(struct fx *, uint64_t feat_id, const char *s,
	    uint32_t len);

/* Sample layout bits (perf_event_attr.sample_type). */
#define ST_IP		(1ULL << 0)
#define ST_TID		(1ULL << 1)
#define ST_TIME		(1ULL << 2)
#define ST_ADDR		(1ULL << 3)
#define ST_READ		(1ULL << 4)
#define ST_CALLCHAIN	(1ULL << 5)
#define ST_ID		(1ULL << 6)
#define ST_CPU		(1ULL << 7)
#define ST_PERIOD	(1ULL << 8)
#define ST_RAW		(1ULL << 10)
#define ST_BRANCH	(1ULL << 11)
#define ST_REGS_USER	(1ULL << 12)
#define ST_STACK_USER	(1ULL << 13)
#define ST_IDENTIFIER	(1ULL << 16)

#define RF_ID		(1ULL << 2)
#define RF_GROUP	(1ULL << 3)

#define BR_HW_INDEX	(1ULL << 17)

/* attr.flags bits, little-endian numbering */
#define FL_DISABLED	(1ULL << 0)
#define FL_SAMPLE_ID_ALL (1ULL << 18)

/* The standard event's samples: what fx_sample and fx_trailer lay out. */
#define STD_TYPE	(ST_IP | ST_TID | ST_TIME | ST_ID | ST_CPU | ST_PERIOD)

/* The fields of a perf_event_attr the fixtures set; the rest are 0. */
struct fx_attr {
	uint32_t	type;
	uint32_t	size;		/* 0: VER0, 64 bytes */
	uint64_t	config;
	uint64_t	period;
	uint64_t	sample_type;
	uint64_t	read_format;
	uint64_t	flags;		/* FL_*: one-bit fields */
	uint8_t		precise_ip;	/* the two-bit field */
	uint64_t	branch_sample_type;
	uint64_t	regs_user;
	uint32_t	stack_user;
	int32_t		clockid;
};

/* The perf_event_attr (size bytes), in the field order of VER7. */
void	fx_attr(struct fx *, const struct fx_attr *);
/* A whole HEADER_ATTR: the attr and its sample ids. */
void	fx_header_attr(struct fx *, const struct fx_attr *,
	    const uint64_t *ids, int nids);

/* The sample_id_all trailer of STD_TYPE: tid, time, id, cpu. */
void	fx_trailer(struct fx *, uint32_t pid, uint32_t tid, uint64_t time,
	    uint64_t id, uint32_t cpu);
/* An open SAMPLE with the fields of STD_TYPE, for more to follow. */
size_t	fx_sample(struct fx *, uint16_t misc, uint64_t ip, uint32_t pid,
	    uint32_t tid, uint64_t time, uint64_t id, uint32_t cpu,
	    uint64_t period);

#endif
