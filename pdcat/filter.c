/* SPDX-License-Identifier: MIT */
/*
 * pdcat's filters (filter.h). The --time syntax is perf script's
 * (tools/perf/util/time-utils.c): "start,end" in seconds with up to
 * nine decimals, either side empty for open, several ranges separated
 * by spaces; or percents of the span from the first to the last sample:
 * "10%/2" (the second tenth), "0%-10%", either kind comma-separated,
 * "25%" (the first quarter).
 */
#include "pdcat/filter.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libcommon/cli/msg.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/samplehead.h"
#include "libcommon/stream/threads.h"

/* perf's MAX_NR_CPUS: the highest --cpu plus one. */
#define CPUS_MAX	4096
#define RANGES_MAX	64

struct range {
	uint64_t	start, end;	/* 0: open on that side */
};

struct filter {
	char		**comms;
	size_t		  ncomms;
	uint32_t	 *pids, *tids;
	size_t		  npids, ntids;
	unsigned char	 *cpus;		/* bitmap, NULL: every cpu */
	const char	 *time;		/* the --time text */
	struct range	  r[RANGES_MAX];
	int		  nr;
	struct pd_threads *th;		/* with --comm */
	uint64_t	  seen, dropped;
	uint64_t	  rounds;	/* FINISHED_ROUNDs so far */
	struct held	 *held;		/* waiting records, in order */
	size_t		  head, nheld, capheld;
	unsigned char	 *buf;		/* their bytes */
	size_t		  off, used, capbuf;	/* head's offset; end */
};

struct filter *
filter_new(void)
{
	return calloc(1, sizeof(struct filter));
}

void
filter_free(struct filter *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->ncomms; i++)
		free(f->comms[i]);
	free(f->comms);
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	pd_threads_free(f->th);
	free(f->held);
	free(f->buf);
	free(f);
}

int
filter_on(const struct filter *f)
{
	return f->ncomms > 0 || f->npids > 0 || f->ntids > 0 ||
	    f->cpus != NULL || f->time != NULL;
}

/* A decimal number without sign at *s, up to `max`; advances *s. */
static int
number(const char **s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return -1;
	errno = 0;
	*v = strtoul(*s, &end, 10);
	if (errno != 0 || *v > max)
		return -1;
	*s = end;
	return 0;
}

/* "1,2,3" into *v (n entries, grown). 0 or -1 (said). */
static int
id_list(const char *opt, const char *arg, uint32_t **v, size_t *n)
{
	const char *s = arg;
	unsigned long x;
	uint32_t *g;

	for (;;) {
		if (number(&s, INT32_MAX, &x) < 0 || (*s != ',' && *s != '\0')) {
			pd_warnx("%s '%s': not a list of numbers, as 1,2",
			    opt, arg);
			return -1;
		}
		if ((g = realloc(*v, (*n + 1) * sizeof(**v))) == NULL)
			pd_die_nomem();
		*v = g;
		(*v)[(*n)++] = (uint32_t)x;
		if (*s++ == '\0')
			return 0;
	}
}

/* perf's cpu list: "0-3,6". 0 or -1 (said). */
static int
cpu_list(struct filter *f, const char *arg)
{
	const char *s = arg;
	unsigned long a, b, c;

	if (f->cpus == NULL && (f->cpus = calloc(CPUS_MAX / 8, 1)) == NULL)
		pd_die_nomem();
	for (;;) {
		if (number(&s, CPUS_MAX - 1, &a) < 0)
			goto bad;
		b = a;
		if (*s == '-') {
			s++;
			if (number(&s, CPUS_MAX - 1, &b) < 0 || b < a)
				goto bad;
		}
		if (*s != ',' && *s != '\0')
			goto bad;
		for (c = a; c <= b; c++)
			f->cpus[c / 8] |= 1U << (c % 8);
		if (*s++ == '\0')
			return 0;
	}
bad:
	pd_warnx("--cpu '%s': not a list of cpus 0 to %d, as 0-3,6", arg,
	    CPUS_MAX - 1);
	return -1;
}

