/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/tptext.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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
	/* Where the library reads a record's type: its first event's. */
	int			 type_off, type_size;
	int			*unsafe;	/* ids not applied (divisors) */
	size_t			 nunsafe;
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
	free(t->unsafe);
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
 * The printk_formats section, "0x%lx : \"%s\"" a line, registered as
 * tep_parse_printk_formats would: the address is the text before the
 * first ':' (leading ones skipped), the string begins a byte after it
 * and loses a first quote, then a last quote and a "\n" before it.
 * That parser is not used because it reads out of bounds on what a
 * stream can carry: past its copy for a last line with no ':' or none
 * but the last byte, and before tep_register_print_string's copy of a
 * string under 3 bytes. Here a line without a string is skipped, and s
 * goes in as "\"" s "\\n\"", which the library takes back to s whatever
 * its length. The text ends at a NUL, as the library's copy would.
 */
static void
parse_printk(struct tep_handle *tep, struct pd_tf_span sp)
{
	const char *p = sp.p, *end, *le, *nl, *a, *c, *s;
	size_t n, cap = 0;
	char *buf = NULL, *g;

	if (sp.len == 0)
		return;
	if ((end = memchr(p, '\0', sp.len)) == NULL)
		end = p + sp.len;
	for (; p < end; p = le + 1) {
		le = (nl = memchr(p, '\n', end - p)) != NULL ? nl : end;
		for (a = p; a < le && *a == ':'; a++)
			continue;
		if (a == le && a > p)
			break;		/* the library stops at ":::" */
		if ((c = memchr(a, ':', le - a)) == NULL || le - c < 2)
			continue;
		s = c + 2;
		n = le - s;
		if (n > 0 && *s == '"') {
			s++;
			n--;
		}
		if (n > 0 && s[n - 1] == '"') {
			n--;
			if (n >= 2 && s[n - 2] == '\\' && s[n - 1] == 'n')
				n -= 2;
		}
		/* The address and a NUL; '"', s, "\\n\"" and a NUL. */
		if ((size_t)(c - a) + n + 6 > cap) {
			cap = (c - a) + n + 6;
			if ((g = realloc(buf, cap)) == NULL)
				break;
			buf = g;
		}
		memcpy(buf, a, c - a);
		buf[c - a] = '\0';
		g = buf + (c - a) + 1;
		g[0] = '"';
		memcpy(g + 1, s, n);
		memcpy(g + 1 + n, "\\n\"", 4);	/* and the NUL */
		(void)tep_register_print_string(tep, g,
		    strtoull(buf, NULL, 16));
	}
	free(buf);
}

/* The library set up as tf's blob says, before any format. */
static struct tep_handle *
tep_for(const struct pd_tracefmt *tf)
{
	struct tep_handle *tep;

	if ((tep = tep_alloc()) == NULL)
		return NULL;
	tep_set_long_size(tep, (int)pd_tracefmt_long_size(tf));
	tep_set_page_size(tep, (int)pd_tracefmt_page_size(tf));
	tep_set_file_bigendian(tep, pd_tracefmt_big_endian(tf) ?
	    TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep,
	    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN :
	    TEP_LITTLE_ENDIAN);
	return tep;
}

/*
 * Formats 0..n-1 of tf with ok[i] set, then kallsyms if ok[n], into
 * tep in that order; *at says which is being parsed.
 */
static void
parse_all(struct tep_handle *tep, const struct pd_tracefmt *tf,
    const unsigned char *ok, size_t n, volatile uint32_t *at)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct pd_tf_event *e = pd_tracefmt_event_at(tf, i);

		*at = (uint32_t)i;
		if (ok[i])
			(void)tep_parse_event(tep, e->format, e->format_len,
			    e->system);
	}
	*at = (uint32_t)n;
	if (ok[n])
		parse_text(tep, pd_tracefmt_kallsyms(tf), tep_parse_kallsyms);
}

#define PROBE_TRIES	16	/* formats that kill the parser, at most */
#define PROBE_SECS	10	/* CPU seconds: a parse that takes more spins */

