/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/reader.h"

#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/pipebuf.h"
#include "libcommon/stream/swap.h"
#include "libcommon/stream/tracefmt.h"
#include "libcommon/stream/zdec.h"

/*
 * The input buffer. A record is at most 64 KiB, so with a 1 MiB buffer a
 * whole record is always contiguous after at most one memmove of the
 * unread tail; reads of a quarter of it keep the syscall count low.
 */
#define BUF_SIZE	PD_READER_BUF_SIZE
#define READ_MAX	(256 * 1024)
#define COMPACT_MAX	4096	/* bytes moved to read to the start */

/*
 * Records held where they were read (pd_reader_hold) keep their buffer:
 * reading goes on in another, of at most PD_READER_HOLD_BUFS. One is
 * always left unheld, for the next to read into.
 */
#define HOLD_BUFS	PD_READER_HOLD_BUFS

enum phase {
	PH_ATTRS,		/* file mode: one HEADER_ATTR per attr */
	PH_FEATURES,		/* file mode: one HEADER_FEATURE per section */
	PH_NAMES,		/* file mode: EVENT_UPDATE NAME per named attr */
	PH_TRACING,		/* file mode: HEADER_TRACING_DATA */
	PH_BUILD_IDS,		/* file mode: HEADER_BUILD_ID records */
	PH_DATA,		/* records from the input: the pipe, or data */
	PH_DONE
};

struct section {
	uint64_t	offset;
	uint64_t	size;
};

struct pd_reader {
	int		 fd;
	int		 own_fd;
	int		 flags;
	char		*name;
	struct pd_err	 err;
	struct pd_evlist evlist;
	int		 swapped;
	int		 file_mode;
	enum phase	 phase;

	unsigned char	*buf;		/* bufs[cur] */
	size_t		 pos, end;	/* unread bytes are buf[pos, end) */
	unsigned char	*bufs[HOLD_BUFS];
	unsigned char	 held[HOLD_BUFS]; /* pd_reader_hold, until released */
	unsigned	 nbufs, cur, nheld; /* nheld: bufs held */
	int		 fast;		/* next_fast may take the next record */
	uint64_t	 buf_off;	/* input offset of buf[0] */
	uint64_t	 limit;		/* input offset where reading stops */
	int		 eof;
	pd_read_fn	*read_fn;	/* pd_reader_tap, or NULL: read(2) */
	void		*read_arg;
	const volatile int *stop;	/* pd_reader_stop_on */
	const volatile int *ending;	/* pd_reader_ending_on */
	int		 stopped;	/* reading ended there */
	int		 regular;	/* the input is a regular file */
	/*
	 * File offset of input offset 0 (where a pipe stream in a regular
	 * file began; 0 in file mode), or -1: pd_reader_file_bytes.
	 */
	int64_t		 file_base;

	uint64_t	 payload_left;	/* out-of-band bytes still unread */
	uint64_t	 payload_off;	/* offset of the record it follows */
	uint32_t	 payload_type;
	size_t		 skip_after;	/* record bytes after the payload */
	unsigned char	 tdrec[16];	/* a rewritten HEADER_TRACING_DATA */
	uint64_t	 payload_pad;	/* zero bytes to add (file tracing) */
	uint64_t	 payload_src;	/* file offset of payload (file mode) */
	int		 payload_pread;	/* payload comes from the file */

	/* file mode */
	uint64_t	 file_size;
	uint64_t	 attr_size;
	struct section	 attrs, data;
	uint64_t	 nattrs, attr_i;
	uint64_t	 attr_id_i;	/* ids of attr_i already said */
	uint8_t		 feat_bits[PD_FEAT_BITS / 8];
	struct section	 feats[PD_FEAT_BITS];
	unsigned	 feat_i;
	unsigned char	*desc;		/* the EVENT_DESC section, or NULL */
	size_t		 desc_len;
	uint64_t	 name_i;	/* next attr to name (PH_NAMES) */
	uint64_t	 bid_off;	/* next build-id entry in section 2 */
	unsigned char	*synth;		/* a synthesized record */

	/* decompressed records (PD_RD_DECOMPRESS, pd_reader_inflate) */
	struct pd_zdec	*zdec;
	uint64_t	 zrec_off;	/* the record pd_reader_inflate fed */
	int		 zrec_fed;
	uint32_t	 comp_mmap_len;	/* from the COMPRESSED feature */

	unsigned	 ndropped;
	char		 dropped[128];
	unsigned	 ninexact;	/* records swapped only in part */
	/* foreign input: the tracing blob made native, handed out whole */
	unsigned char	*tblob;
	size_t		 tblob_len, tblob_pos;
	const char	*inexact;

	/*
	 * The event formats of every tracing data blob so far (foreign
	 * input, PD_RD_TRACEFMT), lent to the events (pd_evlist_tracefmt);
	 * what was wrong with the last blob; a blob being parsed as its
	 * payload passes, and its record type.
	 */
	struct pd_tracefmt *tf;
	const char	*tf_why;
	int		 tf_open;
	uint32_t	 tf_type;
};

static const char stdin_name[] = "<stdin>";

static void
drop(struct pd_reader *rd, const char *what)
{
	rd->ndropped++;
	snprintf(rd->dropped, sizeof(rd->dropped), "%s", what);
}

/* A conversion that left part of a record as it was (see swap.h). */
static void
inexact(struct pd_reader *rd, const char *why)
{
	rd->ninexact++;
	rd->inexact = why;
}

static uint64_t
get64(const struct pd_reader *rd, const void *p)
{
	uint64_t v = pd_get_u64(p);

	return rd->swapped ? bswap_64(v) : v;
}

/*
 * Moves the unread bytes to the start of the buffer, or, when records
 * in it are held, to the start of one with none, so that reading goes
 * on there. 0, or -1 when that buffer cannot be had.
 */
static int
restart(struct pd_reader *rd)
{
	size_t left = rd->end - rd->pos;
	unsigned k;

	if (!rd->held[rd->cur]) {
		memmove(rd->buf, rd->buf + rd->pos, left);
	} else {
		/* pd_reader_hold leaves one unheld, or room for one. */
		for (k = 0; k < rd->nbufs && rd->held[k]; k++)
			;
		if (k == rd->nbufs) {
			if ((rd->bufs[k] = malloc(BUF_SIZE)) == NULL)
				return pd_err_io(&rd->err, ENOMEM, "malloc");
			rd->nbufs++;
		}
		memcpy(rd->bufs[k], rd->buf + rd->pos, left);
		rd->cur = k;
		rd->buf = rd->bufs[k];
	}
	rd->end = left;
	rd->buf_off += rd->pos;
	rd->pos = 0;
	return 0;
}

