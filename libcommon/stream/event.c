/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/event.h"

#include <byteswap.h>
#include <string.h>

#include "libcommon/stream/decode.h"

/*
 * Field offsets from the start of the record, header included, as
 * perf's event.h lays the structs out. The field tables at the end say
 * the same layouts as widths in order; tests/unit/test_event.c builds
 * records here and swaps them there, so the two cannot drift apart.
 */
enum {
	PIPE_MAGIC = 0, PIPE_SIZE = 8,

	COMM_PID = 8, COMM_TID = 12, COMM_COMM = 16,
	FORK_PID = 8, FORK_PPID = 12, FORK_TID = 16, FORK_PTID = 20,
	FORK_TIME = 24, FORK_END = 32,
	MMAP_PID = 8, MMAP_TID = 12, MMAP_START = 16, MMAP_LEN = 24,
	MMAP_PGOFF = 32, MMAP_FILENAME = 40,
	MMAP2_MAJ = 40, MMAP2_MIN = 44, MMAP2_INO = 48, MMAP2_INO_GEN = 56,
	MMAP2_BID_SIZE = 40, MMAP2_BID = 44, MMAP2_PROT = 64,
	MMAP2_FLAGS = 68, MMAP2_FILENAME = 72,
	LOST_ID = 8, LOST_ID_END = 16, LOST_LOST = 16, LOST_END = 24,
	LOST_SAMPLES_LOST = 8, LOST_SAMPLES_END = 16,
	THROTTLE_ID = 16, THROTTLE_END = 24,
	SWITCH_PID = 8, SWITCH_TID = 12, SWITCH_END = 16,
	READ_PID = 8, READ_TID = 12, READ_VALUES = 16,
	AUXTRACE_TID = 36, AUXTRACE_END = 48,
	AUXERR_PID = 20, AUXERR_TID = 24,
	TMAP_NR = 8, TMAP_ENTRIES = 16, TMAP_ENTRY = 24,

	ATTR_ATTR = 8,
	BID_PID = 8, BID_ID = 12, BID_SIZE = 32, BID_FILENAME = 36,
	TD_SIZE = 8, TD_DATA = 12, TD_END = 16,
	IDX_NR = 8, IDX_ENTRIES = 16, IDX_ENTRY = 32,
	IDX_E_ID = 0, IDX_E_IDX = 8, IDX_E_CPU = 16, IDX_E_TID = 24,
	AUXTRACE_SIZE = 8, AUXTRACE_SIZE_END = 16,
	EU_TYPE = 8, EU_ID = 16, EU_DATA = 24,
	STAT_ID = 8, STAT_ID_END = 16,
	FEAT_ID = 8, FEAT_DATA = PD_RECORD_FEATURE_HEAD,
	COMP_VERSION = 16, COMP_TYPE = 20, COMP_LEVEL = 24, COMP_RATIO = 28,
	COMP_MMAP_LEN = 32, COMP_END = 36,
	CLK_VERSION = 16, CLK_CLOCKID = 20, CLK_TOD = 24, CLK_CLOCK = 32,
	CLK_END = 40,
	Z1_DATA = 8, Z2_DATA_SIZE = 8, Z2_DATA = 16
};

#define BUILD_ID_MAX	20

static const unsigned char *
at(const struct pd_rec *rec, size_t off)
{
	return rec->data + off;
}

static uint32_t
get32(const struct pd_rec *rec, size_t off)
{
	return pd_get_u32(rec->data + off);
}

static uint64_t
get64(const struct pd_rec *rec, size_t off)
{
	return pd_get_u64(rec->data + off);
}

/* A string at off, NUL-terminated within the record; NULL without. */
static const char *
str_at(const struct pd_rec *rec, size_t off, size_t *len)
{
	const char *s, *z;

	if (rec->size <= off)
		return NULL;
	s = (const char *)rec->data + off;
	if ((z = memchr(s, '\0', rec->size - off)) == NULL)
		return NULL;
	*len = z - s;
	return s;
}

static void
put32(unsigned char *p, size_t off, uint32_t v, int swap)
{
	pd_put_u32(p + off, swap ? bswap_32(v) : v);
}

static void
put64(unsigned char *p, size_t off, uint64_t v, int swap)
{
	pd_put_u64(p + off, swap ? bswap_64(v) : v);
}

/* A string with its NUL and zero padding to 8 at off; returns the end. */
static size_t
put_str(unsigned char *p, size_t off, const char *s, size_t len)
{
	size_t n = PD_ALIGN8(len + 1);

	memcpy(p + off, s, len);
	memset(p + off + len, 0, n - len);
	return off + n;
}

/* ---- header ----------------------------------------------------------- */