/*
 * Which of tf's formats libtraceevent parses and lives: a stream's
 * formats are untrusted, and the library (1.7 to 1.8 at least) dies on
 * some malformed ones (a __print_flags of a field the event lacks, a
 * field's "[" or an operator at the end of its format: NULL
 * dereferences), and perf script with it. So they are parsed first in
 * a child, in the order build() parses them, the library's state
 * included (it keeps some in static variables); where the child dies,
 * that format is left out and the rest tried again. ok[0..n] (n:
 * kallsyms) are cleared for those left out. 0, or -1 when no child
 * could run or too many die. One fork for a stream's tracing data.
 * (Under a fuzzer or a sanitizer, their handlers see the child die
 * and may report it or keep its input: that is the child's death, not
 * the process's.)
 */
static int
probe(const struct pd_tracefmt *tf, unsigned char *ok, size_t n)
{
	const struct rlimit cpu = { PROBE_SECS, PROBE_SECS };
	volatile uint32_t *at;
	struct tep_handle *tep;
	int tries, st, null;
	pid_t pid;

	at = mmap(NULL, sizeof(*at), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (at == MAP_FAILED)
		return -1;
	for (tries = 0; tries < PROBE_TRIES; tries++) {
		*at = UINT32_MAX;
		if ((pid = fork()) < 0)
			break;
		if (pid == 0) {
			/*
			 * What the library or a sanitizer says is not ours,
			 * and a parse that spins is killed by the kernel.
			 */
			if ((null = open("/dev/null", O_WRONLY)) >= 0)
				(void)dup2(null, STDERR_FILENO);
			(void)setrlimit(RLIMIT_CPU, &cpu);
			if ((tep = tep_for(tf)) != NULL)
				parse_all(tep, tf, ok, n, at);
			_exit(tep != NULL ? 0 : 1);
		}
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR) {
				st = -1;
				break;
			}
		if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			munmap((void *)at, sizeof(*at));
			return 0;
		}
		if (st == -1 || *at > n)
			break;
		ok[*at] = 0;
	}
	munmap((void *)at, sizeof(*at));
	return -1;
}

/*
 * Whether arg (and what follows it) divides only by constants other
 * than 0. The library divides as the format says, by whatever the data
 * gives (a field's value): a 0 there is SIGFPE in tep_print_event. The
 * kernels' formats divide by constants (1000L, sizeof(u64)). Every arg
 * type that holds others is walked, as the library's free_arg does.
 */
static int
divides_safely(const struct tep_print_arg *arg)
{
	const struct tep_print_arg *kid[3], *r;
	size_t i;

	for (; arg != NULL; arg = arg->next) {
		kid[0] = kid[1] = kid[2] = NULL;
		switch (arg->type) {
		case TEP_PRINT_OP:
			if (arg->op.op != NULL && (arg->op.op[0] == '/' ||
			    arg->op.op[0] == '%') && arg->op.op[1] == '\0') {
				for (r = arg->op.right; r != NULL &&
				    r->type == TEP_PRINT_TYPE; r = r->typecast.item)
					continue;
				if (r == NULL || r->type != TEP_PRINT_ATOM ||
				    r->atom.atom == NULL ||
				    strtoll(r->atom.atom, NULL, 0) == 0)
					return 0;
			}
			kid[0] = arg->op.left;
			kid[1] = arg->op.right;
			break;
		case TEP_PRINT_TYPE:
			kid[0] = arg->typecast.item;
			break;
		case TEP_PRINT_FLAGS:
			kid[0] = arg->flags.field;
			break;
		case TEP_PRINT_SYMBOL:
			kid[0] = arg->symbol.field;
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			kid[0] = arg->hex.field;
			kid[1] = arg->hex.size;
			break;
		case TEP_PRINT_INT_ARRAY:
			kid[0] = arg->int_array.field;
			kid[1] = arg->int_array.count;
			kid[2] = arg->int_array.el_size;
			break;
		case TEP_PRINT_DYNAMIC_ARRAY:
		case TEP_PRINT_DYNAMIC_ARRAY_LEN:
			kid[0] = arg->dynarray.index;
			break;
		case TEP_PRINT_FUNC:
			kid[0] = arg->func.args;
			break;
		default:
			break;
		}
		for (i = 0; i < 3; i++)
			if (!divides_safely(kid[i]))
				return 0;
	}
	return 1;
}

