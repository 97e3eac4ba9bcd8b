/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/sample.h"

#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"

/* A cursor over the record body that never runs past its end. */
struct cur {
	const unsigned char	*p;
	const unsigned char	*end;
	const unsigned char	*base;
};

static int
need(struct cur *c, uint64_t n)
{
	return (uint64_t)(c->end - c->p) >= n;
}

static int
take64(struct cur *c, uint64_t *v)
{
	if (!need(c, 8))
		return -1;
	*v = pd_get_u64(c->p);
	c->p += 8;
	return 0;
}

static int
take32x2(struct cur *c, uint32_t *a, uint32_t *b)
{
	if (!need(c, 8))
		return -1;
	*a = pd_get_u32(c->p);
	*b = pd_get_u32(c->p + 4);
	c->p += 8;
	return 0;
}

/* Skips n u64s, returning where they start, or NULL. */
static const unsigned char *
take_array(struct cur *c, uint64_t n)
{
	const unsigned char *p = c->p;

	if (n > (uint64_t)(c->end - c->p) / 8)
		return NULL;
	c->p += 8 * n;
	return p;
}

static int
take_regs(struct cur *c, uint64_t mask, uint64_t *abi, unsigned *nr,
    const unsigned char **regs)
{
	if (take64(c, abi) < 0)
		return -1;
	*nr = 0;
	*regs = NULL;
	if (*abi == 0)
		return 0;
	*nr = __builtin_popcountll(mask);
	*regs = take_array(c, *nr);
	return *regs == NULL ? -1 : 0;
}

int
pd_sample_parse(const struct pd_evsel *ev, const struct pd_rec *rec,
    struct pd_sample *s, const char **why)
{
	const struct pd_attr *a = &ev->attr;
	uint64_t st = a->sample_type, rf = a->read_format;
	struct cur c;

