/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/pipebuf.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

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

int
pd_pipe_splice(int in, uint64_t *at, int out, uint64_t n)
{
	loff_t off = (loff_t)*at;
	ssize_t r;
	int e = 0;

	while (n > 0) {
		r = splice(in, &off, out, NULL, n, SPLICE_F_MORE);
		if (r > 0)
			n -= r;
		else if (r == 0 || errno != EINTR) {
			e = r == 0 ? EIO : errno;
			break;
		}
	}
	*at = (uint64_t)off;
	if (e == EINVAL || e == ENOSYS)
		return -2;
	errno = e;
	return e != 0 ? -1 : 0;
}