/* Reads more input into the buffer; 1 read, 0 end of input, -1 error. */
static int
fill(struct pd_reader *rd)
{
	uint64_t at = rd->buf_off + rd->end, want;
	ssize_t n;

	if (rd->eof || at >= rd->limit)
		return 0;
	if (rd->stop != NULL && *rd->stop)
		goto stopped;
	/*
	 * Reads of at most READ_MAX to the start of the buffer whenever
	 * little is left there keep the bytes copied in the same few
	 * cache-warm lines while they are parsed: going round the whole
	 * buffer cost `pdstat -p` in a pipeline about a tenth more.
	 */
	/*
	 * A buffer with records held in it is read on to its end (not
	 * into the last bit of it: reads stay whole), then left.
	 */
	if (rd->pos > 0 && (rd->held[rd->cur] ?
	    BUF_SIZE - rd->end < READ_MAX : rd->end == BUF_SIZE ||
	    rd->end - rd->pos <= COMPACT_MAX) && restart(rd) < 0)
		return -1;
	want = BUF_SIZE - rd->end;
	if (want > READ_MAX)
		want = READ_MAX;
	if (want > rd->limit - at)
		want = rd->limit - at;
	do
		n = rd->read_fn != NULL ? rd->read_fn(rd->read_arg, rd->fd,
		    rd->buf + rd->end, want) :
		    read(rd->fd, rd->buf + rd->end, want);
	while (n < 0 && errno == EINTR && (rd->stop == NULL || !*rd->stop));
	if (n < 0 && errno == EINTR)
		goto stopped;
	if (n < 0)
		return pd_err_io(&rd->err, errno, "read");
	if (n == 0) {
		/* Announced: where it ends is not the stream's fault. */
		if (rd->ending != NULL && *rd->ending)
			rd->stopped = 1;
		rd->eof = 1;
		return 0;
	}
	rd->end += n;
	return 1;

stopped:
	/* As at the end of input; a record cut short there is no error. */
	rd->stopped = 1;
	rd->eof = 1;
	return 0;
}

/* Makes n bytes at pos contiguous; 1, 0 when the input ends first, -1. */
static int
ensure(struct pd_reader *rd, size_t n)
{
	int r;

	while (rd->end - rd->pos < n) {
		if (rd->pos > 0 && rd->pos + n > BUF_SIZE && restart(rd) < 0)
			return -1;
		if ((r = fill(rd)) <= 0)
			return r;
	}
	return 1;
}

static int
pread_all(struct pd_reader *rd, void *p, size_t n, uint64_t off,
    const char *what)
{
	ssize_t r;
	size_t done = 0;

	if (off > rd->file_size || n > rd->file_size - off)
		return pd_err_set(&rd->err, off,
		    "%s (%zu bytes) runs past the end of the file", what, n);
	while (done < n) {
		r = pread(rd->fd, (char *)p + done, n - done, off + done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return pd_err_io(&rd->err, errno, "read");
		if (r == 0)
			return pd_err_set(&rd->err, off + done,
			    "%s: unexpected end of file", what);
		done += r;
	}
	return 0;
}

static int
file_section(struct pd_reader *rd, const unsigned char *p, struct section *s,
    const char *what, uint64_t at)
{
	s->offset = get64(rd, p);
	s->size = get64(rd, p + 8);
	if (s->offset > rd->file_size || s->size > rd->file_size - s->offset)
		return pd_err_set(&rd->err, at,
		    "%s section [0x%" PRIx64 ", +0x%" PRIx64 ") runs past "
		    "the end of the file (0x%" PRIx64 ")", what, s->offset,
		    s->size, rd->file_size);
	return 0;
}

/* A file section with a name and where its offset is, for messages. */
struct named_section {
	struct section	 s;
	const char	*what;
	uint64_t	 at;
};

static void
named_add(struct named_section *v, unsigned *n, const struct section *s,
    const char *what, uint64_t at)
{
	v[*n].s = *s;
	v[*n].what = what;
	v[(*n)++].at = at;
}

/*
 * Two sections of a file that share bytes are a corrupt (or hostile)
 * file: records would be read out of the attrs, or a feature out of
 * the data. Empty sections hold nothing and may point anywhere.
 */
static int
file_overlap(struct pd_reader *rd, uint64_t hdr_size, uint64_t ftab,
    unsigned nfeat)
{
	struct named_section v[4 + PD_FEAT_BITS];
	struct section hdr = { 0, hdr_size }, tab = { ftab, 16 * nfeat };
	unsigned n = 0, i, j, k = 0;

	named_add(v, &n, &hdr, "file header", 0);
	named_add(v, &n, &rd->attrs, "attrs section", 24);
	named_add(v, &n, &rd->data, "data section", 40);
	named_add(v, &n, &tab, "feature table", ftab);
	for (i = 1; i < PD_FEAT_BITS; i++)
		if (rd->feat_bits[i / 8] >> (i % 8) & 1)
			named_add(v, &n, &rd->feats[i], "feature section",
			    ftab + 16 * k++);
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++) {
			const struct section *a = &v[j].s, *b = &v[i].s;

			if (a->size == 0 || b->size == 0 ||
			    a->offset >= b->offset + b->size ||
			    b->offset >= a->offset + a->size)
				continue;
			return pd_err_set(&rd->err, v[i].at, "%s [0x%" PRIx64
			    ", +0x%" PRIx64 ") overlaps the %s [0x%" PRIx64
			    ", +0x%" PRIx64 ")", v[i].what, b->offset,
			    b->size, v[j].what, a->offset, a->size);
		}
	return 0;
}

static int
file_open(struct pd_reader *rd, uint64_t hdr_size)
{
	unsigned char h[PD_FILE_HDR_SIZE];
	unsigned char *tab = NULL;
	struct stat st;
	unsigned i, n;
	int r = -1;

	if (fstat(rd->fd, &st) < 0)
		return pd_err_io(&rd->err, errno, "fstat");
	if (!S_ISREG(st.st_mode) || lseek(rd->fd, 0, SEEK_CUR) < 0)
		return pd_err_set(&rd->err, 0, "file-mode perf.data must be "
		    "a regular file, not a pipe (use pdcat FILE)");
	rd->file_mode = 1;
	rd->file_size = st.st_size;
	/* Read by its offsets from the start, wherever fd stood. */
	rd->file_base = 0;
	memset(h, 0, sizeof(h));
	if (pread_all(rd, h, hdr_size, 0, "file header") < 0)
		return -1;
	rd->attr_size = get64(rd, h + 16);
	if (file_section(rd, h + 24, &rd->attrs, "attrs", 24) < 0 ||
	    file_section(rd, h + 40, &rd->data, "data", 40) < 0)
		return -1;
	if (rd->attr_size < 16 + PD_ATTR_SIZE_VER0 ||
	    rd->attr_size > 16 + PD_ATTR_SIZE_MAX)
		return pd_err_set(&rd->err, 16, "attr_size %" PRIu64
		    " is not a perf_file_attr size", rd->attr_size);
	if (rd->attrs.size % rd->attr_size != 0)
		return pd_err_set(&rd->err, 32, "attrs section size %" PRIu64
		    " is not a multiple of attr_size %" PRIu64,
		    rd->attrs.size, rd->attr_size);
	rd->nattrs = rd->attrs.size / rd->attr_size;
	if (hdr_size == PD_FILE_HDR_SIZE) {
		/* The bitmap is four u64 words: bit n of the 256. */
		for (i = 0; i < 4; i++) {
			uint64_t w = get64(rd, h + 72 + 8 * i);
			unsigned b;

			for (b = 0; b < 64; b++)
				if (w >> b & 1)
					rd->feat_bits[(i * 64 + b) / 8] |=
					    1 << (b % 8);
		}
	}
	for (n = 0, i = 1; i < PD_FEAT_BITS; i++)
		n += rd->feat_bits[i / 8] >> (i % 8) & 1;
	if (n > 0) {
		uint64_t at = rd->data.offset + rd->data.size;
		unsigned k = 0;

		if ((tab = malloc(16 * n)) == NULL)
			return pd_err_io(&rd->err, ENOMEM, "malloc");
		if (pread_all(rd, tab, 16 * n, at, "feature table") < 0)
			goto out;
		for (i = 1; i < PD_FEAT_BITS; i++) {
			if (!(rd->feat_bits[i / 8] >> (i % 8) & 1))
				continue;
			if (file_section(rd, tab + 16 * k, &rd->feats[i],
			    "feature", at + 16 * k) < 0)
				goto out;
			k++;
		}
	}
	if (file_overlap(rd, hdr_size, rd->data.offset + rd->data.size,
	    n) < 0)
		goto out;
	if ((rd->synth = malloc(PD_REC_MAX + 1)) == NULL) {
		pd_err_io(&rd->err, ENOMEM, "malloc");
		goto out;
	}
	rd->phase = PH_ATTRS;
	rd->feat_i = 1;
	r = 0;
out:
	free(tab);
	return r;
}