void
pd_rec_view(struct pd_rec *rec, const void *p)
{
	rec->offset = 0;
	rec->data = p;
	rec->payload = 0;
	rec->type = pd_header_type(p);
	rec->misc = pd_header_misc(p);
	rec->size = pd_header_size(p);
	rec->flags = 0;
}

void
pd_pipe_header_put(void *p, int swap)
{
	put64(p, PIPE_MAGIC, PD_MAGIC2, swap);
	put64(p, PIPE_SIZE, PD_PIPE_HDR_SIZE, swap);
}

/* ---- kernel records ------------------------------------------------- */

int
pd_record_comm_parse(const struct pd_rec *rec, struct pd_record_comm *c)
{
	if (rec->type != PERF_RECORD_COMM ||
	    (c->comm = str_at(rec, COMM_COMM, &c->comm_len)) == NULL)
		return -1;
	c->pid = get32(rec, COMM_PID);
	c->tid = get32(rec, COMM_TID);
	c->exec = (rec->misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
	return 0;
}

size_t
pd_record_comm_build(void *vp, size_t cap, uint16_t misc,
    const struct pd_record_comm *c, size_t idsz, int swap)
{
	unsigned char *p = vp;
	size_t size = COMM_COMM + PD_ALIGN8(c->comm_len + 1) + idsz;

	if (size > cap)
		return size;
	pd_header_put(p, PERF_RECORD_COMM, misc, size, swap);
	put32(p, COMM_PID, c->pid, swap);
	put32(p, COMM_TID, c->tid, swap);
	memset(p + put_str(p, COMM_COMM, c->comm, c->comm_len), 0, idsz);
	return size;
}

int
pd_record_fork_parse(const struct pd_rec *rec, struct pd_record_fork *f)
{
	if ((rec->type != PERF_RECORD_FORK && rec->type != PERF_RECORD_EXIT) ||
	    rec->size < FORK_END)
		return -1;
	f->pid = get32(rec, FORK_PID);
	f->ppid = get32(rec, FORK_PPID);
	f->tid = get32(rec, FORK_TID);
	f->ptid = get32(rec, FORK_PTID);
	f->time = get64(rec, FORK_TIME);
	return 0;
}

size_t
pd_record_fork_build(void *vp, size_t cap, uint32_t type,
    const struct pd_record_fork *f, size_t idsz, int swap)
{
	unsigned char *p = vp;
	size_t size = FORK_END + idsz;

	if (size > cap)
		return size;
	pd_header_put(p, type, 0, size, swap);
	put32(p, FORK_PID, f->pid, swap);
	put32(p, FORK_PPID, f->ppid, swap);
	put32(p, FORK_TID, f->tid, swap);
	put32(p, FORK_PTID, f->ptid, swap);
	put64(p, FORK_TIME, f->time, swap);
	memset(p + FORK_END, 0, idsz);
	return size;
}

int
pd_record_mmap_parse(const struct pd_rec *rec, struct pd_record_mmap *m)
{
	if (rec->type != PERF_RECORD_MMAP || (m->filename = str_at(rec,
	    MMAP_FILENAME, &m->filename_len)) == NULL)
		return -1;
	m->pid = get32(rec, MMAP_PID);
	m->tid = get32(rec, MMAP_TID);
	m->start = get64(rec, MMAP_START);
	m->len = get64(rec, MMAP_LEN);
	m->pgoff = get64(rec, MMAP_PGOFF);
	return 0;
}

size_t
pd_record_mmap_build(void *vp, size_t cap, uint16_t misc,
    const struct pd_record_mmap *m, size_t idsz, int swap)
{
	unsigned char *p = vp;
	size_t size = MMAP_FILENAME + PD_ALIGN8(m->filename_len + 1) + idsz;

	if (size > cap)
		return size;
	pd_header_put(p, PERF_RECORD_MMAP, misc, size, swap);
	put32(p, MMAP_PID, m->pid, swap);
	put32(p, MMAP_TID, m->tid, swap);
	put64(p, MMAP_START, m->start, swap);
	put64(p, MMAP_LEN, m->len, swap);
	put64(p, MMAP_PGOFF, m->pgoff, swap);
	memset(p + put_str(p, MMAP_FILENAME, m->filename, m->filename_len),
	    0, idsz);
	return size;
}

int
pd_record_mmap2_parse(const struct pd_rec *rec, struct pd_record_mmap2 *m)
{
	if (rec->type != PERF_RECORD_MMAP2 || (m->filename = str_at(rec,
	    MMAP2_FILENAME, &m->filename_len)) == NULL)
		return -1;
	m->pid = get32(rec, MMAP_PID);
	m->tid = get32(rec, MMAP_TID);
	m->start = get64(rec, MMAP_START);
	m->len = get64(rec, MMAP_LEN);
	m->pgoff = get64(rec, MMAP_PGOFF);
	if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		m->maj = m->min = 0;
		m->ino = m->ino_generation = 0;
		m->build_id = at(rec, MMAP2_BID);
		m->build_id_size = rec->data[MMAP2_BID_SIZE];
		if (m->build_id_size > BUILD_ID_MAX)
			m->build_id_size = BUILD_ID_MAX;
	} else {
		m->maj = get32(rec, MMAP2_MAJ);
		m->min = get32(rec, MMAP2_MIN);
		m->ino = get64(rec, MMAP2_INO);
		m->ino_generation = get64(rec, MMAP2_INO_GEN);
		m->build_id = NULL;
		m->build_id_size = 0;
	}
	m->prot = get32(rec, MMAP2_PROT);
	m->flags = get32(rec, MMAP2_FLAGS);
	return 0;
}

