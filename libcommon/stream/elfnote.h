/* SPDX-License-Identifier: MIT */
#ifndef PD_ELFNOTE_H
#define PD_ELFNOTE_H

#include <stddef.h>

/*
 * The GNU build id in raw ELF note bytes, as the kernel shows its own
 * and its modules' (/sys/kernel/notes, /sys/module/NAME/notes/...):
 * the build ids a stream's kernel maps carry. 0 with id (at most 20
 * bytes stored) and *idlen, or -1 when the notes hold none or are cut.
 */
int	pd_elfnote_build_id(const unsigned char *p, size_t len,
	    unsigned char id[20], size_t *idlen);

#endif /* PD_ELFNOTE_H */
