/* SPDX-License-Identifier: MIT */
/*
 * pdstat: what is in a perf.data stream, at a glance (a table like
 * `perf report --stats`, or JSON), or live while it passes through (-p).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "libcommon/stream/esc.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/idmap.h"
#include "libcommon/cli/msg.h"
#include "libcommon/cli/output.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/samplehead.h"
#include "libcommon/stream/threads.h"
#include "libcommon/sym/symbols.h"
#include "libcommon/stream/utf8.h"
#include "libcommon/stream/writer.h"
#include "pdstat/flame.h"
#include "pdstat/tap.h"
#include "pdstat/top.h"

static const char usage_line[] =
    "usage: pdstat [--json] [-p] [--flamegraph file.svg] [--kallsyms file]\n"
    "              [--no-debuginfod] [--top n [--by sym|dso]] [file ...]\n";

static void
usage(FILE *f, int status)
{
	fputs(usage_line, f);
	if (f == stdout)
		fputs("Summarize perf.data inputs: records, events, lost data, "
		    "time, cpus, tasks.\n\n"
		    "      --flamegraph FILE.svg\n"
		    "                   also draw the samples' call stacks as "
		    "an interactive\n"
		    "                   flame graph (- : standard output, the "
		    "summary going\n"
		    "                   to standard error)\n"
		    "      --json       print the summary as JSON\n"
		    "  -p, --pass       copy the stream to standard output "
		    "unchanged; the summary\n"
		    "                   (and a live status line on a "
		    "terminal) goes to standard error\n"
		    "      --top N      the N hottest symbols of each event "
		    "by their samples'\n"
		    "                   period, as perf report --sort sym\n"
		    "      --by KEY     --top by sym (default) or dso\n"
		    "      --kallsyms FILE  kernel symbols for --top from "
		    "FILE\n"
		    "      --no-debuginfod  never ask DEBUGINFOD_URLS' "
		    "servers for debug info\n"
		    "  -h, --help       this help\n"
		    "      --version    print the version\n"
		    "With no file, or when file is -, read standard input.\n",
		    f);
	exit(status);
}

/*
 * Record types below TYPES_MAX are counted in arrays; the few others
 * (simpleperf's private records, garbage) in a short list whose last
 * slot takes whatever does not fit.
 */
#define TYPES_MAX	128
#define HIGH_MAX	16

struct typetab {
	uint64_t	count[TYPES_MAX];
	uint64_t	bytes[TYPES_MAX];
	uint32_t	htype[HIGH_MAX];
	uint64_t	hcount[HIGH_MAX];
	uint64_t	hbytes[HIGH_MAX];
	unsigned	nhigh;
};

#define CPUS_MAX	(1U << 14)

struct evstat {
	uint64_t	samples, period, lost;
};

struct stats {
	const char	*input;
	int		 file_mode, swapped;
	struct typetab	 recs;		/* records of the stream */
	struct typetab	 synth;		/* from a file header */
	uint64_t	 inner_count;	/* records inside COMPRESSED* */
	uint64_t	 inner_bytes;
	uint64_t	 zcount;	/* COMPRESSED* records themselves */
	uint64_t	 zbytes;
	uint64_t	 payload_bytes;
	uint64_t	 stream_bytes;	/* the input as a pipe stream */

	struct evstat	*ev;
	size_t		 nev;
	uint64_t	 samples;
	uint64_t	 unknown_id;	/* samples of no known event */

	uint64_t	 lost, lost_samples;
	uint64_t	 tmin, tmax;

	uint64_t	*cpu;
	size_t		 ncpu;
	uint64_t	 cpu_other;	/* cpu numbers >= CPUS_MAX */
	int		 have_cpu;

	struct pd_threads *thr;		/* samples by thread, in perf's order */
	int		 have_tid;

	struct pd_header_info hi;
	unsigned	 left_out;	/* file sections a stream cannot carry */
	const char	*left_out_last;
	unsigned	 inexact;	/* foreign records converted in part */
	const char	*inexact_last;
	int		 complete;
	char		 error[320];
};

/* --top: the symbol table of the current input, and its size. */
static struct symtop	*g_top;
static size_t		 g_topn;

/* --flamegraph: the samples of every input, folded. */
static struct flame *flame;

/* The live status line (-p on a terminal). */
static volatile sig_atomic_t tick;

static void
on_alarm(int sig)
{
	(void)sig;
	tick = 1;
}

static void
type_add(struct typetab *t, uint32_t type, uint64_t bytes)
{
	unsigned i;

	if (type < TYPES_MAX) {
		t->count[type]++;
		t->bytes[type] += bytes;
		return;
	}
	for (i = 0; i < t->nhigh && t->htype[i] != type; i++)
		;
	if (i == t->nhigh) {
		if (t->nhigh < HIGH_MAX)
			t->nhigh++;
		i = t->nhigh - 1;	/* the last slot is shared when full */
		if (t->hcount[i] == 0)
			t->htype[i] = type;
	}
	t->hcount[i]++;
	t->hbytes[i] += bytes;
}

