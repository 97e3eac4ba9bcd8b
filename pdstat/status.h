/* SPDX-License-Identifier: MIT */
/*
 * pdstat -p on a terminal: a status line on standard error, refreshed
 * four times a second (a timer sets status_tick; the loop looks at it).
 */
#ifndef PDSTAT_STATUS_H
#define PDSTAT_STATUS_H

#include <signal.h>
#include <stdint.h>
#include <time.h>

struct stats;

struct status {
	int		 on;
	struct timespec	 last;
	uint64_t	 recs, bytes;	/* at the last refresh */
};

/* Set by the timer when the line is due; status_show() clears it. */
extern volatile sig_atomic_t	status_tick;

/* Starts the timer (ss zeroed first); the line stays off if it fails. */
void	status_start(struct status *ss);

/* Shows the records read and the counts so far in st. */
void	status_show(struct status *ss, const struct stats *st);

/* Stops the timer and clears the line; nothing when it never started. */
void	status_stop(struct status *ss);

#endif /* PDSTAT_STATUS_H */
