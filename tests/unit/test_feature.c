/* SPDX-License-Identifier: MIT */
/*
 * libcommon/stream/feature: perf header strings, HEADER_FEATURE records
 * and the facts tools show from them, EVENT_DESC entries, and the body
 * decoder, each on good bodies and on bodies cut or lying about their
 * lengths (every byte of a stream is untrusted).
 */
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/decode.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "rec.h"
#include "t.h"

/* A HEADER_FEATURE record of feature f, its body added by the caller. */
static size_t
feat_begin(uint64_t f)
{
	size_t at;

	b_len = 0;
	at = b_rec(PD_RECORD_HEADER_FEATURE, 0);
	b_u64(f);
	return at;
}

/* A perf header string: u32 len (with NUL, padded to 64), the bytes. */
static void
b_hstr(const char *s)
{
	size_t n = (strlen(s) + 1 + 63) / 64 * 64;

	b_u32(n);
	b_put(s, strlen(s));
	b_zero(n - strlen(s));
}

static void
test_string(void)
{
	const char *s;
	size_t off = 0, n;

	b_len = 0;
	b_hstr("hello");
	b_hstr("");
	T(pd_feat_string(b_buf, b_len, &off, &s, &n) == 0);
	T(n == 5 && memcmp(s, "hello", 5) == 0 && off == 68);
	T(pd_feat_string(b_buf, b_len, &off, &s, &n) == 0);
	T(n == 0 && off == b_len);
	/* Nothing left, a length past the end, a cut length field. */
	T(pd_feat_string(b_buf, b_len, &off, &s, &n) == -1);
	off = 0;
	T(pd_feat_string(b_buf, 67, &off, &s, &n) == -1);
	off = 0;
	T(pd_feat_string(b_buf, 3, &off, &s, &n) == -1);
	off = 0;
	pd_put_u32(b_buf, 0xffffffff);
	T(pd_feat_string(b_buf, b_len, &off, &s, &n) == -1);
	/* No NUL within its length: the string stops at the length. */
	b_len = 0;
	b_u32(4);
	b_put("abcd", 4);
	off = 0;
	T(pd_feat_string(b_buf, b_len, &off, &s, &n) == 0 && n == 4);
}

static void
test_ids_and_names(void)
{
	struct pd_rec r;
	size_t at;

	at = feat_begin(PD_FEAT_HOSTNAME);
	b_hstr("h");
	b_end(at);
	r = b_view(at);
	T(pd_feat_id(&r) == PD_FEAT_HOSTNAME);
	r.size = 15;		/* too small to hold the id */
	T(pd_feat_id(&r) == -1);
	r = b_view(at);
	r.type = PERF_RECORD_COMM;
	T(pd_feat_id(&r) == -1);
	T(strcmp(pd_feat_name(PD_FEAT_HOSTNAME), "hostname") == 0);
	T(strcmp(pd_feat_name(PD_FEAT_CMDLINE), "cmdline") == 0);
	T(pd_feat_name(0) == NULL);
	T(pd_feat_name(100000) == NULL);
}

