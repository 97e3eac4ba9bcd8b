/* SPDX-License-Identifier: MIT */
#include "libcommon/cli/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libcommon/cli/msg.h"
#include "libcommon/stream/perf.h"

/*
 * Whether path may be written beside and renamed over: only a regular
 * file, or nothing yet. A symlink is left alone even when it points at
 * a regular file, so the link survives and the file behind it is what
 * changes, as with every Unix tool.
 */
static int
replaceable(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT;
	return S_ISREG(st.st_mode);
}

int
pd_output_holds_recording(const char *path)
{
	unsigned char magic[8];
	struct stat st;
	int fd, r = 0;

	/* Not blocking on a FIFO: only a regular file is looked into. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic))
		r = pd_magic_is_perf(pd_get_u64(magic));
	close(fd);
	return r;
}

int
pd_output_open(struct pd_output *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	if (path == NULL || strcmp(path, "-") == 0) {
		o->fd = STDOUT_FILENO;
		o->name = "<stdout>";
		if (isatty(o->fd)) {
			pd_warnx("refusing to write binary data to a "
			    "terminal (use -o FILE or a pipe)");
			return -1;
		}
		return 0;
	}
	o->path = o->name = path;
	if (!replaceable(path)) {
		/*
		 * A device, FIFO, socket or a link to one is the user's
		 * own: written in place, as `>` would, never renamed over.
		 */
		o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0666);
		if (o->fd < 0) {
			pd_warnx("%s: %s", path, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (asprintf(&o->tmp, "%s.XXXXXX", o->path) < 0) {
		o->tmp = NULL;
		pd_warnx("out of memory");
		return -1;
	}
	if ((o->fd = mkostemp(o->tmp, O_CLOEXEC)) < 0) {
		pd_warnx("%s: %s", path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	/* mkstemp makes 0600; give the file the usual 0666 & ~umask. */
	{
		mode_t um = umask(0);

		umask(um);
		fchmod(o->fd, 0666 & ~um);
	}
	return 0;
}

int
pd_output_close(struct pd_output *o, int keep)
{
	int r = 0;

	if (o->path == NULL)
		return 0;
	if (o->tmp == NULL) {
		/* Written in place: only the close can still fail. */
		if (o->fd >= 0 && close(o->fd) < 0) {
			pd_warnx("%s: close: %s", o->path, strerror(errno));
			r = -1;
		}
		o->fd = -1;
		return r;
	}
	if (close(o->fd) < 0) {
		pd_warnx("%s: close: %s", o->path, strerror(errno));
		keep = 0;
		r = -1;
	}
	if (keep && rename(o->tmp, o->path) < 0) {
		pd_warnx("%s: rename: %s", o->path, strerror(errno));
		r = -1;
		keep = 0;
	}
	if (!keep)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return r;
}

void
pd_output_abort(struct pd_output *o)
{
	if (o->tmp != NULL) {
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
}

int
pd_output_stdio(const char *path, int (*put)(FILE *, void *), void *arg)
{
	struct pd_output out;
	FILE *f;
	int fd, r;

	if (pd_output_open(&out, path) < 0)
		return -1;
	if ((fd = dup(out.fd)) < 0 || (f = fdopen(fd, "w")) == NULL) {
		pd_warnx("%s: %s", out.name, strerror(errno));
		if (fd >= 0)
			close(fd);
		pd_output_close(&out, 0);
		return -1;
	}
	/* One writer: no lock around each of a million small writes. */
	__fsetlocking(f, FSETLOCKING_BYCALLER);
	errno = 0;
	if ((r = put(f, arg)) < 0 && errno == 0)
		errno = ENOMEM;
	if (fclose(f) == EOF && r == 0) {
		r = -1;
		if (errno == 0)
			errno = EIO;
	}
	if (r < 0) {
		pd_warnx("%s: %s", out.name, strerror(errno));
		pd_output_close(&out, 0);
		return -1;
	}
	return pd_output_close(&out, 1);
}
