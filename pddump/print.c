/* SPDX-License-Identifier: MIT */
/*
 * pddump's printers: a record's line in text, or its object in JSON.
 * Output only: the fields come from the decoders' visitors
 * (libcommon/stream/decode.h), the names of addresses from the symbol
 * queue (-s).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "libcommon/cli/msg.h"
#include "libcommon/stream/decode.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/tracefmt.h"
#include "libcommon/sym/symbols.h"
#include "libcommon/sym/symq.h"
#include "pddump/out.h"
#include "pddump/pddump.h"

static int
wanted(const struct dumper *d, uint32_t type)
{
	if (!d->filter)
		return 1;
	return type < 256 && (d->want[type / 64] >> (type % 64) & 1);
}

/* ---- the decode visitors: text and JSON ---- */

#define VDEPTH	32

struct tvis {
	int		 depth;
	unsigned char	 islist[VDEPTH];
	unsigned	 nitems[VDEPTH];
	const char	*lname[VDEPTH];
};

/* JSON ["0x1","0x2"], text 0x1 0x2. */
static void
put_addrs(const struct pd_dval *v, int json)
{
	const unsigned char *p = v->p;
	size_t i;

	if (json)
		out_ch('[');
	for (i = 0; i < v->len; i++) {
		if (json) {
			if (i > 0)
				out_ch(',');
			out_ch('"');
		} else if (i > 0)
			out_ch(' ');
		out_x64(pd_get_u64(p + 8 * i));
		if (json)
			out_ch('"');
	}
	if (json)
		out_ch(']');
}

/* Kept out of put_dval, whose every call would make room for buf. */
static __attribute__((noinline)) void
put_double(double d, int json)
{
	char buf[64];

	/* JSON has no NaN or infinity: those are strings there. */
	snprintf(buf, sizeof(buf), "%s%.17g%s", json && !isfinite(d) ?
	    "\"" : "", d, json && !isfinite(d) ? "\"" : "");
	out_str(buf);
}

static void
put_dval(const struct pd_dval *v, int json)
{
	switch (v->fmt) {
	case PD_D_U:
		out_u64(v->u);
		break;
	case PD_D_S:
		out_s64((int64_t)v->u);
		break;
	case PD_D_X:
	case PD_D_ADDR:
		if (json)
			out_ch('"');
		out_x64(v->u);
		if (json)
			out_ch('"');
		break;
	case PD_D_STR:
	case PD_D_NAMES:
		if (json)
			out_json_str(v->p, v->len);
		else if (v->fmt == PD_D_NAMES && v->len == 0)
			out_ch('0');
		else if (v->fmt == PD_D_NAMES)
			out_mem(v->p, v->len);
		else
			out_text_str(v->p, v->len);
		break;
	case PD_D_BYTES:
		if (json)
			out_ch('"');
		out_hexbytes(v->p, v->len);
		if (json)
			out_ch('"');
		break;
	case PD_D_DOUBLE:
		put_double(v->d, json);
		break;
	case PD_D_ADDRS:
		put_addrs(v, json);
		break;
	case PD_D_NONE:
		/* not sampled: JSON null, text "-" */
		if (json)
			OUT_S("null");
		else
			out_ch('-');
		break;
	case PD_D_NULL:
		OUT_S("null");
		break;
	case PD_D_LINE:
		if (json)
			out_json_str(v->p, v->len);
		else
			out_esc(v->p, v->len);
		break;
	}
}

/*
 * A value's name between `pre` and `post` (" name=", "\"name\":"):
 * copied at its known length, counted only when it is not known.
 */
static inline void
put_name(const struct pd_dval *v, char pre, const char *post, size_t npost)
{
	size_t n = v->namelen;

	if (n == 0 || n > 64) {
		out_ch(pre);
		out_str(v->name);
		out_lit(post, npost);
		return;
	}
	out_room(n + 3);
	out_buf[out_len] = pre;
	memcpy(out_buf + out_len + 1, v->name, n);
	memcpy(out_buf + out_len + 1 + n, post, npost);
	out_len += 1 + n + npost;
}