struct pd_reader *
pd_reader_fdopen(int fd, const char *name, int flags, struct pd_err *err)
{
	struct pd_reader *rd = calloc(1, sizeof(*rd));
	struct stat st;
	uint64_t magic, size;

	memset(err, 0, sizeof(*err));
	err->input = name;
	if (rd == NULL || (rd->buf = rd->bufs[0] = malloc(BUF_SIZE)) == NULL ||
	    (rd->name = strdup(name)) == NULL) {
		pd_err_io(err, ENOMEM, "malloc");
		goto fail;
	}
	rd->nbufs = 1;
	rd->fd = fd;
	rd->regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	rd->file_base = rd->regular ? (int64_t)lseek(fd, 0, SEEK_CUR) : -1;
	pd_pipe_grow(fd);
	rd->flags = flags;
	rd->err.input = rd->name;
	rd->limit = UINT64_MAX;
	rd->phase = PH_DATA;
	pd_evlist_init(&rd->evlist);
	if (ensure(rd, PD_PIPE_HDR_SIZE) <= 0) {
		if (rd->err.msg[0] == '\0')
			pd_err_set(&rd->err, 0, rd->end == 0 ? "empty input" :
			    "input too short for a perf.data header (%zu "
			    "bytes)", rd->end);
		goto fail_err;
	}
	magic = pd_get_u64(rd->buf);
	size = pd_get_u64(rd->buf + 8);
	if (magic == PD_MAGIC2_SWAPPED || magic == PD_MAGIC1_SWAPPED ||
	    (magic == PD_MAGIC1 && bswap_64(size) < size)) {
		rd->swapped = 1;
		size = bswap_64(size);
	} else if (magic != PD_MAGIC2 && magic != PD_MAGIC1) {
		pd_err_set(&rd->err, 0, "not perf.data (bad magic)");
		goto fail_err;
	}
	if (rd->swapped && pd_swap_supported() == 0) {
		pd_err_set(&rd->err, 0, "input is in the other byte order, "
		    "which this build cannot convert");
		goto fail_err;
	}
	if (size == PD_PIPE_HDR_SIZE) {
		rd->pos = PD_PIPE_HDR_SIZE;
	} else if (size == PD_FILE_HDR_SIZE || size == PD_FILE_HDR_SIZE_OLD) {
		if (file_open(rd, size) < 0)
			goto fail_err;
	} else {
		pd_err_set(&rd->err, 8, "header size %" PRIu64 " is neither "
		    "16 (pipe) nor 104 (file)", size);
		goto fail_err;
	}
	return rd;
fail_err:
	*err = rd->err;
	err->input = name;
fail:
	if (rd != NULL) {
		rd->own_fd = 0;
		pd_reader_close(rd);
	}
	return NULL;
}

struct pd_reader *
pd_reader_open(const char *path, int flags, struct pd_err *err)
{
	struct pd_reader *rd;
	int fd;

	if (path == NULL || strcmp(path, "-") == 0)
		return pd_reader_fdopen(STDIN_FILENO, stdin_name, flags, err);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		memset(err, 0, sizeof(*err));
		err->input = path;
		pd_err_io(err, errno, "open");
		return NULL;
	}
	if ((rd = pd_reader_fdopen(fd, path, flags, err)) == NULL) {
		close(fd);
		err->input = path;
		return NULL;
	}
	rd->own_fd = 1;
	return rd;
}

void
pd_reader_close(struct pd_reader *rd)
{
	unsigned k;

	if (rd == NULL)
		return;
	if (rd->own_fd)
		close(rd->fd);
	pd_zdec_free(rd->zdec);
	pd_evlist_free(&rd->evlist);
	pd_tracefmt_free(rd->tf);
	free(rd->tblob);
	free(rd->synth);
	free(rd->desc);
	for (k = 0; k < HOLD_BUFS; k++)
		free(rd->bufs[k]);
	free(rd->name);
	free(rd);
}

unsigned char *
pd_reader_hold(struct pd_reader *rd, const struct pd_rec *rec, unsigned *buf,
    size_t *off)
{
	uintptr_t at = (uintptr_t)rec->data - (uintptr_t)rd->buf;

	/*
	 * Only a record read as it is into the buffer (the fast state: no
	 * payload to come, nothing made here, swapped or decompressed),
	 * and not the one that would leave every buffer held.
	 */
	if (!rd->fast || at >= rd->pos)
		return NULL;
	if (!rd->held[rd->cur]) {
		if (rd->nheld + 1 >= HOLD_BUFS)
			return NULL;
		rd->held[rd->cur] = 1;
		rd->nheld++;
	}
	*buf = rd->cur;
	*off = at;
	return rd->buf + at;
}

void
pd_reader_release(struct pd_reader *rd, unsigned buf)
{
	if (rd->held[buf]) {
		rd->held[buf] = 0;
		rd->nheld--;
	}
}

ssize_t
pd_reader_tap(struct pd_reader *rd, pd_read_fn *fn, void *arg,
    const unsigned char **p)
{
	/* Only before the first record: buf[0, end) is all that was read. */
	if (rd->file_mode || rd->buf_off != 0 || rd->pos != PD_PIPE_HDR_SIZE)
		return -1;
	rd->read_fn = fn;
	rd->read_arg = arg;
	*p = rd->buf;
	return rd->end;
}

const struct pd_err *
pd_reader_err(const struct pd_reader *rd)
{
	return &rd->err;
}

struct pd_evlist *
pd_reader_evlist(struct pd_reader *rd)
{
	return &rd->evlist;
}

const char *
pd_reader_tracefmt_error(const struct pd_reader *rd)
{
	return rd->tf_why;
}

