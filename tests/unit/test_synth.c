/* SPDX-License-Identifier: MIT */
/*
 * stream/evname, rec/events and rec/synth: event names and the -e
 * parser; records built the way perf lays them out, read back by the
 * reader's own modules (evlist, feature).
 */
#include <stdlib.h>
#include <string.h>

#include "libcommon/rec/events.h"
#include "libcommon/stream/event.h"
#include "libcommon/stream/evname.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/rec/synth.h"
#include "tests/unit/t.h"

static void
test_names(void)
{
	uint32_t type;
	uint64_t config;
	struct pd_attr a;
	char buf[64];

	T(strcmp(pd_event_name(PERF_TYPE_HARDWARE, 0), "cycles") == 0);
	T(strcmp(pd_event_name(PERF_TYPE_SOFTWARE, 9), "dummy") == 0);
	T(pd_event_name(PERF_TYPE_SOFTWARE, 99) == NULL);
	T(pd_event_lookup("cs", &type, &config) == 0 &&
	    type == PERF_TYPE_SOFTWARE && config == 3);
	T(pd_event_lookup("branch-instructions", &type, &config) == 0 &&
	    type == PERF_TYPE_HARDWARE && config == 4);
	T(pd_event_lookup("nosuch", &type, &config) < 0);
	/* evlist names events from the same table. */
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = 2;
	pd_attr_default_name(&a, buf, sizeof(buf));
	T(strcmp(buf, "page-faults") == 0);
}

static void
test_parse(void)
{
	struct pd_event *ev = NULL;
	size_t n = 0;
	char why[128];

	T(pd_events_parse("cycles:u,sched:sched_switch,r1a8,"
	    "{cpu-clock,task-clock}:S,faults:k", &ev, &n, why,
	    sizeof(why)) == 0);
	T(n == 6);
	if (n == 6) {
		T(ev[0].type == PERF_TYPE_HARDWARE && ev[0].exclude_kernel &&
		    !ev[0].exclude_user && strcmp(ev[0].name, "cycles:u") == 0);
		T(ev[1].type == PERF_TYPE_TRACEPOINT &&
		    strcmp(ev[1].tp_sys, "sched") == 0 &&
		    strcmp(ev[1].tp_name, "sched_switch") == 0);
		T(ev[2].type == PERF_TYPE_RAW && ev[2].config == 0x1a8);
		T(ev[3].leader == 3 && ev[4].leader == 3 &&
		    ev[3].nr_members == 2 && ev[3].leader_sample &&
		    !ev[4].leader_sample);
		T(ev[5].leader == 5 && ev[5].exclude_user && ev[5].config == 2);
	}
	free(ev);
	ev = NULL;
	n = 0;
	T(pd_events_parse("{cpu-clock", &ev, &n, why, sizeof(why)) < 0 &&
	    strstr(why, "without") != NULL);
	T(pd_events_parse("cpu-clock:S", &ev, &n, why, sizeof(why)) < 0);
	T(pd_events_parse("bogus", &ev, &n, why, sizeof(why)) < 0 &&
	    strstr(why, "unknown event") != NULL);
	T(pd_events_parse("cpu-clock,,", &ev, &n, why, sizeof(why)) < 0);
	free(ev);
	ev = NULL;
	n = 0;
	/* pmu/terms/: commas inside the slashes are the terms'. */
	T(pd_events_parse("software/config=1,name=tc/,{software/config=0x0,"
	    "period=99,no-inherit/k,tracepoint/config=7/}", &ev, &n, why,
	    sizeof(why)) == 0);
	T(n == 3);
	if (n == 3) {
		T(ev[0].type == PERF_TYPE_SOFTWARE && ev[0].config == 1 &&
		    ev[0].pmu_syntax && strcmp(ev[0].name, "tc") == 0);
		T(ev[1].has_period && ev[1].period == 99 &&
		    ev[1].has_inherit && !ev[1].inherit &&
		    ev[1].exclude_user && ev[1].leader == 1 &&
		    strcmp(ev[1].name, "software/config=0x0,period=99,"
		    "no-inherit/k") == 0);
		T(ev[2].type == PERF_TYPE_TRACEPOINT && ev[2].config == 7 &&
		    ev[2].leader == 1 && ev[1].nr_members == 2);
	}
	free(ev);
	ev = NULL;
	n = 0;
	T(pd_events_parse("software/config=0,bogus=1/", &ev, &n, why,
	    sizeof(why)) < 0 && strstr(why, "unknown term 'bogus'") != NULL);
	T(pd_events_parse("software/config=0", &ev, &n, why,
	    sizeof(why)) < 0 && strstr(why, "closing") != NULL);
	T(pd_events_parse("software/period=0/", &ev, &n, why,
	    sizeof(why)) < 0);
	T(pd_events_parse("no_such_pmu/config=0/", &ev, &n, why,
	    sizeof(why)) < 0 && strstr(why, "no PMU") != NULL);
	free(ev);
}

