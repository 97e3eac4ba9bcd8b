/* SPDX-License-Identifier: MIT */
/*
 * pdrecord: the kernel's ring buffers, one per CPU (or thread), drained
 * into the queue; a FINISHED_ROUND after each pass that moved anything.
 */
#include "pdrecord/extern.h"


#include "libcommon/cli/msg.h"
#include "libcommon/stream/event.h"
#include "libcommon/stream/perf.h"
#include "libcommon/rec/synth.h"
#include "libcommon/stream/writer.h"
#include "libcommon/stream/zenc.h"

struct ring *rings;
int nrings;
unsigned long long nsamples, nlost;

/*
 * Moves one ring's new records into the queue. Returns the bytes moved,
 * or -1 when the queue is full (the kernel then counts what it drops)
 * or memory runs out.
 */
static ssize_t
ring_read(struct ring *r)
{
	static unsigned char wrapbuf[PD_REC_MAX + 1];
	uint64_t head, tail, mask = r->size - 1, moved;
	size_t off, sz, first, start;

	head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	tail = r->page->data_tail;
	if (head == tail)
		return 0;
	if (q.bytes + (head - tail) > QUEUE_MAX)
		return -1;
	while (tail < head) {
		off = tail & mask;
		if (off + PD_REC_HDR_SIZE <= r->size) {
			sz = pd_header_size(r->data + off);
		} else {
			first = r->size - off;
			memcpy(wrapbuf, r->data + off, first);
			memcpy(wrapbuf + first, r->data,
			    PD_REC_HDR_SIZE - first);
			sz = pd_header_size(wrapbuf);
		}
		if (sz < 8 || sz > head - tail)
			break;		/* cannot happen with a sane kernel */
		if (off + sz <= r->size) {
			note_record(r->data + off);
		} else {
			first = r->size - off;
			memcpy(wrapbuf, r->data + off, first);
			memcpy(wrapbuf + first, r->data, sz - first);
			note_record(wrapbuf);
		}
		tail += sz;
	}
	/* The bytes go out as they lie in the ring: at most two pieces. */
	moved = tail - r->page->data_tail;	/* whole records only */
	start = r->page->data_tail & mask;
	first = moved < r->size - start ? moved : r->size - start;
	if (zenc != NULL) {
		if (pd_zenc_put(zenc, r->data + start, first) < 0 ||
		    pd_zenc_put(zenc, r->data, moved - first) < 0)
			zfail();
	} else if (put_out(r->data + start, first) < 0 ||
	    put_out(r->data, moved - first) < 0) {
		pd_die_nomem();
	}
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
	return (ssize_t)moved;
}

/* One pass over every ring; FINISHED_ROUND if it moved anything. */
int
read_rings(void)
{
	/* Built by synth in this host's order, not as little-endian bytes. */
	static struct pd_synth rb;
	const unsigned char *round;
	ssize_t n, total = 0;
	int i, full = 0;

	if (rb.len == 0 && pd_synth_empty(&rb, PD_RECORD_FINISHED_ROUND) < 0)
		pd_die_nomem();
	round = rb.p;
	for (i = 0; i < nrings; i++) {
		if ((n = ring_read(&rings[i])) < 0)
			full = 1;
		else
			total += n;
	}
	if (total > 0 && zenc != NULL) {
		/* One push per pass: its chunk ends before the round. */
		if (pd_zenc_plain(zenc, round, rb.len) < 0 ||
		    pd_writer_flush(zw) < 0)
			zfail();
	} else if (total > 0 && put_out(round, rb.len) < 0) {
		pd_die_nomem();
	}
	return full;
}