static void
tv_val(void *ctx, const struct pd_dval *v)
{
	struct tvis *t = ctx;

	if (t->depth > 0 && t->islist[t->depth]) {
		if (t->nitems[t->depth]++ == 0) {
			out_ch(' ');
			out_str(t->lname[t->depth]);
			out_ch('=');
		} else
			out_ch(',');
	} else
		put_name(v, ' ', "=", 1);
	put_dval(v, 0);
}

static void
tv_open(void *ctx, const char *name, int list)
{
	struct tvis *t = ctx;
	int parent_list = t->depth > 0 && t->islist[t->depth];

	if (!list) {
		if (parent_list && t->depth == 1) {
			OUT_S("\n  ");
			out_str(t->lname[t->depth]);
			out_ch(':');
		} else if (parent_list) {
			if (t->nitems[t->depth]++ == 0) {
				out_ch(' ');
				out_str(t->lname[t->depth]);
				out_ch('=');
			}
			out_ch('{');
		} else if (t->depth == 0)
			OUT_S(" |");
	}
	if (t->depth + 1 < VDEPTH)
		t->depth++;
	t->islist[t->depth] = list;
	t->nitems[t->depth] = 0;
	t->lname[t->depth] = name != NULL ? name : "";
}

static void
tv_close(void *ctx, int list)
{
	struct tvis *t = ctx;

	if (t->depth > 0)
		t->depth--;
	if (!list && t->depth > 1 && t->islist[t->depth])
		out_ch('}');
}

/* The trailer keys a record object also carries at its top level. */
static const char *const top_keys[] = {
	"pid", "tid", "time", "id", "stream_id", "cpu",
};
#define NTOP	(sizeof(top_keys) / sizeof(top_keys[0]))

struct svis;

struct jvis {
	int		 depth;
	unsigned char	 first[VDEPTH];
	unsigned char	 islist[VDEPTH];
	int		 trailer;	/* a record that may have one */
	struct svis	*sv;		/* a sample's, for -s */
	unsigned	 top;		/* top_keys seen at depth 1 */
	int		 in_sid;
	struct pd_dval	 sid[NTOP];
	unsigned	 sid_set;
};

static int
top_key(const char *name)
{
	size_t i;

	for (i = 0; i < NTOP && name != NULL; i++)
		if (strcmp(name, top_keys[i]) == 0)
			return i;
	return -1;
}

/* A key: names are the decoders' or C identifiers (tracepoint fields). */
static void
jv_key(struct jvis *j, const char *name)
{
	if (!j->first[j->depth])
		out_ch(',');
	j->first[j->depth] = 0;
	if (j->islist[j->depth] || name == NULL)
		return;
	out_ch('"');
	out_str(name);
	OUT_S("\":");
}

static void
jv_val(void *ctx, const struct pd_dval *v)
{
	struct jvis *j = ctx;
	int k;

	if (j->trailer && (k = top_key(v->name)) >= 0) {
		if (j->depth == 1)
			j->top |= 1U << k;
		else if (j->in_sid && j->depth == 2) {
			j->sid[k] = *v;
			j->sid_set |= 1U << k;
		}
	}
	if (!j->first[j->depth])
		out_ch(',');
	j->first[j->depth] = 0;
	if (!j->islist[j->depth] && v->name != NULL)
		put_name(v, '"', "\":", 2);
	/* the most common first, without a call */
	if (v->fmt == PD_D_U)
		out_u64(v->u);
	else if (v->fmt == PD_D_S)
		out_s64((int64_t)v->u);
	else
		put_dval(v, 1);
}

static void
jv_open(void *ctx, const char *name, int list)
{
	struct jvis *j = ctx;

	jv_key(j, name);
	out_ch(list ? '[' : '{');
	if (j->depth == 1 && !list && name != NULL &&
	    strcmp(name, "sample_id") == 0) {
		j->in_sid = 1;
		j->sid_set = 0;
	}
	if (j->depth + 1 < VDEPTH)
		j->depth++;
	j->first[j->depth] = 1;
	j->islist[j->depth] = list;
}