size_t
pd_record_mmap2_build(void *vp, size_t cap, uint16_t misc,
    const struct pd_record_mmap2 *m, size_t idsz, int swap)
{
	unsigned char *p = vp;
	size_t size = MMAP2_FILENAME + PD_ALIGN8(m->filename_len + 1) + idsz;
	uint8_t n;

	if (size > cap)
		return size;
	pd_header_put(p, PERF_RECORD_MMAP2, misc, size, swap);
	put32(p, MMAP_PID, m->pid, swap);
	put32(p, MMAP_TID, m->tid, swap);
	put64(p, MMAP_START, m->start, swap);
	put64(p, MMAP_LEN, m->len, swap);
	put64(p, MMAP_PGOFF, m->pgoff, swap);
	if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		n = m->build_id_size < BUILD_ID_MAX ? m->build_id_size :
		    BUILD_ID_MAX;
		memset(p + MMAP2_BID_SIZE, 0, MMAP2_PROT - MMAP2_BID_SIZE);
		p[MMAP2_BID_SIZE] = n;
		memcpy(p + MMAP2_BID, m->build_id, n);
	} else {
		put32(p, MMAP2_MAJ, m->maj, swap);
		put32(p, MMAP2_MIN, m->min, swap);
		put64(p, MMAP2_INO, m->ino, swap);
		put64(p, MMAP2_INO_GEN, m->ino_generation, swap);
	}
	put32(p, MMAP2_PROT, m->prot, swap);
	put32(p, MMAP2_FLAGS, m->flags, swap);
	memset(p + put_str(p, MMAP2_FILENAME, m->filename, m->filename_len),
	    0, idsz);
	return size;
}

int
pd_record_lost_parse(const struct pd_rec *rec, struct pd_record_lost *l)
{
	if (rec->type != PERF_RECORD_LOST || rec->size < LOST_END)
		return -1;
	l->id = get64(rec, LOST_ID);
	l->lost = get64(rec, LOST_LOST);
	return 0;
}

int
pd_record_lost_samples_parse(const struct pd_rec *rec,
    struct pd_record_lost_samples *l)
{
	if (rec->type != PERF_RECORD_LOST_SAMPLES ||
	    rec->size < LOST_SAMPLES_END)
		return -1;
	l->lost = get64(rec, LOST_SAMPLES_LOST);
	return 0;
}

