/* SPDX-License-Identifier: MIT */
/*
 * pdrecord: the records before the first sample (attrs, features, the tracing
 * data, the threads and maps that already exist) and the build ids at
 * the end.
 */
#include "pdrecord/extern.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "libcommon/cli/msg.h"
#include "libcommon/stream/event.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/samplehead.h"
#include "libcommon/rec/buildid.h"
#include "libcommon/rec/synth.h"
#include "libcommon/stream/writer.h"
#include "libcommon/stream/zenc.h"

static void
put_buf(struct pd_synth *b)
{
	if (queue_put(b->p, b->len) < 0)
		pd_die_nomem();
	b->len = 0;
}

int
preamble(int argc, char **argv, pid_t child)
{
	struct pd_synth_event *sev;
	struct pd_synth_tp *tps;
	struct pd_buildid_cache bidc = { 0 };
	struct pd_synth b = { 0 };
	struct pd_sample_id_layout trailer;
	unsigned char hdr[PD_PIPE_HDR_SIZE];
	size_t i, ntp = 0, idsz;
	int r = -1;

	/* every event sets sample_id_all (events.c) */
	pd_sample_id_layout(evs[0].attr.sample_type, &trailer);
	idsz = trailer.size;
	pd_pipe_header_put(hdr, 0);
	if (pd_synth_put(&b, hdr, sizeof(hdr)) < 0)
		pd_die_nomem();
	sev = calloc(nevs, sizeof(*sev));
	tps = calloc(nevs, sizeof(*tps));
	if (sev == NULL || tps == NULL)
		pd_die_nomem();
	for (i = 0; i < nevs; i++) {
		if (pd_synth_attr(&b, &evs[i].attr, evs[i].ids,
		    evs[i].nids) < 0)
			pd_die_nomem();
		sev[i].attr = &evs[i].attr;
		sev[i].name = evs[i].spec.name;
		sev[i].ids = evs[i].ids;
		sev[i].nids = evs[i].nids;
		/* "tracepoint/config=N/" has no fields, as in perf. */
		if (evs[i].spec.type == PERF_TYPE_TRACEPOINT &&
		    !evs[i].spec.pmu_syntax) {
			tps[ntp].sys = evs[i].spec.tp_sys;
			tps[ntp].name = evs[i].spec.tp_name;
			ntp++;
		}
	}
	if (pd_synth_features(&b, argc, argv, sev, nevs) < 0 ||
	    pd_synth_clockid(&b, evs[0].attr.clockid) < 0)
		pd_die_nomem();
	if (zenc != NULL) {
		/* The COMPRESSED feature, in perf's increasing order. */
		put_buf(&b);
		if (pd_zenc_feature(zenc) < 0 || pd_writer_flush(zw) < 0)
			zfail();
	}
	if (pd_synth_clock_data(&b, evs[0].attr.clockid) < 0)
		pd_die_nomem();
	if (ntp > 0 && pd_synth_tracing_data(&b, TRACEFS, tps, ntp) < 0) {
		pd_warnx("tracing data from %s: %s", TRACEFS,
		    strerror(errno));
		goto out;
	}
	put_buf(&b);
	/* The maps' build ids up front, as the kernel gives its own. */
	b.bids = &bidc;
	if (!evs[0].attr.exclude_kernel &&
	    pd_synth_kernel_mmaps(&b, idsz) < 0)
		pd_die_nomem();
	if (opt.all_cpus || opt.cpu_list != NULL) {
		if (pd_synth_all_processes(&b, opt.data, idsz) < 0)
			pd_die_nomem();
	} else if (child > 0 && cmd_is_target) {
		char comm[16];

		snprintf(comm, sizeof(comm), "%s", pd_progname());
		if (pd_synth_comm(&b, child, child, comm, idsz) < 0)
			pd_die_nomem();
	} else if (pd_synth_processes_of(&b, threads, (size_t)nthreads,
	    opt.data, idsz) < 0) {
		/* -p and -t: the processes of the target threads. */
		pd_die_nomem();
	}
	if (pd_synth_empty(&b, PD_RECORD_FINISHED_INIT) < 0)
		pd_die_nomem();
	note_buf(b.p, b.len);
	put_buf(&b);
	r = 0;
out:
	pd_synth_free(&b);
	pd_buildid_cache_free(&bidc);
	free(sev);
	free(tps);
	return r;
}

/* HEADER_BUILD_ID for the kernel and every mapped ELF file seen. */
void
build_ids(void)
{
	struct pd_synth b = { 0 };
	unsigned char id[20];
	char path[PATH_MAX];
	size_t i, idlen;
	const char *f;

	if (!evs[0].attr.exclude_kernel &&
	    pd_buildid_read("/sys/kernel/notes", 1, id, &idlen) == 0 &&
	    pd_synth_build_id(&b, PERF_RECORD_MISC_KERNEL, -1, id, idlen,
	    "[kernel.kallsyms]") < 0)
		pd_die_nomem();
	for (i = 0; i < files.cap; i++) {
		if ((f = files.v[i]) == NULL)
			continue;
		if (f[0] == '[') {
			/* Kernel modules: "[name]" -> /sys/module/name. */
			size_t n = strcspn(f + 1, "]");

			if (strncmp(f, "[kernel.kallsyms]", 17) == 0 ||
			    f[1 + n] != ']' || n == 0)
				continue;
			snprintf(path, sizeof(path),
			    "/sys/module/%.*s/notes/.note.gnu.build-id",
			    (int)n, f + 1);
			if (pd_buildid_read(path, 1, id, &idlen) == 0 &&
			    pd_synth_build_id(&b, PERF_RECORD_MISC_KERNEL,
			    -1, id, idlen, f) < 0)
				pd_die_nomem();
			continue;
		}
		if (f[0] != '/')
			continue;	/* //anon, memfd and the like */
		if (pd_buildid_read(f, 0, id, &idlen) == 0 &&
		    pd_synth_build_id(&b, PERF_RECORD_MISC_USER, -1, id, idlen,
		    f) < 0)
			pd_die_nomem();
	}
	if (zenc != NULL) {
		if (pd_zenc_plain(zenc, b.p, b.len) < 0 ||
		    pd_writer_flush(zw) < 0)
			zfail();
	} else {
		put_buf(&b);
	}
	pd_synth_free(&b);
}