const char *
pd_reader_name(const struct pd_reader *rd)
{
	return rd->name;
}

int
pd_reader_is_file(const struct pd_reader *rd)
{
	return rd->file_mode;
}

int
pd_reader_swapped(const struct pd_reader *rd)
{
	return rd->swapped;
}

int
pd_reader_is_regular(const struct pd_reader *rd)
{
	return rd->regular;
}

int
pd_reader_file_fd(const struct pd_reader *rd)
{
	return rd->file_base >= 0 ? rd->fd : -1;
}

int
pd_reader_file_bytes(const struct pd_reader *rd, const struct pd_rec *rec,
    uint64_t *at)
{
	/* Where a record of the file's own bytes would lie in buf. */
	uint64_t in_buf = rec->offset - rd->buf_off;

	/* A held buffer's bytes are its holder's to change (hold). */
	if (rd->file_base < 0 || rd->swapped || rd->read_fn != NULL ||
	    rd->held[rd->cur] || rec->flags != 0 ||
	    rec->offset < rd->buf_off || in_buf + rec->size > rd->end ||
	    (uintptr_t)rec->data - (uintptr_t)rd->buf != in_buf)
		return 0;
	*at = (uint64_t)rd->file_base + rec->offset;
	return 1;
}

void
pd_reader_stop_on(struct pd_reader *rd, const volatile int *stop)
{
	rd->stop = stop;
}

void
pd_reader_ending_on(struct pd_reader *rd, const volatile int *ending)
{
	rd->ending = ending;
}

int
pd_reader_stopped(const struct pd_reader *rd)
{
	return rd->stopped;
}

unsigned
pd_reader_dropped(const struct pd_reader *rd, const char **what)
{
	*what = rd->dropped;
	return rd->ndropped;
}

unsigned
pd_reader_inexact(const struct pd_reader *rd, const char **what)
{
	unsigned n = rd->ninexact;

	*what = rd->inexact;
	if (rd->zdec != NULL)
		n += pd_zdec_inexact(rd->zdec, rd->inexact ? NULL : what);
	return n;
}

/*
 * An EVENT_DESC entry names the event of its index, as perf's pipe
 * reader does (evlist__set_event_name), and only one that no EVENT_UPDATE
 * or earlier EVENT_DESC named: in a joined stream, a later input's
 * EVENT_DESC would otherwise rename the first input's events.
 */
static int
set_desc_name(void *ctx, uint32_t idx, const char *name, size_t len,
    const unsigned char *ids, uint32_t nids)
{
	struct pd_evlist *el = ctx;

	(void)ids;
	(void)nids;
	if (idx >= el->n || len == 0 || el->evsels[idx].named)
		return 0;
	return pd_evlist_set_name(el, idx, name, len);
}

/*
 * Keeps the events up to date with the record that passes: attrs and
 * their ids, and names from EVENT_UPDATE and the EVENT_DESC feature.
 * Malformed ones are errors: no tool could decode the samples that
 * follow.
 */
static int
track(struct pd_reader *rd, const struct pd_rec *rec)
{
	struct pd_evlist *el = &rd->evlist;
	struct pd_record_header_attr a;
	struct pd_record_id_index x;
	struct pd_record_event_update u;
	struct pd_feat_compressed c;
	const char *why;
	uint64_t i;

	switch (rec->type) {
	case PD_RECORD_HEADER_ATTR: {
		uint32_t asz;

		if (pd_record_header_attr_parse(rec, &a) < 0)
			return pd_err_set(&rd->err, rec->offset,
			    "ATTR record size %u too small for an attr",
			    rec->size);
		asz = a.attr_size;
		/*
		 * Readers find the ids at attr.size, so it must be a real
		 * size: 0 (VER0 in a file's attr section) cannot place them.
		 */
		if (asz < PD_ATTR_SIZE_VER0)
			return pd_err_set(&rd->err, rec->offset,
			    "ATTR attr.size %u < %u", asz, PD_ATTR_SIZE_VER0);
		if (asz % 8 != 0)
			return pd_err_set(&rd->err, rec->offset,
			    "ATTR attr.size %u is not a multiple of 8", asz);
		if (a.ids == NULL)
			return pd_err_set(&rd->err, rec->offset,
			    "ATTR attr.size %u does not fit record size %u",
			    asz, rec->size);
		{
			uint64_t ids[PD_REC_MAX / 8];
			const struct pd_evsel *last = el->n > 0 ?
			    &el->evsels[el->n - 1] : NULL;

			for (i = 0; i < a.nids; i++)
				ids[i] = pd_get_u64(a.ids + 8 * i);
			/* More ids of the event before (event.h). */
			if ((rec->misc & PD_RECORD_MISC_ATTR_MORE) &&
			    last != NULL && last->raw_size == asz &&
			    memcmp(last->raw, a.attr, asz) == 0) {
				if (pd_evlist_add_ids(el, el->n - 1, ids,
				    a.nids) < 0)
					return pd_err_io(&rd->err, ENOMEM,
					    "malloc");
			} else if (pd_evlist_add(el, a.attr, asz, ids, a.nids,
			    &why) < 0)
				return pd_err_set(&rd->err, rec->offset,
				    "ATTR: %s", why);
		}
		break;
	}
	case PD_RECORD_ID_INDEX:
		if (pd_record_id_index_parse(rec, &x) < 0)
			return pd_err_set(&rd->err, rec->offset,
			    "ID_INDEX record size %u < 16", rec->size);
		if (x.fit < x.nr)
			return pd_err_set(&rd->err, rec->offset,
			    "ID_INDEX: %" PRIu64 " entries do not fit record "
			    "size %u", x.nr, rec->size);
		/*
		 * It names no event: an entry's idx is the id's place in
		 * its event's cpu or thread map (perf's sid->idx), for an
		 * id an ATTR gave, and perf refuses any other id.
		 */
		break;
	case PD_RECORD_EVENT_UPDATE: {
		struct pd_evsel *ev;

		if (pd_record_event_update_parse(rec, &u) < 0 ||
		    u.type != PD_EVENT_UPDATE_NAME)
			break;
		ev = pd_evlist_by_id(el, u.id);
		if (ev != NULL && pd_evlist_set_name(el, ev->idx, u.str,
		    u.str_len) < 0)
			return pd_err_io(&rd->err, ENOMEM, "malloc");
		break;
	}
	case PD_RECORD_HEADER_FEATURE:
		if (pd_feat_compressed_parse(rec, &c) == 0) {
			rd->comp_mmap_len = c.mmap_len;
			if (rd->zdec != NULL)
				pd_zdec_set_limit(rd->zdec, rd->comp_mmap_len);
			break;
		}
		if (pd_feat_event_desc(rec, set_desc_name, el) < 0)
			return pd_err_io(&rd->err, ENOMEM, "malloc");
		break;
	}
	return 0;
}

/* Skips what is left of the previous record's out-of-band payload. */
static int
skip_payload(struct pd_reader *rd)
{
	const unsigned char *p;
	ssize_t n;

	while ((n = pd_reader_payload(rd, &p)) > 0)
		;
	return (int)n;
}