static void
jv_close(void *ctx, int list)
{
	struct jvis *j = ctx;
	size_t k;

	/*
	 * Its own record of what is open decides, and a close with
	 * nothing open is dropped: whatever a walk does, the output
	 * stays JSON.
	 */
	(void)list;
	if (j->depth <= 1)
		return;
	out_ch(j->islist[j->depth] ? ']' : '}');
	j->depth--;
	if (j->in_sid && j->depth == 1) {
		j->in_sid = 0;
		for (k = 0; k < NTOP; k++)
			if ((j->sid_set >> k & 1) && !(j->top >> k & 1)) {
				jv_key(j, top_keys[k]);
				put_dval(&j->sid[k], 1);
			}
	}
}

/* ---- record lines ---- */

static void
rec_head(struct dumper *d, const struct pd_rec *rec)
{
	const char *name = pd_rec_name(rec->type);

	if (d->json) {
		OUT_S("{\"offset\":");
		out_u64(rec->offset);
		OUT_S(",\"type\":");
		if (name != NULL) {
			out_ch('"');
			out_str(name);
			out_ch('"');
		} else
			out_u64(rec->type);
		OUT_S(",\"size\":");
		out_u64(rec->size);
		OUT_S(",\"misc\":");
		out_u64(rec->misc);
		if (rec->flags & PD_REC_DECOMPRESSED)
			OUT_S(",\"compressed\":true");
		if (rec->flags & PD_REC_SYNTHESIZED)
			OUT_S(",\"synthesized\":true");
		return;
	}
	out_x64(rec->offset);
	out_ch(' ');
	out_u64(rec->size);
	out_ch(' ');
	if (name != NULL)
		out_str(name);
	else
		out_u64(rec->type);
	if (rec->flags & PD_REC_DECOMPRESSED)
		OUT_S(" compressed=1");
	if (rec->flags & PD_REC_SYNTHESIZED)
		OUT_S(" synthesized=1");
	if (rec->misc != 0) {
		OUT_S(" misc=");
		out_x64(rec->misc);
	}
}

/* Set right after a JSON '{': the next key takes no comma. */
static int jfirst;

static void
jopen(void)
{
	out_ch('{');
	jfirst = 1;
}

/* Text "  key" or JSON ,"key": */
static void
key(struct dumper *d, const char *k, size_t n)
{
	if (d->json) {
		if (jfirst) {
			jfirst = 0;
			out_ch('"');
		} else
			OUT_S(",\"");
		out_lit(k, n);
		OUT_S("\":");
	} else {
		out_ch(' ');
		out_lit(k, n);
		out_ch('=');
	}
}

#define KEY(d, k)	key((d), (k), sizeof(k) - 1)

static void
kv_u(struct dumper *d, const char *k, size_t n, uint64_t v)
{
	key(d, k, n);
	out_u64(v);
}

static void
kv_x(struct dumper *d, const char *k, size_t n, uint64_t v)
{
	key(d, k, n);
	if (d->json)
		out_ch('"');
	out_x64(v);
	if (d->json)
		out_ch('"');
}

#define KU(d, k, v)	kv_u((d), (k), sizeof(k) - 1, (v))
#define KX(d, k, v)	kv_x((d), (k), sizeof(k) - 1, (v))

static void
kv_str(struct dumper *d, const char *k, size_t n, const char *s)
{
	key(d, k, n);
	if (d->json)
		out_json_str(s, strlen(s));
	else
		out_text_str(s, strlen(s));
}

#define KS(d, k, s)	kv_str((d), (k), sizeof(k) - 1, (s))

/* A sample field the event does not sample: JSON null, text "-". */
static void
knull(struct dumper *d, const char *k, size_t n)
{
	key(d, k, n);
	if (d->json)
		OUT_S("null");
	else
		out_ch('-');
}

#define KNULL(d, k)	knull((d), (k), sizeof(k) - 1)