static uint64_t
type_total(const struct typetab *t, uint64_t *bytes)
{
	uint64_t n = 0, b = 0;
	unsigned i;

	for (i = 0; i < TYPES_MAX; i++) {
		n += t->count[i];
		b += t->bytes[i];
	}
	for (i = 0; i < t->nhigh; i++) {
		n += t->hcount[i];
		b += t->hbytes[i];
	}
	*bytes = b;
	return n;
}

static const char *
type_name(uint32_t type, char *buf, size_t len)
{
	const char *n = pd_rec_name(type);

	if (n != NULL)
		return n;
	snprintf(buf, len, "TYPE_%" PRIu32, type);
	return buf;
}

static int
grow_events(struct stats *st, size_t n)
{
	struct evstat *e;

	if (n <= st->nev)
		return 0;
	if ((e = realloc(st->ev, n * sizeof(*e))) == NULL)
		return -1;
	memset(e + st->nev, 0, (n - st->nev) * sizeof(*e));
	st->ev = e;
	st->nev = n;
	return 0;
}

static void
note_time(struct stats *st, uint64_t t)
{
	/* perf-synthesized records carry 0 (or all ones): no time. */
	if (t == 0 || t == UINT64_MAX)
		return;
	if (st->tmin == 0 || t < st->tmin)
		st->tmin = t;
	if (t > st->tmax)
		st->tmax = t;
}

/*
 * A SAMPLE: its event, period, cpu, time and thread, read from the head
 * of the sample by the event's layout (samplehead.h): a stream of
 * millions of samples is summed without walking callchains and stacks,
 * or even the fields it does not need. A sample too short for its head
 * is bad data.
 */
static int
do_sample(struct stats *st, struct pd_evlist *el, const struct pd_rec *rec,
    const char **why)
{
	struct pd_evsel *ev = pd_evlist_for_rec(el, rec);
	const struct pd_sample_layout *l;
	struct evstat *e;
	uint64_t time = 0;
	uint32_t cpu;

	st->samples++;
	if (ev == NULL) {
		st->unknown_id++;
		return 0;
	}
	if ((size_t)ev->idx >= st->nev && grow_events(st, el->n) < 0) {
		*why = "out of memory";
		return -1;
	}
	e = &st->ev[ev->idx];
	e->samples++;
	l = &ev->head;
	if (pd_sample_head_check(l, rec, why) < 0)
		return -1;
	e->period += l->period != PD_HEAD_NONE ?
	    pd_head_u64(rec, l->period) : ev->attr.sample_period;
	if (l->time != PD_HEAD_NONE)
		note_time(st, time = pd_head_u64(rec, l->time));
	if (l->cpu != PD_HEAD_NONE) {
		st->have_cpu = 1;
		cpu = pd_head_u32(rec, l->cpu, 0);
		if (cpu >= CPUS_MAX) {
			st->cpu_other++;
		} else {
			if (cpu >= st->ncpu) {
				size_t n = cpu + 1 > 64 ? cpu + 1 : 64;
				uint64_t *c = realloc(st->cpu, n * sizeof(*c));

				if (c == NULL) {
					*why = "out of memory";
					return -1;
				}
				memset(c + st->ncpu, 0,
				    (n - st->ncpu) * sizeof(*c));
				st->cpu = c;
				st->ncpu = n;
			}
			st->cpu[cpu]++;
		}
	}
	if (l->tid != PD_HEAD_NONE) {
		st->have_tid = 1;
		if (pd_threads_sample(st->thr, pd_head_u32(rec, l->tid, 0),
		    pd_head_u32(rec, l->tid, 4), time) < 0) {
			*why = "out of memory";
			return -1;
		}
	}
	return 0;
}

/* Everything but the sample itself. 0, or -1 when out of memory. */
static int
do_record(struct stats *st, struct pd_evlist *el, const struct pd_rec *rec)
{
	struct pd_evsel *ev;
	uint64_t n, t = 0;

	switch (rec->type) {
	case PERF_RECORD_LOST:
		if (rec->size < 24)
			break;
		n = pd_get_u64(rec->data + 16);
		st->lost += n;
		ev = pd_evlist_by_id(el, pd_get_u64(rec->data + 8));
		if (ev == NULL)
			ev = pd_evlist_for_rec(el, rec);
		if (ev != NULL && grow_events(st, el->n) == 0)
			st->ev[ev->idx].lost += n;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (rec->size < 16)
			break;
		n = pd_get_u64(rec->data + 8);
		st->lost_samples += n;
		ev = pd_evlist_for_rec(el, rec);
		if (ev != NULL && grow_events(st, el->n) == 0)
			st->ev[ev->idx].lost += n;
		break;
	case PD_RECORD_HEADER_FEATURE:
		/* A malformed fact is left out; it is not the data. */
		(void)pd_header_info_update(&st->hi, rec);
		break;
	case PD_RECORD_FINISHED_ROUND:
		return pd_threads_record(st->thr, rec, 0);
	}
	if (!pd_rec_is_kernel(rec->type))
		return 0;
	if (el->n > 0 && (ev = pd_evlist_for_rec(el, rec)) != NULL)
		note_time(st, t = pd_sample_rec_time(ev, rec));
	return pd_threads_record(st->thr, rec, t);
}