int
pd_record_switch_parse(const struct pd_rec *rec, struct pd_record_switch *s)
{
	s->next_prev_pid = s->next_prev_tid = 0;
	if (rec->type == PERF_RECORD_SWITCH_CPU_WIDE) {
		if (rec->size < SWITCH_END)
			return -1;
		s->next_prev_pid = get32(rec, SWITCH_PID);
		s->next_prev_tid = get32(rec, SWITCH_TID);
	} else if (rec->type != PERF_RECORD_SWITCH)
		return -1;
	s->out = (rec->misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
	s->preempt = (rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
	return 0;
}

int
pd_record_read_parse(const struct pd_rec *rec, struct pd_record_read *r)
{
	if (rec->type != PERF_RECORD_READ || rec->size < READ_VALUES)
		return -1;
	r->pid = get32(rec, READ_PID);
	r->tid = get32(rec, READ_TID);
	r->values = at(rec, READ_VALUES);
	r->values_len = rec->size - READ_VALUES;
	return 0;
}

/* ---- perf's own records -------------------------------------------- */

int
pd_record_header_attr_parse(const struct pd_rec *rec,
    struct pd_record_header_attr *a)
{
	size_t asz;

	if (rec->type != PD_RECORD_HEADER_ATTR ||
	    rec->size < ATTR_ATTR + PD_ATTR_SIZE_VER0)
		return -1;
	a->attr = at(rec, ATTR_ATTR);
	a->attr_size = pd_get_u32(a->attr + PD_ATTR_OFF_SIZE);
	asz = a->attr_size != 0 ? a->attr_size : PD_ATTR_SIZE_VER0;
	a->ids = NULL;
	a->nids = 0;
	if (asz <= (size_t)rec->size - ATTR_ATTR) {
		a->ids = a->attr + asz;
		a->nids = (rec->size - ATTR_ATTR - asz) / 8;
	}
	return 0;
}

size_t
pd_record_header_attr_ids_max(size_t attr_size)
{
	return (PD_REC_MAX - ATTR_ATTR - PD_ALIGN8(attr_size)) / 8;
}

int
pd_record_header_build_id_parse(const struct pd_rec *rec,
    struct pd_record_header_build_id *b)
{
	if (rec->type != PD_RECORD_HEADER_BUILD_ID || (b->filename =
	    str_at(rec, BID_FILENAME, &b->filename_len)) == NULL)
		return -1;
	b->pid = (int32_t)get32(rec, BID_PID);
	b->build_id = at(rec, BID_ID);
	b->build_id_size = BUILD_ID_MAX;
	if ((rec->misc & PD_RECORD_MISC_BUILD_ID_SIZE) &&
	    rec->data[BID_SIZE] < BUILD_ID_MAX)
		b->build_id_size = rec->data[BID_SIZE];
	return 0;
}

size_t
pd_record_header_build_id_build(void *vp, size_t cap, uint16_t misc,
    const struct pd_record_header_build_id *b, int swap)
{
	unsigned char *p = vp;
	size_t size = PD_ALIGN8(BID_FILENAME + b->filename_len + 1);
	uint8_t n = b->build_id_size < BUILD_ID_MAX ? b->build_id_size :
	    BUILD_ID_MAX;

	if (size > cap)
		return size;
	memset(p, 0, size);
	pd_header_put(p, PD_RECORD_HEADER_BUILD_ID, misc, size, swap);
	put32(p, BID_PID, (uint32_t)b->pid, swap);
	memcpy(p + BID_ID, b->build_id, n);
	p[BID_SIZE] = n;
	memcpy(p + BID_FILENAME, b->filename, b->filename_len);
	return size;
}

int
pd_record_header_tracing_data_parse(const struct pd_rec *rec,
    struct pd_record_header_tracing_data *t)
{
	if (rec->type != PD_RECORD_HEADER_TRACING_DATA || rec->size < TD_DATA)
		return -1;
	t->size = get32(rec, TD_SIZE);
	/* simpleperf writes the data inside the record, perf after it */
	t->data = NULL;
	if (rec->size >= TD_DATA + PD_TRACING_MAGIC_LEN &&
	    t->size <= (size_t)rec->size - TD_DATA &&
	    memcmp(at(rec, TD_DATA), PD_TRACING_MAGIC,
	    PD_TRACING_MAGIC_LEN) == 0)
		t->data = at(rec, TD_DATA);
	return 0;
}

size_t
pd_record_header_tracing_data_build(void *vp, size_t cap, uint16_t misc,
    uint32_t size, int swap)
{
	unsigned char *p = vp;

	if (TD_END > cap)
		return TD_END;
	pd_header_put(p, PD_RECORD_HEADER_TRACING_DATA, misc, TD_END, swap);
	put32(p, TD_SIZE, size, swap);
	put32(p, TD_DATA, 0, swap);
	return TD_END;
}

uint64_t
pd_record_payload(const struct pd_rec *rec)
{
	if (rec->type == PD_RECORD_HEADER_TRACING_DATA && rec->size >= TD_DATA)
		return get32(rec, TD_SIZE);
	if (rec->type == PD_RECORD_AUXTRACE && rec->size >= AUXTRACE_SIZE_END)
		return get64(rec, AUXTRACE_SIZE);
	return 0;
}

int
pd_record_id_index_parse(const struct pd_rec *rec,
    struct pd_record_id_index *x)
{
	if (rec->type != PD_RECORD_ID_INDEX || rec->size < IDX_ENTRIES)
		return -1;
	x->nr = get64(rec, IDX_NR);
	x->fit = (rec->size - IDX_ENTRIES) / IDX_ENTRY;
	if (x->fit > x->nr)
		x->fit = x->nr;
	x->entries = at(rec, IDX_ENTRIES);
	return 0;
}

void
pd_record_id_index_entry(const struct pd_record_id_index *x, uint64_t i,
    struct pd_id_index_entry *e)
{
	const unsigned char *p = x->entries + IDX_ENTRY * i;

	e->id = pd_get_u64(p + IDX_E_ID);
	e->idx = pd_get_u64(p + IDX_E_IDX);
	e->cpu = pd_get_u32(p + IDX_E_CPU);
	e->tid = pd_get_u32(p + IDX_E_TID);
}

int
pd_record_event_update_parse(const struct pd_rec *rec,
    struct pd_record_event_update *u)
{
	if (rec->type != PD_RECORD_EVENT_UPDATE || rec->size < EU_DATA)
		return -1;
	u->type = get64(rec, EU_TYPE);
	u->id = get64(rec, EU_ID);
	u->data = at(rec, EU_DATA);
	u->len = rec->size - EU_DATA;
	u->str = NULL;
	u->str_len = 0;
	if (u->type == PD_EVENT_UPDATE_UNIT ||
	    u->type == PD_EVENT_UPDATE_NAME) {
		u->str = (const char *)u->data;
		u->str_len = strnlen(u->str, u->len);
	}
	return 0;
}

size_t
pd_record_event_update_name_build(void *vp, size_t cap, uint64_t id,
    const char *name, size_t len, int swap)
{
	unsigned char *p = vp;
	size_t size = EU_DATA + PD_ALIGN8(len + 1);

	if (size > cap)
		return size;
	pd_header_put(p, PD_RECORD_EVENT_UPDATE, 0, size, swap);
	put64(p, EU_TYPE, PD_EVENT_UPDATE_NAME, swap);
	put64(p, EU_ID, id, swap);
	put_str(p, EU_DATA, name, len);
	return size;
}

int
pd_record_header_feature_parse(const struct pd_rec *rec,
    struct pd_record_header_feature *f)
{
	if (rec->type != PD_RECORD_HEADER_FEATURE || rec->size < FEAT_DATA)
		return -1;
	f->feat_id = get64(rec, FEAT_ID);
	f->data = at(rec, FEAT_DATA);
	f->size = rec->size - FEAT_DATA;
	return 0;
}

size_t
pd_record_header_feature_build(void *vp, size_t cap, uint64_t feat,
    const void *body, size_t len, int swap)
{
	unsigned char *p = vp;
	size_t size = FEAT_DATA + len;

	if (size > cap)
		return size;
	pd_header_put(p, PD_RECORD_HEADER_FEATURE, 0, size, swap);
	put64(p, FEAT_ID, feat, swap);
	if (body != NULL)
		memcpy(p + FEAT_DATA, body, len);
	return size;
}

int
pd_feat_compressed_parse(const struct pd_rec *rec,
    struct pd_feat_compressed *c)
{
	if (rec->type != PD_RECORD_HEADER_FEATURE || rec->size < COMP_END ||
	    get64(rec, FEAT_ID) != PD_FEAT_COMPRESSED)
		return -1;
	c->version = get32(rec, COMP_VERSION);
	c->type = get32(rec, COMP_TYPE);
	c->level = get32(rec, COMP_LEVEL);
	c->ratio = get32(rec, COMP_RATIO);
	c->mmap_len = get32(rec, COMP_MMAP_LEN);
	return 0;
}

size_t
pd_feat_compressed_build(void *vp, size_t cap,
    const struct pd_feat_compressed *c, int swap)
{
	unsigned char *p = vp;

	/* 36 bytes, unpadded, byte for byte what perf writes */
	if (COMP_END > cap)
		return COMP_END;
	pd_header_put(p, PD_RECORD_HEADER_FEATURE, 0, COMP_END, swap);
	put64(p, FEAT_ID, PD_FEAT_COMPRESSED, swap);
	put32(p, COMP_VERSION, c->version, swap);
	put32(p, COMP_TYPE, c->type, swap);
	put32(p, COMP_LEVEL, c->level, swap);
	put32(p, COMP_RATIO, c->ratio, swap);
	put32(p, COMP_MMAP_LEN, c->mmap_len, swap);
	return COMP_END;
}

int
pd_feat_clock_data_parse(const struct pd_rec *rec,
    struct pd_feat_clock_data *c)
{
	if (rec->type != PD_RECORD_HEADER_FEATURE || rec->size < CLK_END ||
	    get64(rec, FEAT_ID) != PD_FEAT_CLOCK_DATA)
		return -1;
	c->version = get32(rec, CLK_VERSION);
	c->clockid = get32(rec, CLK_CLOCKID);
	c->tod_ns = get64(rec, CLK_TOD);
	c->clockid_ns = get64(rec, CLK_CLOCK);
	return 0;
}

size_t
pd_feat_clock_data_build(void *vp, size_t cap,
    const struct pd_feat_clock_data *c, int swap)
{
	unsigned char *p = vp;

	if (CLK_END > cap)
		return CLK_END;
	pd_header_put(p, PD_RECORD_HEADER_FEATURE, 0, CLK_END, swap);
	put64(p, FEAT_ID, PD_FEAT_CLOCK_DATA, swap);
	put32(p, CLK_VERSION, c->version, swap);
	put32(p, CLK_CLOCKID, c->clockid, swap);
	put64(p, CLK_TOD, c->tod_ns, swap);
	put64(p, CLK_CLOCK, c->clockid_ns, swap);
	return CLK_END;
}

int
pd_record_compressed_parse(const struct pd_rec *rec,
    struct pd_record_compressed *c)
{
	c->data = NULL;
	c->data_size = 0;
	if (rec->type == PD_RECORD_COMPRESSED) {
		if (rec->size < Z1_DATA)
			return -1;
		c->data = at(rec, Z1_DATA);
		c->data_size = rec->size - Z1_DATA;
		return 0;
	}
	if (rec->type != PD_RECORD_COMPRESSED2 || rec->size < Z2_DATA)
		return -1;
	c->data_size = get64(rec, Z2_DATA_SIZE);
	if (c->data_size > (size_t)rec->size - Z2_DATA)
		return -1;
	c->data = at(rec, Z2_DATA);
	return 0;
}

size_t
pd_record_compressed_head(void *p, uint32_t type, size_t data_size,
    size_t *size, int swap)
{
	if (type == PD_RECORD_COMPRESSED) {
		*size = Z1_DATA + data_size;
		pd_header_put(p, type, 0, *size, swap);
		return Z1_DATA;
	}
	*size = PD_ALIGN8(Z2_DATA + data_size);
	pd_header_put(p, type, 0, *size, swap);
	put64(p, Z2_DATA_SIZE, data_size, swap);
	return Z2_DATA;
}

void
pd_record_id_offsets(const struct pd_rec *rec,
    void (*fn)(void *ctx, size_t off), void *ctx)
{
	struct pd_record_header_attr a;
	struct pd_record_id_index x;
	size_t i;

	switch (rec->type) {
	case PD_RECORD_HEADER_ATTR:
		if (pd_record_header_attr_parse(rec, &a) == 0)
			for (i = 0; i < a.nids; i++)
				fn(ctx, a.ids + 8 * i - rec->data);
		break;
	case PD_RECORD_ID_INDEX:
		if (pd_record_id_index_parse(rec, &x) == 0)
			for (i = 0; i < x.fit; i++)
				fn(ctx, IDX_ENTRIES + IDX_ENTRY * i + IDX_E_ID);
		break;
	case PD_RECORD_EVENT_UPDATE:
		if (rec->size >= EU_DATA)
			fn(ctx, EU_ID);
		break;
	case PD_RECORD_STAT:
		if (rec->size >= STAT_ID_END)
			fn(ctx, STAT_ID);
		break;
	case PERF_RECORD_LOST:
		if (rec->size >= LOST_ID_END)
			fn(ctx, LOST_ID);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (rec->size >= THROTTLE_END)
			fn(ctx, THROTTLE_ID);
		break;
	}
}

void
pd_record_pid_offsets(const struct pd_rec *rec,
    void (*fn)(void *ctx, size_t off, unsigned width), void *ctx)
{
	struct pd_record_id_index x;
	uint64_t i, nr;

	switch (rec->type) {
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (rec->size >= FORK_TIME) {
			fn(ctx, FORK_PID, 4);
			fn(ctx, FORK_PPID, 4);
			fn(ctx, FORK_TID, 4);
			fn(ctx, FORK_PTID, 4);
		}
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_READ:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_NAMESPACES:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* pid and tid first in each (COMM_PID, MMAP_PID, SWITCH_PID) */
		if (rec->size >= COMM_TID + 4) {
			fn(ctx, COMM_PID, 4);
			fn(ctx, COMM_TID, 4);
		}
		break;
	case PD_RECORD_AUXTRACE:
		if (rec->size >= AUXTRACE_END)
			fn(ctx, AUXTRACE_TID, 4);
		break;
	case PD_RECORD_AUXTRACE_ERROR:
		if (rec->size >= AUXERR_TID + 4) {
			fn(ctx, AUXERR_PID, 4);
			fn(ctx, AUXERR_TID, 4);
		}
		break;
	case PD_RECORD_ID_INDEX:
		if (pd_record_id_index_parse(rec, &x) == 0)
			for (i = 0; i < x.fit; i++)
				fn(ctx, IDX_ENTRIES + IDX_ENTRY * i + IDX_E_TID,
				    4);
		break;
	case PD_RECORD_THREAD_MAP:
		if (rec->size < TMAP_ENTRIES)
			break;
		nr = get64(rec, TMAP_NR);
		for (i = 0; i < nr && i < (uint64_t)(rec->size - TMAP_ENTRIES) /
		    TMAP_ENTRY; i++)
			fn(ctx, TMAP_ENTRIES + TMAP_ENTRY * i, 8);
		break;
	}
}

/* ---- field tables ----------------------------------------------------- */

#define NUM(name, size, fmt)	{ name, size == 8 ? PD_F_U64 :		\
	size == 4 ? PD_F_U32 : size == 2 ? PD_F_U16 : PD_F_U8, size, fmt, NULL }
#define U16(name)	NUM(name, 2, PD_D_U)
#define X16(name)	NUM(name, 2, PD_D_X)
#define U32(name)	NUM(name, 4, PD_D_U)
#define S32(name)	NUM(name, 4, PD_D_S)
#define X32(name)	NUM(name, 4, PD_D_X)
#define U64(name)	NUM(name, 8, PD_D_U)
#define X64(name)	NUM(name, 8, PD_D_X)
#define A64(name)	NUM(name, 8, PD_D_ADDR)
#define PAD(size)	{ NULL, PD_F_PAD, size, 0, NULL }
#define KIND(name, kind)	{ name, kind, 0, 0, NULL }
#define MISC(name, bit)	{ name, PD_F_MISC, bit, 0, NULL }
#define LIST(name, kind, sub)	{ name, kind, 0, 0, sub }
#define END		{ NULL, PD_F_END, 0, 0, NULL }

static const struct pd_field f_mmap[] = {
	S32("pid"), S32("tid"), A64("addr"), U64("len"), X64("pgoff"),
	KIND("filename", PD_F_STR), END
};
static const struct pd_field f_lost[] = { U64("id"), U64("lost"), END };
static const struct pd_field f_comm[] = {
	S32("pid"), S32("tid"), KIND("comm", PD_F_STR), MISC("exec", 13), END
};
static const struct pd_field f_fork[] = {
	S32("pid"), S32("ppid"), S32("tid"), S32("ptid"), U64("time"), END
};
static const struct pd_field f_throttle[] = {
	U64("time"), U64("id"), U64("stream_id"), END
};
static const struct pd_field f_read[] = {
	S32("pid"), S32("tid"), KIND(NULL, PD_F_READ), END
};
static const struct pd_field f_mmap2[] = {
	S32("pid"), S32("tid"), A64("addr"), U64("len"), X64("pgoff"),
	KIND(NULL, PD_F_MMAP2_ID), X32("prot"), X32("flags"),
	KIND("filename", PD_F_STR), END
};
static const struct pd_field f_aux[] = {
	X64("aux_offset"), X64("aux_size"), X64("flags"), END
};
static const struct pd_field f_itrace_start[] = {
	S32("pid"), S32("tid"), END
};
static const struct pd_field f_lost_samples[] = { U64("lost"), END };
static const struct pd_field f_switch[] = {
	MISC("out", 13), MISC("preempt", 14), END
};
static const struct pd_field f_switch_cpu_wide[] = {
	S32("next_prev_pid"), S32("next_prev_tid"), MISC("out", 13),
	MISC("preempt", 14), END
};
static const struct pd_field f_namespace[] = {
	X64("dev"), U64("ino"), END
};
static const struct pd_field f_namespaces[] = {
	S32("pid"), S32("tid"), U64("nr_namespaces"),
	LIST("namespaces", PD_F_NAMESPACES, f_namespace), END
};
static const struct pd_field f_ksymbol[] = {
	A64("addr"), U32("len"), U16("ksym_type"), X16("flags"),
	KIND("name", PD_F_STR), END
};
static const struct pd_field f_bpf_event[] = {
	U16("bpf_type"), X16("flags"), U32("id"),
	{ "tag", PD_F_BYTES, 8, 0, NULL }, END
};
static const struct pd_field f_cgroup[] = {
	U64("cgroup_id"), KIND("path", PD_F_STR), END
};
static const struct pd_field f_text_poke[] = {
	A64("addr"), U16("old_len"), U16("new_len"), KIND(NULL, PD_F_POKE),
	END
};
static const struct pd_field f_aux_output_hw_id[] = { U64("hw_id"), END };
static const struct pd_field f_addr[] = { A64(NULL), END };
static const struct pd_field f_callchain_deferred[] = {
	X64("cookie"), U64("nr"), LIST("ips", PD_F_LIST, f_addr), END
};
static const struct pd_field f_event_type[] = {
	U64("event_id"), KIND("name", PD_F_STR), END
};
/* perf before 3.x wrote the size alone */
static const struct pd_field f_tracing_data[] = {
	U32("data_size"), KIND(NULL, PD_F_OPT), PAD(4), END
};
static const struct pd_field f_none[] = { END };
static const struct pd_field f_id_index_entry[] = {
	U64("id"), U64("idx"), S32("cpu"), PAD(4), S32("tid"), PAD(4), END
};
static const struct pd_field f_id_index_guest[] = {
	U64("machine_pid"), U64("vcpu"), END
};
static const struct pd_field f_id_index[] = {
	U64("nr"), LIST("entries", PD_F_LIST, f_id_index_entry),
	LIST("guest", PD_F_LIST_FIT, f_id_index_guest), END
};
static const struct pd_field f_auxtrace_info[] = {
	U32("auxtrace_type"), PAD(4), { "priv", PD_F_U64S, 0, PD_D_X, NULL },
	END
};
static const struct pd_field f_auxtrace[] = {
	U64("data_size"), X64("data_offset"), X64("reference"), U32("idx"),
	S32("tid"), S32("cpu"), PAD(4), END
};
static const struct pd_field f_stat_config_entry[] = {
	U64("tag"), U64("val"), END
};
static const struct pd_field f_stat_config[] = {
	U64("nr"), LIST("config", PD_F_LIST, f_stat_config_entry), END
};
static const struct pd_field f_stat[] = {
	U64("id"), S32("cpu"), S32("thread"), U64("val"), U64("ena"),
	U64("run"), END
};
static const struct pd_field f_stat_round[] = {
	U64("round_type"), U64("time"), END
};
/* perf before 5.11 ended after time_zero */
static const struct pd_field f_time_conv[] = {
	U64("time_shift"), U64("time_mult"), U64("time_zero"),
	KIND(NULL, PD_F_OPT), U64("time_cycles"), X64("time_mask"),
	NUM("cap_user_time_zero", 1, PD_D_U),
	NUM("cap_user_time_short", 1, PD_D_U), KIND(NULL, PD_F_SKIP), END
};
static const struct pd_field f_compressed[] = {
	KIND("data_size", PD_F_RESTLEN), END
};
static const struct pd_field f_compressed2[] = {
	U64("data_size"), KIND(NULL, PD_F_SKIP), END
};
static const struct pd_field f_schedstat_cpu[] = {
	U64("timestamp"), U32("cpu"), U16("version"), PAD(1), PAD(1),
	{ "counters", PD_F_U64S, 0, PD_D_U, NULL }, END
};

const struct pd_field *const pd_record_layouts[PD_RECORD_USER_MAX] = {
	[PERF_RECORD_MMAP]			= f_mmap,
	[PERF_RECORD_LOST]			= f_lost,
	[PERF_RECORD_COMM]			= f_comm,
	[PERF_RECORD_EXIT]			= f_fork,
	[PERF_RECORD_THROTTLE]			= f_throttle,
	[PERF_RECORD_UNTHROTTLE]		= f_throttle,
	[PERF_RECORD_FORK]			= f_fork,
	[PERF_RECORD_READ]			= f_read,
	[PERF_RECORD_MMAP2]			= f_mmap2,
	[PERF_RECORD_AUX]			= f_aux,
	[PERF_RECORD_ITRACE_START]		= f_itrace_start,
	[PERF_RECORD_LOST_SAMPLES]		= f_lost_samples,
	[PERF_RECORD_SWITCH]			= f_switch,
	[PERF_RECORD_SWITCH_CPU_WIDE]		= f_switch_cpu_wide,
	[PERF_RECORD_NAMESPACES]		= f_namespaces,
	[PERF_RECORD_KSYMBOL]			= f_ksymbol,
	[PERF_RECORD_BPF_EVENT]			= f_bpf_event,
	[PERF_RECORD_CGROUP]			= f_cgroup,
	[PD_RECORD_TEXT_POKE]			= f_text_poke,
	[PD_RECORD_AUX_OUTPUT_HW_ID]		= f_aux_output_hw_id,
	[PD_RECORD_CALLCHAIN_DEFERRED]		= f_callchain_deferred,
	[PD_RECORD_HEADER_EVENT_TYPE]		= f_event_type,
	[PD_RECORD_HEADER_TRACING_DATA]		= f_tracing_data,
	[PD_RECORD_FINISHED_ROUND]		= f_none,
	[PD_RECORD_ID_INDEX]			= f_id_index,
	[PD_RECORD_AUXTRACE_INFO]		= f_auxtrace_info,
	[PD_RECORD_AUXTRACE]			= f_auxtrace,
	[PD_RECORD_STAT_CONFIG]			= f_stat_config,
	[PD_RECORD_STAT]			= f_stat,
	[PD_RECORD_STAT_ROUND]			= f_stat_round,
	[PD_RECORD_TIME_CONV]			= f_time_conv,
	[PD_RECORD_COMPRESSED]			= f_compressed,
	[PD_RECORD_FINISHED_INIT]		= f_none,
	[PD_RECORD_COMPRESSED2]			= f_compressed2,
	[PD_RECORD_SCHEDSTAT_CPU]		= f_schedstat_cpu,
};
