/* SPDX-License-Identifier: MIT */
/*
 * Feature section bodies (HEADER_FEATURE records, file feature sections):
 * the primitive encodings, and the header facts most tools show. Walking
 * a body field by field is decode's (pd_decode_feature in decode.h).
 */
#ifndef PD_FEATURE_H
#define PD_FEATURE_H

#include <stddef.h>
#include <stdint.h>

struct pd_rec;

/*
 * A perf header string at p[*off]: u32 len, then len bytes holding the
 * string, its NUL and padding. Sets *s and *slen (up to the first NUL)
 * and advances *off. 0, or -1 when it runs past `len`.
 */
int	pd_feat_string(const unsigned char *p, size_t len, size_t *off,
	    const char **s, size_t *slen);

/*
 * Walks the entries of an EVENT_DESC HEADER_FEATURE record (native
 * order): u32 nr, u32 attr_size, nr x {attr, u32 nr_ids, string name,
 * u64 ids[nr_ids]}. Calls fn with each entry's index, name (up to its
 * NUL; it may be empty) and ids (nids u64s at `ids`, unaligned) until fn
 * returns non-zero, which is returned. A malformed entry ends the walk
 * quietly (perf ignores it too: only names depend on it); 0 then, and
 * for other records.
 */
typedef int	(*pd_evdesc_fn)(void *ctx, uint32_t idx, const char *name,
		    size_t len, const unsigned char *ids, uint32_t nids);
int	pd_feat_event_desc(const struct pd_rec *rec, pd_evdesc_fn fn,
	    void *ctx);

/* The same over an EVENT_DESC body of len bytes (a file's section). */
int	pd_feat_event_desc_walk(const unsigned char *p, size_t len,
	    pd_evdesc_fn fn, void *ctx);

/* The feature id of a HEADER_FEATURE record, or -1 for other records. */
long long	pd_feat_id(const struct pd_rec *rec);

/* The name of feature id f ("hostname", "cmdline"...), or NULL. */
const char	*pd_feat_name(unsigned f);

/* The header facts, collected from HEADER_FEATURE records as they pass. */
struct pd_header_info {
	char		 hostname[128];
	char		 osrelease[128];
	char		 version[64];
	char		 arch[32];
	char		 cpudesc[128];
	char		 cpuid[128];
	uint32_t	 nr_cpus_avail;
	uint32_t	 nr_cpus_online;
	uint64_t	 total_mem;	/* kB */
	char		 cmdline[1024];	/* argv joined by spaces */
	uint32_t	 comp_type, comp_level, comp_mmap_len;	/* COMPRESSED */
	unsigned	 seen;		/* bit f: feature f was seen (f < 32) */
};

/*
 * Updates `hi` from a HEADER_FEATURE record (others are ignored).
 * Returns 0, or -1 when the body is malformed (the facts are left as
 * they were).
 */
int	pd_header_info_update(struct pd_header_info *hi,
	    const struct pd_rec *rec);

#endif /* PD_FEATURE_H */