static int
payload_short(struct pd_reader *rd)
{
	const char *name = pd_rec_name(rd->payload_type);

	return pd_err_set(&rd->err, rd->payload_off, "%s payload runs past "
	    "the end of input (%" PRIu64 " bytes missing)",
	    name ? name : "record", rd->payload_left);
}

/*
 * The formats of a tracing data blob, parsed as its payload is read or
 * skipped (pd_reader_payload), so that nothing is held twice; a fault
 * is kept in tf_why (the formats parsed before it stay) and parsing
 * stops there, the rest still read.
 */
static void
tracing_add(struct pd_reader *rd, const void *p, size_t n)
{
	const char *why;

	if (rd->tf_why == NULL && pd_tracefmt_add(rd->tf, p, n, &why) < 0)
		rd->tf_why = why;
}

static void
tracing_end(struct pd_reader *rd)
{
	const char *why;

	rd->tf_open = 0;
	if (rd->tf_why == NULL && pd_tracefmt_finish(rd->tf, &why) < 0)
		rd->tf_why = why;
	/* Only a HEADER_TRACING_DATA blob converts with the RAW data. */
	if (pd_evlist_set_tracefmt(&rd->evlist, rd->tf, 0,
	    rd->tf_type == PD_RECORD_HEADER_TRACING_DATA) < 0)
		rd->tf_why = "out of memory";
}

static void
tracing_start(struct pd_reader *rd, const struct pd_rec *rec)
{
	uint32_t n;

	rd->tf_why = NULL;
	if (rd->tf == NULL && (rd->tf = pd_tracefmt_new()) == NULL) {
		rd->tf_why = "out of memory";
		return;
	}
	rd->tf_open = 1;
	rd->tf_type = rec->type;
	/* simpleperf's own record holds its blob: u32 size, the blob */
	if (rec->payload == 0 && rec->size >= 12 &&
	    (n = pd_get_u32(rec->data + 8)) <= rec->size - 12u)
		tracing_add(rd, rec->data + 12, n);
	if (rec->payload == 0)
		tracing_end(rd);
}

/* The next chunk of the current payload, as pd_reader_payload says. */
static ssize_t
payload_next(struct pd_reader *rd, const unsigned char **p)
{
	static const unsigned char zeros[8];
	size_t avail;
	int r;

	if (rd->tblob != NULL) {
		*p = rd->tblob + rd->tblob_pos;
		avail = rd->tblob_len - rd->tblob_pos;
		rd->tblob_pos = rd->tblob_len;
		return avail;
	}
	if (rd->payload_left == 0) {
		if (rd->payload_pad == 0)
			return 0;
		*p = zeros;
		avail = rd->payload_pad;
		rd->payload_pad = 0;
		return avail;
	}
	if (rd->payload_pread) {
		/* file mode: tracing data from its feature section */
		avail = rd->payload_left < BUF_SIZE ? rd->payload_left :
		    BUF_SIZE;
		if (pread_all(rd, rd->buf, avail, rd->payload_src,
		    "tracing data") < 0)
			return -1;
		rd->payload_src += avail;
		rd->payload_left -= avail;
		*p = rd->buf;
		return avail;
	}
	if (rd->end == rd->pos) {
		if (restart(rd) < 0 || (r = fill(rd)) < 0)
			return -1;
		if (r == 0)
			return payload_short(rd);
	}
	avail = rd->end - rd->pos;
	if (avail > rd->payload_left)
		avail = rd->payload_left;
	*p = rd->buf + rd->pos;
	rd->pos += avail;
	rd->payload_left -= avail;
	return avail;
}

/* A chunk, seen by the tracing formats when they are being parsed. */
static __attribute__((noinline)) ssize_t
payload_chunk(struct pd_reader *rd, const unsigned char **p)
{
	ssize_t n = payload_next(rd, p);

	if (rd->tf_open && n > 0)
		tracing_add(rd, *p, n);
	else if (rd->tf_open && n == 0)
		tracing_end(rd);
	return n;
}

ssize_t
pd_reader_payload(struct pd_reader *rd, const unsigned char **p)
{
	/* Most records have no payload: that answer stays cheap. */
	if (rd->payload_left == 0 && rd->payload_pad == 0 &&
	    rd->tblob == NULL && !rd->tf_open)
		return 0;
	return payload_chunk(rd, p);
}

/* The decoder for compressed records, made when the first one comes. */
static int
zdec_for(struct pd_reader *rd)
{
	if (rd->zdec == NULL &&
	    (rd->zdec = pd_zdec_new(&rd->evlist, rd->swapped)) == NULL)
		return pd_err_io(&rd->err, ENOMEM, "zstd");
	pd_zdec_set_limit(rd->zdec, rd->comp_mmap_len);
	return 0;
}

int
pd_reader_inflate(struct pd_reader *rd, const struct pd_rec *rec,
    unsigned char *dst, size_t cap, size_t *pos)
{
	if ((rd->flags & PD_RD_DECOMPRESS) ||
	    (rec->type != PD_RECORD_COMPRESSED &&
	    rec->type != PD_RECORD_COMPRESSED2))
		return pd_err_set(&rd->err, rec->offset, "not a compressed "
		    "record as stored");
	/* A record's offset is its own: a new one is fed first. */
	if (!rd->zrec_fed || rd->zrec_off != rec->offset) {
		if (zdec_for(rd) < 0 ||
		    pd_zdec_feed(rd->zdec, rec, &rd->err) < 0)
			return -1;
		rd->zrec_off = rec->offset;
		rd->zrec_fed = 1;
	}
	return pd_zdec_inflate(rd->zdec, dst, cap, pos, &rd->err);
}

/* The record built in rd->synth from the file header, handed out. */
static int
synth_rec(struct pd_reader *rd, struct pd_rec *rec, uint64_t offset)
{
	pd_rec_view(rec, rd->synth);
	rec->offset = offset;
	rec->flags = PD_REC_SYNTHESIZED;
	return 1;
}