/* ----- the summary ----- */

static void
fmt_time(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, ns / 1000000000,
	    ns % 1000000000);
}

/* The task tables: the ten processes and comms with most samples. */
#define TOP_N	10

struct tasks {
	struct pd_threads_row	 pids[TOP_N], comms[TOP_N];
	size_t			 np, nc;
};

static void
top_tasks(const struct stats *st, struct tasks *tk)
{
	tk->np = tk->nc = 0;
	if (!st->have_tid)
		return;
	tk->np = pd_threads_top_pids(st->thr, tk->pids, TOP_N);
	tk->nc = pd_threads_top_comms(st->thr, tk->comms, TOP_N);
}

static const char *
event_name(const struct pd_evsel *ev, char *buf, size_t len)
{
	if (ev->name != NULL)
		return ev->name;
	pd_attr_default_name(&ev->attr, buf, len);
	return buf;
}

static void
print_types(FILE *f, const struct typetab *t, uint64_t total)
{
	char buf[32];
	unsigned i;

	for (i = 0; i < TYPES_MAX; i++)
		if (t->count[i] > 0)
			fprintf(f, "%20s %12" PRIu64 "  (%5.1f%%) %14" PRIu64
			    "\n", type_name(i, buf, sizeof(buf)), t->count[i],
			    100.0 * t->count[i] / total, t->bytes[i]);
	for (i = 0; i < t->nhigh; i++)
		fprintf(f, "%20s %12" PRIu64 "  (%5.1f%%) %14" PRIu64 "\n",
		    type_name(t->htype[i], buf, sizeof(buf)), t->hcount[i],
		    100.0 * t->hcount[i] / total, t->hbytes[i]);
}

static void
print_human(FILE *f, const struct stats *st, struct pd_evlist *el)
{
	const struct pd_header_info *hi = &st->hi;
	/* Text from the stream goes out escaped (esc.h), through eb. */
	static char eb[PD_ESC_ROOM(sizeof(hi->cmdline))];
	char buf[64], b2[32];
	struct tasks tk;
	uint64_t total, bytes, sbytes;
	size_t i;

	fprintf(f, "%s: %s%s, %" PRIu64 " bytes%s\n", st->input,
	    st->file_mode ? "perf.data file" : "pipe stream",
	    st->swapped ? " (other byte order)" : "", st->stream_bytes,
	    st->complete ? "" : " read before the error");
	if (hi->hostname[0])
		fprintf(f, "  hostname      %s\n", 
		    pd_esc_str(hi->hostname, eb, sizeof(eb)));
	if (hi->osrelease[0])
		fprintf(f, "  os release    %s\n", 
		    pd_esc_str(hi->osrelease, eb, sizeof(eb)));
	if (hi->version[0])
		fprintf(f, "  perf version  %s\n", 
		    pd_esc_str(hi->version, eb, sizeof(eb)));
	if (hi->arch[0])
		fprintf(f, "  arch          %s\n", 
		    pd_esc_str(hi->arch, eb, sizeof(eb)));
	if (hi->seen & 1U << PD_FEAT_NRCPUS)
		fprintf(f, "  cpus          %" PRIu32 " online, %" PRIu32
		    " available\n", hi->nr_cpus_online, hi->nr_cpus_avail);
	if (hi->cpudesc[0])
		fprintf(f, "  cpu           %s\n", 
		    pd_esc_str(hi->cpudesc, eb, sizeof(eb)));
	if (hi->cmdline[0])
		fprintf(f, "  cmdline       %s\n", 
		    pd_esc_str(hi->cmdline, eb, sizeof(eb)));

	total = type_total(&st->recs, &bytes);
	fprintf(f, "\n%20s %12s  %8s %14s\n", "record", "count", "", "bytes");
	print_types(f, &st->recs, total ? total : 1);
	fprintf(f, "%20s %12" PRIu64 "  %8s %14" PRIu64 "\n", "TOTAL", total,
	    "", bytes);
	if (st->zcount > 0)
		fprintf(f, "  %" PRIu64 " COMPRESSED records (%" PRIu64
		    " bytes) hold %" PRIu64 " of them (%" PRIu64 " bytes)\n",
		    st->zcount, st->zbytes, st->inner_count, st->inner_bytes);
	if (st->payload_bytes > 0)
		fprintf(f, "  out-of-band payload: %" PRIu64 " bytes\n",
		    st->payload_bytes);
	if (type_total(&st->synth, &sbytes) > 0) {
		fprintf(f, "  from the file header:\n");
		print_types(f, &st->synth, type_total(&st->synth, &sbytes));
	}
	if (st->left_out > 0)
		fprintf(f, "  left out of the stream: %u file section%s (last: "
		    "%s)\n", st->left_out, st->left_out > 1 ? "s" : "",
		    st->left_out_last);
	if (st->inexact > 0)
		fprintf(f, "  converted from the other byte order only in "
		    "part: %u record%s (last: %s)\n", st->inexact,
		    st->inexact > 1 ? "s" : "", st->inexact_last ?
		    st->inexact_last : "?");

	fprintf(f, "\n%-32s %12s %20s %12s\n", "event", "samples", "period",
	    "lost");
	for (i = 0; i < el->n; i++) {
		const struct evstat *e = i < st->nev ? &st->ev[i] : NULL;

		fprintf(f, "%-32s %12" PRIu64 " %20" PRIu64 " %12" PRIu64
		    "\n", pd_esc_str(event_name(&el->evsels[i], buf,
		    sizeof(buf)), eb, sizeof(eb)),
		    e ? e->samples : 0, e ? e->period : 0, e ? e->lost : 0);
	}
	if (st->unknown_id > 0)
		fprintf(f, "%-32s %12" PRIu64 "\n", "(unknown id)",
		    st->unknown_id);

	fprintf(f, "\nlost          %" PRIu64 " events in %" PRIu64
	    " LOST records\n", st->lost, st->recs.count[PERF_RECORD_LOST]);
	fprintf(f, "lost samples  %" PRIu64 " in %" PRIu64
	    " LOST_SAMPLES records\n", st->lost_samples,
	    st->recs.count[PERF_RECORD_LOST_SAMPLES]);
	fprintf(f, "throttle      %" PRIu64 " THROTTLE, %" PRIu64
	    " UNTHROTTLE\n", st->recs.count[PERF_RECORD_THROTTLE],
	    st->recs.count[PERF_RECORD_UNTHROTTLE]);
	if (st->tmin != 0) {
		fmt_time(buf, sizeof(buf), st->tmin);
		fmt_time(b2, sizeof(b2), st->tmax);
		fprintf(f, "time          %s .. %s, span %.6f s\n", buf, b2,
		    (st->tmax - st->tmin) / 1e9);
	} else
		fprintf(f, "time          none recorded\n");

	if (st->have_cpu) {
		fprintf(f, "\n%6s %12s\n", "cpu", "samples");
		for (i = 0; i < st->ncpu; i++)
			if (st->cpu[i] > 0)
				fprintf(f, "%6zu %12" PRIu64 "\n", i,
				    st->cpu[i]);
		if (st->cpu_other > 0)
			fprintf(f, "%6s %12" PRIu64 "\n", "other",
			    st->cpu_other);
	}
	if (st->have_tid) {
		top_tasks(st, &tk);
		fprintf(f, "\n%8s %12s  %s\n", "pid", "samples", "comm");
		for (i = 0; i < tk.np; i++)
			fprintf(f, "%8" PRIu32 " %12" PRIu64 "  %s\n",
			    tk.pids[i].pid, tk.pids[i].samples,
			    pd_esc_str(tk.pids[i].comm, eb, sizeof(eb)));
		fprintf(f, "\n%-16s %12s\n", "comm", "samples");
		for (i = 0; i < tk.nc; i++)
			fprintf(f, "%-16s %12" PRIu64 "\n",
			    pd_esc_str(tk.comms[i].comm, eb, sizeof(eb)),
			    tk.comms[i].samples);
		if (pd_threads_untracked(st->thr) > 0)
			fprintf(f, "  %" PRIu64 " samples of threads past the "
			    "first %u are not in these tables\n",
			    pd_threads_untracked(st->thr), PD_THREADS_MAX);
	}
	if (g_top != NULL)
		symtop_print(g_top, f, el, g_topn);
}