static void
test_header_info(void)
{
	struct pd_header_info hi;
	struct pd_rec r;
	size_t at;

	memset(&hi, 0, sizeof(hi));
	at = feat_begin(PD_FEAT_HOSTNAME);
	b_hstr("box");
	b_end(at);
	r = b_view(at);
	T(pd_header_info_update(&hi, &r) == 0);
	T(strcmp(hi.hostname, "box") == 0);
	T(hi.seen == 1U << PD_FEAT_HOSTNAME);

	at = feat_begin(PD_FEAT_NRCPUS);
	b_u32(8);
	b_u32(4);
	b_end(at);
	r = b_view(at);
	T(pd_header_info_update(&hi, &r) == 0);
	T(hi.nr_cpus_avail == 8 && hi.nr_cpus_online == 4);

	at = feat_begin(PD_FEAT_CMDLINE);
	b_u32(3);
	b_hstr("perf");
	b_hstr("record");
	b_hstr("-a");
	b_end(at);
	r = b_view(at);
	T(pd_header_info_update(&hi, &r) == 0);
	T(strcmp(hi.cmdline, "perf record -a") == 0);

	/* argc larger than the strings there: malformed, facts kept. */
	strcpy(hi.cmdline, "kept");
	at = feat_begin(PD_FEAT_CMDLINE);
	b_u32(1000);
	b_hstr("perf");
	b_end(at);
	r = b_view(at);
	T(pd_header_info_update(&hi, &r) == -1);

	at = feat_begin(PD_FEAT_COMPRESSED);
	b_u32(0);		/* version */
	b_u32(1);		/* type: zstd */
	b_u32(3);		/* level */
	b_u32(0);		/* ratio */
	b_u32(8192);		/* mmap_len */
	b_end(at);
	r = b_view(at);
	T(pd_header_info_update(&hi, &r) == 0);
	T(hi.comp_type == 1 && hi.comp_level == 3 &&
	    hi.comp_mmap_len == 8192);
	r.size -= 4;		/* a cut body */
	T(pd_header_info_update(&hi, &r) == -1);

	/* A hostname longer than the field: cut, still NUL-terminated. */
	{
		char longname[300];

		memset(longname, 'x', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		at = feat_begin(PD_FEAT_HOSTNAME);
		b_hstr(longname);
		b_end(at);
		r = b_view(at);
		pd_header_info_update(&hi, &r);
		T(strlen(hi.hostname) < sizeof(hi.hostname));
	}
}

struct descs {
	int		 n;
	char		 names[4][32];
	uint32_t	 nids[4];
	uint64_t	 id0[4];
};

static int
on_desc(void *ctx, uint32_t idx, const char *name, size_t len,
    const unsigned char *ids, uint32_t nids)
{
	struct descs *d = ctx;

	if (d->n == 4 || idx != (uint32_t)d->n)
		return 1;
	snprintf(d->names[d->n], sizeof(d->names[0]), "%.*s", (int)len, name);
	d->nids[d->n] = nids;
	d->id0[d->n] = nids ? pd_get_u64(ids) : 0;
	d->n++;
	return 0;
}

static size_t
event_desc(int cut_ids)
{
	struct t_attr a = { .type = 1, .size = 128 };
	size_t at = feat_begin(PD_FEAT_EVENT_DESC);

	b_u32(2);		/* nr */
	b_u32(128);		/* attr_size */
	b_attr(&a);
	b_u32(2);
	b_hstr("cpu-clock");
	b_u64(11);
	b_u64(12);
	b_attr(&a);
	b_u32(cut_ids ? 100 : 1);
	b_hstr("dummy:u");
	b_u64(21);
	b_end(at);
	return at;
}

static void
test_event_desc(void)
{
	struct descs d;
	struct pd_rec r;

	memset(&d, 0, sizeof(d));
	r = b_view(event_desc(0));
	T(pd_feat_event_desc(&r, on_desc, &d) == 0);
	T(d.n == 2);
	T(strcmp(d.names[0], "cpu-clock") == 0 && d.nids[0] == 2 &&
	    d.id0[0] == 11);
	T(strcmp(d.names[1], "dummy:u") == 0 && d.nids[1] == 1 &&
	    d.id0[1] == 21);

	/* An entry claiming more ids than the record holds ends the walk. */
	memset(&d, 0, sizeof(d));
	r = b_view(event_desc(1));
	T(pd_feat_event_desc(&r, on_desc, &d) == 0);
	T(d.n == 1);
}

/* A visitor that counts what it is shown and remembers one string. */
struct seen {
	int	 vals, opens, closes;
	char	 str[64];
};

static void
v_val(void *ctx, const struct pd_dval *v)
{
	struct seen *s = ctx;

	s->vals++;
	if (v->fmt == PD_D_STR && s->str[0] == '\0')
		snprintf(s->str, sizeof(s->str), "%.*s", (int)v->len,
		    (const char *)v->p);
}

static void
v_open(void *ctx, const char *name, int list)
{
	((struct seen *)ctx)->opens++;
}

static void
v_close(void *ctx, int list)
{
	((struct seen *)ctx)->closes++;
}

static void
test_decode(void)
{
	struct seen s;
	struct pd_dvisit v = { v_val, v_open, v_close, &s, NULL };
	const char *why = NULL;
	size_t at, cut;
	int ok = 1;

	/* cmdline: a list of strings, opened and closed in pairs. */
	memset(&s, 0, sizeof(s));
	at = feat_begin(PD_FEAT_CMDLINE);
	b_u32(2);
	b_hstr("perf");
	b_hstr("top");
	b_end(at);
	T(pd_decode_feature(PD_FEAT_CMDLINE, b_buf + at + 16, b_len - at - 16,
	    &v, &why) == 0);
	T(s.vals >= 2 && s.opens == s.closes);
	T(strcmp(s.str, "perf") == 0);

	/* Every cut of an EVENT_DESC body: -1 with a reason, never a read
	 * past the end (ASan), lists still closed for the printer. */
	at = event_desc(0);
	for (cut = 0; cut < b_len - at - 16 && ok; cut++) {
		unsigned char *copy = malloc(cut ? cut : 1);

		memcpy(copy, b_buf + at + 16, cut);
		memset(&s, 0, sizeof(s));
		why = NULL;
		ok = (pd_decode_feature(PD_FEAT_EVENT_DESC, copy, cut, &v,
		    &why) == -1 && why != NULL) || cut == 0;
		ok &= s.opens == s.closes;
		free(copy);
	}
	T(ok);
	memset(&s, 0, sizeof(s));
	T(pd_decode_feature(PD_FEAT_EVENT_DESC, b_buf + at + 16,
	    b_len - at - 16, &v, &why) == 0);
	T(strcmp(s.str, "cpu-clock") == 0 || s.vals > 10);

	/* A feature we do not know: its bytes, not an error. */
	memset(&s, 0, sizeof(s));
	T(pd_decode_feature(200, (const unsigned char *)"abcdefgh", 8, &v,
	    &why) == 0);
	T(s.vals == 1);
}

int
main(void)
{
	test_string();
	test_ids_and_names();
	test_header_info();
	test_event_desc();
	test_decode();
	return T_END();
}