	memset(s, 0, sizeof(*s));
	s->type = st;
	c.base = rec->data;
	c.p = rec->data + PD_REC_HDR_SIZE;
	c.end = rec->data + rec->size;
	if (!ev->parsable) {
		*why = "sample layout has bits this version does not know";
		return -1;
	}
#define FIELD(bit, what, stmt) do {					\
	if ((st & (bit)) && (stmt) < 0) {				\
		*why = what " runs past the record";			\
		return -1;						\
	}								\
} while (0)
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->identifier_off = c.p - c.base;
	FIELD(PERF_SAMPLE_IDENTIFIER, "identifier", take64(&c, &s->id));
	FIELD(PERF_SAMPLE_IP, "ip", take64(&c, &s->ip));
	FIELD(PERF_SAMPLE_TID, "pid/tid", take32x2(&c, &s->pid, &s->tid));
	FIELD(PERF_SAMPLE_TIME, "time", take64(&c, &s->time));
	FIELD(PERF_SAMPLE_ADDR, "addr", take64(&c, &s->addr));
	if (st & PERF_SAMPLE_ID)
		s->id_off = c.p - c.base;
	FIELD(PERF_SAMPLE_ID, "id", take64(&c, &s->id));
	FIELD(PERF_SAMPLE_STREAM_ID, "stream_id", take64(&c, &s->stream_id));
	FIELD(PERF_SAMPLE_CPU, "cpu", take32x2(&c, &s->cpu, &s->cpu_res));
	FIELD(PERF_SAMPLE_PERIOD, "period", take64(&c, &s->period));
	if (st & PERF_SAMPLE_READ) {
		unsigned stride = 1 + !!(rf & PERF_FORMAT_ID) +
		    !!(rf & PD_FORMAT_LOST);

		s->read_off = c.p - c.base;
		s->read_format = rf;
		s->read_stride = stride;
		if (rf & PERF_FORMAT_GROUP) {
			FIELD(PERF_SAMPLE_READ, "read nr",
			    take64(&c, &s->read_nr));
		} else
			s->read_nr = 1;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			FIELD(PERF_SAMPLE_READ, "read time_enabled",
			    take64(&c, &s->read_time_enabled));
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			FIELD(PERF_SAMPLE_READ, "read time_running",
			    take64(&c, &s->read_time_running));
		if (rf & PERF_FORMAT_GROUP) {
			if (s->read_nr > UINT64_MAX / stride ||
			    (s->read_values = take_array(&c,
			    s->read_nr * stride)) == NULL) {
				*why = "read group values run past the record";
				return -1;
			}
		} else {
			/* value comes before the times: re-lay the cursor */
			c.p = c.base + s->read_off;
			s->read_values = c.p;
			if (take_array(&c, 1) == NULL ||
			    ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
			    take64(&c, &s->read_time_enabled) < 0) ||
			    ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) &&
			    take64(&c, &s->read_time_running) < 0) ||
			    take_array(&c, stride - 1) == NULL) {
				*why = "read values run past the record";
				return -1;
			}
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		FIELD(PERF_SAMPLE_CALLCHAIN, "callchain nr",
		    take64(&c, &s->callchain_nr));
		if ((s->callchain = take_array(&c, s->callchain_nr)) == NULL) {
			*why = "callchain runs past the record";
			return -1;
		}
	}
	if (st & PERF_SAMPLE_RAW) {
		if (!need(&c, 4)) {
			*why = "raw size runs past the record";
			return -1;
		}
		s->raw_size = pd_get_u32(c.p);
		c.p += 4;
		if (!need(&c, s->raw_size)) {
			*why = "raw data runs past the record";
			return -1;
		}
		s->raw = c.p;
		c.p += s->raw_size;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		FIELD(PERF_SAMPLE_BRANCH_STACK, "branch nr",
		    take64(&c, &s->branch_nr));
		/*
		 * The kernel writes a bare nr = 0 without hw_idx when it has
		 * no branch data; accept that as perf would not.
		 */
		if ((a->branch_sample_type & PD_BRANCH_HW_INDEX) &&
		    !(s->branch_nr == 0 && c.p == c.end)) {
			FIELD(PERF_SAMPLE_BRANCH_STACK, "branch hw_idx",
			    take64(&c, &s->branch_hw_idx));
			s->branch_has_hw_idx = 1;
		}
		if (s->branch_nr > UINT64_MAX / 3 ||
		    (s->branch = take_array(&c, 3 * s->branch_nr)) == NULL) {
			*why = "branch stack runs past the record";
			return -1;
		}
		if ((a->branch_sample_type & PD_BRANCH_COUNTERS) &&
		    (s->branch_counters = take_array(&c, s->branch_nr)) ==
		    NULL) {
			*why = "branch counters run past the record";
			return -1;
		}
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		s->regs_user_mask = a->sample_regs_user;
		FIELD(PERF_SAMPLE_REGS_USER, "regs_user",
		    take_regs(&c, a->sample_regs_user, &s->regs_user_abi,
		    &s->regs_user_nr, &s->regs_user));
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		FIELD(PERF_SAMPLE_STACK_USER, "user stack size",
		    take64(&c, &s->stack_size));
		if (s->stack_size != 0) {
			if (!need(&c, s->stack_size)) {
				*why = "user stack runs past the record";
				return -1;
			}
			s->stack = c.p;
			c.p += s->stack_size;
			FIELD(PERF_SAMPLE_STACK_USER, "user stack dyn_size",
			    take64(&c, &s->stack_dyn_size));
			if (s->stack_dyn_size > s->stack_size) {
				*why = "user stack dyn_size > size";
				return -1;
			}
		}
	}
	FIELD(PERF_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT, "weight",
	    take64(&c, &s->weight));
	FIELD(PERF_SAMPLE_DATA_SRC, "data_src", take64(&c, &s->data_src));
	FIELD(PERF_SAMPLE_TRANSACTION, "transaction",
	    take64(&c, &s->transaction));
	if (st & PERF_SAMPLE_REGS_INTR) {
		s->regs_intr_mask = a->sample_regs_intr;
		FIELD(PERF_SAMPLE_REGS_INTR, "regs_intr",
		    take_regs(&c, a->sample_regs_intr, &s->regs_intr_abi,
		    &s->regs_intr_nr, &s->regs_intr));
	}
	FIELD(PERF_SAMPLE_PHYS_ADDR, "phys_addr", take64(&c, &s->phys_addr));
	FIELD(PERF_SAMPLE_CGROUP, "cgroup", take64(&c, &s->cgroup));
	FIELD(PERF_SAMPLE_DATA_PAGE_SIZE, "data_page_size",
	    take64(&c, &s->data_page_size));
	FIELD(PERF_SAMPLE_CODE_PAGE_SIZE, "code_page_size",
	    take64(&c, &s->code_page_size));
	if (st & PERF_SAMPLE_AUX) {
		FIELD(PERF_SAMPLE_AUX, "aux size", take64(&c, &s->aux_size));
		if (!need(&c, s->aux_size)) {
			*why = "aux data runs past the record";
			return -1;
		}
		s->aux = c.p;
		c.p += s->aux_size;
	}
#undef FIELD
	return 0;
}

/* The bits whose fields have a size of their own, or none. */
#define VARIABLE	(PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK |	\
	PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |		\
	PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX)

/* The fixed u64s pd_sample_parse takes after the variable part. */
#define POST_FIXED	(PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |	\
	PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |			\
	PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)

void
pd_sample_shape(const struct pd_evsel *ev, struct pd_sample_shape *sh)
{
	uint64_t st = ev->attr.sample_type, rf = ev->attr.read_format;
	unsigned pre = ev->head.size;

	memset(sh, 0, sizeof(*sh));
	if (!ev->parsable || (st & VARIABLE) ||
	    ((st & PERF_SAMPLE_READ) && (rf & PERF_FORMAT_GROUP)))
		return;
	/* A READ of one value: the value, its times, id and lost. */
	if (st & PERF_SAMPLE_READ)
		pre += 8 * (1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) +
		    !!(rf & PERF_FORMAT_ID) + !!(rf & PD_FORMAT_LOST));
	sh->pre = pre;
	sh->post = 8 * (__builtin_popcountll(st & POST_FIXED) +
	    !!(st & (PERF_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT)));
	sh->chain = (st & PERF_SAMPLE_CALLCHAIN) != 0;
	sh->simple = 1;
}