/* The ids of the events whose formats may divide by 0, in t->unsafe. */
static void
find_unsafe(struct pd_tptext *t)
{
	int i, n = tep_get_events_count(t->tep);
	struct tep_event *e;
	int *g;

	free(t->unsafe);
	t->unsafe = NULL;
	t->nunsafe = 0;
	for (i = 0; i < n; i++) {
		if ((e = tep_get_event(t->tep, i)) == NULL ||
		    divides_safely(e->print_fmt.args))
			continue;
		if ((g = realloc(t->unsafe, (t->nunsafe + 1) *
		    sizeof(*g))) == NULL) {
			tep_free(t->tep);	/* no text rather than a risk */
			t->tep = NULL;
			return;
		}
		t->unsafe = g;
		t->unsafe[t->nunsafe++] = e->id;
	}
}

static int
is_unsafe(const struct pd_tptext *t, int id)
{
	size_t i;

	for (i = 0; i < t->nunsafe; i++)
		if (t->unsafe[i] == id)
			return 1;
	return 0;
}

/*
 * The library applies the format of the event the RAW data's
 * common_type names, not the sample's event's: it reads that type where
 * its first event has its common_type. type_size 0: it has none.
 */
static void
type_at(struct pd_tptext *t)
{
	struct tep_format_field *f;
	struct tep_event *e;

	t->type_off = t->type_size = 0;
	if (tep_get_events_count(t->tep) > 0 &&
	    (e = tep_get_event(t->tep, 0)) != NULL &&
	    (f = tep_find_common_field(e, "common_type")) != NULL &&
	    f->offset >= 0 && (f->size == 1 || f->size == 2 ||
	    f->size == 4 || f->size == 8)) {
		t->type_off = f->offset;
		t->type_size = f->size;
	}
}

/*
 * The library's view of tracing data tf, as perf's trace-event-read.c
 * builds it: sizes, byte orders, every format, then kallsyms and printk
 * strings for %pS and %s of a format's address. A format the library
 * refuses, or dies on in probe(), leaves that event without text; when
 * probe() or memory fails, every event is without (t->tep stays NULL
 * until tf changes: not tried again for each sample).
 */
static void
build(struct pd_tptext *t, const struct pd_tracefmt *tf)
{
	size_t n = pd_tracefmt_nevents(tf);
	unsigned char *ok;
	uint32_t at;

	if (t->tep != NULL)
		tep_free(t->tep);
	t->tep = NULL;
	t->tf = tf;
	t->nev = n;
	if ((ok = malloc(n + 1)) == NULL)
		return;
	memset(ok, 1, n + 1);
	if (probe(tf, ok, n) == 0 && (t->tep = tep_for(tf)) != NULL) {
		parse_all(t->tep, tf, ok, n, &at);
		parse_printk(t->tep, pd_tracefmt_printk(tf));
		type_at(t);
		find_unsafe(t);
	}
	free(ok);
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

	if (t->tf != tf || t->nev != pd_tracefmt_nevents(tf))
		build(t, tf);
	if (t->tep == NULL || len > INT32_MAX ||
	    tep_find_event(t->tep, (int)te->id) == NULL)
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
	/*
	 * Only te's fields were checked against the data: data that names
	 * another event (a crafted stream's) would have that event's read
	 * past it.
	 */
	if (t->type_size == 0 ||
	    (size_t)t->type_off + (size_t)t->type_size > len ||
	    tep_data_type(t->tep, &rec) != (int)te->id ||
	    is_unsafe(t, (int)te->id))
		return NULL;
	trace_seq_reset(&t->seq);
	tep_print_event(t->tep, &t->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&t->seq);
	if (t->seq.state != TRACE_SEQ__GOOD)
		return NULL;
	*n = t->seq.len;
	return t->seq.buffer;
}
