/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/feature.h"

#include <stdio.h>
#include <string.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"

static const char *const feat_names[] = {
	[PD_FEAT_TRACING_DATA]	= "tracing_data",
	[PD_FEAT_BUILD_ID]	= "build_id",
	[PD_FEAT_HOSTNAME]	= "hostname",
	[PD_FEAT_OSRELEASE]	= "osrelease",
	[PD_FEAT_VERSION]	= "version",
	[PD_FEAT_ARCH]		= "arch",
	[PD_FEAT_NRCPUS]	= "nrcpus",
	[PD_FEAT_CPUDESC]	= "cpudesc",
	[PD_FEAT_CPUID]		= "cpuid",
	[PD_FEAT_TOTAL_MEM]	= "total_mem",
	[PD_FEAT_CMDLINE]	= "cmdline",
	[PD_FEAT_EVENT_DESC]	= "event_desc",
	[PD_FEAT_CPU_TOPOLOGY]	= "cpu_topology",
	[PD_FEAT_NUMA_TOPOLOGY]	= "numa_topology",
	[PD_FEAT_BRANCH_STACK]	= "branch_stack",
	[PD_FEAT_PMU_MAPPINGS]	= "pmu_mappings",
	[PD_FEAT_GROUP_DESC]	= "group_desc",
	[PD_FEAT_AUXTRACE]	= "auxtrace",
	[PD_FEAT_STAT]		= "stat",
	[PD_FEAT_CACHE]		= "cache",
	[PD_FEAT_SAMPLE_TIME]	= "sample_time",
	[PD_FEAT_MEM_TOPOLOGY]	= "mem_topology",
	[PD_FEAT_CLOCKID]	= "clockid",
	[PD_FEAT_DIR_FORMAT]	= "dir_format",
	[PD_FEAT_BPF_PROG_INFO]	= "bpf_prog_info",
	[PD_FEAT_BPF_BTF]	= "bpf_btf",
	[PD_FEAT_COMPRESSED]	= "compressed",
	[PD_FEAT_CPU_PMU_CAPS]	= "cpu_pmu_caps",
	[PD_FEAT_CLOCK_DATA]	= "clock_data",
	[PD_FEAT_HYBRID_TOPOLOGY] = "hybrid_topology",
	[PD_FEAT_PMU_CAPS]	= "pmu_caps",
};

long long
pd_feat_id(const struct pd_rec *rec)
{
	struct pd_record_header_feature f;

	if (pd_record_header_feature_parse(rec, &f) < 0)
		return -1;
	return (long long)(f.feat_id & INT64_MAX);
}

const char *
pd_feat_name(unsigned f)
{
	return f < sizeof(feat_names) / sizeof(feat_names[0]) ?
	    feat_names[f] : NULL;
}

int
pd_feat_string(const unsigned char *p, size_t len, size_t *off,
    const char **s, size_t *slen)
{
	uint32_t n;

	if (*off > len || len - *off < 4)
		return -1;
	n = pd_get_u32(p + *off);
	if (n > len - *off - 4)
		return -1;
	*s = (const char *)p + *off + 4;
	*slen = strnlen(*s, n);
	*off += 4 + (size_t)n;
	return 0;
}

static int
copy_string(char *dst, size_t dlen, const unsigned char *p, size_t len)
{
	const char *s;
	size_t off = 0, n;

	if (pd_feat_string(p, len, &off, &s, &n) < 0)
		return -1;
	snprintf(dst, dlen, "%.*s", (int)n, s);
	return 0;
}

int
pd_header_info_update(struct pd_header_info *hi, const struct pd_rec *rec)
{
	struct pd_record_header_feature hf;
	struct pd_feat_compressed c;
	const unsigned char *p;
	size_t len, off, n, used;
	uint64_t f;
	uint32_t i, argc;
	const char *s;

	if (pd_record_header_feature_parse(rec, &hf) < 0)
		return 0;
	f = hf.feat_id;
	p = hf.data;
	len = hf.size;
	switch (f) {
	case PD_FEAT_HOSTNAME:
		if (copy_string(hi->hostname, sizeof(hi->hostname), p, len))
			return -1;
		break;
	case PD_FEAT_OSRELEASE:
		if (copy_string(hi->osrelease, sizeof(hi->osrelease), p, len))
			return -1;
		break;
	case PD_FEAT_VERSION:
		if (copy_string(hi->version, sizeof(hi->version), p, len))
			return -1;
		break;
	case PD_FEAT_ARCH:
		if (copy_string(hi->arch, sizeof(hi->arch), p, len))
			return -1;
		break;
	case PD_FEAT_CPUDESC:
		if (copy_string(hi->cpudesc, sizeof(hi->cpudesc), p, len))
			return -1;
		break;
	case PD_FEAT_CPUID:
		if (copy_string(hi->cpuid, sizeof(hi->cpuid), p, len))
			return -1;
		break;
	case PD_FEAT_NRCPUS:
		if (len < 8)
			return -1;
		hi->nr_cpus_avail = pd_get_u32(p);
		hi->nr_cpus_online = pd_get_u32(p + 4);
		break;
	case PD_FEAT_TOTAL_MEM:
		if (len < 8)
			return -1;
		hi->total_mem = pd_get_u64(p);
		break;
	case PD_FEAT_CMDLINE:
		if (len < 4)
			return -1;
		argc = pd_get_u32(p);
		off = 4;
		used = 0;
		hi->cmdline[0] = '\0';
		for (i = 0; i < argc; i++) {
			if (pd_feat_string(p, len, &off, &s, &n) < 0)
				return -1;
			if (used + n + 2 < sizeof(hi->cmdline)) {
				used += snprintf(hi->cmdline + used,
				    sizeof(hi->cmdline) - used, "%s%.*s",
				    i ? " " : "", (int)n, s);
			}
		}
		break;
	case PD_FEAT_COMPRESSED:
		if (pd_feat_compressed_parse(rec, &c) < 0)
			return -1;
		hi->comp_type = c.type;
		hi->comp_level = c.level;
		hi->comp_mmap_len = c.mmap_len;
		break;
	default:
		return 0;
	}
	if (f < 32)
		hi->seen |= 1U << f;
	return 0;
}

int
pd_feat_event_desc_walk(const unsigned char *p, size_t len, pd_evdesc_fn fn,
    void *ctx)
{
	const unsigned char *q = p + 8, *end = p + len;
	uint32_t nr, asz, i, nids, slen;
	int r;

	if (len < 8)
		return 0;
	nr = pd_get_u32(p);
	asz = pd_get_u32(p + 4);
	for (i = 0; i < nr; i++) {
		if (asz > (size_t)(end - q) || 8 > (size_t)(end - q - asz))
			break;
		q += asz;
		nids = pd_get_u32(q);
		slen = pd_get_u32(q + 4);
		q += 8;
		if (slen > (size_t)(end - q) ||
		    nids > (size_t)(end - q - slen) / 8)
			break;
		if ((r = fn(ctx, i, (const char *)q, strnlen((const char *)q,
		    slen), q + slen, nids)) != 0)
			return r;
		q += slen + 8 * (size_t)nids;
	}
	return 0;
}

int
pd_feat_event_desc(const struct pd_rec *rec, pd_evdesc_fn fn, void *ctx)
{
	struct pd_record_header_feature f;

	if (pd_record_header_feature_parse(rec, &f) < 0 ||
	    f.feat_id != PD_FEAT_EVENT_DESC)
		return 0;
	return pd_feat_event_desc_walk(f.data, f.size, fn, ctx);
}