/* A detail line's start: text "\n  name:", JSON ,"name": */
static void
detail(struct dumper *d, const char *name)
{
	if (d->json) {
		OUT_S(",\"");
		out_str(name);
		OUT_S("\":");
	} else {
		OUT_S("\n  ");
		out_str(name);
		out_ch(':');
	}
}

static void
hexdump(struct dumper *d, const unsigned char *p, size_t n)
{
	size_t i, j;

	if (d->json) {
		OUT_S(",\"bytes\":\"");
		out_hexbytes(p, n);
		out_ch('"');
		return;
	}
	for (i = 0; i < n; i += 16) {
		static const char hx[] = "0123456789abcdef";

		out_room(100);
		out_len += sprintf(out_buf + out_len, "\n    %04zx: ", i);
		for (j = i; j < i + 16; j++) {
			if (j < n) {
				out_buf[out_len++] = hx[p[j] >> 4];
				out_buf[out_len++] = hx[p[j] & 15];
			} else {
				out_buf[out_len++] = ' ';
				out_buf[out_len++] = ' ';
			}
			out_buf[out_len++] = ' ';
		}
		out_buf[out_len++] = ' ';
		for (j = i; j < i + 16 && j < n; j++)
			out_buf[out_len++] = p[j] >= 0x20 && p[j] < 0x7f ?
			    p[j] : '.';
	}
}

static void
rec_end(struct dumper *d, const struct pd_rec *rec)
{
	if (d->hex)
		hexdump(d, rec->data, rec->size);
	out_ch(d->json ? '}' : '\n');
	if (d->json)
		out_ch('\n');
}

static void
err_field(struct dumper *d, const char *why)
{
	KS(d, "error", why);
}

/* ---- samples ---- */

/* "sym+0xoff (dso)" in text; "sym", "symoff", "dso" keys in JSON. */
static void
put_symres(struct dumper *d, const struct pd_symres *r)
{
	if (d->json) {
		KEY(d, "sym");
		if (r->name != NULL) {
			out_json_str(r->name, strlen(r->name));
			KU(d, "symoff", r->off);
		} else
			OUT_S("null");
		KEY(d, "dso");
		out_json_str(r->dso, strlen(r->dso));
		return;
	}
	if (symtext_put(d, r))
		return;
	if (r->name != NULL) {
		out_esc(r->name, strlen(r->name));
		OUT_S("+");
		out_x64(r->off);
	} else
		OUT_S("[unknown]");
	OUT_S(" (");
	if (r->dso_plain)
		out_mem(r->dso, strlen(r->dso));
	else
		out_esc(r->dso, strlen(r->dso));
	out_ch(')');
}

/* --srcline's "file:line", perf's "??:0" where debug info has none. */
static void
put_srcline(struct dumper *d, const struct pd_srcframe *f)
{
	const char *b;

	if (f == NULL || f->line == 0) {
		if (d->json)
			KS(d, "srcline", "??:0");
		else
			OUT_S("\n      ??:0");
		return;
	}
	b = pd_srcframe_base(f);
	if (d->json) {
		char buf[512];
		int len;

		len = snprintf(buf, sizeof(buf), "%s:%" PRIu32, b, f->line);
		KEY(d, "srcline");
		out_json_str(buf, len < (int)sizeof(buf) ? (size_t)len :
		    sizeof(buf) - 1);
	} else {
		OUT_S("\n      ");
		out_esc(b, strlen(b));
		out_ch(':');
		out_u64(f->line);
	}
}

/*
 * One callchain entry: "addr sym+0xoff (dso)", or for a function
 * inlined there (src names it) "addr name+0xoff (inlined)", as perf
 * script prints them; --srcline's line below.
 */