static int
next_attr(struct pd_reader *rd, struct pd_rec *rec)
{
	uint64_t at = rd->attrs.offset + rd->attr_i * rd->attr_size;
	size_t alen = rd->attr_size - 16, olen, size, i, n;
	uint64_t first;
	unsigned char *p = rd->synth;
	struct section ids;
	unsigned char sec[16];

	if (pread_all(rd, p + PD_REC_HDR_SIZE, alen, at, "attr") < 0 ||
	    pread_all(rd, sec, 16, at + alen, "attr ids") < 0)
		return -1;
	if (rd->swapped && pd_swap_attr(p + PD_REC_HDR_SIZE, alen) < 0)
		return pd_err_set(&rd->err, at, "attr cannot be converted");
	if (file_section(rd, sec, &ids, "attr ids", at + alen) < 0)
		return -1;
	/*
	 * Newer perf finds the ids at attr.size, but perf up to 6.x copies
	 * its own sizeof(attr) (128 bytes in 6.1) and reads the ids after
	 * that: a shorter attr would lend its ids to the attr's tail and
	 * lose ids. Zero-extend short attrs to 128 bytes, as perf's file
	 * reader and perf inject do, and say so in attr.size.
	 */
	olen = alen < PD_ATTR_SIZE_PERF61 ? PD_ATTR_SIZE_PERF61 : alen;
	pd_put_u32(p + PD_REC_HDR_SIZE + PD_ATTR_OFF_SIZE, olen);
	size = PD_REC_HDR_SIZE + PD_ALIGN8(olen);
	memset(p + PD_REC_HDR_SIZE + alen, 0, size - PD_REC_HDR_SIZE - alen);
	if (ids.size % 8 != 0)
		return pd_err_set(&rd->err, at + alen, "attr %" PRIu64 ": %"
		    PRIu64 " bytes of ids are not whole ids",
		    rd->attr_i, ids.size);
	/* More ids than one record holds: several records (event.h). */
	first = rd->attr_id_i;
	n = ids.size / 8 - first;
	if (n > pd_record_header_attr_ids_max(olen))
		n = pd_record_header_attr_ids_max(olen);
	if (pread_all(rd, p + size, 8 * n, ids.offset + 8 * first,
	    "attr ids") < 0)
		return -1;
	if (rd->swapped)
		for (i = 0; i < 8 * n; i += 8)
			pd_put_u64(p + size + i,
			    bswap_64(pd_get_u64(p + size + i)));
	size += 8 * n;
	rd->attr_id_i += n;
	if (rd->attr_id_i >= ids.size / 8) {
		rd->attr_i++;
		rd->attr_id_i = 0;
	}
	pd_header_put(p, PD_RECORD_HEADER_ATTR, first > 0 ?
	    PD_RECORD_MISC_ATTR_MORE : 0, size, 0);
	return synth_rec(rd, rec, at);
}

/*
 * The next file feature section as a HEADER_FEATURE record. Tracing data
 * and build ids have their own records; the auxtrace index points into
 * the file and means nothing in a stream.
 */
static int
next_feature(struct pd_reader *rd, struct pd_rec *rec)
{
	struct section *s;
	unsigned char *body;
	unsigned f;

	for (; rd->feat_i < PD_FEAT_BITS; rd->feat_i++) {
		f = rd->feat_i;
		if (!(rd->feat_bits[f / 8] >> (f % 8) & 1))
			continue;
		if (f == PD_FEAT_TRACING_DATA || f == PD_FEAT_BUILD_ID)
			continue;
		if (f == PD_FEAT_AUXTRACE) {
			drop(rd, "the AUXTRACE feature (an index of file "
			    "offsets)");
			continue;
		}
		if (f >= PD_FEAT_SIMPLEPERF) {
			char what[80];

			snprintf(what, sizeof(what), "simpleperf feature %u, "
			    "an id perf report rejects in a stream", f);
			drop(rd, what);
			continue;
		}
		s = &rd->feats[f];
		/*
		 * An empty section carries nothing, and perf's pipe reader
		 * fails on an empty string feature (old perf wrote an empty
		 * CPUDESC) where its file reader only stops reading
		 * features. Only the presence flags are empty by design.
		 */
		if (s->size == 0 && f != PD_FEAT_BRANCH_STACK &&
		    f != PD_FEAT_STAT)
			continue;
		if (s->size > PD_REC_MAX - PD_RECORD_FEATURE_HEAD) {
			char what[80];

			snprintf(what, sizeof(what), "feature %u: %" PRIu64
			    " bytes do not fit one record", f, s->size);
			drop(rd, what);
			continue;
		}
		rd->feat_i++;
		body = rd->synth + PD_RECORD_FEATURE_HEAD;
		if (pread_all(rd, body, s->size, s->offset, "feature") < 0)
			return -1;
		pd_record_header_feature_build(rd->synth, PD_REC_MAX, f, NULL,
		    s->size, 0);
		if (rd->swapped) {
			int r = pd_swap_feature(f, body, s->size);

			if (r < 0)
				drop(rd, "a feature section that could not "
				    "be converted");
			else if (r > 0)
				inexact(rd, "a feature section of an unknown "
				    "layout");
		}
		if (f == PD_FEAT_EVENT_DESC && rd->desc == NULL &&
		    (rd->desc = malloc(s->size)) != NULL) {
			memcpy(rd->desc, body, s->size);
			rd->desc_len = s->size;
		}
		return synth_rec(rd, rec, s->offset);
	}
	return 0;
}

/* Finds the name of entry `i` of an EVENT_DESC body. */
struct desc_find {
	uint32_t	 i;
	const char	*name;
	size_t		 len;
};

static int
desc_find(void *ctx, uint32_t idx, const char *name, size_t len,
    const unsigned char *ids, uint32_t nids)
{
	struct desc_find *d = ctx;

	(void)ids;
	(void)nids;
	if (idx != d->i)
		return 0;
	d->name = name;
	d->len = len;
	return 1;
}

/*
 * perf's file reader names events from EVENT_DESC, but its pipe reader
 * takes names only from EVENT_UPDATE (perf record sends one per event):
 * say the names the file gives as EVENT_UPDATE NAME records. perf finds
 * the event by id, where id 0 means the first event.
 */
static int
next_name(struct pd_reader *rd, struct pd_rec *rec)
{
	const struct pd_evsel *ev;
	struct desc_find d;
	uint64_t i, id;

	while (rd->desc != NULL && (i = rd->name_i++) < rd->evlist.n) {
		ev = &rd->evlist.evsels[i];
		d.i = i;
		d.len = 0;
		if (i > UINT32_MAX || pd_feat_event_desc_walk(rd->desc,
		    rd->desc_len, desc_find, &d) == 0 || d.len == 0)
			continue;
		if (ev->nids > 0)
			id = ev->ids[0];
		else if (i == 0)
			id = 0;
		else
			continue;
		if (pd_record_event_update_name_build(rd->synth, PD_REC_MAX,
		    id, d.name, d.len, 0) > PD_REC_MAX)
			continue;
		return synth_rec(rd, rec, rd->feats[PD_FEAT_EVENT_DESC].offset);
	}
	return 0;
}

static int
next_tracing(struct pd_reader *rd, struct pd_rec *rec)
{
	struct section *s = &rd->feats[PD_FEAT_TRACING_DATA];
	uint64_t padded = PD_ALIGN8(s->size);

	if (!(rd->feat_bits[0] >> PD_FEAT_TRACING_DATA & 1) || s->size == 0)
		return 0;
	if (padded > UINT32_MAX)
		return pd_err_set(&rd->err, s->offset, "tracing data of %"
		    PRIu64 " bytes is too large for a stream", s->size);
	pd_record_header_tracing_data_build(rd->synth, PD_REC_MAX, 0, padded,
	    0);
	synth_rec(rd, rec, s->offset);
	rec->payload = padded;
	rd->payload_left = s->size;
	rd->payload_pad = padded - s->size;
	rd->payload_src = s->offset;
	rd->payload_pread = 1;
	return 1;
}

