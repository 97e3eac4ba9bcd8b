/* SPDX-License-Identifier: MIT */
/*
 * Events to hosts (sym/hosts.c): a merge's event@host names number the
 * hosts in the order of their first event; a stream whose events are
 * not all so named, or name one host only, is one host (0); a name
 * changed by a later record is seen once the table is forgotten.
 */
#include "libcommon/sym/hosts.h"

#include <string.h>

#include "libcommon/stream/perf.h"
#include "tests/unit/rec.h"
#include "tests/unit/t.h"

static int
add(struct pd_evlist *el, const char *name, uint64_t id)
{
	struct t_attr a = { .type = 1, .sample_type = PERF_SAMPLE_IP |
	    PERF_SAMPLE_IDENTIFIER };
	unsigned char raw[256];
	const char *why;
	int idx;

	b_len = 0;
	b_attr(&a);
	memcpy(raw, b_buf, b_len);
	if ((idx = pd_evlist_add(el, raw, b_len, &id, 1, &why)) < 0)
		return -1;
	if (name != NULL && pd_evlist_set_name(el, idx, name,
	    strlen(name)) < 0)
		return -1;
	return idx;
}

static unsigned
host(struct pd_hosts *h, const struct pd_evlist *el, int idx)
{
	return pd_hosts_event(h, el, pd_evlist_at(el, idx));
}

int
main(void)
{
	struct pd_evlist el;
	struct pd_hosts h;

	memset(&h, 0, sizeof(h));
	/* A merge of hosts a, b and a c whose name has an '@'. */
	pd_evlist_init(&el);
	T(add(&el, "cpu-clock@a", 1) == 0);
	T(add(&el, "sched:sched_switch@a", 2) == 1);
	T(add(&el, "cpu-clock@b", 3) == 2);
	T(add(&el, "cycles@c@d", 4) == 3);
	T(host(&h, &el, 2) == 1);
	T(host(&h, &el, 0) == 0);
	T(host(&h, &el, 1) == 0);
	T(host(&h, &el, 3) == 2);
	T(h.n == 3);
	T(pd_hosts_name(&h, 0) != NULL && strcmp(pd_hosts_name(&h, 0),
	    "a") == 0);
	T(pd_hosts_name(&h, 2) != NULL && strcmp(pd_hosts_name(&h, 2),
	    "d") == 0);
	T(pd_hosts_name(&h, 3) == NULL);
	/* A pid's host: its step, when the stream has that host. */
	pd_hosts_forget(&h);
	T(pd_hosts_pid(&h, &el, 5) == 0);
	T(pd_hosts_pid(&h, &el, 2 * PD_PIDS_HOST_STEP + 5) == 2);
	T(pd_hosts_pid(&h, &el, PD_PIDS_HOST_STEP) == 1);
	T(pd_hosts_pid(&h, &el, 3 * PD_PIDS_HOST_STEP + 1) == 0);
	T(pd_hosts_pid(&h, &el, UINT32_MAX) == 0);
	T(pd_hosts_pid(&h, NULL, PD_PIDS_HOST_STEP) == 0);
	/* A new event: classified again, the others keep their hosts. */
	T(add(&el, "cpu-clock@e", 5) == 4);
	T(host(&h, &el, 4) == 3);
	T(host(&h, &el, 2) == 1);
	/* A name changed (EVENT_UPDATE): seen after pd_hosts_forget. */
	T(pd_evlist_set_name(&el, 4, "cpu-clock@b", 11) == 0);
	pd_hosts_forget(&h);
	T(host(&h, &el, 4) == 1);
	T(h.n == 3);
	/* An event without a host (seen first): the stream is one host's. */
	T(add(&el, "cpu-clock", 6) == 5);
	T(host(&h, &el, 5) == 0 && host(&h, &el, 0) == 0 &&
	    host(&h, &el, 2) == 0);
	T(pd_hosts_name(&h, 0) == NULL);
	pd_hosts_free(&h);
	pd_evlist_free(&el);

	/* One suffix only: one host, no names. */
	pd_evlist_init(&el);
	T(add(&el, "cpu-clock@a", 1) == 0);
	T(add(&el, "cycles@a", 2) == 1);
	T(host(&h, &el, 1) == 0 && pd_hosts_name(&h, 0) == NULL);
	T(pd_hosts_pid(&h, &el, PD_PIDS_HOST_STEP + 5) == 0);
	pd_hosts_free(&h);
	pd_evlist_free(&el);

	/* Unnamed events (no EVENT_UPDATE, no event_desc): one host. */
	pd_evlist_init(&el);
	T(add(&el, NULL, 1) == 0);
	T(host(&h, &el, 0) == 0 && pd_hosts_name(&h, 0) == NULL);
	pd_hosts_free(&h);
	pd_evlist_free(&el);
	return T_END();
}