static void
put_frame(struct dumper *d, uint64_t addr, const struct pd_symres *r,
    const struct pd_srcframe *src, int inlined, int comma)
{
	if (d->json) {
		if (comma)
			out_ch(',');
		jopen();
		KX(d, "addr", addr);
	} else {
		OUT_S("\n    ");
		out_x64(addr);
		out_ch(' ');
	}
	if (!inlined)
		put_symres(d, r);
	else if (d->json) {
		KEY(d, "sym");
		if (src->name != NULL) {
			out_json_str(src->name, strlen(src->name));
			KU(d, "symoff", r->off);
		} else
			OUT_S("null");
		OUT_S(",\"inlined\":true");
	} else {
		if (src->name != NULL) {
			out_esc(src->name, strlen(src->name));
			OUT_S("+");
			out_x64(r->off);
		} else
			OUT_S("[unknown]");
		OUT_S(" (inlined)");
	}
	if (d->srcline)
		put_srcline(d, src);
	if (d->json)
		out_ch('}');
}

/*
 * -s: the thread's comm, the ip's symbol, and the callchain as perf
 * script shows it: one frame per entry, context markers left out; all
 * found at the sample's time (symq.h).
 */
__attribute__((noinline)) void
print_sample_syms(struct dumper *d, int has_tid, int has_callchain)
{
	const struct pd_symq_res *r = d->res;
	const struct pd_srcframe *sf;
	size_t i, k, n;
	int inl;

	if (r == NULL || r->bad)
		return;
	if (has_tid) {
		if (r->comm != NULL)
			KS(d, "comm", r->comm);
		else
			KNULL(d, "comm");
	}
	if (r->has_ip) {
		if (d->json)
			put_symres(d, &r->ip);
		else {
			detail(d, "sym");
			out_ch(' ');
			put_symres(d, &r->ip);
		}
	}
	/* Unwound: dwarf samples without a recorded chain have frames. */
	if (!has_callchain && (!r->unwound || r->nframes == 0)) {
		if (d->json)
			OUT_S(",\"callchain\":null");
		return;
	}
	detail(d, "callchain");
	if (d->json)
		out_ch('[');
	inl = d->inl == INL_ALL || (d->inl == INL_UNWOUND && r->unwound);
	/* The common case as it was: no call per frame. */
	for (i = 0; i < r->nframes && !inl && !d->srcline; i++) {
		if (d->json) {
			if (i > 0)
				out_ch(',');
			jopen();
			KX(d, "addr", r->frames[i].addr);
		} else {
			OUT_S("\n    ");
			out_x64(r->frames[i].addr);
			out_ch(' ');
		}
		put_symres(d, &r->syms[i]);
		if (d->json)
			out_ch('}');
	}
	for (i = 0; i < r->nframes && (inl || d->srcline); i++) {
		n = 0;
		if (inl || d->srcline)
			n = pd_syms_inline(d->sy, &r->syms[i], &sf);
		for (k = 0; k + 1 < n && inl; k++)
			put_frame(d, r->frames[i].addr, &r->syms[i], &sf[k],
			    1, i + k > 0);
		if (n > 0 && inl && sf[n - 1].name != NULL &&
		    (r->syms[i].name == NULL ||
		    strcmp(sf[n - 1].name, r->syms[i].name) != 0))
			/* perf names it as DWARF does, "inlined". */
			put_frame(d, r->frames[i].addr, &r->syms[i],
			    &sf[n - 1], 1, i + k > 0);
		else
			put_frame(d, r->frames[i].addr, &r->syms[i],
			    n > 0 ? &sf[n - 1] : NULL, 0, i + k > 0);
	}
	if (d->json)
		out_ch(']');
}

/*
 * The text form of a sample: its own fields on the record's line
 * (" key=value", "-" when not sampled), each part on a detail line of
 * its own ("\n  read: ..."), rows of a part on lines below it, a
 * tracepoint's arrays as {a,b}.
 */
struct svis {
	struct dumper	*d;
	int		 depth;
	unsigned char	 kind[VDEPTH];
	unsigned	 nitems[VDEPTH];
	int		 has_tid;	/* for -s */
};

/*
 * -s shows the sample's addresses with their names instead: its comm
 * and ip's symbol, then the callchain's, where the callchain comes.
 */
