/* SPDX-License-Identifier: MIT */
/*
 * pd_elfnote_build_id over notes laid out as the kernel shows them in
 * /sys/kernel/notes: other notes before the GNU build id, ids of 20 and
 * 8 bytes, and notes whose sizes run past the bytes given.
 */
#include <string.h>

#include "libcommon/stream/elfnote.h"
#include "tests/unit/t.h"

/* Appends a note (name with its NUL, padded to 4; desc padded to 4). */
static size_t
note(unsigned char *p, const char *name, unsigned type,
    const unsigned char *desc, unsigned dsz)
{
	unsigned nsz = (unsigned)strlen(name) + 1, hdr[3] = { nsz, dsz, type };
	size_t n = 12;

	memcpy(p, hdr, 12);
	memset(p + n, 0, ((nsz + 3) & ~3U) + ((dsz + 3) & ~3U));
	memcpy(p + n, name, nsz);
	n += (nsz + 3) & ~3U;
	memcpy(p + n, desc, dsz);
	return n + ((dsz + 3) & ~3U);
}

int
main(void)
{
	static const unsigned char id[24] = { 0x7d, 0xd4, 0xff, 0x07, 0x89,
	    0xe0, 0x5e, 0x14, 0x28, 0x53, 0x20, 0x12, 0x91, 0x49, 0xda, 0x25,
	    0x55, 0xca, 0x0b, 0xfc, 1, 2, 3, 4 };
	unsigned char buf[256], got[20];
	size_t n = 0, len = 0;
	unsigned bad;

	/* Xen's notes and Linux's own come first in a kernel's. */
	n += note(buf + n, "Xen", 6, (const unsigned char *)"linux", 6);
	n += note(buf + n, "Linux", 0x100, (const unsigned char *)"\1\1\0", 3);
	n += note(buf + n, "GNU", 3, id, 20);
	T(pd_elfnote_build_id(buf, n, got, &len) == 0);
	T(len == 20 && memcmp(got, id, 20) == 0);
	/* Cut inside the id: not found, nothing read past the end. */
	T(pd_elfnote_build_id(buf, n - 4, got, &len) == -1);
	/* Another type, another owner: not a build id. */
	n = note(buf, "GNU", 1, id, 16);
	n += note(buf + n, "GNV", 3, id, 20);
	T(pd_elfnote_build_id(buf, n, got, &len) == -1);
	/* An 8-byte id (ld --build-id=0x...), and a 24-byte one kept at 20. */
	n = note(buf, "GNU", 3, id, 8);
	T(pd_elfnote_build_id(buf, n, got, &len) == 0 && len == 8 &&
	    memcmp(got, id, 8) == 0);
	n = note(buf, "GNU", 3, id, 24);
	T(pd_elfnote_build_id(buf, n, got, &len) == 0 && len == 20);
	/* A name size past the bytes given, and one that wraps. */
	n = note(buf, "GNU", 3, id, 20);
	bad = 1000;
	memcpy(buf, &bad, 4);
	T(pd_elfnote_build_id(buf, n, got, &len) == -1);
	bad = 0xfffffffdU;
	memcpy(buf + 4, &bad, 4);
	T(pd_elfnote_build_id(buf, n, got, &len) == -1);
	T(pd_elfnote_build_id(buf, 0, got, &len) == -1);
	return T_END();
}
