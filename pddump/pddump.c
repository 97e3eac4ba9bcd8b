/* SPDX-License-Identifier: MIT */
/*
 * pddump: print every record of perf.data inputs (pipe or file mode,
 * either byte order, compressed or not), every field decoded: one line
 * per record with indented detail lines, or one JSON object per record.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/decode.h"
#include "libcommon/stream/esc.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/sym/fold.h"
#include "libcommon/cli/msg.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/stacks.h"
#include "libcommon/sym/symbols.h"
#include "libcommon/sym/symq.h"
#include "libcommon/stream/tracefmt.h"
#include "libcommon/sym/unwind.h"
#include "pddump/out.h"

static const char usage_line[] =
    "usage: pddump [-sx] [--json] [--folded[=period]] [--kallsyms file]\n"
    "              [--no-debuginfod] [-t types] [--unwind] [file ...]\n";

static void
usage(FILE *f, int status)
{
	fputs(usage_line, f);
	if (f == stdout)
		fputs("Print every record of perf.data inputs, every field "
		    "decoded.\n\n"
		    "      --folded[=period]  instead, one line per distinct "
		    "call stack:\n"
		    "                    comm;outermost;...;innermost count "
		    "(or period sum),\n"
		    "                    as perf script | stackcollapse-perf.pl "
		    "--all folds them\n"
		    "  -j, --json        one JSON object per record and line\n"
		    "      --kallsyms FILE  kernel symbols from FILE "
		    "(with -s)\n"
		    "      --no-debuginfod  never ask DEBUGINFOD_URLS' "
		    "servers for debug info\n"
		    "  -s, --symbols     name the sample's ip and callchain "
		    "entries: sym+0xoff (dso)\n"
		    "  -t, --types LIST  only these record types "
		    "(SAMPLE,MMAP2,... or numbers)\n"
		    "      --unwind      -s, with the user frames of "
		    "--call-graph dwarf samples\n"
		    "                    unwound from their registers and "
		    "stack copy\n"
		    "  -x, --hex         a hex dump of each record's bytes\n"
		    "  -h, --help        this help\n"
		    "      --version     print the version\n"
		    "With no file, or when file is -, read standard input.\n",
		    f);
	exit(status);
}

struct dumper {
	int			 json, hex, syms;
	unsigned		 sym_bad;	/* records -s could not use */
	struct pd_syms_opts	 sopts;
	struct pd_syms		*sy;
	struct pd_fold		*fold;		/* --folded */
	int			 by_period;	/* --folded=period */
	uint64_t		 fold_bad;	/* samples it could not read */
	uint64_t		 fold_bad_off;	/* the first one's offset */
	const char		*fold_bad_why;
	struct pd_symq		*sq;
	const struct pd_symq_res *res;	/* the current sample's names */
	int			 unwind;	/* --unwind */
	struct pd_unwind	*uw;
	int			 filter;
	uint64_t		 want[4];	/* types 0..255 */
	struct pd_reader	*rd;
	struct pd_evlist	*el;
	const struct pd_rec	*cur;
};

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

static void
put_dval(const struct pd_dval *v, int json)
{
	char buf[64];

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
		/* JSON has no NaN or infinity: those are strings there. */
		snprintf(buf, sizeof(buf), "%s%.17g%s",
		    json && !isfinite(v->d) ? "\"" : "", v->d,
		    json && !isfinite(v->d) ? "\"" : "");
		out_str(buf);
		break;
	}
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
	} else {
		out_ch(' ');
		out_str(v->name);
		out_ch('=');
	}
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

