/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/tracefmt.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pd_tracefmt {
	unsigned char		*blob;		/* the blob being collected */
	size_t			 len, cap;
	struct pd_tf_event	*events;
	size_t			 n, ecap;
	uint32_t		*by_id;		/* event indices sorted by id */
	char			 version[16];
	int			 big_endian;
	unsigned		 long_size;
	uint32_t		 page_size;
	struct pd_tf_span	 header_page, header_event, kallsyms, printk,
				 cmdlines;
	char			**texts;	/* kept blobs, freed at the end */
	size_t			 ntexts;
};

struct pd_tracefmt *
pd_tracefmt_new(void)
{
	return calloc(1, sizeof(struct pd_tracefmt));
}

static void
free_event(struct pd_tf_event *e)
{
	size_t i;

	for (i = 0; i < e->nfields; i++) {
		free((char *)e->fields[i].name);
		free((char *)e->fields[i].type);
	}
	free(e->fields);
	free((char *)e->system);
	free((char *)e->name);
	free((char *)e->print_fmt);
}

unsigned
pd_tf_swap_size(const struct pd_tf_field *f)
{
	unsigned es = f->kind == PD_TF_NUM ? f->size : f->elem_size;

	if (f->kind == PD_TF_STRING || (f->kind != PD_TF_NUM && f->is_char))
		return 0;
	return es == 2 || es == 4 || es == 8 ? es : 0;
}

struct range {
	uint32_t	 lo, hi;
};

static int
cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * Which bytes of the RAW data a conversion swaps (see the struct): the
 * fixed fields' ranges, sorted; two that share a byte make the event's
 * conversion not its own inverse, so it is refused. 0, or -1 when out
 * of memory.
 */
static int
swap_layout(struct pd_tf_event *e)
{
	struct range *r;
	size_t i, n = 0;
	uint32_t hi;
	unsigned es;

	e->swap_lo = UINT32_MAX;
	e->swap_hi = 0;
	if (e->nfields == 0)
		return 0;
	if ((r = malloc(e->nfields * sizeof(*r))) == NULL)
		return -1;
	for (i = 0; i < e->nfields; i++) {
		const struct pd_tf_field *f = &e->fields[i];

		es = pd_tf_swap_size(f);
		if (f->kind == PD_TF_DATA_LOC || f->kind == PD_TF_REL_LOC) {
			if (es != 0)
				e->ndyn++;
			if (f->size != 4)
				continue;	/* left, see swap.c */
			r[n].hi = f->offset + 4;
		} else if (es != 0 && f->size / es > 0)
			r[n].hi = f->offset + f->size / es * es;
		else
			continue;
		if (r[n].hi < f->offset)
			r[n].hi = UINT32_MAX;	/* wrapped: overlaps all */
		r[n++].lo = f->offset;
	}
	qsort(r, n, sizeof(*r), cmp_range);
	for (i = 0, hi = 0; i < n && !e->overlap; i++) {
		if (i > 0 && r[i].lo < hi)
			e->overlap = 1;
		if (r[i].hi > hi)
			hi = r[i].hi;
	}
	if (n > 0) {
		e->swap_lo = r[0].lo;
		e->swap_hi = hi;
	}
	free(r);
	return 0;
}

void
pd_tracefmt_free(struct pd_tracefmt *tf)
{
	size_t i;

	if (tf == NULL)
		return;
	for (i = 0; i < tf->n; i++)
		free_event(&tf->events[i]);
	for (i = 0; i < tf->ntexts; i++)
		free(tf->texts[i]);
	free(tf->texts);
	free(tf->events);
	free(tf->by_id);
	free(tf->blob);
	free(tf);
}