/*
 * A string from the stream as a JSON string: well-formed UTF-8 as it
 * is, every other byte (control, DEL, a byte that starts no well-formed
 * sequence) as \u00XX, that byte's value as a code point, as pddump
 * does, so that the output is always valid JSON.
 */
static void
json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k;

	fputc('"', f);
	for (; n > 0; p += k, n -= k) {
		k = 1;
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f ||
		    (k = pd_utf8_seq(p, n)) == 0) {
			fprintf(f, "\\u%04x", *p);
			k = 1;
		} else
			fwrite(p, 1, k, f);
	}
	fputc('"', f);
}

static void
json_types(FILE *f, const struct typetab *t)
{
	const char *sep = "";
	char buf[32];
	unsigned i;

	fputc('{', f);
	for (i = 0; i < TYPES_MAX; i++) {
		if (t->count[i] == 0)
			continue;
		fprintf(f, "%s\n    \"%s\": {\"count\": %" PRIu64 ", "
		    "\"bytes\": %" PRIu64 "}", sep,
		    type_name(i, buf, sizeof(buf)), t->count[i], t->bytes[i]);
		sep = ",";
	}
	for (i = 0; i < t->nhigh; i++) {
		fprintf(f, "%s\n    \"%s\": {\"count\": %" PRIu64 ", "
		    "\"bytes\": %" PRIu64 "}", sep,
		    type_name(t->htype[i], buf, sizeof(buf)), t->hcount[i],
		    t->hbytes[i]);
		sep = ",";
	}
	fprintf(f, "%s}", *sep ? "\n  " : "");
}

static void
json_kv(FILE *f, const char *k, const char *v, const char **sep)
{
	if (v[0] == '\0')
		return;
	fprintf(f, "%s\n    \"%s\": ", *sep, k);
	json_str(f, v);
	*sep = ",";
}

