/* SPDX-License-Identifier: MIT */
#include "libcommon/rec/buildid.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "libcommon/stream/elfnote.h"

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
		return n > 0 ? pd_elfnote_build_id(buf, n, id, idlen) : -1;
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

static size_t
ent_hash(uint32_t maj, uint32_t min, uint64_t ino, size_t cap)
{
	uint64_t h = (ino ^ ((uint64_t)maj << 40 | (uint64_t)min << 20)) *
	    0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (cap - 1);
}

static struct pd_buildid_ent *
ent_slot(struct pd_buildid_ent *v, size_t cap, uint32_t maj, uint32_t min,
    uint64_t ino)
{
	size_t h;

	for (h = ent_hash(maj, min, ino, cap); v[h].used;
	    h = (h + 1) & (cap - 1))
		if (v[h].ino == ino && v[h].maj == maj && v[h].min == min)
			break;
	return &v[h];
}

static int
cache_grow(struct pd_buildid_cache *c)
{
	size_t ncap = c->cap ? c->cap * 2 : 1024, i;
	struct pd_buildid_ent *nv;

	if ((nv = calloc(ncap, sizeof(*nv))) == NULL)
		return -1;
	for (i = 0; i < c->cap; i++)
		if (c->v[i].used)
			*ent_slot(nv, ncap, c->v[i].maj, c->v[i].min,
			    c->v[i].ino) = c->v[i];
	free(c->v);
	c->v = nv;
	c->cap = ncap;
	return 0;
}

int
pd_buildid_of_map(struct pd_buildid_cache *c, const char *path, uint32_t maj,
    uint32_t min, uint64_t ino, unsigned char id[20], size_t *idlen)
{
	struct pd_buildid_ent *e;
	struct stat st;

	if (ino == 0 || path[0] != '/')
		return -1;
	if (c->cap > 0) {
		e = ent_slot(c->v, c->cap, maj, min, ino);
		if (e->used) {
			if (e->len == 0)
				return -1;
			memcpy(id, e->id, e->len);
			*idlen = e->len;
			return 0;
		}
	}
	if (c->n >= PD_BUILDID_CACHE_MAX ||
	    ((c->n + 1) * 2 > c->cap && cache_grow(c) < 0))
		return -1;
	e = ent_slot(c->v, c->cap, maj, min, ino);
	e->used = 1;
	e->ino = ino;
	e->maj = maj;
	e->min = min;
	e->len = 0;
	c->n++;
	/* Not the mapped file (replaced, or another namespace's): none. */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_ino != ino || major(st.st_dev) != maj ||
	    minor(st.st_dev) != min)
		return -1;
	if (pd_buildid_read(path, 0, id, idlen) < 0 || *idlen == 0)
		return -1;
	memcpy(e->id, id, *idlen);
	e->len = (uint8_t)*idlen;
	return 0;
}

void
pd_buildid_cache_free(struct pd_buildid_cache *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}