static inline int
sv_syms(struct svis *t, const struct pd_dval *v)
{
	/*
	 * Called for every value of every sample: a strcmp here, and the
	 * registers print_sample_syms inlined would save, were a tenth of -s.
	 */
	if (v->name != NULL && v->name[0] == 'p' && v->name[1] == 'i' &&
	    v->name[2] == 'd' && v->name[3] == '\0')
		t->has_tid = v->fmt != PD_D_NONE;
	if (v->fmt != PD_D_ADDRS && (v->fmt != PD_D_NONE ||
	    v->u != PD_D_ADDRS))
		return 0;
	print_sample_syms(t->d, t->has_tid, v->fmt == PD_D_ADDRS);
	return 1;
}

static void
sv_val(void *ctx, const struct pd_dval *v)
{
	struct svis *t = ctx;

	if (t->depth == 0) {
		if (t->d->sy != NULL && sv_syms(t, v))
			return;
		if (v->fmt == PD_D_ADDRS) {
			detail(t->d, v->name);
			if (v->len > 0)
				out_ch(' ');
			put_addrs(v, 0);
			return;
		}
		if (v->fmt == PD_D_NONE && v->u == PD_D_ADDRS)
			return;		/* no callchain: no line */
		if (v->fmt == PD_D_LINE) {
			detail(t->d, v->name);
			out_ch(' ');
			put_dval(v, 0);
			return;
		}
	} else if (t->kind[t->depth] == PD_DV_LIST) {
		if (t->nitems[t->depth]++ > 0)
			out_ch(',');
		put_dval(v, 0);
		return;
	}
	put_name(v, ' ', "=", 1);
	/* the most common first, without a call */
	if (v->fmt == PD_D_U)
		out_u64(v->u);
	else if (v->fmt == PD_D_X)
		out_x64(v->u);
	else if (v->fmt == PD_D_S)
		out_s64((int64_t)v->u);
	else
		put_dval(v, 0);
}

static void
sv_open(void *ctx, const char *name, int kind)
{
	struct svis *t = ctx;

	if (t->depth == 0)
		detail(t->d, name);
	else if (kind == PD_DV_LIST) {
		out_ch(' ');
		out_str(name);
		OUT_S("={");
	} else if (t->kind[t->depth] == PD_DV_ROWS)
		OUT_S("\n   ");
	if (t->depth + 1 < VDEPTH)
		t->depth++;
	t->kind[t->depth] = kind;
	t->nitems[t->depth] = 0;
}

static void
sv_close(void *ctx, int kind)
{
	struct svis *t = ctx;

	if (t->depth > 0)
		t->depth--;
	if (kind == PD_DV_LIST && t->depth > 0)
		out_ch('}');
}

/* JSON as for every record; with -s, names as in text. */
static void
sj_val(void *ctx, const struct pd_dval *v)
{
	struct jvis *j = ctx;

	if (j->depth == 1 && sv_syms(j->sv, v))
		return;
	jv_val(ctx, v);
}

static void
print_sample(struct dumper *d, const struct pd_rec *rec)
{
	struct pd_dvisit v;
	struct svis t;
	struct jvis j;
	const char *why;

	if (evline_sample(d, rec))
		return;
	memset(&t, 0, sizeof(t));
	t.d = d;
	if (d->json) {
		memset(&j, 0, sizeof(j));
		j.depth = 1;
		j.sv = &t;
		v.val = d->sy != NULL ? sj_val : jv_val;
		v.open = jv_open;
		v.close = jv_close;
		v.ctx = &j;
	} else {
		v.val = sv_val;
		v.open = sv_open;
		v.close = sv_close;
		v.ctx = &t;
	}
	v.tptext = d->tptext;
	if (pd_decode_sample(rec, d->el, &v, &why) < 0)
		err_field(d, why);
}

/* ---- other records ---- */

