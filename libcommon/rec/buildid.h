/* SPDX-License-Identifier: MIT */
/*
 * Reading a GNU build id from a file on this host, with libelf: what a
 * recorder puts in HEADER_BUILD_ID so that another host can find the
 * same binary.
 */
#ifndef PD_BUILDID_H
#define PD_BUILDID_H

#include <stddef.h>
#include <stdint.h>

/*
 * The GNU build id of an ELF file (idlen bytes, at most 20 stored in id),
 * or of raw note bytes (/sys/kernel/notes) when `raw_notes` is set.
 * 0, or -1 when the file cannot be read or has no build id.
 */
int	pd_buildid_read(const char *path, int raw_notes, unsigned char id[20],
	    size_t *idlen);

/*
 * Build ids of mapped files by device and inode, each file read once:
 * a machine's processes map the same few hundred files thousands of
 * times. Start zeroed; pd_buildid_cache_free() releases it.
 */
struct pd_buildid_cache {
	struct pd_buildid_ent {
		uint64_t	 ino;
		uint32_t	 maj, min;
		uint8_t		 used, len;	/* len 0: the file has none */
		unsigned char	 id[20];
	}		*v;
	size_t		 cap, n;
};

/* Files remembered at most; past it, maps go without build ids. */
#define PD_BUILDID_CACHE_MAX	65536

/*
 * The build id of `path` as mapped from device maj:min, inode ino
 * (/proc/PID/maps): read only when the file at that path is still that
 * inode, so a file replaced since, or a path of another mount namespace,
 * gives none. 0 with id/idlen, or -1 (none, or unknown).
 */
int	pd_buildid_of_map(struct pd_buildid_cache *, const char *path,
	    uint32_t maj, uint32_t min, uint64_t ino, unsigned char id[20],
	    size_t *idlen);
void	pd_buildid_cache_free(struct pd_buildid_cache *);

#endif /* PD_BUILDID_H */