int
pd_tracefmt_add(struct pd_tracefmt *tf, const void *p, size_t len,
    const char **why)
{
	if (len == 0)
		return 0;	/* nothing to copy, and maybe no buffer yet */
	if (len > PD_TRACEFMT_MAX - tf->len) {
		*why = "tracing data larger than 64 MiB";
		return -1;
	}
	if (tf->len + len > tf->cap) {
		size_t ncap = tf->cap ? tf->cap : 65536;
		unsigned char *nb;

		while (ncap < tf->len + len)
			ncap *= 2;
		if ((nb = realloc(tf->blob, ncap)) == NULL) {
			*why = "out of memory";
			return -1;
		}
		tf->blob = nb;
		tf->cap = ncap;
	}
	memcpy(tf->blob + tf->len, p, len);
	tf->len += len;
	return 0;
}

/* A cursor over the blob, in its declared byte order. */
struct cur {
	const unsigned char	*p;
	size_t			 len, off;
	int			 be;
};

static int
get_n(struct cur *c, unsigned size, uint64_t *v)
{
	if (c->len - c->off < size)
		return -1;
	*v = pd_tf_get(c->p + c->off, size, c->be, 0);
	c->off += size;
	return 0;
}

static int
get_str(struct cur *c, const char **s)
{
	const unsigned char *e;

	e = memchr(c->p + c->off, '\0', c->len - c->off);
	if (e == NULL)
		return -1;
	*s = (const char *)c->p + c->off;
	c->off = e - c->p + 1;
	return 0;
}

static int
get_text(struct cur *c, unsigned lsize, struct pd_tf_span *sp)
{
	uint64_t n;

	if (get_n(c, lsize, &n) < 0 || n > c->len - c->off)
		return -1;
	sp->p = (const char *)c->p + c->off;
	sp->len = n;
	c->off += n;
	return 0;
}

/* Whether [q, le) starts with pfx, never looking past le. */
static int
starts(const char *q, const char *le, const char *pfx)
{
	size_t n = strlen(pfx);

	return (size_t)(le - q) >= n && memcmp(q, pfx, n) == 0;
}

static char *
dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d != NULL) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* Size of one element of a C type, 0 when unknown. */
static unsigned
type_size(const char *t, unsigned long_size)
{
	static const struct {
		const char	*name;
		unsigned	 size;
	} known[] = {
		{ "char", 1 }, { "signed char", 1 }, { "unsigned char", 1 },
		{ "u8", 1 }, { "s8", 1 }, { "bool", 1 }, { "__u8", 1 },
		{ "short", 2 }, { "unsigned short", 2 }, { "u16", 2 },
		{ "s16", 2 }, { "__u16", 2 }, { "__be16", 2 },
		{ "int", 4 }, { "unsigned int", 4 }, { "u32", 4 },
		{ "s32", 4 }, { "pid_t", 4 }, { "__u32", 4 }, { "__be32", 4 },
		{ "unsigned", 4 }, { "gfp_t", 4 }, { "dev_t", 4 },
		{ "u64", 8 }, { "s64", 8 }, { "__u64", 8 }, { "long long", 8 },
		{ "unsigned long long", 8 }, { "loff_t", 8 }, { "sector_t", 8 },
	};
	size_t i;

	if (strchr(t, '*') != NULL || strcmp(t, "long") == 0 ||
	    strcmp(t, "unsigned long") == 0 || strcmp(t, "size_t") == 0)
		return long_size;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(t, known[i].name) == 0)
			return known[i].size;
	return 0;
}

/*
 * A decimal number at p, read no further than e: the blob is not NUL-
 * terminated, so strtol could run past its end. -1 when there is none.
 */