static int
comm_list(struct filter *f, const char *arg)
{
	const char *s = arg, *e;
	char **g;

	do {
		e = strchr(s, ',');
		if (e == NULL)
			e = s + strlen(s);
		if (e == s) {
			pd_warnx("--comm '%s': an empty name", arg);
			return -1;
		}
		if ((g = realloc(f->comms, (f->ncomms + 1) * sizeof(*g))) ==
		    NULL || (g[f->ncomms] = strndup(s, e - s)) == NULL)
			pd_die_nomem();
		f->comms = g;
		f->ncomms++;
		s = e + 1;
	} while (*e != '\0');
	return 0;
}

int
filter_option(struct filter *f, int opt, const char *arg)
{
	switch (opt) {
	case FILTER_COMM:
		return comm_list(f, arg);
	case FILTER_CPU:
		return cpu_list(f, arg);
	case FILTER_PID:
		return id_list("--pid", arg, &f->pids, &f->npids);
	case FILTER_TID:
		return id_list("--tid", arg, &f->tids, &f->ntids);
	case FILTER_TIME:
		f->time = arg;
		return 0;
	}
	return -1;
}

/* ----- --time ----- */

/* perf's parse_nsec_time: seconds, then up to 9 decimals. Empty: 0. */
static int
seconds(const char **s, uint64_t *t)
{
	unsigned long sec, frac = 0;
	int digits = 0;

	*t = 0;
	if (**s == ',' || **s == '\0' || isspace((unsigned char)**s))
		return 0;
	if (number(s, UINT32_MAX, &sec) < 0)
		return -1;
	if (**s == '.') {
		for ((*s)++; isdigit((unsigned char)**s); (*s)++) {
			if (++digits > 9)
				return -1;
			frac = frac * 10 + (**s - '0');
		}
		for (; digits < 9; digits++)
			frac *= 10;
	}
	*t = (uint64_t)sec * 1000000000 + frac;
	return 0;
}

/* "a,b c,d": perf_time__parse_strs. 0 or -1. */
static int
absolute(struct filter *f, const char *s)
{
	int i;

	for (f->nr = 0; *s != '\0'; f->nr++) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			break;
		if (f->nr == RANGES_MAX || seconds(&s, &f->r[f->nr].start) < 0 ||
		    *s++ != ',')
			return -1;
		while (isspace((unsigned char)*s))
			s++;
		if (seconds(&s, &f->r[f->nr].end) < 0 ||
		    (*s != '\0' && !isspace((unsigned char)*s)))
			return -1;
		if (f->r[f->nr].end != 0 && f->r[f->nr].end < f->r[f->nr].start)
			return -1;
	}
	for (i = 0; i + 1 < f->nr; i++)
		if (f->r[i].end >= f->r[i + 1].start)
			return -1;
	return f->nr > 0 ? 0 : -1;
}

/* "12.5%" up to its '%' at *s, as a fraction; advances past the '%'. */
static int
percent(const char **s, double *p)
{
	char *end;

	errno = 0;
	*p = strtod(*s, &end);
	if (end == *s || *end != '%' || errno != 0)
		return -1;
	*s = end + 1;
	*p /= 100.0;
	return 0;
}

/* perf's set_percent_time: fractions a..b of first..last. */
static int
set_percent(struct range *r, double a, double b, uint64_t first,
    uint64_t last)
{
	uint64_t total = last - first;

	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return -1;
	r->start = first + (uint64_t)round(a * total);
	r->end = first + (uint64_t)round(b * total);
	if (r->end > r->start && r->end != last)
		r->end -= 1;
	return 0;
}

/* "10%/2,10%/3", "0%-10%,30%-40%" or "50%". 0 or -1. */
static int
percents(struct filter *f, const char *s, uint64_t first, uint64_t last)
{
	int slash = strchr(s, '/') != NULL, dash = strchr(s, '-') != NULL;
	double p, q;
	unsigned long n;

	for (f->nr = 0;;) {
		if (f->nr == RANGES_MAX || percent(&s, &p) < 0)
			return -1;
		if (slash) {
			if (*s++ != '/' || number(&s, INT32_MAX, &n) < 0 ||
			    p <= 0.0 || n < 1)
				return -1;
			q = p * n;
			p = p * (n - 1);
		} else if (dash) {
			if (*s++ != '-' || percent(&s, &q) < 0)
				return -1;
		} else {
			q = p;
			p = 0.0;
		}
		if (set_percent(&f->r[f->nr++], p, q, first, last) < 0)
			return -1;
		if (*s == '\0')
			return 0;
		if (*s++ != ',' || (!slash && !dash))
			return -1;
	}
}

