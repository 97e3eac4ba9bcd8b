/* SPDX-License-Identifier: MIT */
/*
 * Events to hosts: made once per set of event names (events are few),
 * looked up per sample by the event's index.
 */
#include "libcommon/sym/hosts.h"

#include <stdlib.h>
#include <string.h>

/* As many as the merge keeps apart (its pids stay positive int32s). */
#define HOSTS_MAX	512

void
pd_hosts_free(struct pd_hosts *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		free(h->names[i]);
	free(h->names);
	free(h->of);
	memset(h, 0, sizeof(*h));
}

void
pd_hosts_forget(struct pd_hosts *h)
{
	pd_hosts_free(h);
}

/* The host part of a merged event's name, or NULL: not one. */
static const char *
suffix(const struct pd_evsel *ev)
{
	const char *at;

	if (!ev->named || ev->name == NULL ||
	    (at = strrchr(ev->name, PD_PIDS_HOST_SEP)) == NULL || at[1] == '\0')
		return NULL;
	return at + 1;
}

/* Every event classified: 0, or -1 (out of memory, or not a merge). */
static int
classify(struct pd_hosts *h, const struct pd_evlist *el)
{
	size_t nev = pd_evlist_count(el), i, k;
	const char *sfx;

	if (nev == 0 || (h->of = calloc(nev, sizeof(*h->of))) == NULL ||
	    (h->names = calloc(HOSTS_MAX, sizeof(*h->names))) == NULL)
		return -1;
	for (i = 0; i < nev; i++) {
		if ((sfx = suffix(pd_evlist_at(el, i))) == NULL)
			return -1;
		for (k = 0; k < h->n; k++)
			if (strcmp(h->names[k], sfx) == 0)
				break;
		if (k == h->n) {
			if (h->n == HOSTS_MAX ||
			    (h->names[k] = strdup(sfx)) == NULL)
				return -1;
			h->n++;
		}
		h->of[i] = (uint16_t)k;
	}
	if (h->n < 2)
		return -1;
	h->nev = nev;
	return 0;
}

unsigned
pd_hosts_slow(struct pd_hosts *h, const struct pd_evlist *el,
    const struct pd_evsel *ev)
{
	size_t nev;

	pd_hosts_free(h);
	if (el == NULL || classify(h, el) == 0)
		return ev->idx >= 0 && (size_t)ev->idx < h->nev ?
		    h->of[ev->idx] : 0;
	/* One host: every event, without names, in the same table. */
	pd_hosts_free(h);
	nev = pd_evlist_count(el);
	if (nev > 0 && (h->of = calloc(nev, sizeof(*h->of))) != NULL)
		h->nev = nev;
	return 0;
}

unsigned
pd_hosts_pid(struct pd_hosts *h, const struct pd_evlist *el, uint32_t pid)
{
	unsigned k = pid / PD_PIDS_HOST_STEP;
	size_t nev;

	/* Host 0's and -1 need no table. */
	if (k == 0 || pid == UINT32_MAX || el == NULL)
		return 0;
	if ((nev = pd_evlist_count(el)) > 0 && h->nev != nev)
		(void)pd_hosts_slow(h, el, pd_evlist_at(el, nev - 1));
	return k < h->n ? k : 0;
}
