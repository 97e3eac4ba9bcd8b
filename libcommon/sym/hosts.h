/* SPDX-License-Identifier: MIT */
/*
 * The hosts of a stream that pdsort merged from several hosts'
 * recordings: the merge names every event "event@host" (EVENT_UPDATE)
 * and adds host k's number times PD_PIDS_HOST_STEP to its pids and
 * tids (pdsort(1) MERGING). A stream is such a merge when every event
 * is named with an "@" and two or more names follow it; its hosts are
 * numbered in the order their first event comes, as the merge numbers
 * them (the order of its inputs). Any other stream is one host, 0.
 */
#ifndef PD_HOSTS_H
#define PD_HOSTS_H

#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/pids.h"

struct pd_hosts {
	uint16_t	*of;		/* host of each evsel idx */
	size_t		 nev;		/* evsels classified; 0: not yet */
	char		**names;	/* host k's name; n 0: one host */
	size_t		 n;
};

/* Frees what the table holds; it may be used again (all zero). */
void		 pd_hosts_free(struct pd_hosts *);

/*
 * Forgets the classification, for a stream whose events or names
 * changed (HEADER_ATTR, EVENT_UPDATE): the next pd_hosts_event()
 * makes it again.
 */
void		 pd_hosts_forget(struct pd_hosts *);

/*
 * Host number of ev (an event of el): from the table, made again from
 * el's names on an event it has not seen; 0 for a one-host stream, and
 * when out of memory.
 */
unsigned	 pd_hosts_slow(struct pd_hosts *, const struct pd_evlist *,
		    const struct pd_evsel *);

static inline unsigned
pd_hosts_event(struct pd_hosts *h, const struct pd_evlist *el,
    const struct pd_evsel *ev)
{
	if (ev->idx >= 0 && (size_t)ev->idx < h->nev)
		return h->of[ev->idx];
	return pd_hosts_slow(h, el, ev);
}

/*
 * Host number of a pid or tid of el's stream: pid / PD_PIDS_HOST_STEP
 * when that is one of the hosts el's events name (the merge moved host
 * k's pids by k steps), else 0: a one-host stream's, and -1, which no
 * merge moves. Classifies el's events first when the table is not of
 * them (pd_hosts_slow).
 */
unsigned	 pd_hosts_pid(struct pd_hosts *, const struct pd_evlist *,
		    uint32_t pid);

/* Host k's name ("@" and after in its events' names), or NULL: one host. */
static inline const char *
pd_hosts_name(const struct pd_hosts *h, unsigned k)
{
	return k < h->n ? h->names[k] : NULL;
}

#endif /* PD_HOSTS_H */