static void
print_json(FILE *f, const struct stats *st, struct pd_evlist *el)
{
	const struct pd_header_info *hi = &st->hi;
	char buf[64];
	struct tasks tk;
	uint64_t total, bytes;
	const char *sep;
	size_t i;

	fprintf(f, "{\n  \"input\": ");
	json_str(f, st->input);
	fprintf(f, ",\n  \"format\": \"%s\",\n  \"swapped\": %s,\n"
	    "  \"complete\": %s,\n  \"error\": ",
	    st->file_mode ? "file" : "pipe", st->swapped ? "true" : "false",
	    st->complete ? "true" : "false");
	if (st->complete)
		fputs("null", f);
	else
		json_str(f, st->error);
	fprintf(f, ",\n  \"stream_bytes\": %" PRIu64 ",\n  \"records\": ",
	    st->stream_bytes);
	json_types(f, &st->recs);
	total = type_total(&st->recs, &bytes);
	fprintf(f, ",\n  \"total\": {\"count\": %" PRIu64 ", \"bytes\": %"
	    PRIu64 "},\n", total, bytes);
	fprintf(f, "  \"compressed\": {\"records\": %" PRIu64 ", \"bytes\": %"
	    PRIu64 ", \"inner_records\": %" PRIu64 ", \"inner_bytes\": %"
	    PRIu64 "},\n", st->zcount, st->zbytes, st->inner_count,
	    st->inner_bytes);
	fprintf(f, "  \"payload_bytes\": %" PRIu64 ",\n  \"left_out_sections\": "
	    "%u,\n  \"inexact_records\": %u,\n  \"header_records\": ",
	    st->payload_bytes, st->left_out, st->inexact);
	json_types(f, &st->synth);
	fprintf(f, ",\n  \"events\": [");
	for (i = 0; i < el->n; i++) {
		const struct evstat *e = i < st->nev ? &st->ev[i] : NULL;

		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, event_name(&el->evsels[i], buf, sizeof(buf)));
		fprintf(f, ", \"samples\": %" PRIu64 ", \"period\": %" PRIu64
		    ", \"lost\": %" PRIu64 "}", e ? e->samples : 0,
		    e ? e->period : 0, e ? e->lost : 0);
	}
	fprintf(f, "%s],\n", el->n ? "\n  " : "");
	fprintf(f, "  \"samples\": %" PRIu64 ",\n  \"unknown_id_samples\": %"
	    PRIu64 ",\n", st->samples, st->unknown_id);
	fprintf(f, "  \"lost\": %" PRIu64 ",\n  \"lost_samples\": %" PRIu64
	    ",\n  \"throttle\": %" PRIu64 ",\n  \"unthrottle\": %" PRIu64
	    ",\n", st->lost, st->lost_samples,
	    st->recs.count[PERF_RECORD_THROTTLE],
	    st->recs.count[PERF_RECORD_UNTHROTTLE]);
	if (st->tmin != 0)
		fprintf(f, "  \"first_time\": %" PRIu64 ",\n  \"last_time\": %"
		    PRIu64 ",\n  \"span\": %" PRIu64 ",\n", st->tmin,
		    st->tmax, st->tmax - st->tmin);
	else
		fprintf(f, "  \"first_time\": null,\n  \"last_time\": null,\n"
		    "  \"span\": null,\n");
	fprintf(f, "  \"cpus\": [");
	for (i = 0, sep = ""; i < st->ncpu; i++) {
		if (st->cpu[i] == 0)
			continue;
		fprintf(f, "%s\n    {\"cpu\": %zu, \"samples\": %" PRIu64 "}",
		    sep, i, st->cpu[i]);
		sep = ",";
	}
	fprintf(f, "%s],\n", *sep ? "\n  " : "");
	top_tasks(st, &tk);
	fprintf(f, "  \"top_pids\": [");
	for (i = 0; i < tk.np; i++) {
		fprintf(f, "%s\n    {\"pid\": %" PRIu32 ", \"comm\": ",
		    i ? "," : "", tk.pids[i].pid);
		json_str(f, tk.pids[i].comm);
		fprintf(f, ", \"samples\": %" PRIu64 "}", tk.pids[i].samples);
	}
	fprintf(f, "%s],\n  \"top_comms\": [", tk.np ? "\n  " : "");
	for (i = 0; i < tk.nc; i++) {
		fprintf(f, "%s\n    {\"comm\": ", i ? "," : "");
		json_str(f, tk.comms[i].comm);
		fprintf(f, ", \"samples\": %" PRIu64 "}",
		    tk.comms[i].samples);
	}
	fprintf(f, "%s],\n  \"header\": {", tk.nc ? "\n  " : "");
	sep = "";
	json_kv(f, "hostname", hi->hostname, &sep);
	json_kv(f, "os_release", hi->osrelease, &sep);
	json_kv(f, "perf_version", hi->version, &sep);
	json_kv(f, "arch", hi->arch, &sep);
	if (hi->seen & 1U << PD_FEAT_NRCPUS) {
		fprintf(f, "%s\n    \"cpus_online\": %" PRIu32 ",\n"
		    "    \"cpus_available\": %" PRIu32, sep,
		    hi->nr_cpus_online, hi->nr_cpus_avail);
		sep = ",";
	}
	json_kv(f, "cpu_desc", hi->cpudesc, &sep);
	json_kv(f, "cmdline", hi->cmdline, &sep);
	fprintf(f, "%s}", *sep ? "\n  " : "");
	if (g_top != NULL) {
		fputs(",\n  \"top\": ", f);
		symtop_json(g_top, f, el, g_topn);
	}
	fputs("\n}\n", f);
}