static long
numn(const char *p, const char *e)
{
	long v = 0;
	int neg = 0, any = 0;

	while (p < e && *p == ' ')
		p++;
	if (p < e && *p == '-') {
		neg = 1;
		p++;
	}
	for (; p < e && *p >= '0' && *p <= '9'; p++) {
		if (v > (LONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*p - '0');
		any = 1;
	}
	if (!any)
		return -1;
	return neg ? -v : v;
}

/* Reads "key:<digits>" from within [s, e); -1 when absent. */
static long
attr_num(const char *s, const char *e, const char *key)
{
	size_t kl = strlen(key);
	const char *q;

	for (q = s; q + kl <= e; q++)
		if (memcmp(q, key, kl) == 0)
			return numn(q + kl, e);
	return -1;
}

/*
 * One "\tfield:<decl>;\toffset:N;\tsize:N;\tsigned:N;" line. The name is
 * the last identifier of the declaration, before any [N].
 */
static int
parse_field(struct pd_tf_field *f, const char *line, const char *end,
    unsigned long_size, int common)
{
	const char *d, *de, *ne, *nb, *br;
	long off, size, sgn;
	char *type;
	size_t tl;

	memset(f, 0, sizeof(*f));
	d = line + strlen("field:");
	while (d < end && (*d == ' ' || *d == '\t'))
		d++;
	if ((de = memchr(d, ';', end - d)) == NULL)
		return -1;
	off = attr_num(de, end, "offset:");
	size = attr_num(de, end, "size:");
	sgn = attr_num(de, end, "signed:");
	if (off < 0 || size < 0 || off > 0xffff || size > 0xffff)
		return -1;
	/* The declaration: "type name", "type name[N]", "type[] name". */
	ne = de;
	br = NULL;
	while (ne > d && ne[-1] == ' ')
		ne--;
	if (ne > d && ne[-1] == ']') {
		br = ne;
		while (br > d && *br != '[')
			br--;
		ne = br;
	}
	nb = ne;
	while (nb > d && (nb[-1] == '_' || (nb[-1] >= 'a' && nb[-1] <= 'z') ||
	    (nb[-1] >= 'A' && nb[-1] <= 'Z') || (nb[-1] >= '0' &&
	    nb[-1] <= '9')))
		nb--;
	if (nb == ne)
		return -1;
	tl = nb - d;
	while (tl > 0 && d[tl - 1] == ' ')
		tl--;
	if ((type = dupn(d, tl)) == NULL)
		return -1;
	f->type = type;
	if ((f->name = dupn(nb, ne - nb)) == NULL)
		return -1;
	f->name_len = ne - nb;
	f->offset = off;
	f->size = size;
	f->is_common = common;
	f->is_signed = sgn > 0;
	f->kind = PD_TF_NUM;
	f->elem_size = size;
	if (strncmp(type, "__data_loc", 10) == 0 ||
	    strncmp(type, "__rel_loc", 9) == 0) {
		char *bt = type + (type[2] == 'd' ? 10 : 9);
		char *b2;

		f->kind = type[2] == 'd' ? PD_TF_DATA_LOC : PD_TF_REL_LOC;
		while (*bt == ' ')
			bt++;
		b2 = strchr(bt, '[');
		if (b2 != NULL)
			*b2 = '\0';
		f->elem_size = type_size(bt, long_size);
		f->is_char = strcmp(bt, "char") == 0;
		if (b2 != NULL)
			*b2 = '[';
		if (f->elem_size == 0)
			f->elem_size = 1;
		return 0;
	}
	if (br != NULL) {
		unsigned es = type_size(type, long_size);

		f->is_char = strcmp(type, "char") == 0 ||
		    strcmp(type, "unsigned char") == 0 ||
		    strcmp(type, "signed char") == 0;
		if (es == 0) {
			long n = strtol(br + 1, NULL, 0);

			es = n > 0 && size % n == 0 ? size / n : 1;
		}
		if (es == 0)
			es = 1;		/* a zero size or sizeof(long) */
		f->elem_size = es;
		f->nelem = size / es;
		f->kind = strcmp(type, "char") == 0 ? PD_TF_STRING :
		    PD_TF_ARRAY;
		return 0;
	}
	if (size != 1 && size != 2 && size != 4 && size != 8) {
		/* A struct or odd size: show it as bytes. */
		f->kind = PD_TF_ARRAY;
		f->elem_size = 1;
		f->nelem = size;
		return 0;
	}
	f->is_pointer = strchr(type, '*') != NULL ||
	    (strstr(type, "long") != NULL && strstr(type, "long long") == NULL &&
	    !f->is_signed) || strstr(type, "addr") != NULL;
	return 0;
}

/* One format file: "name:", "ID:", "format:" fields, "print fmt:". */
static int
parse_format(struct pd_tracefmt *tf, const char *sys, const char *txt,
    size_t len)
{
	struct pd_tf_event e;
	const char *p = txt, *end = txt + len, *le, *q;
	size_t fcap = 0;
	int common = 1, have_id = 0;
	long id = -1;

	memset(&e, 0, sizeof(e));
	e.format = txt;
	e.format_len = len;
	if ((e.system = dupn(sys, strlen(sys))) == NULL)
		return -1;
	for (; p < end; p = le + 1) {
		if ((le = memchr(p, '\n', end - p)) == NULL)
			le = end;
		q = p;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		if (q == le) {
			if (fcap > 0)
				common = 0;	/* blank: end of common */
			continue;
		}
		if (starts(q, le, "name:") && e.name == NULL) {
			q += 5;
			while (q < le && *q == ' ')
				q++;
			e.name = dupn(q, le - q);
		} else if (starts(q, le, "ID:")) {
			id = numn(q + 3, le);
			have_id = 1;
		} else if (starts(q, le, "field:") ||
		    starts(q, le, "field special:")) {
			struct pd_tf_field *nf;

			if (q[5] == ' ')
				q += 8;	/* "field special:" -> "field:" */
			if (e.nfields == fcap) {
				fcap = fcap ? fcap * 2 : 16;
				nf = realloc(e.fields, fcap * sizeof(*nf));
				if (nf == NULL)
					goto bad;
				e.fields = nf;
			}
			if (parse_field(&e.fields[e.nfields], q, le,
			    tf->long_size, common) < 0) {
				free((char *)e.fields[e.nfields].type);
				free((char *)e.fields[e.nfields].name);
				goto bad;
			}
			e.nfields++;
		} else if (starts(q, le, "print fmt:")) {
			q += 10;
			while (q < end && *q == ' ')
				q++;
			e.print_fmt = dupn(q, end - q);
			while (e.print_fmt != NULL && *e.print_fmt != '\0' &&
			    ((char *)e.print_fmt)[strlen(e.print_fmt) - 1] ==
			    '\n')
				((char *)e.print_fmt)[strlen(e.print_fmt) - 1] =
				    '\0';
			break;
		}
	}
	if (e.name == NULL || !have_id || id < 0)
		goto bad;
	e.id = id;
	if (swap_layout(&e) < 0)
		goto bad;
	if (tf->n == tf->ecap) {
		size_t nc = tf->ecap ? tf->ecap * 2 : 32;
		struct pd_tf_event *ne = realloc(tf->events,
		    nc * sizeof(*ne));

		if (ne == NULL)
			goto bad;
		tf->events = ne;
		tf->ecap = nc;
	}
	tf->events[tf->n++] = e;
	return 0;
bad:
	free_event(&e);
	return -1;
}

static int
cmp_id(const void *a, const void *b, void *arg)
{
	const struct pd_tf_event *ev = arg;
	uint32_t x = ev[*(const uint32_t *)a].id;
	uint32_t y = ev[*(const uint32_t *)b].id;

	return x < y ? -1 : x > y;
}

static int
index_events(struct pd_tracefmt *tf)
{
	uint32_t *ix;
	size_t i;

	if ((ix = realloc(tf->by_id, (tf->n + 1) * sizeof(*ix))) == NULL)
		return -1;
	tf->by_id = ix;
	for (i = 0; i < tf->n; i++)
		ix[i] = i;
	qsort_r(ix, tf->n, sizeof(*ix), cmp_id, tf->events);
	return 0;
}

static int
parse_blob(struct pd_tracefmt *tf, struct cur *c, const char **why)
{
	static const char magic[] = "\027\bDtracing";
	const char *s, *sys;
	uint64_t v, cnt, nsys, i, j;
	struct pd_tf_span sp;

	*why = "bad tracing data magic";
	if (c->len < 10 || memcmp(c->p, magic, 10) != 0)
		return -1;
	c->off = 10;
	*why = "truncated tracing data header";
	if (get_str(c, &s) < 0 || c->len - c->off < 6)
		return -1;
	snprintf(tf->version, sizeof(tf->version), "%s", s);
	tf->big_endian = c->p[c->off] != 0;
	c->be = tf->big_endian;
	tf->long_size = c->p[c->off + 1];
	c->off += 2;
	if (get_n(c, 4, &v) < 0)
		return -1;
	tf->page_size = v;
	if (tf->long_size != 4 && tf->long_size != 8)
		tf->long_size = 8;
	*why = "bad tracing data header_page";
	if (get_str(c, &s) < 0 || strcmp(s, "header_page") != 0 ||
	    get_text(c, 8, &tf->header_page) < 0)
		return -1;
	*why = "bad tracing data header_event";
	if (get_str(c, &s) < 0 || strcmp(s, "header_event") != 0 ||
	    get_text(c, 8, &tf->header_event) < 0)
		return -1;
	*why = "bad tracing data ftrace formats";
	if (get_n(c, 4, &cnt) < 0)
		return -1;
	for (i = 0; i < cnt; i++) {
		if (get_text(c, 8, &sp) < 0)
			return -1;
		if (parse_format(tf, "ftrace", sp.p, sp.len) < 0) {
			*why = "bad ftrace format file";
			return -1;
		}
	}
	*why = "bad tracing data event formats";
	if (get_n(c, 4, &nsys) < 0)
		return -1;
	for (i = 0; i < nsys; i++) {
		if (get_str(c, &sys) < 0 || get_n(c, 4, &cnt) < 0)
			return -1;
		for (j = 0; j < cnt; j++) {
			if (get_text(c, 8, &sp) < 0)
				return -1;
			if (parse_format(tf, sys, sp.p, sp.len) < 0) {
				*why = "bad event format file";
				return -1;
			}
		}
	}
	*why = "bad tracing data kallsyms";
	if (get_text(c, 4, &tf->kallsyms) < 0)
		return -1;
	*why = "bad tracing data printk formats";
	if (get_text(c, 4, &tf->printk) < 0)
		return -1;
	if (strcmp(tf->version, "0.6") >= 0 && c->off < c->len) {
		*why = "bad tracing data saved cmdlines";
		if (get_text(c, 8, &tf->cmdlines) < 0)
			return -1;
	}
	return 0;
}

int
pd_tracefmt_finish(struct pd_tracefmt *tf, const char **why)
{
	struct cur c;
	char **nt;
	int r;

	if ((nt = realloc(tf->texts, (tf->ntexts + 1) * sizeof(*nt))) ==
	    NULL) {
		*why = "out of memory";
		return -1;
	}
	tf->texts = nt;
	/* The spans point into the blob: keep it, start a new one. */
	nt[tf->ntexts++] = (char *)tf->blob;
	c.p = tf->blob;
	c.len = tf->len;
	c.off = 0;
	c.be = 0;
	tf->blob = NULL;
	tf->len = tf->cap = 0;
	r = parse_blob(tf, &c, why);
	if (index_events(tf) < 0) {
		*why = "out of memory";
		return -1;
	}
	return r;
}

const struct pd_tf_event *
pd_tracefmt_event(const struct pd_tracefmt *tf, uint32_t id)
{
	size_t lo = 0, hi = tf->n, mid;

	if (tf->by_id == NULL)
		return NULL;
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (tf->events[tf->by_id[mid]].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < tf->n && tf->events[tf->by_id[lo]].id == id)
		return &tf->events[tf->by_id[lo]];
	return NULL;
}

static int
str_same(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

int
pd_tf_event_same(const struct pd_tf_event *a, const struct pd_tf_event *b)
{
	size_t i;

	if (a->id != b->id || !str_same(a->system, b->system) ||
	    !str_same(a->name, b->name) || a->nfields != b->nfields)
		return 0;
	for (i = 0; i < a->nfields; i++) {
		const struct pd_tf_field *x = &a->fields[i], *y = &b->fields[i];

		if (!str_same(x->name, y->name) || x->offset != y->offset ||
		    x->size != y->size || x->is_signed != y->is_signed)
			return 0;
	}
	return 1;
}

size_t
pd_tracefmt_nevents(const struct pd_tracefmt *tf)
{
	return tf->by_id != NULL ? tf->n : 0;
}

const struct pd_tf_event *
pd_tracefmt_event_at(const struct pd_tracefmt *tf, size_t i)
{
	return i < tf->n ? &tf->events[i] : NULL;
}

int
pd_tracefmt_big_endian(const struct pd_tracefmt *tf)
{
	return tf->big_endian;
}

unsigned
pd_tracefmt_long_size(const struct pd_tracefmt *tf)
{
	return tf->long_size;
}

uint32_t
pd_tracefmt_page_size(const struct pd_tracefmt *tf)
{
	return tf->page_size;
}

const char *
pd_tracefmt_version(const struct pd_tracefmt *tf)
{
	return tf->version;
}

struct pd_tf_span
pd_tracefmt_header_page(const struct pd_tracefmt *tf)
{
	return tf->header_page;
}

struct pd_tf_span
pd_tracefmt_header_event(const struct pd_tracefmt *tf)
{
	return tf->header_event;
}

struct pd_tf_span
pd_tracefmt_kallsyms(const struct pd_tracefmt *tf)
{
	return tf->kallsyms;
}

struct pd_tf_span
pd_tracefmt_printk(const struct pd_tracefmt *tf)
{
	return tf->printk;
}

struct pd_tf_span
pd_tracefmt_cmdlines(const struct pd_tracefmt *tf)
{
	return tf->cmdlines;
}

uint64_t
pd_tf_get(const unsigned char *p, unsigned size, int big_endian,
    int is_signed)
{
	uint64_t v = 0;
	unsigned i;

	if (size > 8)
		size = 8;
	for (i = 0; i < size; i++) {
		unsigned b = big_endian ? i : size - 1 - i;

		v = v << 8 | p[b];
	}
	if (is_signed && size > 0 && size < 8 && (v >> (size * 8 - 1) & 1))
		v |= ~(uint64_t)0 << (size * 8);
	return v;
}

int
pd_tf_field_bytes(const struct pd_tf_field *f, int big_endian,
    const unsigned char *raw, size_t len, const unsigned char **p,
    size_t *n)
{
	uint64_t off, sz;

	if ((uint64_t)f->offset + f->size > len)
		return -1;
	if (f->kind != PD_TF_DATA_LOC && f->kind != PD_TF_REL_LOC) {
		*p = raw + f->offset;
		*n = f->size;
		return 0;
	}
	if (f->size < 4)
		return -1;
	off = pd_tf_get(raw + f->offset, 4, big_endian, 0);
	sz = off >> 16;
	off &= 0xffff;
	if (f->kind == PD_TF_REL_LOC)
		off += f->offset + f->size;
	if (off + sz > len)
		return -1;
	*p = raw + off;
	*n = sz;
	return 0;
}

const struct pd_tf_field *
pd_tf_event_field(const struct pd_tf_event *te, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < te->nfields; i++)
		if (te->fields[i].name_len == n &&
		    memcmp(te->fields[i].name, name, n) == 0)
			return &te->fields[i];
	return NULL;
}

/* The blob being built: bytes past cap are counted, not written. */
struct put {
	unsigned char	*p;
	size_t		 cap, len;
	int		 be;
};

static void
put_bytes(struct put *o, const void *v, size_t n)
{
	if (n == 0)
		return;
	if (o->len <= o->cap && n <= o->cap - o->len)
		memcpy(o->p + o->len, v, n);
	o->len += n;
}

/* A number of `size` bytes (4, 8) in the blob's byte order. */
static void
put_n(struct put *o, uint64_t v, unsigned size)
{
	unsigned char b[8];
	unsigned i;

	for (i = 0; i < size; i++)
		b[o->be ? size - 1 - i : i] = v >> (8 * i);
	put_bytes(o, b, size);
}

static void
put_text(struct put *o, const char *p, size_t len, unsigned lsize)
{
	put_n(o, len, lsize);
	put_bytes(o, p, len);
}

/*
 * keep[i]: event i of tf goes in a built blob, being the first of its
 * id (by_id holds equal ids next to each other).
 */
static void
first_of_ids(const struct pd_tracefmt *tf, unsigned char *keep)
{
	size_t i, k, best;

	memset(keep, 0, tf->n);
	for (i = 0; i < tf->n; i = k) {
		best = tf->by_id[i];
		for (k = i + 1; k < tf->n && tf->events[tf->by_id[k]].id ==
		    tf->events[tf->by_id[i]].id; k++)
			if (tf->by_id[k] < best)
				best = tf->by_id[k];
		keep[best] = 1;
	}
}

/* Whether kept event i is the first kept one of its system. */
static int
first_of_system(const struct pd_tracefmt *tf, const unsigned char *keep,
    size_t i)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (keep[k] && strcmp(tf->events[k].system,
		    tf->events[i].system) == 0)
			return 0;
	return 1;
}

