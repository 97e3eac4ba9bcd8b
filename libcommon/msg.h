/* SPDX-License-Identifier: MIT */
/*
 * Messages and exits for the tools' main(): the only module that prints.
 * Every line starts with the program name:
 *	pdcat: trace.data: offset 0x1a0: record size 4 < 8
 */
#ifndef PD_MSG_H
#define PD_MSG_H

#include "libcommon/record.h"

/* Exit statuses, the same for every tool. */
#define PD_EXIT_OK	0
#define PD_EXIT_DATA	1	/* bad input, I/O or runtime failure */
#define PD_EXIT_USAGE	2

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

/* "prog version" on stdout, for --version. */
void	pd_print_version(void);

#endif /* PD_MSG_H */
