/* SPDX-License-Identifier: MIT */
#include "pdstat/print.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "libcommon/cli/json.h"
#include "libcommon/stream/esc.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/threads.h"
#include "pdstat/stats.h"
#include "pdstat/top.h"

static const char *
type_name(uint32_t type, char *buf, size_t len)
{
	const char *n = pd_rec_name(type);

	if (n != NULL)
		return n;
	snprintf(buf, len, "TYPE_%" PRIu32, type);
	return buf;
}

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

void
print_human(FILE *f, const struct stats *st, const struct pd_evlist *el,
    struct symtop *top, size_t topn)
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
	if (st->nhosts > 1) {
		fputs("  hosts         ", f);
		for (i = 0; i < st->nhosts && i < STATS_HOSTS; i++)
			fprintf(f, "%s%s", i ? ", " : "",
			    pd_esc_str(st->hosts[i], eb, sizeof(eb)));
		if (st->nhosts > STATS_HOSTS)
			fprintf(f, " and %u more", st->nhosts - STATS_HOSTS);
		fputc('\n', f);
	} else if (hi->hostname[0])
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

	total = typetab_total(&st->recs, &bytes);
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
	if (typetab_total(&st->synth, &sbytes) > 0) {
		fprintf(f, "  from the file header:\n");
		print_types(f, &st->synth, typetab_total(&st->synth, &sbytes));
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
	for (i = 0; i < pd_evlist_count(el); i++) {
		const struct evstat *e = i < st->nev ? &st->ev[i] : NULL;

		fprintf(f, "%-32s %12" PRIu64 " %20" PRIu64 " %12" PRIu64
		    "\n", pd_esc_str(event_name(pd_evlist_at(el, i), buf,
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
	if (top != NULL)
		symtop_print(top, f, el, topn);
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
	pd_json_str(f, v);
	*sep = ",";
}

void
print_json(FILE *f, const struct stats *st, const struct pd_evlist *el,
    struct symtop *top, size_t topn)
{
	const struct pd_header_info *hi = &st->hi;
	char buf[64];
	struct tasks tk;
	uint64_t total, bytes;
	const char *sep;
	size_t i;

	fprintf(f, "{\n  \"input\": ");
	pd_json_str(f, st->input);
	fprintf(f, ",\n  \"format\": \"%s\",\n  \"swapped\": %s,\n"
	    "  \"complete\": %s,\n  \"error\": ",
	    st->file_mode ? "file" : "pipe", st->swapped ? "true" : "false",
	    st->complete ? "true" : "false");
	if (st->complete)
		fputs("null", f);
	else
		pd_json_str(f, st->error);
	fprintf(f, ",\n  \"stream_bytes\": %" PRIu64 ",\n  \"records\": ",
	    st->stream_bytes);
	json_types(f, &st->recs);
	total = typetab_total(&st->recs, &bytes);
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
	for (i = 0; i < pd_evlist_count(el); i++) {
		const struct evstat *e = i < st->nev ? &st->ev[i] : NULL;

		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		pd_json_str(f, event_name(pd_evlist_at(el, i), buf,
		    sizeof(buf)));
		fprintf(f, ", \"samples\": %" PRIu64 ", \"period\": %" PRIu64
		    ", \"lost\": %" PRIu64 "}", e ? e->samples : 0,
		    e ? e->period : 0, e ? e->lost : 0);
	}
	fprintf(f, "%s],\n", pd_evlist_count(el) ? "\n  " : "");
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
		pd_json_str(f, tk.pids[i].comm);
		fprintf(f, ", \"samples\": %" PRIu64 "}", tk.pids[i].samples);
	}
	fprintf(f, "%s],\n  \"top_comms\": [", tk.np ? "\n  " : "");
	for (i = 0; i < tk.nc; i++) {
		fprintf(f, "%s\n    {\"comm\": ", i ? "," : "");
		pd_json_str(f, tk.comms[i].comm);
		fprintf(f, ", \"samples\": %" PRIu64 "}",
		    tk.comms[i].samples);
	}
	fprintf(f, "%s],\n  \"header\": {", tk.nc ? "\n  " : "");
	sep = "";
	json_kv(f, "hostname", hi->hostname, &sep);
	if (st->nhosts > 1) {
		fprintf(f, "%s\n    \"hosts\": [", sep);
		for (i = 0; i < st->nhosts && i < STATS_HOSTS; i++) {
			fputs(i ? ", " : "", f);
			pd_json_str(f, st->hosts[i]);
		}
		fputc(']', f);
		sep = ",";
	}
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
	if (top != NULL) {
		fputs(",\n  \"top\": ", f);
		symtop_json(top, f, el, topn);
	}
	fputs("\n}\n", f);
}
