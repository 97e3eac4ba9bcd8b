/* SPDX-License-Identifier: MIT */
#ifndef PD_PIPEBUF_H
#define PD_PIPEBUF_H

#include <stdint.h>

/*
 * Grows the kernel buffer of a pipe to 1 MiB (the default pipe-max-size),
 * so that the big reads and writes of the reader and writer move whole
 * chunks in one syscall instead of many 64 KiB ones, with fewer wakeups
 * on both sides. Does nothing when fd is not a pipe or the kernel says
 * no: the result is only speed. errno is kept.
 */
void	pd_pipe_grow(int fd);

/*
 * Sends n bytes of regular file `in`, from offset *at, into pipe `out`
 * with splice(2): the file's pages go into the pipe, copied nowhere.
 * Short moves and EINTR are taken care of; *at ends where the bytes
 * sent end. 0 when all went; -2 when splice is refused (a file system
 * without it: the caller copies the rest, from *at); -1 with errno
 * otherwise (EIO: the file ended first, cut short since it was read).
 */
int	pd_pipe_splice(int in, uint64_t *at, int out, uint64_t n);

#endif /* PD_PIPEBUF_H */
