/* SPDX-License-Identifier: MIT */
/*
 * Messages and exits for the tools' main(): the only module that prints.
 * Every line starts with the program name:
 *	pdcat: trace.data: offset 0x1a0: record size 4 < 8
 */
#ifndef PD_MSG_H
#define PD_MSG_H

#include "libcommon/stream/record.h"

/* Exit statuses, the same for every tool. */
#define PD_EXIT_OK	0
#define PD_EXIT_DATA	1	/* bad input, I/O or runtime failure */
#define PD_EXIT_USAGE	2
#define PD_EXIT_INTR	130	/* stopped early by SIGINT, as a shell says */

struct pd_reader;

void	pd_setprogname(const char *argv0);
const char	*pd_progname(void);

/* "prog: fmt" on stderr. */
void	pd_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One line for a library error: "prog: input: offset 0x..: msg". */
void	pd_print_err(const struct pd_err *err);

/*
 * After a failed write (errno set): EPIPE ends the program as a SIGPIPE
 * death would, silently (git's check_pipe); anything else is reported
 * as "prog: what: strerror" and exits 1.
 */
void	pd_die_write(const char *what) __attribute__((noreturn));

/* "out of memory", exit status 1. */
void	pd_die_nomem(void) __attribute__((noreturn));

/*
 * Ctrl-C, the user's way to end a recording, keeps everything
 * (pdtools(7)). pd_interrupt_init() takes SIGINT over; each reader given
 * to pd_interrupt_watch() then ends as at the end of its input when the
 * user asks to stop: at the first SIGINT on a regular file, at the
 * second on a pipe, where the first only says that the recorder upstream
 * (which got it too) is about to flush and close. pd_interrupted() says
 * whether an input was cut short that way: the tool still writes what it
 * has and prints what it counted, then exits PD_EXIT_INTR.
 */
void	pd_interrupt_init(void);
void	pd_interrupt_watch(struct pd_reader *);
int	pd_interrupted(void);
/* How many SIGINTs came: a live display stops after the first. */
int	pd_interrupts(void);

/*
 * Whether a live status line (pdstat -p) is showing on stderr: messages
 * clear it first, and a SIGINT ends it with a newline, so that the
 * recorder's closing summary is not glued to it.
 */
void	pd_status_line(int showing);

/* "prog version" on stdout, for --version. */
void	pd_print_version(void);

#endif /* PD_MSG_H */
