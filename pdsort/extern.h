/* SPDX-License-Identifier: MIT */
/* What pdsort's files share: the queue's callbacks, the merge. */
#ifndef PDSORT_EXTERN_H
#define PDSORT_EXTERN_H

#include <stdint.h>

#include "libcommon/stream/ordered.h"

struct pd_writer;

/* A record come due: written as it is. */
int	sort_put(void *w, void *rec, uint64_t ts);
/* After each flush that wrote something, a FINISHED_ROUND. */
int	sort_flushed(void *w, enum pd_ordered_how how);

/* --clock-offset HOST=NS, as given. */
struct clock_offset {
	const char	*host;
	int64_t		 ns;
};

/*
 * pdsort a b ...: the n inputs merged by time into w through q (a
 * queue that copies). The exit status; a write error does not return.
 */
int	merge(char **paths, unsigned n, struct pd_writer *w,
	    struct pd_ordered *q, const struct clock_offset *off,
	    unsigned noff, int strict, const char *outname);

#endif /* PDSORT_EXTERN_H */
