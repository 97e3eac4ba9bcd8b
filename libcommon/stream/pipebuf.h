/* SPDX-License-Identifier: MIT */
#ifndef PD_PIPEBUF_H
#define PD_PIPEBUF_H

/*
 * Grows the kernel buffer of a pipe to 1 MiB (the default pipe-max-size),
 * so that the big reads and writes of the reader and writer move whole
 * chunks in one syscall instead of many 64 KiB ones, with fewer wakeups
 * on both sides. Does nothing when fd is not a pipe or the kernel says
 * no: the result is only speed. errno is kept.
 */
void	pd_pipe_grow(int fd);

#endif /* PD_PIPEBUF_H */
