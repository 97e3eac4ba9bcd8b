/* SPDX-License-Identifier: MIT */
#ifndef PD_PIPEBUF_H
#define PD_PIPEBUF_H

/*
 * Grows the kernel buffer of a pipe to 1 MiB (the default pipe-max-size),
 * so that the 1 MiB reads and writes of the reader and writer move whole
 * chunks in one syscall instead of sixteen 64 KiB ones. Does nothing when
 * fd is not a pipe or the kernel says no: the result is only speed.
 */
void	pd_pipe_grow(int fd);

#endif /* PD_PIPEBUF_H */
