/* SPDX-License-Identifier: MIT */
/*
 * The perf.data format facts that <linux/perf_event.h> does not carry:
 * perf's user record types, newer kernel types and bits than the installed
 * header may know, the pipe and file headers, and unaligned loads.
 * Every other module takes its numbers from here or from the uapi header.
 */
#ifndef PD_PERF_H
#define PD_PERF_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

/* "PERFILE2" as a u64 written by a writer of our own byte order. */
#define PD_MAGIC2		0x32454c4946524550ULL
#define PD_MAGIC2_SWAPPED	0x50455246494c4532ULL
/* Legacy v1 magic "PERFFILE": no byte order information. */
#define PD_MAGIC1		0x454c494646524550ULL
#define PD_MAGIC1_SWAPPED	0x5045524646494c45ULL

/* Whether a file's first 8 bytes, as read, say perf.data (any kind). */
static inline int
pd_magic_is_perf(uint64_t magic)
{
	return magic == PD_MAGIC2 || magic == PD_MAGIC2_SWAPPED ||
	    magic == PD_MAGIC1 || magic == PD_MAGIC1_SWAPPED;
}

#define PD_PIPE_HDR_SIZE	16
#define PD_FILE_HDR_SIZE	104
#define PD_FILE_HDR_SIZE_OLD	72	/* before the feature bitmap */
#define PD_REC_HDR_SIZE		8
#define PD_REC_MAX		65535	/* header.size is a u16 */

/* Kernel record types newer than some installed headers. */
#define PD_RECORD_TEXT_POKE		20
#define PD_RECORD_AUX_OUTPUT_HW_ID	21
#define PD_RECORD_CALLCHAIN_DEFERRED	22
#define PD_RECORD_KERNEL_MAX		23	/* first type we do not know */

/* perf's own records (tools/lib/perf/include/perf/event.h). */
enum pd_user_type {
	PD_RECORD_USER_START		= 64,
	PD_RECORD_HEADER_ATTR		= 64,
	PD_RECORD_HEADER_EVENT_TYPE	= 65,
	PD_RECORD_HEADER_TRACING_DATA	= 66,
	PD_RECORD_HEADER_BUILD_ID	= 67,
	PD_RECORD_FINISHED_ROUND	= 68,
	PD_RECORD_ID_INDEX		= 69,
	PD_RECORD_AUXTRACE_INFO		= 70,
	PD_RECORD_AUXTRACE		= 71,
	PD_RECORD_AUXTRACE_ERROR	= 72,
	PD_RECORD_THREAD_MAP		= 73,
	PD_RECORD_CPU_MAP		= 74,
	PD_RECORD_STAT_CONFIG		= 75,
	PD_RECORD_STAT			= 76,
	PD_RECORD_STAT_ROUND		= 77,
	PD_RECORD_EVENT_UPDATE		= 78,
	PD_RECORD_TIME_CONV		= 79,
	PD_RECORD_HEADER_FEATURE	= 80,
	PD_RECORD_COMPRESSED		= 81,
	PD_RECORD_FINISHED_INIT		= 82,
	PD_RECORD_COMPRESSED2		= 83,
	PD_RECORD_BPF_METADATA		= 84,
	PD_RECORD_SCHEDSTAT_CPU		= 85,
	PD_RECORD_SCHEDSTAT_DOMAIN	= 86,
	PD_RECORD_USER_MAX		= 87
};

/* The first bytes of a tracing data blob. */
#define PD_TRACING_MAGIC		"\027\bDtracing"
#define PD_TRACING_MAGIC_LEN		10

/* EVENT_UPDATE types (u64 after the header). */
#define PD_EVENT_UPDATE_UNIT		0
#define PD_EVENT_UPDATE_SCALE		1
#define PD_EVENT_UPDATE_NAME		2
#define PD_EVENT_UPDATE_CPUS		3

/* HEADER_BUILD_ID: the id's size byte is valid (perf reuses EXT_RESERVED). */
#define PD_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)
/*
 * HEADER_ATTR: more ids of the event of the HEADER_ATTR before, for an
 * event with more ids than one record holds (pdtools' own; event.h).
 */
#define PD_RECORD_MISC_ATTR_MORE	(1 << 15)

/* Sample bits; the installed header may predate some of them. */
#define PD_SAMPLE_WEIGHT_STRUCT		(1ULL << 24)
#define PD_SAMPLE_KNOWN			((1ULL << 25) - 1)

