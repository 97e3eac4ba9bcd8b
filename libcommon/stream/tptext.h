/* SPDX-License-Identifier: MIT */
/*
 * A tracepoint sample's fields as text, the way perf script prints them
 * ("prev_comm=sh prev_pid=12 ... ==> next_comm=..."): each event's
 * print_fmt applied by libtraceevent, the kernel's own library for it,
 * to the sample's RAW data. The formats come from the stream's tracing
 * data (tracefmt.h); a renderer follows the tracing data it is given
 * and rebuilds itself when that changes.
 *
 * RAW data is untrusted: before the library sees it, every field of the
 * event must lie inside it, and it is copied into a zeroed buffer with
 * room to spare, so a string without its NUL ends there.
 */
#ifndef PD_TPTEXT_H
#define PD_TPTEXT_H

#include <stddef.h>

struct pd_tracefmt;
struct pd_tf_event;
struct pd_tptext;

/* NULL when out of memory. */
struct pd_tptext	*pd_tptext_new(void);
void			 pd_tptext_free(struct pd_tptext *);

/*
 * The text of event te (of tracing data tf) for RAW data raw[0..len):
 * sets *n and returns it, valid until the next call; NULL when it
 * cannot be made (the library could not parse the format, a field lies
 * outside the data, out of memory).
 */
const char	*pd_tptext_render(struct pd_tptext *, const struct pd_tracefmt *tf,
		    const struct pd_tf_event *te, const unsigned char *raw,
		    size_t len, size_t *n);

#endif /* PD_TPTEXT_H */