/* Build-id entries: perf_record_header_build_id records back to back. */
static int
next_build_id(struct pd_reader *rd, struct pd_rec *rec)
{
	struct section *s = &rd->feats[PD_FEAT_BUILD_ID];
	unsigned char h[8];
	uint16_t size, misc;

	if (!(rd->feat_bits[0] >> PD_FEAT_BUILD_ID & 1))
		return 0;
	if (rd->bid_off == 0)
		rd->bid_off = s->offset;
	if (rd->bid_off + 8 > s->offset + s->size)
		return 0;
	if (pread_all(rd, h, 8, rd->bid_off, "build id") < 0)
		return -1;
	size = pd_header_size(h);
	if (rd->swapped)
		size = bswap_16(size);
	if (size < 36 || rd->bid_off + size > s->offset + s->size)
		return pd_err_set(&rd->err, rd->bid_off, "build id entry "
		    "size %u does not fit its section", size);
	if (pread_all(rd, rd->synth, size, rd->bid_off, "build id") < 0)
		return -1;
	/* one entry of the section: its header and pid */
	if (rd->swapped)
		(void)pd_swap_feature(PD_FEAT_BUILD_ID, rd->synth, size);
	misc = pd_header_misc(rd->synth);
	pd_header_put(rd->synth, PD_RECORD_HEADER_BUILD_ID, misc, size, 0);
	synth_rec(rd, rec, rd->bid_off);
	rd->bid_off += size;
	return 1;
}

static int
start_data(struct pd_reader *rd)
{
	if (lseek(rd->fd, rd->data.offset, SEEK_SET) < 0)
		return pd_err_io(&rd->err, errno, "lseek");
	rd->pos = rd->end = 0;
	rd->eof = 0;
	rd->buf_off = rd->data.offset;
	rd->limit = rd->data.offset + rd->data.size;
	rd->payload_pread = 0;
	rd->payload_left = rd->payload_pad = 0;
	rd->phase = PH_DATA;
	return 0;
}

/*
 * simpleperf writes the tracing data inside its record: u32 size, the
 * blob, zero padding to 64, all within header.size. perf's readers take
 * the blob from after a 16-byte record, so hand out that layout: a
 * 16-byte record whose payload is the blob, padded to 8. The padding in
 * the input record is skipped before the next record.
 */
static int
simpleperf_tracing(struct pd_reader *rd, struct pd_rec *rec,
    const struct pd_record_header_tracing_data *t)
{
	size_t head = t->data - rec->data;

	rd->pos += head;
	rd->payload_left = t->size;
	rd->payload_pad = PD_ALIGN8(t->size) - t->size;
	rd->skip_after = rec->size - head - t->size;
	rec->size = pd_record_header_tracing_data_build(rd->tdrec,
	    sizeof(rd->tdrec), rec->misc, PD_ALIGN8(t->size), 0);
	rec->data = rd->tdrec;
	rec->payload = PD_ALIGN8(t->size);
	return 1;
}

/*
 * How many of the input's bytes up to offset `end` are not there: of a
 * file, which can say its size, so that a streamed payload it cuts
 * short is refused at its record, before any of it is passed on (a
 * pipe's is found short only once read); 0 when all are, or unknown.
 */
static uint64_t
bytes_missing(struct pd_reader *rd, uint64_t end)
{
	struct stat st;
	uint64_t have;

	if (rd->file_mode)
		have = rd->limit < rd->file_size ? rd->limit : rd->file_size;
	else if (rd->regular && rd->read_fn == NULL && rd->file_base >= 0 &&
	    fstat(rd->fd, &st) == 0 && (uint64_t)st.st_size >=
	    (uint64_t)rd->file_base)
		have = st.st_size - rd->file_base;
	else
		return 0;
	return end > have ? end - have : 0;
}

/* The next record of the input proper (pipe stream or data section). */
static int
next_data(struct pd_reader *rd, struct pd_rec *rec)
{
	struct pd_record_header_tracing_data td;
	unsigned char *p;
	uint64_t off, missing;
	uint32_t type;
	uint16_t size;
	int r;

	if ((r = ensure(rd, PD_REC_HDR_SIZE)) < 0)
		return -1;
	off = rd->buf_off + rd->pos;
	if (r == 0) {
		if (rd->end == rd->pos)
			return 0;
		return pd_err_set(&rd->err, off, "truncated record header: "
		    "%zu bytes at the end of input", rd->end - rd->pos);
	}
	p = rd->buf + rd->pos;
	if (rd->swapped)
		pd_swap_header(p);
	type = pd_header_type(p);
	size = pd_header_size(p);
	if (size < PD_REC_HDR_SIZE)
		return pd_err_set(&rd->err, off, "record size %u < 8", size);
	if ((r = ensure(rd, size)) < 0)
		return -1;
	if (r == 0) {
		const char *name = pd_rec_name(type);

		return pd_err_set(&rd->err, off, "record type %" PRIu32
		    "%s%s%s size %u runs past the end of input (%zu bytes "
		    "left)%s", type, name ? " (" : "", name ? name : "",
		    name ? ")" : "", size, rd->end - rd->pos,
		    name ? "" : ": trailing garbage?");
	}
	/* ensure() may have moved the (already swapped) header. */
	p = rd->buf + rd->pos;
	if (rd->swapped) {
		const char *why;

		if ((r = pd_swap_rec(&rd->evlist, p, &why)) < 0)
			return pd_err_set(&rd->err, off, "%s: %s",
			    pd_rec_name(type) ? pd_rec_name(type) : "record",
			    why);
		if (r > 0)
			inexact(rd, why);
	}
	pd_rec_view(rec, p);
	rec->offset = off;
	if (pd_record_header_tracing_data_parse(rec, &td) == 0 &&
	    td.data != NULL)
		return simpleperf_tracing(rd, rec, &td);
	rec->payload = pd_record_payload(rec);
	rd->payload_left = rec->payload;
	rd->payload_off = off;
	rd->payload_type = type;
	/*
	 * A payload that fits the buffer is read before the record is
	 * handed out, so a truncated one is reported at its record and
	 * nothing of it is passed on; larger ones are streamed.
	 */
	if (rec->payload > 0 && rec->payload <= BUF_SIZE / 2) {
		if ((r = ensure(rd, size + rec->payload)) < 0)
			return -1;
		if (r == 0) {
			rd->payload_left = size + rec->payload -
			    (rd->end - rd->pos);
			return payload_short(rd);
		}
		rec->data = rd->buf + rd->pos;
	} else if (rec->payload > 0 &&
	    (missing = bytes_missing(rd, off + size + rec->payload)) > 0) {
		rd->payload_left = missing;
		return payload_short(rd);
	}
	rd->pos += size;
	return 1;
}

/*
 * Foreign input: collects the tracing blob (bounded), turns it native
 * and parses its formats, so that RAW data of the samples after it are
 * converted too (swap.h); pd_reader_payload() then hands it out whole.
 */