#define PD_FORMAT_LOST			(1ULL << 4)
#define PD_FORMAT_KNOWN			((1ULL << 5) - 1)

#define PD_BRANCH_HW_INDEX		(1ULL << 17)
#define PD_BRANCH_COUNTERS		(1ULL << 19)

#define PD_CONTEXT_USER_DEFERRED	((uint64_t)-640)

/* attr.flags bits, numbered as a little-endian writer lays them out. */
#define PD_ATTR_FREQ			(1ULL << 10)
#define PD_ATTR_SAMPLE_ID_ALL		(1ULL << 18)
#define PD_ATTR_USE_CLOCKID		(1ULL << 25)
#define PD_ATTR_WRITE_BACKWARD		(1ULL << 27)

/* struct perf_event_attr versions (attr.size values). */
#define PD_ATTR_SIZE_VER0		64
#define PD_ATTR_SIZE_PERF61		128	/* sizeof in perf 6.1 (VER7) */
#define PD_ATTR_SIZE_MAX		512	/* sanity bound, not an ABI */

/* perf_event_attr field offsets. */
#define PD_ATTR_OFF_TYPE		0
#define PD_ATTR_OFF_SIZE		4
#define PD_ATTR_OFF_CONFIG		8
#define PD_ATTR_OFF_PERIOD		16
#define PD_ATTR_OFF_SAMPLE_TYPE		24
#define PD_ATTR_OFF_READ_FORMAT		32
#define PD_ATTR_OFF_FLAGS		40
#define PD_ATTR_OFF_BRANCH_TYPE		72
#define PD_ATTR_OFF_REGS_USER		80
#define PD_ATTR_OFF_STACK_USER		88
#define PD_ATTR_OFF_CLOCKID		92
#define PD_ATTR_OFF_REGS_INTR		96

/* Feature ids (file header bitmap and HEADER_FEATURE.feat_id). */
enum pd_feature {
	PD_FEAT_TRACING_DATA	= 1,
	PD_FEAT_BUILD_ID	= 2,
	PD_FEAT_HOSTNAME	= 3,
	PD_FEAT_OSRELEASE	= 4,
	PD_FEAT_VERSION		= 5,
	PD_FEAT_ARCH		= 6,
	PD_FEAT_NRCPUS		= 7,
	PD_FEAT_CPUDESC		= 8,
	PD_FEAT_CPUID		= 9,
	PD_FEAT_TOTAL_MEM	= 10,
	PD_FEAT_CMDLINE		= 11,
	PD_FEAT_EVENT_DESC	= 12,
	PD_FEAT_CPU_TOPOLOGY	= 13,
	PD_FEAT_NUMA_TOPOLOGY	= 14,
	PD_FEAT_BRANCH_STACK	= 15,
	PD_FEAT_PMU_MAPPINGS	= 16,
	PD_FEAT_GROUP_DESC	= 17,
	PD_FEAT_AUXTRACE	= 18,
	PD_FEAT_STAT		= 19,
	PD_FEAT_CACHE		= 20,
	PD_FEAT_SAMPLE_TIME	= 21,
	PD_FEAT_MEM_TOPOLOGY	= 22,
	PD_FEAT_CLOCKID		= 23,
	PD_FEAT_DIR_FORMAT	= 24,
	PD_FEAT_BPF_PROG_INFO	= 25,
	PD_FEAT_BPF_BTF		= 26,
	PD_FEAT_COMPRESSED	= 27,
	PD_FEAT_CPU_PMU_CAPS	= 28,
	PD_FEAT_CLOCK_DATA	= 29,
	PD_FEAT_HYBRID_TOPOLOGY	= 30,
	PD_FEAT_PMU_CAPS	= 31,
	PD_FEAT_LAST_61		= 32,	/* perf 6.1's HEADER_LAST_FEATURE */
	PD_FEAT_SIMPLEPERF	= 128,	/* simpleperf's private ids start */
	PD_FEAT_BITS		= 256
};

/* Unaligned loads and stores: records need not be 8-byte aligned. */
static inline uint16_t
pd_get_u16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t
pd_get_u32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t
pd_get_u64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void
pd_put_u16(void *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline void
pd_put_u32(void *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline void
pd_put_u64(void *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

#define PD_ALIGN8(x)	(((x) + 7) & ~(uint64_t)7)

#endif /* PD_PERF_H */