/* The first and last sample times of one input, read through. */
static int
scan(const char *path, uint64_t *first, uint64_t *last)
{
	const struct pd_evsel *ev;
	struct pd_reader *rd;
	struct pd_err err;
	struct pd_rec rec;
	struct stat st;
	off_t at = 0;
	uint64_t t;
	int fd, r;

	fd = strcmp(path, "-") == 0 ? STDIN_FILENO : -1;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (at = lseek(fd, 0, SEEK_CUR)) < 0))
		goto pipe;
	if (fd < 0 && (stat(path, &st) == 0 && !S_ISREG(st.st_mode)))
		goto pipe;
	rd = fd >= 0 ? pd_reader_fdopen(fd, "<stdin>", PD_RD_DECOMPRESS, &err) :
	    pd_reader_open(path, PD_RD_DECOMPRESS, &err);
	if (rd == NULL) {
		pd_print_err(&err);
		return PD_EXIT_DATA;
	}
	while ((r = pd_reader_next(rd, &rec)) > 0) {
		if (rec.type != PERF_RECORD_SAMPLE ||
		    (ev = pd_evlist_for_rec(pd_reader_evlist(rd), &rec)) ==
		    NULL || ev->head.time == PD_HEAD_NONE ||
		    pd_sample_head_check(&ev->head, &rec, &(const char *){0}) < 0)
			continue;
		if ((t = pd_head_u64(&rec, ev->head.time)) == 0)
			continue;
		if (*first == 0 || t < *first)
			*first = t;
		if (t > *last)
			*last = t;
	}
	if (r < 0) {
		pd_print_err(pd_reader_err(rd));
		pd_reader_close(rd);
		return PD_EXIT_DATA;
	}
	pd_reader_close(rd);
	if (fd >= 0 && lseek(fd, at, SEEK_SET) < 0)
		goto pipe;
	return 0;
pipe:
	pd_warnx("%s: --time with a percent needs the first and last sample "
	    "times, and a pipe cannot be read twice: save it to a file, or "
	    "give the times in seconds", fd >= 0 ? "<stdin>" : path);
	return PD_EXIT_USAGE;
}

int
filter_span(struct filter *f, char **inputs, int ninputs)
{
	uint64_t first = 0, last = 0;
	int i, r;

	if (f->time == NULL)
		return 0;
	if (strchr(f->time, '%') == NULL) {
		if (absolute(f, f->time) == 0)
			return 0;
		goto bad;
	}
	for (i = 0; i < ninputs; i++)
		if ((r = scan(inputs[i], &first, &last)) != 0)
			return r;
	if (first == 0) {
		pd_warnx("--time '%s': no sample has a time to take a "
		    "percent of", f->time);
		return PD_EXIT_USAGE;
	}
	if (percents(f, f->time, first, last) == 0)
		return 0;
bad:
	pd_warnx("--time '%s': not perf's time ranges (start,end in "
	    "seconds, as 3.5,4; or percents, as 10%%/2 or 0%%-10%%)",
	    f->time);
	return PD_EXIT_USAGE;
}

/* ----- the records ----- */

/*
 * With --comm a sample is judged when perf delivers it (threads.h): at
 * the FINISHED_ROUND its time falls in. Until then it waits, and every
 * record after it waits behind it, so that the output keeps the input's
 * order; the records are copied (the reader's buffer moves on).
 */
enum { UNDECIDED, KEEP, DROP };

struct held {
	struct pd_rec	 rec;		/* data: NULL, see at */
	size_t		 at;		/* where its bytes are in f->buf */
	uint64_t	 time;
	uint64_t	 due;		/* the round it is judged at */
	uint32_t	 tid, seq;
	int		 state;
};

/*
 * Bytes of records waiting past which the samples waiting are judged
 * with the records so far (perf's ordered queue would flush half).
 */
#define HELD_BYTES_MAX	(64U << 20)

