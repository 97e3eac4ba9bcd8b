/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/pipebuf.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#define PIPE_WANT	(1024 * 1024)

void
pd_pipe_grow(int fd)
{
	struct stat st;
	int old = errno;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
	    fcntl(fd, F_GETPIPE_SZ) < PIPE_WANT)
		(void)fcntl(fd, F_SETPIPE_SZ, PIPE_WANT);
	errno = old;
}
