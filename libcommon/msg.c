/* SPDX-License-Identifier: MIT */
#include "libcommon/msg.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PD_VERSION
#define PD_VERSION "unknown"
#endif

static const char *progname = "pdtools";

void
pd_setprogname(const char *argv0)
{
	const char *s = strrchr(argv0, '/');

	progname = s != NULL ? s + 1 : argv0;
}

const char *
pd_progname(void)
{
	return progname;
}

void
pd_warnx(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
pd_print_err(const struct pd_err *err)
{
	const char *in = err->input != NULL ? err->input : "<input>";

	if (err->has_offset)
		fprintf(stderr, "%s: %s: offset 0x%" PRIx64 ": %s\n",
		    progname, in, err->offset, err->msg);
	else
		fprintf(stderr, "%s: %s: %s\n", progname, in, err->msg);
}

void
pd_die_write(const char *what)
{
	if (errno == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		exit(128 + SIGPIPE);
	}
	fprintf(stderr, "%s: %s: %s\n", progname, what, strerror(errno));
	exit(PD_EXIT_DATA);
}

void
pd_print_version(void)
{
	printf("%s (pdtools) %s\n", progname, PD_VERSION);
}
