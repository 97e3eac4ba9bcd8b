/* SPDX-License-Identifier: MIT */
/*
 * Feature section bodies field by field: the walk is dwalk.h's, the
 * primitive encodings (perf header strings, feature names) feature.c's.
 */
#include "libcommon/stream/decode_feat.h"

#include <string.h>

#include "libcommon/stream/dwalk.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"

static void
fstr(struct pd_dwalk *w, const char *name)
{
	const char *s;
	size_t n;

	if (w->bad || pd_feat_string(w->p, w->end, &w->off, &s, &n) < 0) {
		w->bad = 1;
		return;
	}
	pd_dwalk_emit(w, name, PD_D_STR, 0, s, n);
}

/* A list of n strings. */
static void
fstrs(struct pd_dwalk *w, const char *name, uint64_t n)
{
	uint64_t i;

	pd_dwalk_open(w, name, 1);
	for (i = 0; i < n && !w->bad; i++)
		fstr(w, NULL);
	pd_dwalk_close(w, 1);
}

/* Caps a count read from the body by what the body can hold at all. */
static uint64_t
fcount(struct pd_dwalk *w, const char *name, unsigned min_item)
{
	uint64_t n = pd_dwalk_num(w, name, 4, PD_D_U);

	if (!w->bad && n > pd_dwalk_left(w) / min_item)
		w->bad = 1;
	return w->bad ? 0 : n;
}

