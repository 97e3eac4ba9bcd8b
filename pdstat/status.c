/* SPDX-License-Identifier: MIT */
#include "pdstat/status.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "libcommon/cli/msg.h"
#include "pdstat/stats.h"

volatile sig_atomic_t status_tick;

static void
on_alarm(int sig)
{
	(void)sig;
	status_tick = 1;
}

static double
elapsed(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

void
status_start(struct status *ss)
{
	struct sigaction sa;
	struct itimerval it;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) < 0)
		return;
	/* Four refreshes a second; the loop only tests a flag. */
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 250000;
	it.it_value.tv_usec = 250000;
	if (setitimer(ITIMER_REAL, &it, NULL) < 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ss->last);
	ss->on = 1;
}

void
status_show(struct status *ss, const struct stats *st)
{
	struct timespec now;
	uint64_t recs, b;
	double dt;

	status_tick = 0;
	/* After Ctrl-C the recorder's summary has the terminal. */
	if (pd_interrupts() > 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	dt = elapsed(&ss->last, &now);
	if (dt <= 0)
		return;
	recs = typetab_total(&st->recs, &b) + typetab_total(&st->synth, &b);
	fprintf(stderr, "\r\033[K%s: %" PRIu64 " records  %.0f records/s  "
	    "%.1f MB/s  %" PRIu64 " samples  %" PRIu64 " lost", pd_progname(),
	    recs, (recs - ss->recs) / dt,
	    (st->stream_bytes - ss->bytes) / dt / 1e6, st->samples,
	    st->lost + st->lost_samples);
	fflush(stderr);
	pd_status_line(1);
	ss->last = now;
	ss->recs = recs;
	ss->bytes = st->stream_bytes;
}

void
status_stop(struct status *ss)
{
	struct itimerval it;

	if (!ss->on)
		return;
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	fputs("\r\033[K", stderr);
	pd_status_line(0);
	ss->on = 0;
}

