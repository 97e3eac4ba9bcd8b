/* SPDX-License-Identifier: MIT */
#include "libcommon/pipebuf.h"

#include <fcntl.h>
#include <sys/stat.h>

#define PIPE_WANT	(1024 * 1024)

void
pd_pipe_grow(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode))
		return;
	if (fcntl(fd, F_GETPIPE_SZ) < PIPE_WANT)
		(void)fcntl(fd, F_SETPIPE_SZ, PIPE_WANT);
}