static int
tracing_native(struct pd_reader *rd, struct pd_rec *rec)
{
	const unsigned char *p;
	const char *why;
	unsigned char *b;
	size_t len = 0;
	ssize_t n;
	int r;

	if (rec->payload > PD_TRACEFMT_MAX)
		return pd_err_set(&rd->err, rec->offset, "tracing data "
		    "larger than 64 MiB");
	/*
	 * A payload too large to be read with its record is streamed
	 * through the input buffer, which reading it refills from the
	 * start: the record the caller gets must not point there, or its
	 * header comes out overwritten by blob text. Once per stream.
	 */
	if (rec->data != rd->tdrec && rec->data != rd->synth) {
		if (rd->synth == NULL &&
		    (rd->synth = malloc(PD_REC_MAX + 1)) == NULL)
			return pd_err_io(&rd->err, ENOMEM, "malloc");
		memcpy(rd->synth, rec->data, rec->size);
		rec->data = rd->synth;
	}
	if ((b = malloc(rec->payload)) == NULL)
		return pd_err_io(&rd->err, ENOMEM, "tracing data");
	while ((n = pd_reader_payload(rd, &p)) > 0) {
		if ((size_t)n > rec->payload - len) {
			free(b);
			return pd_err_set(&rd->err, rec->offset, "tracing "
			    "data longer than its record says");
		}
		memcpy(b + len, p, n);
		len += n;
	}
	if (n < 0) {
		free(b);
		return -1;
	}
	rd->tblob = b;
	rd->tblob_len = len;
	rd->tblob_pos = 0;
	if ((r = pd_swap_tracing(b, len, 1, &why)) < 0)
		return pd_err_set(&rd->err, rec->offset, "tracing data: %s",
		    why);
	rd->tf_why = NULL;
	if (rd->tf == NULL && (rd->tf = pd_tracefmt_new()) == NULL)
		return pd_err_io(&rd->err, ENOMEM, "tracing data");
	if (pd_tracefmt_add(rd->tf, b, len, &why) < 0)
		return pd_err_set(&rd->err, rec->offset, "tracing data: %s",
		    why);
	/* formats it could not parse leave their RAW data counted */
	if (pd_tracefmt_finish(rd->tf, &why) < 0)
		rd->tf_why = why;
	/*
	 * A blob that says its own order (r == 0) has RAW data in that
	 * order too: they stay as they are on the way in.
	 */
	if (pd_evlist_set_tracefmt(&rd->evlist, rd->tf, r > 0, 1) < 0)
		rd->tf_why = "out of memory";
	return 0;
}

/*
 * The common case, kept short because it is most of every stream: a
 * kernel record (type below 64: no payload, nothing to track, never
 * compressed) of a native input, whole in the buffer, with nothing of
 * the previous record pending. Returns 1 with *rec filled, or 0 to take
 * the general way; what it hands out is what next_data would.
 */
static int
next_fast(struct pd_reader *rd, struct pd_rec *rec)
{
	const unsigned char *p = rd->buf + rd->pos;
	size_t avail = rd->end - rd->pos;
	uint32_t type;
	uint16_t size;

	if (avail < PD_REC_HDR_SIZE)
		return 0;
	type = pd_header_type(p);
	size = pd_header_size(p);
	if (type >= PD_RECORD_USER_START || size < PD_REC_HDR_SIZE ||
	    size > avail)
		return 0;
	rec->offset = rd->buf_off + rd->pos;
	rec->data = p;
	rec->payload = 0;
	rec->type = type;
	rec->misc = pd_header_misc(p);
	rec->size = size;
	rec->flags = 0;
	rd->payload_off = rec->offset;
	rd->payload_type = type;
	rd->pos += size;
	return 1;
}

/* Whether next_fast may take the next record: nothing else is pending. */
static int
fast_state(const struct pd_reader *rd)
{
	return rd->phase == PH_DATA && !rd->swapped && rd->zdec == NULL &&
	    rd->payload_left == 0 && rd->payload_pad == 0 &&
	    rd->tblob == NULL && rd->skip_after == 0;
}

/*
 * Every other record: the file-mode header's, payloads, compressed
 * records, swapped streams, records across a buffer's end. Kept out of
 * line so that the fast path's caller saves no registers for it.
 */
static __attribute__((noinline)) int
next_slow(struct pd_reader *rd, struct pd_rec *rec)
{
	int r;

	if (skip_payload(rd) < 0)
		return -1;
	free(rd->tblob);
	rd->tblob = NULL;
	rd->pos += rd->skip_after;
	rd->skip_after = 0;
	for (;;) {
		switch (rd->phase) {
		case PH_ATTRS:
			if (rd->attr_i < rd->nattrs) {
				r = next_attr(rd, rec);
				goto got;
			}
			rd->phase = PH_FEATURES;
			continue;
		case PH_FEATURES:
			if ((r = next_feature(rd, rec)) != 0)
				goto got;
			rd->phase = PH_NAMES;
			continue;
		case PH_NAMES:
			if ((r = next_name(rd, rec)) != 0)
				goto got;
			rd->phase = PH_TRACING;
			continue;
		case PH_TRACING:
			rd->phase = PH_BUILD_IDS;
			if ((r = next_tracing(rd, rec)) != 0)
				goto got;
			continue;
		case PH_BUILD_IDS:
			if ((r = next_build_id(rd, rec)) != 0)
				goto got;
			if (start_data(rd) < 0)
				return -1;
			continue;
		case PH_DATA:
			if (rd->zdec != NULL) {
				r = pd_zdec_next(rd->zdec, rec, &rd->err);
				if (r != 0)
					goto got;
			}
			r = next_data(rd, rec);
			if (r > 0 && ((rd->flags & PD_RD_DECOMPRESS) ||
			    (rd->swapped && !(rd->flags & PD_RD_STORED))) &&
			    (rec->type == PD_RECORD_COMPRESSED ||
			    rec->type == PD_RECORD_COMPRESSED2)) {
				if (zdec_for(rd) < 0 ||
				    pd_zdec_feed(rd->zdec, rec, &rd->err) < 0)
					return -1;
				/* Its bytes stay put until zdec is drained. */
				if (rd->flags & PD_RD_KEEP_COMPRESSED)
					goto got;
				continue;
			}
			if (r == 0) {
				if (rd->zdec != NULL &&
				    pd_zdec_end(rd->zdec, &rd->err) < 0)
					return -1;
				rd->phase = PH_DONE;
			}
			goto got;
		case PH_DONE:
			return 0;
		}
	}
got:
	if (r > 0 && track(rd, rec) < 0)
		return -1;
	if (r > 0 && (rec->type == PD_RECORD_HEADER_TRACING_DATA ||
	    rec->type == PD_RECORD_SIMPLEPERF_TRACING_DATA) &&
	    (rd->swapped || (rd->flags & PD_RD_TRACEFMT))) {
		if (rd->swapped && rec->type == PD_RECORD_HEADER_TRACING_DATA &&
		    rec->payload > 0) {
			if (tracing_native(rd, rec) < 0)
				return -1;
		} else
			tracing_start(rd, rec);
	}
	return r;
}

int
pd_reader_next(struct pd_reader *rd, struct pd_rec *rec)
{
	int r;

	if (rd->fast && next_fast(rd, rec))
		return 1;
	r = next_slow(rd, rec);
	if (r < 0 && rd->stopped)
		r = 0;
	/* What the slow path leaves decides whether the fast one may go. */
	rd->fast = r > 0 && fast_state(rd);
	return r;
}