int
pd_decode_feature(uint64_t f, const unsigned char *p, size_t len,
    const struct pd_dvisit *v, const char **why)
{
	struct pd_dwalk w;
	uint64_t n, i, j, m;

	w.p = p;
	w.end = len;
	w.off = 0;
	w.v = v;
	w.bad = 0;
	w.why = NULL;
	switch (f) {
	case PD_FEAT_HOSTNAME:
	case PD_FEAT_OSRELEASE:
	case PD_FEAT_VERSION:
	case PD_FEAT_ARCH:
	case PD_FEAT_CPUDESC:
	case PD_FEAT_CPUID:
		fstr(&w, pd_feat_name(f));
		break;
	case PD_FEAT_NRCPUS:
		pd_dwalk_num(&w, "nr_cpus_avail", 4, PD_D_U);
		pd_dwalk_num(&w, "nr_cpus_online", 4, PD_D_U);
		break;
	case PD_FEAT_TOTAL_MEM:
		pd_dwalk_num(&w, "total_mem", 8, PD_D_U);
		break;
	case PD_FEAT_CMDLINE:
		n = fcount(&w, NULL, 4);
		fstrs(&w, "cmdline", n);
		break;
	case PD_FEAT_EVENT_DESC: {
		uint32_t asz;

		n = fcount(&w, "nr_events", 4);
		asz = pd_dwalk_num(&w, "attr_size", 4, PD_D_U);
		pd_dwalk_open(&w, "events", 1);
		for (i = 0; i < n && !w.bad; i++) {
			const char *ewhy;

			pd_dwalk_open(&w, NULL, 0);
			if (asz < PD_ATTR_SIZE_VER0 || len - w.off < asz) {
				w.bad = 1;
				pd_dwalk_close(&w, 0);
				break;
			}
			if (pd_decode_attr(p + w.off, asz, v, &ewhy) < 0)
				w.bad = 1;
			w.off += asz;
			m = fcount(&w, NULL, 8);
			fstr(&w, "name");
			pd_dwalk_open(&w, "ids", 1);
			for (j = 0; j < m && !w.bad; j++)
				pd_dwalk_emit(&w, NULL, PD_D_U, pd_dwalk_num(&w, NULL, 8, PD_D_U),
				    NULL, 0);
			pd_dwalk_close(&w, 1);
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	}
	case PD_FEAT_CPU_TOPOLOGY:
		n = fcount(&w, NULL, 4);
		fstrs(&w, "core_siblings", n);
		n = fcount(&w, NULL, 4);
		fstrs(&w, "thread_siblings", n);
		/* Per-cpu ids need NRCPUS; they stay as bytes. */
		if (!w.bad && w.off < len)
			pd_dwalk_emit(&w, "cpu_ids", PD_D_BYTES, 0, p + w.off,
			    len - w.off);
		w.off = len;
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		n = fcount(&w, "nr", 24);
		pd_dwalk_open(&w, "nodes", 1);
		for (i = 0; i < n && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			pd_dwalk_num(&w, "node", 4, PD_D_U);
			pd_dwalk_num(&w, "mem_total", 8, PD_D_U);
			pd_dwalk_num(&w, "mem_free", 8, PD_D_U);
			fstr(&w, "cpus");
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PD_FEAT_PMU_MAPPINGS:
		n = fcount(&w, "nr", 8);
		pd_dwalk_open(&w, "pmus", 1);
		for (i = 0; i < n && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			pd_dwalk_num(&w, "type", 4, PD_D_U);
			fstr(&w, "name");
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PD_FEAT_GROUP_DESC:
		n = fcount(&w, "nr", 12);
		pd_dwalk_open(&w, "groups", 1);
		for (i = 0; i < n && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			fstr(&w, "name");
			pd_dwalk_num(&w, "leader_idx", 4, PD_D_U);
			pd_dwalk_num(&w, "nr_members", 4, PD_D_U);
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PD_FEAT_CACHE:
		pd_dwalk_num(&w, "cache_version", 4, PD_D_U);
		n = fcount(&w, "nr", 28);
		pd_dwalk_open(&w, "caches", 1);
		for (i = 0; i < n && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			pd_dwalk_num(&w, "level", 4, PD_D_U);
			pd_dwalk_num(&w, "line_size", 4, PD_D_U);
			pd_dwalk_num(&w, "sets", 4, PD_D_U);
			pd_dwalk_num(&w, "ways", 4, PD_D_U);
			fstr(&w, "type");
			fstr(&w, "size");
			fstr(&w, "map");
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PD_FEAT_SAMPLE_TIME:
		pd_dwalk_num(&w, "first_sample_time", 8, PD_D_U);
		pd_dwalk_num(&w, "last_sample_time", 8, PD_D_U);
		break;
	case PD_FEAT_MEM_TOPOLOGY:
		pd_dwalk_num(&w, "mem_version", 8, PD_D_U);
		pd_dwalk_num(&w, "block_size", 8, PD_D_U);
		n = pd_dwalk_num(&w, "nr", 8, PD_D_U);
		if (n > len / 24)
			w.bad = 1;
		pd_dwalk_open(&w, "nodes", 1);
		for (i = 0; i < n && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			pd_dwalk_num(&w, "node", 8, PD_D_U);
			pd_dwalk_num(&w, "size", 8, PD_D_U);
			m = pd_dwalk_num(&w, "nbits", 8, PD_D_U);
			pd_dwalk_open(&w, "bitmap", 1);
			for (j = 0; j < (m + 63) / 64 && !w.bad; j++) {
				uint64_t word = pd_dwalk_num(&w, NULL, 8, PD_D_U);

				if (!w.bad)
					pd_dwalk_emit(&w, NULL, PD_D_X, word, NULL, 0);
			}
			pd_dwalk_close(&w, 1);
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PD_FEAT_CLOCKID:
		pd_dwalk_num(&w, "clockid_res_ns", 8, PD_D_U);
		break;
	case PD_FEAT_DIR_FORMAT:
		pd_dwalk_num(&w, "dir_version", 8, PD_D_U);
		break;
	case PD_FEAT_BPF_PROG_INFO:
	case PD_FEAT_BPF_BTF:
		pd_dwalk_num(&w, "count", 4, PD_D_U);
		if (!w.bad && w.off < len)
			pd_dwalk_emit(&w, "data_size", PD_D_U, len - w.off, NULL, 0);
		w.off = len;
		break;
	case PD_FEAT_COMPRESSED:
		pd_dwalk_num(&w, "comp_version", 4, PD_D_U);
		pd_dwalk_num(&w, "comp_type", 4, PD_D_U);
		pd_dwalk_num(&w, "level", 4, PD_D_U);
		pd_dwalk_num(&w, "ratio", 4, PD_D_U);
		pd_dwalk_num(&w, "mmap_len", 4, PD_D_U);
		break;
	case PD_FEAT_CPU_PMU_CAPS:
		n = fcount(&w, "nr", 8);
		pd_dwalk_open(&w, "caps", 1);
		for (i = 0; i < n && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			fstr(&w, "name");
			fstr(&w, "value");
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PD_FEAT_CLOCK_DATA:
		pd_dwalk_num(&w, "clock_version", 4, PD_D_U);
		pd_dwalk_num(&w, "clockid", 4, PD_D_U);
		pd_dwalk_num(&w, "tod_ns", 8, PD_D_U);
		pd_dwalk_num(&w, "clockid_ns", 8, PD_D_U);
		break;
	case PD_FEAT_HYBRID_TOPOLOGY:
		n = fcount(&w, "nr", 8);
		pd_dwalk_open(&w, "nodes", 1);
		for (i = 0; i < n && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			fstr(&w, "pmu_name");
			fstr(&w, "cpus");
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PD_FEAT_PMU_CAPS:
		n = fcount(&w, "nr_pmus", 4);
		pd_dwalk_open(&w, "pmus", 1);
		for (i = 0; i < n && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			m = fcount(&w, "nr_caps", 8);
			pd_dwalk_open(&w, "caps", 1);
			for (j = 0; j < m && !w.bad; j++) {
				pd_dwalk_open(&w, NULL, 0);
				fstr(&w, "name");
				fstr(&w, "value");
				pd_dwalk_close(&w, 0);
			}
			pd_dwalk_close(&w, 1);
			fstr(&w, "pmu_name");
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	default:
		if (len > 0)
			pd_dwalk_emit(&w, "data", PD_D_BYTES, 0, p, len);
		w.off = len;
	}
	if (w.bad) {
		*why = "malformed feature body";
		return -1;
	}
	return 0;
}