int
filter_start(struct filter *f)
{
	f->seen = f->dropped = 0;
	f->nheld = f->head = 0;
	f->used = f->off = 0;
	f->rounds = 0;
	if (f->ncomms == 0)
		return 0;
	pd_threads_free(f->th);
	return (f->th = pd_threads_new()) != NULL ? 0 : -1;
}

void
filter_counts(const struct filter *f, uint64_t *seen, uint64_t *dropped)
{
	*seen = f->seen;
	*dropped = f->dropped;
}

/* perf_time__ranges_skip_sample, inverted. */
static int
in_time(const struct filter *f, uint64_t t)
{
	int i;

	if (f->time == NULL || t == 0)
		return 1;
	if (f->nr == 1)
		return !((f->r[0].start && t < f->r[0].start) ||
		    (f->r[0].end && t > f->r[0].end));
	for (i = 0; i < f->nr; i++)
		if (t >= f->r[i].start && (t <= f->r[i].end || !f->r[i].end))
			return 1;
	return 0;
}

static int
has_id(const uint32_t *v, size_t n, uint32_t x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* The comm filter on a sample, judged now. */
static int
comm_state(struct filter *f, uint32_t tid, uint64_t time, uint32_t seq)
{
	char buf[PD_THREADS_COMM_MAX];
	size_t i;

	pd_threads_comm(f->th, tid, time, seq, buf);
	for (i = 0; i < f->ncomms; i++)
		if (strcmp(f->comms[i], buf) == 0)
			return KEEP;
	f->dropped++;
	return DROP;
}

/*
 * Is the sample inside every filter? KEEP, DROP, UNDECIDED (its comm
 * is known at its round: *tid, *time, *seq say which), or -1 (*why).
 */
static int
judge(struct filter *f, const struct pd_evsel *ev, const struct pd_rec *rec,
    struct held *h, const char **why)
{
	const struct pd_sample_layout *l = &ev->head;
	uint32_t pid, cpu;

	if (pd_sample_head_check(l, rec, why) < 0)
		return -1;
	h->time = pd_head_u64(rec, l->time);
	if (f->th != NULL && pd_threads_record(f->th, rec, h->time) < 0) {
		*why = "out of memory";
		return -1;
	}
	if (!in_time(f, h->time))
		goto drop;
	if (f->ncomms > 0 || f->npids > 0 || f->ntids > 0) {
		if (l->tid == PD_HEAD_NONE) {
			*why = "a sample without pid and tid (its event "
			    "lacks PERF_SAMPLE_TID): --comm, --pid and --tid "
			    "cannot choose";
			return -1;
		}
		pid = pd_head_u32(rec, l->tid, 0);
		h->tid = pd_head_u32(rec, l->tid, 4);
		if ((f->npids > 0 && !has_id(f->pids, f->npids, pid)) ||
		    (f->ntids > 0 && !has_id(f->tids, f->ntids, h->tid)))
			goto drop;
	}
	if (f->cpus != NULL) {
		if (l->cpu == PD_HEAD_NONE) {
			*why = "a sample without a cpu (its event lacks "
			    "PERF_SAMPLE_CPU): --cpu cannot choose";
			return -1;
		}
		cpu = pd_head_u32(rec, l->cpu, 0);
		if (cpu >= CPUS_MAX || !(f->cpus[cpu / 8] & (1U << (cpu % 8))))
			goto drop;
	}
	if (f->th == NULL)
		return KEEP;
	h->seq = pd_threads_seq(f->th);
	if (h->time == 0 || h->time == UINT64_MAX)
		return comm_state(f, h->tid, h->time, h->seq);
	h->due = f->rounds + !pd_threads_due_next(f->th, h->time);
	return UNDECIDED;
drop:
	f->dropped++;
	return DROP;
}

/* Judges the waiting samples due by round `due` (all: UINT64_MAX). */
static void
settle(struct filter *f, uint64_t due)
{
	struct held *h;
	size_t i;

	for (i = f->head; i < f->nheld; i++) {
		h = &f->held[i];
		if (h->state == UNDECIDED && h->due <= due)
			h->state = comm_state(f, h->tid, h->time, h->seq);
	}
}

/* Appends a copy of rec to the records waiting. 0 or -1. */
static int
hold(struct filter *f, const struct pd_rec *rec, const struct held *h)
{
	void *g;
	size_t cap;

	if (f->nheld == f->capheld) {
		cap = f->capheld ? f->capheld * 2 : 1024;
		if ((g = realloc(f->held, cap * sizeof(*f->held))) == NULL)
			return -1;
		f->held = g;
		f->capheld = cap;
	}
	if (f->used + rec->size > f->capbuf) {
		cap = f->capbuf ? f->capbuf : 1U << 20;
		while (cap < f->used + rec->size)
			cap *= 2;
		if ((g = realloc(f->buf, cap)) == NULL)
			return -1;
		f->buf = g;
		f->capbuf = cap;
	}
	memcpy(f->buf + f->used, rec->data, rec->size);
	f->held[f->nheld] = *h;
	f->held[f->nheld].rec = *rec;
	f->held[f->nheld].rec.data = NULL;
	f->held[f->nheld].at = f->used;
	f->nheld++;
	f->used += rec->size;
	if (f->used - f->off > HELD_BYTES_MAX)
		settle(f, UINT64_MAX);
	return 0;
}

int
filter_put(struct filter *f, const struct pd_evlist *el,
    const struct pd_rec *rec, const char **why)
{
	const struct pd_evsel *ev;
	struct held h;
	int r;

	memset(&h, 0, sizeof(h));
	h.state = KEEP;
	if (rec->type != PERF_RECORD_SAMPLE) {
		if (f->th == NULL)
			return FILTER_PASS;
		/* A round judges what it delivers, before it goes. */
		if (rec->type == PD_RECORD_FINISHED_ROUND) {
			settle(f, f->rounds++);
			r = pd_threads_record(f->th, rec, 0);
		} else if (pd_rec_is_kernel(rec->type))
			r = pd_threads_record(f->th, rec,
			    (ev = pd_evlist_for_rec(el, rec)) != NULL ?
			    pd_sample_rec_time(ev, rec) : 0);
		else
			r = 0;
		if (r < 0)
			goto nomem;
		/* A payload is not kept: what waits is judged now. */
		if (rec->payload > 0)
			settle(f, UINT64_MAX);
		if (f->head == f->nheld || rec->payload > 0)
			return FILTER_PASS;
		return hold(f, rec, &h) < 0 ? -1 : FILTER_HELD;
	}
	/* A sample of no known event is not judged: it stays. */
	if ((ev = pd_evlist_for_rec(el, rec)) != NULL) {
		f->seen++;
		if ((h.state = judge(f, ev, rec, &h, why)) < 0)
			return -1;
		if (h.state == DROP)
			return FILTER_DROP;
	}
	if (f->head == f->nheld && h.state == KEEP)
		return FILTER_PASS;
	if (hold(f, rec, &h) < 0)
		goto nomem;
	return FILTER_HELD;
nomem:
	*why = "out of memory";
	return -1;
}

int
filter_take(struct filter *f, struct pd_rec *rec)
{
	struct held *h;

	for (; f->head < f->nheld; f->head++) {
		h = &f->held[f->head];
		if (h->state == UNDECIDED)
			break;
		f->off = h->at + h->rec.size;
		if (h->state == DROP)
			continue;
		*rec = h->rec;
		rec->data = f->buf + h->at;
		f->head++;
		return 1;
	}
	/* Room at the front: move what waits there, now and then. */
	if (f->head == f->nheld) {
		f->head = f->nheld = 0;
		f->used = f->off = 0;
	} else if (f->head > f->nheld / 2 && f->off > f->used / 2) {
		size_t i;

		memmove(f->buf, f->buf + f->off, f->used - f->off);
		memmove(f->held, f->held + f->head,
		    (f->nheld - f->head) * sizeof(*f->held));
		f->nheld -= f->head;
		for (i = 0; i < f->nheld; i++)
			f->held[i].at -= f->off;
		f->used -= f->off;
		f->head = 0;
		f->off = 0;
	}
	return 0;
}

void
filter_finish(struct filter *f)
{
	if (f->th != NULL)
		settle(f, UINT64_MAX);
}
