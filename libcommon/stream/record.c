/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/record.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "libcommon/stream/perf.h"

static const char *const kernel_names[PD_RECORD_KERNEL_MAX] = {
	[PERF_RECORD_MMAP]		= "MMAP",
	[PERF_RECORD_LOST]		= "LOST",
	[PERF_RECORD_COMM]		= "COMM",
	[PERF_RECORD_EXIT]		= "EXIT",
	[PERF_RECORD_THROTTLE]		= "THROTTLE",
	[PERF_RECORD_UNTHROTTLE]	= "UNTHROTTLE",
	[PERF_RECORD_FORK]		= "FORK",
	[PERF_RECORD_READ]		= "READ",
	[PERF_RECORD_SAMPLE]		= "SAMPLE",
	[PERF_RECORD_MMAP2]		= "MMAP2",
	[PERF_RECORD_AUX]		= "AUX",
	[PERF_RECORD_ITRACE_START]	= "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES]	= "LOST_SAMPLES",
	[PERF_RECORD_SWITCH]		= "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE]	= "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES]	= "NAMESPACES",
	[PERF_RECORD_KSYMBOL]		= "KSYMBOL",
	[PERF_RECORD_BPF_EVENT]		= "BPF_EVENT",
	[PERF_RECORD_CGROUP]		= "CGROUP",
	[PD_RECORD_TEXT_POKE]		= "TEXT_POKE",
	[PD_RECORD_AUX_OUTPUT_HW_ID]	= "AUX_OUTPUT_HW_ID",
	[PD_RECORD_CALLCHAIN_DEFERRED]	= "CALLCHAIN_DEFERRED",
};

/* perf's own short names (util/event.c perf_event__names). */
static const char *const user_names[PD_RECORD_USER_MAX - 64] = {
	[PD_RECORD_HEADER_ATTR - 64]		= "ATTR",
	[PD_RECORD_HEADER_EVENT_TYPE - 64]	= "EVENT_TYPE",
	[PD_RECORD_HEADER_TRACING_DATA - 64]	= "TRACING_DATA",
	[PD_RECORD_HEADER_BUILD_ID - 64]	= "BUILD_ID",
	[PD_RECORD_FINISHED_ROUND - 64]		= "FINISHED_ROUND",
	[PD_RECORD_ID_INDEX - 64]		= "ID_INDEX",
	[PD_RECORD_AUXTRACE_INFO - 64]		= "AUXTRACE_INFO",
	[PD_RECORD_AUXTRACE - 64]		= "AUXTRACE",
	[PD_RECORD_AUXTRACE_ERROR - 64]		= "AUXTRACE_ERROR",
	[PD_RECORD_THREAD_MAP - 64]		= "THREAD_MAP",
	[PD_RECORD_CPU_MAP - 64]		= "CPU_MAP",
	[PD_RECORD_STAT_CONFIG - 64]		= "STAT_CONFIG",
	[PD_RECORD_STAT - 64]			= "STAT",
	[PD_RECORD_STAT_ROUND - 64]		= "STAT_ROUND",
	[PD_RECORD_EVENT_UPDATE - 64]		= "EVENT_UPDATE",
	[PD_RECORD_TIME_CONV - 64]		= "TIME_CONV",
	[PD_RECORD_HEADER_FEATURE - 64]		= "FEATURE",
	[PD_RECORD_COMPRESSED - 64]		= "COMPRESSED",
	[PD_RECORD_FINISHED_INIT - 64]		= "FINISHED_INIT",
	[PD_RECORD_COMPRESSED2 - 64]		= "COMPRESSED2",
	[PD_RECORD_BPF_METADATA - 64]		= "BPF_METADATA",
	[PD_RECORD_SCHEDSTAT_CPU - 64]		= "SCHEDSTAT_CPU",
	[PD_RECORD_SCHEDSTAT_DOMAIN - 64]	= "SCHEDSTAT_DOMAIN",
};

const char *
pd_rec_name(uint32_t type)
{
	if (type < PD_RECORD_KERNEL_MAX)
		return kernel_names[type];
	if (type >= 64 && type < PD_RECORD_USER_MAX)
		return user_names[type - 64];
	return NULL;
}

long
pd_rec_type(const char *name)
{
	uint32_t t;

	if (strncasecmp(name, "PERF_RECORD_", 12) == 0)
		name += 12;
	if (strncasecmp(name, "HEADER_", 7) == 0)
		name += 7;
	for (t = 0; t < PD_RECORD_USER_MAX; t++) {
		const char *n = pd_rec_name(t);

		if (n != NULL && strcasecmp(n, name) == 0)
			return t;
	}
	return -1;
}

int
pd_err_set(struct pd_err *err, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	err->offset = offset;
	err->has_offset = 1;
	err->errnum = 0;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int
pd_err_io(struct pd_err *err, int errnum, const char *what)
{
	err->has_offset = 0;
	err->errnum = errnum;
	snprintf(err->msg, sizeof(err->msg), "%s: %s", what, strerror(errnum));
	return -1;
}
