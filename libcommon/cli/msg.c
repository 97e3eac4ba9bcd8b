/* SPDX-License-Identifier: MIT */
#include "libcommon/cli/msg.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/stream/reader.h"

#ifndef PD_VERSION
#define PD_VERSION "unknown"
#endif

static const char *progname = "pdtools";

/* Ctrl-C: SIGINTs seen, how many end reading, and the flag readers watch. */
static volatile sig_atomic_t nint, nint_stop = 2, status_showing;
/* Handed to the reader, which takes an int: the same type on Linux. */
_Static_assert(sizeof(sig_atomic_t) == sizeof(int) && (sig_atomic_t)-1 < 0,
    "sig_atomic_t is int");
static volatile int stop;
/* Set at the first SIGINT: the input may now end inside a record. */
static volatile int ending;

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

/* The default action again (sigaction: signal() is not async-signal-safe). */
static void
sigint_default(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

static void
on_sigint(int sig)
{
	static const char nl = '\n';

	(void)sig;
	nint++;
	ending = 1;
	if (nint >= nint_stop) {
		stop = 1;
		/* One more, while the tool writes what it has, kills it. */
		sigint_default();
	}
	/* The recorder prints its summary now: not onto our line. */
	if (status_showing) {
		status_showing = 0;
		if (write(STDERR_FILENO, &nl, 1) < 0)
			return;
	}
}

void
pd_interrupt_init(void)
{
	struct sigaction sa;

	/* Ignored by whoever started us (nohup, a script's `&`): it stays so. */
	if (sigaction(SIGINT, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a read blocked on a pipe must see the second. */
	sigaction(SIGINT, &sa, NULL);
}

void
pd_interrupt_watch(struct pd_reader *rd)
{
	nint_stop = pd_reader_is_regular(rd) ? 1 : 2;
	if (nint >= nint_stop && !stop) {
		stop = 1;
		sigint_default();
	}
	if (nint > 0)
		ending = 1;
	pd_reader_stop_on(rd, &stop);
	pd_reader_ending_on(rd, &ending);
}

int
pd_interrupted(void)
{
	return stop;
}

int
pd_interrupts(void)
{
	return nint;
}

void
pd_status_line(int showing)
{
	status_showing = showing;
}

static void
clear_status(void)
{
	if (status_showing)
		fputs("\r\033[K", stderr);
}

void
pd_warnx(const char *fmt, ...)
{
	va_list ap;

	clear_status();
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

	clear_status();
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
pd_die_nomem(void)
{
	pd_warnx("out of memory");
	exit(PD_EXIT_DATA);
}

void
pd_print_version(void)
{
	printf("%s (pdtools) %s\n", progname, PD_VERSION);
}
