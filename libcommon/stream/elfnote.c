/* SPDX-License-Identifier: MIT */
/*
 * ELF notes as raw bytes: pdrecord writes the kernel's build id into
 * the stream, the symbolizer compares a stream's with this machine's.
 */
#include "libcommon/stream/elfnote.h"

#include <elf.h>
#include <string.h>

#include "libcommon/stream/perf.h"

int
pd_elfnote_build_id(const unsigned char *p, size_t len, unsigned char id[20],
    size_t *idlen)
{
	size_t off = 0, nsz, dsz, type;

	while (off + 12 <= len) {
		nsz = pd_get_u32(p + off);
		dsz = pd_get_u32(p + off + 4);
		type = pd_get_u32(p + off + 8);
		off += 12;
		if (nsz > len - off || dsz > len - off - ((nsz + 3) & ~3UL))
			return -1;
		if (type == NT_GNU_BUILD_ID && nsz == 4 &&
		    memcmp(p + off, "GNU", 4) == 0) {
			off += 4;
			*idlen = dsz > 20 ? 20 : dsz;
			memcpy(id, p + off, *idlen);
			return 0;
		}
		off += ((nsz + 3) & ~3UL) + ((dsz + 3) & ~3UL);
	}
	return -1;
}