static void
test_records(void)
{
	struct pd_synth b = { 0 };
	struct perf_event_attr attr;
	struct pd_synth_event se;
	struct pd_header_info hi;
	struct pd_evlist el;
	struct pd_rec rec;
	struct pd_record_mmap m;
	const char *why;
	uint64_t ids[2] = { 7, 9 };
	unsigned char id[20] = { 0xab, 0xcd };
	char *argv[] = { "pdrecord", "-a", NULL };
	size_t off, sz, nfeat = 0;
	uint64_t last = 0;

	memset(&attr, 0, sizeof(attr));
	attr.size = PERF_ATTR_SIZE_VER7;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ID;
	T(pd_synth_attr(&b, &attr, ids, 2) == 0);
	T(b.len == 8 + 128 + 16 && pd_get_u16(b.p + 6) == b.len);
	pd_evlist_init(&el);
	T(pd_evlist_add(&el, b.p + 8, 128, (uint64_t *)(b.p + 136), 2,
	    &why) == 0);
	T(pd_evlist_by_id(&el, 9) == &el.evsels[0]);
	pd_evlist_free(&el);

	/* Features: ids ascending, bodies readable by feature.c. */
	b.len = 0;
	se.attr = &attr;
	se.name = "cpu-clock";
	se.ids = ids;
	se.nids = 2;
	T(pd_synth_features(&b, 2, argv, &se, 1) == 0);
	memset(&hi, 0, sizeof(hi));
	for (off = 0; off + 16 <= b.len; off += sz) {
		sz = pd_get_u16(b.p + off + 6);
		T(pd_get_u32(b.p + off) == PD_RECORD_HEADER_FEATURE);
		memset(&rec, 0, sizeof(rec));
		rec.data = b.p + off;
		rec.type = PD_RECORD_HEADER_FEATURE;
		rec.size = sz;
		T(pd_header_info_update(&hi, &rec) == 0);
		T(pd_get_u64(b.p + off + 8) > last);
		last = pd_get_u64(b.p + off + 8);
		nfeat++;
	}
	T(off == b.len && nfeat >= 9);
	T(hi.nr_cpus_online > 0 && hi.total_mem > 0);
	T(strstr(hi.cmdline, "-a") != NULL);
	T(last == PD_FEAT_EVENT_DESC);

	/* COMM: string padded to 8, zero trailer at the end. */
	b.len = 0;
	T(pd_synth_comm(&b, 10, 11, "abcdefgh", 24) == 0);
	T(b.len == 8 + 8 + 16 + 24 && strcmp((char *)b.p + 16,
	    "abcdefgh") == 0);
	/* The kernel's MMAP, read back through its view. */
	b.len = 0;
	T(pd_synth_kernel_mmaps(&b, 0) == 0);
	if (b.len > 0) {
		pd_rec_view(&rec, b.p);
		T(pd_record_mmap_parse(&rec, &m) == 0 &&
		    strcmp(m.filename, "[kernel.kallsyms]_text") == 0 &&
		    m.pid == (uint32_t)-1);
	}
	/* BUILD_ID: 36-byte head, padded to 8, size byte set. */
	b.len = 0;
	T(pd_synth_build_id(&b, PERF_RECORD_MISC_USER, -1, id, 20,
	    "/bin/x") == 0);
	T(b.len == 48 && pd_get_u16(b.p + 6) == 48 && b.p[32] == 20 &&
	    b.p[12] == 0xab && strcmp((char *)b.p + 36, "/bin/x") == 0 &&
	    (pd_get_u16(b.p + 4) & 0x8000));
	pd_synth_free(&b);
}

int
main(void)
{
	test_names();
	test_parse();
	test_records();
	return T_END();
}