static void
print_decoded(struct dumper *d, const struct pd_rec *rec)
{
	struct pd_dvisit v;
	struct tvis t;
	struct jvis j;
	const char *why;
	const struct pd_evsel *ev = NULL;

	v.tptext = NULL;
	if (pd_rec_is_kernel(rec->type))
		ev = pd_evlist_for_rec(d->el, rec);
	if (d->json) {
		memset(&j, 0, sizeof(j));
		j.depth = 1;
		j.trailer = 1;
		v.val = jv_val;
		v.open = jv_open;
		v.close = jv_close;
		v.ctx = &j;
	} else {
		memset(&t, 0, sizeof(t));
		v.val = tv_val;
		v.open = tv_open;
		v.close = tv_close;
		v.ctx = &t;
	}
	if (pd_decode_rec(rec, ev, &v, &why) < 0) {
		/* Close whatever the walk left open. */
		if (d->json)
			while (j.depth > 1)
				jv_close(&j, j.islist[j.depth]);
		err_field(d, why);
	}
}

/*
 * The tracing data's formats, which the reader parses as the blob that
 * follows the record is read: all of them so far, and what was wrong
 * with this blob.
 */
static void
tracing_data(struct dumper *d)
{
	const struct pd_tracefmt *tf;
	const unsigned char *p;
	const char *why;
	ssize_t n;
	size_t i;

	while ((n = pd_reader_payload(d->rd, &p)) > 0)
		;
	if (n < 0)
		return;		/* the next pd_reader_next reports it */
	if ((why = pd_reader_tracefmt_error(d->rd)) != NULL)
		err_field(d, why);
	if ((tf = pd_evlist_tracefmt(d->el)) == NULL)
		return;
	KS(d, "version", pd_tracefmt_version(tf));
	KU(d, "big_endian", pd_tracefmt_big_endian(tf));
	KU(d, "long_size", pd_tracefmt_long_size(tf));
	KU(d, "page_size", pd_tracefmt_page_size(tf));
	KU(d, "nr_events", pd_tracefmt_nevents(tf));
	detail(d, "events");
	if (d->json)
		out_ch('[');
	for (i = 0; i < pd_tracefmt_nevents(tf); i++) {
		const struct pd_tf_event *e = pd_tracefmt_event_at(tf, i);
		size_t k;

		if (d->json) {
			if (i > 0)
				out_ch(',');
			OUT_S("{\"id\":");
			out_u64(e->id);
		} else {
			OUT_S("\n    id=");
			out_u64(e->id);
		}
		KS(d, "system", e->system);
		KS(d, "name", e->name);
		if (d->json)
			OUT_S(",\"fields\":[");
		else
			OUT_S(" fields=");
		for (k = 0; k < e->nfields; k++) {
			const struct pd_tf_field *f = &e->fields[k];

			if (d->json) {
				if (k > 0)
					out_ch(',');
				OUT_S("{\"name\":");
				out_json_str(f->name, strlen(f->name));
				OUT_S(",\"type\":");
				out_json_str(f->type, strlen(f->type));
				KU(d, "offset", f->offset);
				KU(d, "size", f->size);
				KU(d, "signed", f->is_signed);
				out_ch('}');
			} else {
				if (k > 0)
					out_ch(',');
				out_str(f->name);
				out_ch(':');
				out_u64(f->offset);
				out_ch(':');
				out_u64(f->size);
			}
		}
		if (d->json)
			OUT_S("]}");
	}
	if (d->json)
		out_ch(']');
}

void
print_notes(struct dumper *d)
{
	const char *note;

	while ((note = pd_syms_next_note(d->sy)) != NULL) {
		out_flush();
		pd_warnx("%s", note);
	}
}

void
print_rec(struct dumper *d, const struct pd_rec *rec)
{
	if (d->fold != NULL)
		return;		/* the samples were folded as they came */
	if (!wanted(d, rec->type))
		return;
	rec_head(d, rec);
	if (rec->type == PERF_RECORD_SAMPLE)
		print_sample(d, rec);
	else
		print_decoded(d, rec);
	if (rec->type == PD_RECORD_HEADER_TRACING_DATA ||
	    rec->type == PD_RECORD_SIMPLEPERF_TRACING_DATA) {
		tracing_data(d);
		rec_end(d, rec);
		return;
	}
	rec_end(d, rec);
	if (d->sy != NULL)
		print_notes(d);
}
