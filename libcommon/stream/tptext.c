/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/tptext.h"

#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "libcommon/stream/tracefmt.h"

/*
 * Zeroed bytes after a copy of the RAW data: a string field without
 * its NUL, or a print helper that reads a little past a field, stops
 * in them instead of past the buffer.
 */
#define PAD		64

struct pd_tptext {
	struct tep_handle	*tep;
	const struct pd_tracefmt *tf;	/* what tep was built from */
	size_t			 nev;	/* its events then */
	struct trace_seq	 seq;
	unsigned char		*buf;	/* the RAW copy, PAD zeroed after */
	size_t			 cap;
};

struct pd_tptext *
pd_tptext_new(void)
{
	struct pd_tptext *t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	/* The library would warn on stderr; this layer never prints. */
	tep_set_loglevel(TEP_LOG_NONE);
	trace_seq_init(&t->seq);
	return t;
}

void
pd_tptext_free(struct pd_tptext *t)
{
	if (t == NULL)
		return;
	if (t->tep != NULL)
		tep_free(t->tep);
	trace_seq_destroy(&t->seq);
	free(t->buf);
	free(t);
}

/* A span of the blob as the C string the library's parsers take. */
static void
parse_text(struct tep_handle *tep, struct pd_tf_span sp,
    int (*parse)(struct tep_handle *, const char *))
{
	char *s;

	if (sp.len == 0 || (s = malloc(sp.len + 1)) == NULL)
		return;
	memcpy(s, sp.p, sp.len);
	s[sp.len] = '\0';
	(void)parse(tep, s);
	free(s);
}

/*
 * The library's view of tracing data tf, as perf's trace-event-read.c
 * builds it: sizes, byte orders, every format, then kallsyms and printk
 * strings for %pS and %s of a format's address. A format the library
 * refuses leaves that event without text.
 */
static int
build(struct pd_tptext *t, const struct pd_tracefmt *tf)
{
	size_t i, n = pd_tracefmt_nevents(tf);

	if (t->tep != NULL)
		tep_free(t->tep);
	t->tf = NULL;
	if ((t->tep = tep_alloc()) == NULL)
		return -1;
	tep_set_long_size(t->tep, (int)pd_tracefmt_long_size(tf));
	tep_set_page_size(t->tep, (int)pd_tracefmt_page_size(tf));
	tep_set_file_bigendian(t->tep, pd_tracefmt_big_endian(tf) ?
	    TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep,
	    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN :
	    TEP_LITTLE_ENDIAN);
	for (i = 0; i < n; i++) {
		const struct pd_tf_event *e = pd_tracefmt_event_at(tf, i);

		(void)tep_parse_event(t->tep, e->format, e->format_len,
		    e->system);
	}
	parse_text(t->tep, pd_tracefmt_kallsyms(tf), tep_parse_kallsyms);
	parse_text(t->tep, pd_tracefmt_printk(tf), tep_parse_printk_formats);
	t->tf = tf;
	t->nev = n;
	return 0;
}

const char *
pd_tptext_render(struct pd_tptext *t, const struct pd_tracefmt *tf,
    const struct pd_tf_event *te, const unsigned char *raw, size_t len,
    size_t *n)
{
	struct tep_record rec;
	const unsigned char *p;
	size_t i, fn;
	void *g;

	if ((t->tf != tf || t->nev != pd_tracefmt_nevents(tf)) &&
	    build(t, tf) < 0)
		return NULL;
	if (len > INT32_MAX || tep_find_event(t->tep, (int)te->id) == NULL)
		return NULL;
	for (i = 0; i < te->nfields; i++)
		if (pd_tf_field_bytes(&te->fields[i],
		    pd_tracefmt_big_endian(tf), raw, len, &p, &fn) < 0)
			return NULL;
	if (len + PAD > t->cap) {
		if ((g = realloc(t->buf, len + PAD)) == NULL)
			return NULL;
		t->buf = g;
		t->cap = len + PAD;
	}
	memcpy(t->buf, raw, len);
	memset(t->buf + len, 0, PAD);
	memset(&rec, 0, sizeof(rec));
	rec.data = t->buf;
	rec.size = (int)len;
	rec.record_size = (int)len;
	trace_seq_reset(&t->seq);
	tep_print_event(t->tep, &t->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&t->seq);
	if (t->seq.state != TRACE_SEQ__GOOD)
		return NULL;
	*n = t->seq.len;
	return t->seq.buffer;
}