/* The kept events of system sys from i on: counted, or written. */
static size_t
put_system(struct put *o, const struct pd_tracefmt *tf,
    const unsigned char *keep, size_t i, const char *sys, int write)
{
	size_t n = 0;

	for (; i < tf->n; i++) {
		if (!keep[i] || strcmp(tf->events[i].system, sys) != 0)
			continue;
		n++;
		if (write)
			put_text(o, tf->events[i].format,
			    tf->events[i].format_len, 8);
	}
	return n;
}

size_t
pd_tracefmt_build(const struct pd_tracefmt *base, const struct pd_tracefmt *tf,
    void *p, size_t cap)
{
	static const char magic[] = "\027\bDtracing";
	struct put o = { p, cap, 0, base->big_endian };
	unsigned char c, *keep;
	const char *sys;
	size_t i, n;

	if (tf->by_id == NULL || (keep = malloc(tf->n + 1)) == NULL)
		return 0;
	first_of_ids(tf, keep);
	put_bytes(&o, magic, 10);
	put_bytes(&o, base->version, strlen(base->version) + 1);
	c = base->big_endian;
	put_bytes(&o, &c, 1);
	c = base->long_size;
	put_bytes(&o, &c, 1);
	put_n(&o, base->page_size, 4);
	put_bytes(&o, "header_page", 12);
	put_text(&o, base->header_page.p, base->header_page.len, 8);
	put_bytes(&o, "header_event", 13);
	put_text(&o, base->header_event.p, base->header_event.len, 8);
	/* ftrace's own events, then every other system once. */
	put_n(&o, put_system(&o, tf, keep, 0, "ftrace", 0), 4);
	put_system(&o, tf, keep, 0, "ftrace", 1);
	for (n = 0, i = 0; i < tf->n; i++)
		n += keep[i] && strcmp(tf->events[i].system, "ftrace") != 0 &&
		    first_of_system(tf, keep, i);
	put_n(&o, n, 4);
	for (i = 0; i < tf->n; i++) {
		sys = tf->events[i].system;
		if (!keep[i] || strcmp(sys, "ftrace") == 0 ||
		    !first_of_system(tf, keep, i))
			continue;
		put_bytes(&o, sys, strlen(sys) + 1);
		put_n(&o, put_system(&o, tf, keep, i, sys, 0), 4);
		put_system(&o, tf, keep, i, sys, 1);
	}
	free(keep);
	put_text(&o, base->kallsyms.p, base->kallsyms.len, 4);
	put_text(&o, base->printk.p, base->printk.len, 4);
	if (strcmp(base->version, "0.6") >= 0)
		put_text(&o, base->cmdlines.p, base->cmdlines.len, 8);
	while (o.len % 8 != 0)
		put_bytes(&o, "", 1);
	return o.len;
}