/* ----- the live status line ----- */

struct status {
	int		 on;
	struct timespec	 last;
	uint64_t	 recs, bytes;	/* at the last refresh */
};

static double
elapsed(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

static void
status_start(struct status *ss)
{
	struct sigaction sa;
	struct itimerval it;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) < 0)
		return;
	/* Four refreshes a second; the loop only tests a flag. */
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 250000;
	it.it_value.tv_usec = 250000;
	if (setitimer(ITIMER_REAL, &it, NULL) < 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ss->last);
	ss->on = 1;
}

static void
status_show(struct status *ss, const struct stats *st, uint64_t recs)
{
	struct timespec now;
	double dt;

	tick = 0;
	/* After Ctrl-C the recorder's summary has the terminal. */
	if (pd_interrupts() > 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	dt = elapsed(&ss->last, &now);
	if (dt <= 0)
		return;
	fprintf(stderr, "\r\033[K%s: %" PRIu64 " records  %.0f records/s  "
	    "%.1f MB/s  %" PRIu64 " samples  %" PRIu64 " lost", pd_progname(),
	    recs, (recs - ss->recs) / dt,
	    (st->stream_bytes - ss->bytes) / dt / 1e6, st->samples,
	    st->lost + st->lost_samples);
	fflush(stderr);
	pd_status_line(1);
	ss->last = now;
	ss->recs = recs;
	ss->bytes = st->stream_bytes;
}

static void
status_stop(struct status *ss)
{
	struct itimerval it;

	if (!ss->on)
		return;
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	fputs("\r\033[K", stderr);
	pd_status_line(0);
	ss->on = 0;
}

/* ----- main ----- */

static void
stats_free(struct stats *st)
{
	free(st->ev);
	free(st->cpu);
	pd_threads_free(st->thr);
}

/*
 * -p hands the stream on in pieces of this size rather than in the
 * writer's larger ones, so that the next program in the pipeline works
 * on one piece while pdstat reads the next (as cat's 128 KiB do).
 */
#define FLUSH_EVERY	(128 * 1024)

static int
is_compressed(uint32_t type)
{
	return type == PD_RECORD_COMPRESSED || type == PD_RECORD_COMPRESSED2;
}

/*
 * What -p writes: the records as stored. Compressed bytes from the other
 * byte order cannot be converted, and the rest of the stream is, so for
 * such an input the records they hold are written instead, plainly, and
 * the COMPRESSED feature goes (as pdcat -d does).
 */
static int
passes(const struct stats *st, const struct pd_rec *rec)
{
	if (!st->swapped)
		return !(rec->flags & PD_REC_DECOMPRESSED);
	if (is_compressed(rec->type))
		return 0;
	return !(rec->type == PD_RECORD_HEADER_FEATURE && rec->size >= 16 &&
	    pd_get_u64(rec->data + 8) == PD_FEAT_COMPRESSED);
}

/*
 * Reads one input to its end or its first error; with `w`, writes every
 * record as stored (and its out-of-band payload) to it. Returns 0, -1
 * on bad input (st->error set), or -2 when writing failed (errno set).
 */
static int
scan(struct pd_reader *rd, struct stats *st, struct pd_writer *w,
    struct status *ss)
{
	struct pd_evlist *el = pd_reader_evlist(rd);
	struct pd_rec rec;
	const char *why;
	uint64_t nrec = 0;
	unsigned long long flushed = 0;
	int r;

	st->stream_bytes = PD_PIPE_HDR_SIZE;
	while ((r = pd_reader_next(rd, &rec)) > 0) {
		nrec++;
		if (rec.flags & PD_REC_SYNTHESIZED) {
			type_add(&st->synth, rec.type, rec.size);
		} else {
			type_add(&st->recs, rec.type, rec.size);
			if (rec.flags & PD_REC_DECOMPRESSED) {
				st->inner_count++;
				st->inner_bytes += rec.size;
			}
		}
		if (!(rec.flags & PD_REC_DECOMPRESSED)) {
			st->stream_bytes += rec.size + rec.payload;
			st->payload_bytes += rec.payload;
			if (is_compressed(rec.type)) {
				st->zcount++;
				st->zbytes += rec.size;
			}
		}
		if (rec.type == PERF_RECORD_SAMPLE) {
			if (do_sample(st, el, &rec, &why) < 0) {
				snprintf(st->error, sizeof(st->error),
				    "offset 0x%" PRIx64 ": SAMPLE: %s",
				    rec.offset, why);
				return -1;
			}
		} else if (do_record(st, el, &rec) < 0) {
			snprintf(st->error, sizeof(st->error), "offset 0x%"
			    PRIx64 ": out of memory", rec.offset);
			return -1;
		}
		if (g_top != NULL && symtop_record(g_top, el, &rec) < 0) {
			snprintf(st->error, sizeof(st->error),
			    "offset 0x%" PRIx64 ": out of memory for --top",
			    rec.offset);
			return -1;
		}
		if (flame != NULL && flame_record(flame, &rec) < 0) {
			snprintf(st->error, sizeof(st->error), "offset 0x%"
			    PRIx64 ": out of memory", rec.offset);
			return -1;
		}
		if (w != NULL && passes(st, &rec)) {
			if (pd_writer_rec(w, &rec) < 0)
				return -2;
			if (pd_writer_offset(w) - flushed >= FLUSH_EVERY) {
				if (pd_writer_flush(w) < 0)
					return -2;
				flushed = pd_writer_offset(w);
			}
			if (rec.payload > 0 &&
			    (r = pd_writer_payload(w, rd)) < 0) {
				if (r == -2)
					return -2;
				break;
			}
		}
		if (tick)
			status_show(ss, st, nrec);
	}
	if (r < 0) {
		const struct pd_err *e = pd_reader_err(rd);

		if (e->has_offset)
			snprintf(st->error, sizeof(st->error),
			    "offset 0x%" PRIx64 ": %s", e->offset, e->msg);
		else
			snprintf(st->error, sizeof(st->error), "%s", e->msg);
		return -1;
	}
	st->complete = 1;
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "by",		required_argument, NULL, 'B' },
		{ "flamegraph",	required_argument, NULL, 'G' },
		{ "help",	no_argument,	NULL, 'h' },
		{ "json",	no_argument,	NULL, 'J' },
		{ "kallsyms",	required_argument, NULL, 'K' },
		{ "no-debuginfod", no_argument,	NULL, 'D' },
		{ "pass",	no_argument,	NULL, 'p' },
		{ "top",	required_argument, NULL, 'T' },
		{ "version",	no_argument,	NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static char *stdin_only[] = { "-", NULL };
	struct pd_output out;
	struct pd_writer *w = NULL;
	struct status ss;
	struct tap tap;
	FILE *sf;
	char **inputs;
	const char *flamepath = NULL;
	static char cmdline[sizeof(((struct pd_header_info *)0)->cmdline)];
	int c, json = 0, pass = 0, ninputs, i, status = PD_EXIT_OK;
	int top = 0, by_dso = 0;
	struct pd_syms_opts so;
	const char *note;
	char *end, ebuf[256];

	pd_setprogname(argv[0]);
	memset(&so, 0, sizeof(so));
	while ((c = getopt_long(argc, argv, "hp", longopts, NULL)) != -1) {
		switch (c) {
		case 'B':
			if (strcmp(optarg, "dso") == 0)
				by_dso = 1;
			else if (strcmp(optarg, "sym") == 0)
				by_dso = 0;
			else {
				pd_warnx("--by: sym or dso, not %s", optarg);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		case 'D':
			/* Nothing in this process asks debuginfod then. */
			so.no_debuginfod = 1;
			(void)unsetenv("DEBUGINFOD_URLS");
			break;
		case 'G':
			flamepath = optarg;
			break;
		case 'h':
			usage(stdout, PD_EXIT_OK);
			break;
		case 'K':
			so.kallsyms = optarg;
			break;
		case 'T':
			errno = 0;
			g_topn = strtoul(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    g_topn == 0 || *optarg == '-') {
				pd_warnx("--top: not a positive count: %s",
				    optarg);
				usage(stderr, PD_EXIT_USAGE);
			}
			top = 1;
			break;
		case 'J':
			json = 1;
			break;
		case 'p':
			pass = 1;
			break;
		case 'V':
			pd_print_version();
			return PD_EXIT_OK;
		default:
			usage(stderr, PD_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	inputs = argc > 0 ? argv : stdin_only;
	ninputs = argc > 0 ? argc : 1;
	if (pass && ninputs > 1) {
		pd_warnx("-p passes one stream through; give at most one "
		    "input");
		usage(stderr, PD_EXIT_USAGE);
	}

	if (pass && flamepath != NULL && strcmp(flamepath, "-") == 0) {
		pd_warnx("-p writes the stream to standard output: give "
		    "--flamegraph a file");
		usage(stderr, PD_EXIT_USAGE);
	}

	memset(&ss, 0, sizeof(ss));
	sf = stdout;
	if (flamepath != NULL) {
		if ((flame = flame_new(so.kallsyms)) == NULL) {
			pd_warnx("out of memory");
			return PD_EXIT_DATA;
		}
		if (strcmp(flamepath, "-") == 0)
			sf = stderr;
	}
	if (pass) {
		if (pd_output_open(&out, NULL) < 0)
			return PD_EXIT_USAGE;
		if ((w = pd_writer_new(out.fd)) == NULL) {
			pd_warnx("out of memory");
			return PD_EXIT_DATA;
		}
		sf = stderr;
	}

	pd_interrupt_init();
	for (i = 0; i < ninputs && !pd_interrupted(); i++) {
		struct stats st;
		struct pd_err err;
		struct pd_reader *rd;
		int r, tapped = 0;

		if (w != NULL)
			rd = tap_open(&tap, inputs[i], PD_RD_DECOMPRESS |
			    PD_RD_KEEP_COMPRESSED, &err);
		else
			rd = pd_reader_open(inputs[i], PD_RD_DECOMPRESS |
			    PD_RD_KEEP_COMPRESSED, &err);
		if (rd == NULL) {
			pd_print_err(&err);
			status = PD_EXIT_DATA;
			continue;
		}
		pd_interrupt_watch(rd);
		if (top && (g_top = symtop_new(&so, by_dso)) == NULL) {
			pd_warnx("out of memory");
			return PD_EXIT_DATA;
		}
		memset(&st, 0, sizeof(st));
		if ((st.thr = pd_threads_new()) == NULL) {
			pd_warnx("out of memory");
			return PD_EXIT_DATA;
		}
		if (flame != NULL && flame_input(flame, pd_reader_evlist(rd)) <
		    0) {
			pd_warnx("out of memory");
			return PD_EXIT_DATA;
		}
		st.input = pd_reader_name(rd);
		st.file_mode = pd_reader_is_file(rd);
		st.swapped = pd_reader_swapped(rd);
		if (w != NULL) {
			/* A native pipe stream is passed on as it comes in. */
			if (!st.swapped &&
			    (tapped = tap_start(&tap, rd, out.fd)) < 0)
				goto write_failed;
			if (!tapped && pd_writer_header(w) < 0)
				goto write_failed;
			if (isatty(STDERR_FILENO))
				status_start(&ss);
		}
		r = scan(rd, &st, tapped ? NULL : w, &ss);
		if (pd_threads_end(st.thr) < 0 && r == 0) {
			snprintf(st.error, sizeof(st.error), "out of memory");
			r = -1;
		}
		if (flame != NULL && flame_input_end(flame) < 0 && r == 0) {
			snprintf(st.error, sizeof(st.error), "out of memory "
			    "for --flamegraph");
			r = -1;
		}
		if (g_top != NULL && symtop_finish(g_top) < 0 && r == 0) {
			snprintf(st.error, sizeof(st.error),
			    "out of memory for --top");
			r = -1;
		}
		status_stop(&ss);
		/* The rest of a bad stream still goes on, unchanged. */
		if (tapped && (tap.werr != 0 || r < 0) && tap_drain(&tap) < 0)
			goto write_failed;
		st.left_out = pd_reader_dropped(rd, &st.left_out_last);
		st.inexact = pd_reader_inexact(rd, &st.inexact_last);
		if (r == -2)
			goto write_failed;
		/* The good records before an error reach the output. */
		if (w != NULL && pd_writer_flush(w) < 0)
			goto write_failed;
		if (i > 0 && !json)
			fputc('\n', sf);
		if (json)
			print_json(sf, &st, pd_reader_evlist(rd));
		else
			print_human(sf, &st, pd_reader_evlist(rd));
		if (fflush(sf) == EOF && sf == stdout)
			pd_die_write("standard output");
		if (r < 0) {
			pd_warnx("%s: %s", st.input, st.error);
			status = PD_EXIT_DATA;
		}
		if (flame != NULL) {
			while ((note = flame_note(flame)) != NULL)
				pd_warnx("%s: %s", st.input, note);
			if (cmdline[0] == '\0')
				memcpy(cmdline, st.hi.cmdline, sizeof(cmdline));
		}
		while (g_top != NULL && (note = symtop_next_note(g_top)) !=
		    NULL)
			pd_warnx("%s", note);
		symtop_free(g_top);
		g_top = NULL;
		stats_free(&st);
		if (w != NULL)
			tap_close(&tap, rd);
		else
			pd_reader_close(rd);
	}
	if (w != NULL) {
		if (pd_writer_free(w) < 0)
			goto write_failed;
		if (pd_output_close(&out, 1) < 0)
			return PD_EXIT_DATA;
	}
	if (flame != NULL) {
		char title[320];

		if (flame_event(flame) != NULL)
			snprintf(title, sizeof(title), "Flame Graph: %s, %"
			    PRIu64 " samples", flame_event(flame),
			    flame_samples(flame));
		else
			snprintf(title, sizeof(title), "Flame Graph: no "
			    "samples");
		if (flame_write(flame, flamepath, title, cmdline) < 0)
			status = PD_EXIT_DATA;
		/* As stackcollapse-perf.pl: one event, the first one. */
		if (flame_left_out(flame) > 0)
			pd_warnx("%s: %" PRIu64 " samples of other events "
			    "than %s left out", flamepath,
			    flame_left_out(flame),
			    pd_esc_str(flame_event(flame), ebuf, sizeof(ebuf)));
		flame_free(flame);
	}
	if (sf == stdout && (ferror(stdout) || fclose(stdout) == EOF))
		pd_die_write("standard output");
	if (status == PD_EXIT_OK && pd_interrupted())
		status = PD_EXIT_INTR;
	return status;

write_failed:
	pd_output_abort(&out);
	pd_die_write(out.name);
}
