/* SPDX-License-Identifier: MIT */
/*
 * Reading a GNU build id from a file on this host, with libelf: what a
 * recorder puts in HEADER_BUILD_ID so that another host can find the
 * same binary.
 */
#ifndef PD_BUILDID_H
#define PD_BUILDID_H

#include <stddef.h>

/*
 * The GNU build id of an ELF file (idlen bytes, at most 20 stored in id),
 * or of raw note bytes (/sys/kernel/notes) when `raw_notes` is set.
 * 0, or -1 when the file cannot be read or has no build id.
 */
int	pd_buildid_read(const char *path, int raw_notes, unsigned char id[20],
	    size_t *idlen);

#endif /* PD_BUILDID_H */
