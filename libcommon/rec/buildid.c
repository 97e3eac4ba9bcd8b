/* SPDX-License-Identifier: MIT */
#include "libcommon/rec/buildid.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/stream/perf.h"

/* NT_GNU_BUILD_ID in a run of raw note bytes. */
static int
raw_notes_build_id(const unsigned char *p, size_t len, unsigned char id[20],
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

int
pd_buildid_read(const char *path, int raw_notes, unsigned char id[20],
    size_t *idlen)
{
	Elf *e;
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	GElf_Shdr sh;
	GElf_Nhdr nh;
	size_t off, noff, doff;
	int fd, r = -1;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (raw_notes) {
		unsigned char buf[4096];
		ssize_t n = read(fd, buf, sizeof(buf));

		close(fd);
		return n > 0 ? raw_notes_build_id(buf, n, id, idlen) : -1;
	}
	elf_version(EV_CURRENT);
	if ((e = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL) {
		close(fd);
		return -1;
	}
	while (r < 0 && (scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE)
			continue;
		if ((d = elf_getdata(scn, NULL)) == NULL)
			continue;
		off = 0;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((char *)d->d_buf + noff, "GNU", 4) == 0) {
				*idlen = nh.n_descsz > 20 ? 20 : nh.n_descsz;
				memcpy(id, (char *)d->d_buf + doff, *idlen);
				r = 0;
				break;
			}
		}
	}
	elf_end(e);
	close(fd);
	return r;
}