int
pd_sample_ids_walk(const struct pd_evsel *ev, const struct pd_rec *rec,
    struct pd_sample_ids *ids, const char **why)
{
	struct pd_sample s;

	if (pd_sample_parse(ev, rec, &s, why) < 0)
		return -1;
	ids->identifier_off = s.identifier_off;
	ids->id_off = s.id_off;
	ids->read_off = s.read_off;
	return 0;
}

int
pd_sample_id_parse(const struct pd_evsel *ev, const struct pd_rec *rec,
    struct pd_sample *s, const char **why)
{
	const struct pd_sample_id_layout *l = &ev->trailer;
	const unsigned char *p;
	long at;

	memset(s, 0, sizeof(*s));
	s->type = ev->attr.sample_type;
	if (ev->id_hdr_size == 0)
		return 0;
	if ((at = pd_sample_id_start(ev, rec->size)) < 0) {
		*why = "sample_id trailer does not fit the record";
		return -1;
	}
	p = rec->data + at;
	if (l->tid != PD_HEAD_NONE) {
		s->pid = pd_get_u32(p + l->tid);
		s->tid = pd_get_u32(p + l->tid + 4);
	}
	if (l->time != PD_HEAD_NONE)
		s->time = pd_get_u64(p + l->time);
	if (l->id != PD_HEAD_NONE) {
		s->id_off = at + l->id;
		s->id = pd_get_u64(p + l->id);
	}
	if (l->stream_id != PD_HEAD_NONE)
		s->stream_id = pd_get_u64(p + l->stream_id);
	if (l->cpu != PD_HEAD_NONE) {
		s->cpu = pd_get_u32(p + l->cpu);
		s->cpu_res = pd_get_u32(p + l->cpu + 4);
	}
	if (l->identifier != PD_HEAD_NONE) {
		s->identifier_off = at + l->identifier;
		s->id = pd_get_u64(p + l->identifier);
	}
	return 1;
}

long
pd_sample_rec_time_at(const struct pd_evsel *ev, const struct pd_rec *rec)
{
	size_t off;
	long at;

	if (ev == NULL || !(ev->attr.sample_type & PERF_SAMPLE_TIME))
		return -1;
	if (rec->type == PERF_RECORD_SAMPLE) {
		off = PD_REC_HDR_SIZE + ev->head.time;
	} else {
		if (ev->id_hdr_size == 0 ||
		    (at = pd_sample_id_start(ev, rec->size)) < 0)
			return -1;
		off = at + ev->trailer.time;
	}
	if (off + 8 > rec->size)
		return -1;
	return (long)off;
}

uint64_t
pd_sample_rec_time(const struct pd_evsel *ev, const struct pd_rec *rec)
{
	long off = pd_sample_rec_time_at(ev, rec);

	return off < 0 ? 0 : pd_get_u64(rec->data + off);
}

void
pd_sample_read_entry(const struct pd_sample *s, uint64_t i, uint64_t *value,
    uint64_t *id, uint64_t *lost)
{
	const unsigned char *p = s->read_values;
	uint64_t rf = s->read_format;

	*id = *lost = 0;
	if (rf & PERF_FORMAT_GROUP) {
		p += 8 * s->read_stride * i;
		*value = pd_get_u64(p);
		p += 8;
	} else {
		*value = pd_get_u64(p);
		p += 8 * (1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING));
	}
	if (rf & PERF_FORMAT_ID) {
		*id = pd_get_u64(p);
		p += 8;
	}
	if (rf & PD_FORMAT_LOST)
		*lost = pd_get_u64(p);
}

void
pd_sample_branch(const struct pd_sample *s, uint64_t i, struct pd_branch *b)
{
	const unsigned char *p = s->branch + 24 * i;
	uint64_t fl = pd_get_u64(p + 16);

	b->from = pd_get_u64(p);
	b->to = pd_get_u64(p + 8);
	b->mispred = fl & 1;
	b->predicted = fl >> 1 & 1;
	b->in_tx = fl >> 2 & 1;
	b->abort = fl >> 3 & 1;
	b->cycles = fl >> 4 & 0xffff;
	b->type = fl >> 20 & 0xf;
	b->spec = fl >> 24 & 3;
	b->new_type = fl >> 26 & 0xf;
	b->priv = fl >> 30 & 7;
	b->has_counters = s->branch_counters != NULL;
	b->counters = b->has_counters ?
	    pd_get_u64(s->branch_counters + 8 * i) : 0;
}

uint64_t
pd_sample_period(const struct pd_evsel *ev, const struct pd_sample *s)
{
	return s->type & PERF_SAMPLE_PERIOD ? s->period :
	    ev->attr.sample_period;
}