struct jvis {
	int		 depth;
	unsigned char	 first[VDEPTH];
	unsigned char	 islist[VDEPTH];
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

static void
jv_key(struct jvis *j, const char *name)
{
	if (!j->first[j->depth])
		out_ch(',');
	j->first[j->depth] = 0;
	if (!j->islist[j->depth] && name != NULL) {
		out_ch('"');
		out_str(name);
		OUT_S("\":");
	}
}

static void
jv_val(void *ctx, const struct pd_dval *v)
{
	struct jvis *j = ctx;
	int k;

	if ((k = top_key(v->name)) >= 0) {
		if (j->depth == 1)
			j->top |= 1U << k;
		else if (j->in_sid && j->depth == 2) {
			j->sid[k] = *v;
			j->sid_set |= 1U << k;
		}
	}
	jv_key(j, v->name);
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

static void
tp_value(struct dumper *d, const struct pd_tf_field *f,
    const unsigned char *p, size_t n, int be)
{
	size_t i, es;

	if (f->kind == PD_TF_STRING || ((f->kind == PD_TF_DATA_LOC ||
	    f->kind == PD_TF_REL_LOC) && f->is_char)) {
		size_t l = strnlen((const char *)p, n);

		if (d->json)
			out_json_str((const char *)p, l);
		else
			out_text_str((const char *)p, l);
		return;
	}
	if (f->kind == PD_TF_NUM) {
		uint64_t v = pd_tf_get(p, n, be, f->is_signed);

		if (f->is_pointer) {
			if (d->json)
				out_ch('"');
			out_x64(v);
			if (d->json)
				out_ch('"');
		} else if (f->is_signed)
			out_s64((int64_t)v);
		else
			out_u64(v);
		return;
	}
	es = f->elem_size ? f->elem_size : 1;
	if (es > 8)
		es = 1;
	out_ch(d->json ? '[' : '{');
	for (i = 0; i + es <= n; i += es) {
		uint64_t v = pd_tf_get(p + i, es, be, f->is_signed);

		if (i > 0)
			out_ch(',');
		if (f->is_signed)
			out_s64((int64_t)v);
		else
			out_u64(v);
	}
	out_ch(d->json ? ']' : '}');
}

static void
sample_raw(struct dumper *d, const struct pd_evsel *ev,
    const struct pd_sample *s)
{
	const struct pd_tracefmt *tf = pd_evlist_tracefmt(d->el);
	const struct pd_tf_event *te = NULL;
	size_t i;
	int be;

	detail(d, "raw");
	if (ev->attr.type == PERF_TYPE_TRACEPOINT && tf != NULL &&
	    s->raw_size >= 2) {
		be = pd_tracefmt_big_endian(tf);
		te = pd_tracefmt_event(tf, pd_tf_get(s->raw, 2, be, 0));
	}
	if (te == NULL) {
		if (d->json)
			OUT_S("{\"size\":");
		else
			OUT_S(" size=");
		out_u64(s->raw_size);
		if (d->json)
			OUT_S(",\"data\":\"");
		else
			OUT_S(" data=");
		out_hexbytes(s->raw, s->raw_size);
		if (d->json)
			OUT_S("\"}");
		return;
	}
	if (d->json)
		out_ch('{');
	for (i = 0; i < te->nfields; i++) {
		const struct pd_tf_field *f = &te->fields[i];
		const unsigned char *p;
		size_t n;

		if (d->json) {
			/* The name comes from the stream's tracing data. */
			if (i > 0)
				out_ch(',');
			out_json_str(f->name, strlen(f->name));
			out_ch(':');
		} else {
			out_ch(' ');
			out_str(f->name);
			out_ch('=');
		}
		if (pd_tf_field_bytes(f, be, s->raw, s->raw_size, &p, &n) < 0)
			OUT_S("null");
		else
			tp_value(d, f, p, n, be);
	}
	if (d->json)
		out_ch('}');
}

static void
regs(struct dumper *d, const char *name, uint64_t abi, uint64_t mask,
    unsigned nr, const unsigned char *p)
{
	unsigned b, i = 0;

	detail(d, name);
	if (d->json)
		jopen();
	KU(d, "abi", abi);
	KX(d, "mask", mask);
	if (d->json)
		OUT_S(",\"regs\":{");
	for (b = 0; b < 64 && i < nr; b++) {
		char k[8];
		int kl;

		if (!(mask >> b & 1))
			continue;
		kl = snprintf(k, sizeof(k), "r%u", b);
		if (d->json) {
			if (i > 0)
				out_ch(',');
			out_ch('"');
			out_lit(k, kl);
			OUT_S("\":\"");
			out_x64(pd_get_u64(p + 8 * i));
			out_ch('"');
		} else
			kv_x(d, k, kl, pd_get_u64(p + 8 * i));
		i++;
	}
	if (d->json)
		OUT_S("}}");
}

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

/*
 * -s: the thread's comm, the ip's symbol, and the callchain as perf
 * script shows it: one frame per entry, context markers left out; all
 * found at the sample's time (symq.h).
 */
static void
sample_syms(struct dumper *d, const struct pd_sample *s)
{
	const struct pd_symq_res *r = d->res;
	size_t i;

	if (r == NULL || r->bad)
		return;
	if (s->type & PERF_SAMPLE_TID) {
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
	/* --unwind: samples without a recorded chain may have frames. */
	if (!(s->type & PERF_SAMPLE_CALLCHAIN) &&
	    (d->uw == NULL || r->nframes == 0)) {
		if (d->json)
			OUT_S(",\"callchain\":null");
		return;
	}
	detail(d, "callchain");
	if (d->json)
		out_ch('[');
	for (i = 0; i < r->nframes; i++) {
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
	if (d->json)
		out_ch(']');
}

static void
print_sample(struct dumper *d, const struct pd_rec *rec)
{
	const struct pd_evsel *ev;
	const char *why, *name;
	struct pd_sample s;
	uint64_t st, i;

	ev = pd_evlist_for_rec(d->el, rec);
	if (ev == NULL) {
		err_field(d, "sample of an unknown event id");
		return;
	}
	if (pd_sample_parse(ev, rec, &s, &why) < 0) {
		name = pd_evsel_name(ev);
		KS(d, "event", name != NULL ? name : "");
		err_field(d, why);
		return;
	}
	st = s.type;
	name = pd_evsel_name(ev);
	KS(d, "event", name != NULL ? name : "");
	if (st & PERF_SAMPLE_TIME)
		KU(d, "time", s.time);
	else
		KNULL(d, "time");
	if (st & PERF_SAMPLE_CPU)
		KU(d, "cpu", s.cpu);
	else
		KNULL(d, "cpu");
	if (st & PERF_SAMPLE_TID) {
		KEY(d, "pid");
		out_s64((int32_t)s.pid);
		KEY(d, "tid");
		out_s64((int32_t)s.tid);
	} else {
		KNULL(d, "pid");
		KNULL(d, "tid");
	}
	if (st & PERF_SAMPLE_IP)
		KX(d, "ip", s.ip);
	else
		KNULL(d, "ip");
	/* Not sampled: the event's fixed period, as perf reports it. */
	KU(d, "period", st & PERF_SAMPLE_PERIOD ? s.period :
	    ev->attr.sample_period);
	if (st & PERF_SAMPLE_ADDR)
		KX(d, "addr", s.addr);
	else
		KNULL(d, "addr");
	if (st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		KU(d, "id", s.id);
	else
		KNULL(d, "id");
	if (st & PERF_SAMPLE_STREAM_ID)
		KU(d, "stream_id", s.stream_id);
	if (st & (PERF_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT))
		KU(d, "weight", s.weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		KX(d, "data_src", s.data_src);
	if (st & PERF_SAMPLE_TRANSACTION)
		KX(d, "transaction", s.transaction);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		KX(d, "phys_addr", s.phys_addr);
	if (st & PERF_SAMPLE_CGROUP)
		KU(d, "cgroup", s.cgroup);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		KU(d, "data_page_size", s.data_page_size);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		KU(d, "code_page_size", s.code_page_size);

	if (d->sy != NULL) {
		sample_syms(d, &s);
		goto after_callchain;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		detail(d, "callchain");
		if (d->json)
			out_ch('[');
		for (i = 0; i < s.callchain_nr; i++) {
			if (d->json) {
				if (i > 0)
					out_ch(',');
				out_ch('"');
			} else
				out_ch(' ');
			out_x64(pd_get_u64(s.callchain + 8 * i));
			if (d->json)
				out_ch('"');
		}
		if (d->json)
			out_ch(']');
	} else if (d->json)
		OUT_S(",\"callchain\":null");
after_callchain:

	if (st & PERF_SAMPLE_READ) {
		uint64_t v, id, lost;

		detail(d, "read");
		if (d->json)
			jopen();
		if (s.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			KU(d, "time_enabled", s.read_time_enabled);
		if (s.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			KU(d, "time_running", s.read_time_running);
		if (d->json) {
			KEY(d, "values");
			out_ch('[');
		}
		for (i = 0; i < s.read_nr; i++) {
			const struct pd_evsel *m;

			pd_sample_read_entry(&s, i, &v, &id, &lost);
			if (d->json) {
				if (i > 0)
					out_ch(',');
				OUT_S("{\"value\":");
				out_u64(v);
			} else {
				OUT_S("\n    value=");
				out_u64(v);
			}
			if (s.read_format & PERF_FORMAT_ID) {
				KU(d, "id", id);
				m = pd_evlist_by_id(d->el, id);
				if (m != NULL)
					KS(d, "event", pd_evsel_name(m));
			}
			if (s.read_format & PD_FORMAT_LOST)
				KU(d, "lost", lost);
			if (d->json)
				out_ch('}');
		}
		if (d->json)
			OUT_S("]}");
	}

	if (st & PERF_SAMPLE_BRANCH_STACK) {
		detail(d, "branch_stack");
		if (d->json)
			OUT_S("{\"nr\":");
		else
			OUT_S(" nr=");
		out_u64(s.branch_nr);
		if (s.branch_has_hw_idx)
			KU(d, "hw_idx", s.branch_hw_idx);
		if (d->json)
			OUT_S(",\"entries\":[");
		for (i = 0; i < s.branch_nr; i++) {
			const unsigned char *b = s.branch + 24 * i;
			uint64_t fl = pd_get_u64(b + 16);

			if (d->json) {
				if (i > 0)
					out_ch(',');
				OUT_S("{\"from\":\"");
				out_x64(pd_get_u64(b));
				OUT_S("\"");
			} else {
				OUT_S("\n    from=");
				out_x64(pd_get_u64(b));
			}
			KX(d, "to", pd_get_u64(b + 8));
			KU(d, "mispred", fl & 1);
			KU(d, "predicted", fl >> 1 & 1);
			KU(d, "in_tx", fl >> 2 & 1);
			KU(d, "abort", fl >> 3 & 1);
			KU(d, "cycles", fl >> 4 & 0xffff);
			KU(d, "br_type", fl >> 20 & 0xf);
			KU(d, "spec", fl >> 24 & 3);
			KU(d, "new_type", fl >> 26 & 0xf);
			KU(d, "priv", fl >> 30 & 7);
			if (s.branch_counters != NULL)
				KX(d, "counters",
				    pd_get_u64(s.branch_counters + 8 * i));
			if (d->json)
				out_ch('}');
		}
		if (d->json)
			OUT_S("]}");
	}
	if (st & PERF_SAMPLE_REGS_USER)
		regs(d, "regs_user", s.regs_user_abi, s.regs_user_mask,
		    s.regs_user_nr, s.regs_user);
	if (st & PERF_SAMPLE_STACK_USER) {
		detail(d, "stack_user");
		if (d->json)
			OUT_S("{\"size\":");
		else
			OUT_S(" size=");
		out_u64(s.stack_size);
		KU(d, "dyn_size", s.stack_dyn_size);
		if (d->json)
			out_ch('}');
	}
	if (st & PERF_SAMPLE_REGS_INTR)
		regs(d, "regs_intr", s.regs_intr_abi, s.regs_intr_mask,
		    s.regs_intr_nr, s.regs_intr);
	if (st & PERF_SAMPLE_AUX) {
		detail(d, "aux");
		if (d->json)
			OUT_S("{\"size\":");
		else
			OUT_S(" size=");
		out_u64(s.aux_size);
		if (d->json)
			out_ch('}');
	}
	if (st & PERF_SAMPLE_RAW)
		sample_raw(d, ev, &s);
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

	if (pd_rec_is_kernel(rec->type))
		ev = pd_evlist_for_rec(d->el, rec);
	if (d->json) {
		memset(&j, 0, sizeof(j));
		j.depth = 1;
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
tracing_data(struct dumper *d, const struct pd_rec *rec, int print)
{
	const struct pd_tracefmt *tf;
	const unsigned char *p;
	const char *why;
	ssize_t n;
	size_t i;

	while ((n = pd_reader_payload(d->rd, &p)) > 0)
		;
	if (n < 0 || !print)
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

static void
print_notes(struct dumper *d)
{
	const char *note;

	while ((note = pd_syms_next_note(d->sy)) != NULL) {
		out_flush();
		pd_warnx("%s", note);
	}
}

/* ---- --folded ---- */

#define FOLD_FRAMES	1024

/*
 * A sample's stack, added as the symbol queue hands the sample over in
 * time order, with the maps of its time: perf script's order, so that
 * a process's first samples, written before its COMM and MMAPs, get its
 * names as they do from perf. Nothing is printed until the end
 * (fold_print).
 */
static void
fold_sample(void *ctx, const struct pd_evsel *ev, const struct pd_rec *rec,
    const struct pd_sample *s)
{
	static struct pd_frame fr[FOLD_FRAMES];
	struct dumper *d = ctx;
	const char *name = pd_evsel_name(ev);
	size_t n;

	/* --unwind: DWARF-unwound user frames; else the callchain or ip. */
	if (d->uw != NULL)
		n = pd_unwind_frames(d->uw, s, rec->misc, fr, FOLD_FRAMES);
	else
		n = pd_sample_frames(s, rec->misc, fr, FOLD_FRAMES);
	if (pd_fold_add_frames(d->fold, d->sy, name != NULL ? name : "",
	    s->pid, s->tid, fr, n, s->type & PERF_SAMPLE_PERIOD ? s->period :
	    ev->attr.sample_period) < 0) {
		out_flush();
		pd_warnx("out of memory");
		exit(PD_EXIT_DATA);
	}
}

/* A record back from the queue: samples are folded already. */
static void
fold_rec(struct dumper *d, const struct pd_rec *rec)
{
	const struct pd_evsel *ev;
	struct pd_sample s;
	const char *why = NULL;

	if (rec->type != PERF_RECORD_SAMPLE)
		return;
	if (d->res == NULL || !d->res->bad || d->fold_bad++ > 0)
		return;
	/* The first sample left out: say where and why. */
	if ((ev = pd_evlist_for_rec(d->el, rec)) != NULL)
		(void)pd_sample_parse(ev, rec, &s, &why);
	d->fold_bad_off = rec->offset;
	d->fold_bad_why = ev == NULL ? "no event has its id" :
	    why != NULL ? why : "unreadable";
}

/*
 * The stacks in stackcollapse-perf.pl's order (by their text), one line
 * each: "comm;outer;...;inner N". Stacks whose texts are the same (a
 * comm with a ';' in it) are one line, as its hash makes them.
 */
static void
fold_print(struct dumper *d)
{
	struct pd_stacks *st = pd_fold_stacks(d->fold);
	struct pd_stack s, next;
	char ebuf[256];
	size_t i, k, nst = pd_stacks_count(st), len;
	uint64_t v;

	if (pd_stacks_sort(st, PD_STACKS_BY_TEXT) < 0) {
		pd_warnx("out of memory");
		exit(PD_EXIT_DATA);
	}
	for (i = 0; i < nst; i++) {
		pd_stacks_get(st, i, &s);
		v = d->by_period ? s.period : s.count;
		while (i + 1 < nst) {
			pd_stacks_get(st, i + 1, &next);
			if (pd_stacks_cmp(st, &s, &next) != 0)
				break;
			v += d->by_period ? next.period : next.count;
			i++;
		}
		for (k = 0; k < s.n; k++) {
			const char *name = pd_stacks_name(st, s.ids[k], &len);

			if (k > 0)
				out_ch(';');
			out_esc(name, len);
		}
		out_ch(' ');
		out_u64(v);
		out_ch('\n');
	}
	out_flush();
	if (pd_fold_left_out(d->fold) > 0)
		pd_warnx("%" PRIu64 " samples of other events than %s left "
		    "out (as stackcollapse-perf.pl does)",
		    pd_fold_left_out(d->fold),
		    pd_esc_str(pd_fold_event(d->fold), ebuf, sizeof(ebuf)));
}

static void
print_rec(struct dumper *d, const struct pd_rec *rec)
{
	int show = wanted(d, rec->type);

	if (d->fold != NULL) {
		fold_rec(d, rec);
		return;
	}
	if (rec->type == PD_RECORD_HEADER_TRACING_DATA ||
	    rec->type == PD_RECORD_SIMPLEPERF_TRACING_DATA) {
		if (show) {
			rec_head(d, rec);
			if (rec->type == PD_RECORD_HEADER_TRACING_DATA)
				print_decoded(d, rec);
			else
				KU(d, "data_size", rec->size >= 12 ?
				    pd_get_u32(rec->data + 8) : 0);
		}
		tracing_data(d, rec, show);
		if (show)
			rec_end(d, rec);
		return;
	}
	if (!show)
		return;
	rec_head(d, rec);
	if (rec->type == PERF_RECORD_SAMPLE)
		print_sample(d, rec);
	else
		print_decoded(d, rec);
	rec_end(d, rec);
	if (d->sy != NULL)
		print_notes(d);
}

static int
parse_types(struct dumper *d, const char *arg)
{
	char *s, *tok, *save = NULL;
	long t;

	if ((s = strdup(arg)) == NULL)
		return -1;
	d->filter = 1;
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		char *end;

		t = strtol(tok, &end, 0);
		if (*end != '\0' || end == tok)
			t = pd_rec_type(tok);
		if (t < 0 || t > 255) {
			pd_warnx("unknown record type: %s", tok);
			free(s);
			return -1;
		}
		d->want[t / 64] |= 1ULL << (t % 64);
	}
	free(s);
	return 0;
}

/* Prints what the symbol queue has ready; all of it when `all`. */
static void
sq_drain(struct dumper *d, int all)
{
	struct pd_rec rec;

	if (d->sq == NULL)
		return;
	if (all)
		pd_symq_flush(d->sq);
	while (pd_symq_next(d->sq, &rec, &d->res) > 0)
		print_rec(d, &rec);
	d->res = NULL;
}

/*
 * A record read: printed at once, or with -s through the symbol queue,
 * which hands records back in order once their samples have names. A
 * record with an out-of-band payload is printed while it is current.
 * 0, or -1 when out of memory.
 */
static int
put_rec(struct dumper *d, const struct pd_rec *rec)
{
	if (d->sq == NULL) {
		print_rec(d, rec);
		return 0;
	}
	if (rec->payload > 0 || rec->type == PD_RECORD_HEADER_TRACING_DATA ||
	    rec->type == PD_RECORD_SIMPLEPERF_TRACING_DATA) {
		sq_drain(d, 1);
		print_rec(d, rec);
		return 0;
	}
	/* The unwinder's header facts (arch, host), in stream order. */
	if (d->uw != NULL)
		pd_unwind_record(d->uw, rec);
	if (pd_symq_push(d->sq, rec) < 0)
		return -1;
	sq_drain(d, 0);
	return 0;
}

/* Dumps one input; PD_EXIT_OK or PD_EXIT_DATA (after printing why). */
static int
dump(struct dumper *d, const char *path)
{
	struct pd_err err;
	struct pd_rec rec;
	const char *what;
	unsigned dropped;
	int r, status = PD_EXIT_OK;

	/* Compressed records, then the records they hold, at their offset. */
	if ((d->rd = pd_reader_open(path, PD_RD_DECOMPRESS |
	    PD_RD_KEEP_COMPRESSED | PD_RD_TRACEFMT, &err)) == NULL) {
		out_flush();
		pd_print_err(&err);
		return PD_EXIT_DATA;
	}
	pd_interrupt_watch(d->rd);
	d->el = pd_reader_evlist(d->rd);
	if (d->syms && (d->sy = pd_syms_new(&d->sopts)) == NULL) {
		pd_err_io(&err, ENOMEM, "symbols");
		goto failed;
	}
	d->sym_bad = 0;
	d->fold_bad = 0;
	if (d->sy != NULL && (d->sq = pd_symq_new(d->sy, d->el)) == NULL) {
		pd_err_io(&err, ENOMEM, "symbols");
		goto failed;
	}
	if (d->fold != NULL)
		pd_symq_set_sample_fn(d->sq, fold_sample, d);
	if (d->sy != NULL && d->unwind) {
		if ((d->uw = pd_unwind_new(d->sy)) == NULL) {
			pd_err_io(&err, ENOMEM, "unwind");
			goto failed;
		}
		if (d->sq != NULL)
			pd_symq_set_unwind(d->sq, d->uw);
	}
	while ((r = pd_reader_next(d->rd, &rec)) > 0)
		if (put_rec(d, &rec) < 0) {
			pd_err_io(&err, ENOMEM, "symbols");
			goto failed;
		}
	if (r < 0) {
		err = *pd_reader_err(d->rd);
		goto failed;
	}
	sq_drain(d, 1);
	goto done;
failed:
	sq_drain(d, 1);
	err.input = pd_reader_name(d->rd);
	out_flush();
	pd_print_err(&err);
	status = PD_EXIT_DATA;
done:
	if ((dropped = pd_reader_dropped(d->rd, &what)) > 0) {
		out_flush();
		pd_warnx("%s: left out %u section%s (last: %s)",
		    pd_reader_name(d->rd), dropped, dropped > 1 ? "s" : "",
		    what);
	}
	if (d->fold_bad > 0) {
		out_flush();
		pd_warnx("%s: offset %#" PRIx64 ": %s; %" PRIu64 " sample%s "
		    "left out of the stacks", pd_reader_name(d->rd),
		    d->fold_bad_off, d->fold_bad_why, d->fold_bad,
		    d->fold_bad > 1 ? "s" : "");
		status = PD_EXIT_DATA;
	}
	if (d->fold != NULL)
		pd_fold_forget(d->fold);	/* the stacks stay */
	if (d->sy != NULL) {
		print_notes(d);
		if (d->sq != NULL)
			d->sym_bad += pd_symq_bad(d->sq);
		pd_symq_free(d->sq);
		d->sq = NULL;
		pd_unwind_free(d->uw);
		d->uw = NULL;
		if (d->sym_bad > 0) {
			out_flush();
			pd_warnx("%s: %u process or map record%s not usable "
			    "for symbols", pd_reader_name(d->rd), d->sym_bad,
			    d->sym_bad > 1 ? "s were" : " was");
		}
		pd_syms_free(d->sy);
		d->sy = NULL;
	}
	pd_reader_close(d->rd);
	d->rd = NULL;
	return status;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "folded",	optional_argument,	NULL, 'F' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "hex",	no_argument,		NULL, 'x' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "kallsyms",	required_argument,	NULL, 'K' },
		{ "no-debuginfod", no_argument,		NULL, 'D' },
		{ "symbols",	no_argument,		NULL, 's' },
		{ "types",	required_argument,	NULL, 't' },
		{ "unwind",	no_argument,		NULL, 'U' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static char *stdin_only[] = { "-", NULL };
	static struct dumper d;
	char **inputs;
	int c, i, ninputs, folded = 0, status = PD_EXIT_OK;

	pd_setprogname(argv[0]);
	while ((c = getopt_long(argc, argv, "hjst:x", longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			/* Nothing in this process asks debuginfod then. */
			d.sopts.no_debuginfod = 1;
			(void)unsetenv("DEBUGINFOD_URLS");
			break;
		case 'F':
			folded = 1;
			d.syms = 1;
			if (optarg == NULL || strcmp(optarg, "count") == 0)
				d.by_period = 0;
			else if (strcmp(optarg, "period") == 0)
				d.by_period = 1;
			else {
				pd_warnx("--folded=%s: count or period", optarg);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		case 'h':
			usage(stdout, PD_EXIT_OK);
			break;
		case 'j':
			d.json = 1;
			break;
		case 'K':
			d.sopts.kallsyms = optarg;
			break;
		case 's':
			d.syms = 1;
			break;
		case 't':
			if (parse_types(&d, optarg) < 0)
				return PD_EXIT_USAGE;
			break;
		case 'U':
			d.syms = d.unwind = 1;
			break;
		case 'V':
			pd_print_version();
			return PD_EXIT_OK;
		case 'x':
			d.hex = 1;
			break;
		default:
			usage(stderr, PD_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	inputs = argc > 0 ? argv : stdin_only;
	ninputs = argc > 0 ? argc : 1;
	if (folded && (d.json || d.hex || d.filter)) {
		pd_warnx("--folded prints stacks, not records: no -j, -t or -x");
		usage(stderr, PD_EXIT_USAGE);
	}
	if (folded && (d.fold = pd_fold_new()) == NULL) {
		pd_warnx("out of memory");
		return PD_EXIT_DATA;
	}
	pd_interrupt_init();
	for (i = 0; i < ninputs && !pd_interrupted(); i++)
		if (dump(&d, inputs[i]) != PD_EXIT_OK)
			status = PD_EXIT_DATA;
	/* All inputs' stacks together, as one perf script would give. */
	if (d.fold != NULL) {
		fold_print(&d);
		pd_fold_free(d.fold);
	}
	out_flush();
	if (status == PD_EXIT_OK && pd_interrupted())
		status = PD_EXIT_INTR;
	return status;
}
