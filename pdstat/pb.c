/* SPDX-License-Identifier: MIT */
#include "pdstat/pb.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define WT_VARINT	0
#define WT_LEN		2

static int
grow(struct pb *b, size_t more)
{
	unsigned char *p;
	size_t cap;

	if (b->oom)
		return -1;
	if (b->n + more <= b->cap)
		return 0;
	for (cap = b->cap ? b->cap : 256; cap < b->n + more; cap *= 2)
		;
	if ((p = realloc(b->p, cap)) == NULL) {
		b->oom = 1;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

/* v as a varint at p (room for 10 bytes): returns its length. */
static size_t
varint(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

static size_t
varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void
pb_reset(struct pb *b)
{
	b->n = 0;
}

void
pb_free(struct pb *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* A tag and a varint: room for both made once (a field costs one check). */
static void
put_field(struct pb *b, uint64_t tag, uint64_t v)
{
	if (b->n + 20 > b->cap && grow(b, 20) < 0)
		return;
	b->n += varint(b->p + b->n, tag);
	b->n += varint(b->p + b->n, v);
}

void
pb_uint(struct pb *b, unsigned f, uint64_t v)
{
	if (v != 0)
		put_field(b, (uint64_t)f << 3 | WT_VARINT, v);
}

void
pb_int(struct pb *b, unsigned f, uint64_t v)
{
	put_field(b, (uint64_t)f << 3 | WT_VARINT, v);
}

void
pb_bytes(struct pb *b, unsigned f, const void *p, size_t len)
{
	if (grow(b, 20 + len) < 0)
		return;
	put_field(b, (uint64_t)f << 3 | WT_LEN, len);
	memcpy(b->p + b->n, p, len);
	b->n += len;
}

void
pb_raw(struct pb *b, const void *p, size_t len)
{
	if (grow(b, len) < 0)
		return;
	memcpy(b->p + b->n, p, len);
	b->n += len;
}

void
pb_packed(struct pb *b, unsigned f, const uint64_t *v, size_t n)
{
	size_t i, len = 0;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		len += varint_len(v[i]);
	if (grow(b, 20 + len) < 0)
		return;
	put_field(b, (uint64_t)f << 3 | WT_LEN, len);
	for (i = 0; i < n; i++)
		b->n += varint(b->p + b->n, v[i]);
}

void
pb_packed32(struct pb *b, unsigned f, const uint32_t *v, size_t n)
{
	size_t i, len = 0;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		len += varint_len(v[i]);
	if (grow(b, 20 + len) < 0)
		return;
	put_field(b, (uint64_t)f << 3 | WT_LEN, len);
	for (i = 0; i < n; i++)
		b->n += varint(b->p + b->n, v[i]);
}

/* ----- gzip ----- */

/*
 * The messages are gathered into batches of GZ_IN bytes before zlib
 * sees them: a profile is hundreds of thousands of small messages, and
 * each call of deflate() costs as much as deflating a hundred bytes.
 * Deflating is then most of writing a profile, and a profile is written
 * only when the stream has been read: so the batches are deflated by
 * GZ_WORKERS threads at once, as pigz does it. Each batch is deflated
 * on its own (its predecessor's last 32 KiB as the dictionary, so it
 * compresses as well) and ends on a byte with a sync flush; their
 * outputs, written in order, make one deflate stream, and the CRCs
 * combine into the one of the gzip trailer. GZ_JOBS batches at most
 * are in flight (bounded memory). Without threads (they could not
 * start) each batch is deflated in line.
 *
 * Where the system has libdeflate (loaded at run time, as dso.c loads
 * libdebuginfod: no build dependency), it deflates the batches: in
 * about 60% of zlib's time at level 1 on the bench stream's profile,
 * and 3% smaller. It makes whole streams only, so each batch is then a
 * gzip member of its own: a gzip file may be several (RFC 1952, 2.2),
 * read as one by gzip, Go's compress/gzip (pprof) and Python's gzip.
 */
#define GZ_IN		(256 * 1024)
#define GZ_DICT		(32 * 1024)
#define GZ_JOBS		4
#define GZ_WORKERS	2

enum { JOB_FREE, JOB_TODO, JOB_BUSY, JOB_DONE };

struct gz_job {
	unsigned char	*in;		/* GZ_IN bytes */
	size_t		 nin;
	unsigned char	*dict;		/* GZ_DICT bytes: the last batch's */
	size_t		 ndict;
	unsigned char	*out;
	size_t		 nout, outcap;
	unsigned long	 crc;		/* of in */
	int		 finish;	/* the last batch: ends the stream */
	int		 state;
	int		 err;		/* errno */
};

struct pb_gz {
	int		 fd;
	int		 err;		/* errno of the first failure */
	struct gz_job	 job[GZ_JOBS];
	uint64_t	 seq;		/* batches handed over */
	uint64_t	 written;	/* batches written, in order */
	unsigned long	 crc;		/* of the bytes written */
	uint64_t	 total;
	z_stream	 z[GZ_WORKERS];
	void		*ldc[GZ_WORKERS];	/* libdeflate's, or NULL */
	int		 ld;		/* batches are members by libdeflate */
	int		 nz;		/* of them initialized */

	int		 nthreads;
	pthread_t	 th[GZ_WORKERS];
	struct gz_worker {
		struct pb_gz	*g;
		int		 i;		/* its z[], ldc[] */
	}		 w[GZ_WORKERS];
	pthread_mutex_t	 mu;
	pthread_cond_t	 todo;		/* a job is TODO, or quit */
	pthread_cond_t	 done;		/* a job is DONE */
	int		 quit;
};

static int
write_all(struct pb_gz *g, const unsigned char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(g->fd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			if (g->err == 0)
				g->err = errno;
			return -1;
		}
		p += w;
		n -= w;
	}
	return 0;
}

/* libdeflate's calls that are used (libdeflate.h, 1.x: a stable ABI). */
static struct {
	void	*(*alloc)(int);
	size_t	 (*gzip)(void *, const void *, size_t, void *, size_t);
	size_t	 (*bound)(void *, size_t);
	void	 (*free)(void *);
} ld_lib;

/* libdeflate loaded: 0, or -1 (the system has none). */
static int
ld_load(void)
{
	static int state;	/* 0 not tried, 1 loaded, -1 not there */
	void *h;

	if (state == 0) {
		state = -1;
		if ((h = dlopen("libdeflate.so.0", RTLD_NOW | RTLD_LOCAL)) !=
		    NULL) {
			*(void **)&ld_lib.alloc =
			    dlsym(h, "libdeflate_alloc_compressor");
			*(void **)&ld_lib.gzip =
			    dlsym(h, "libdeflate_gzip_compress");
			*(void **)&ld_lib.bound =
			    dlsym(h, "libdeflate_gzip_compress_bound");
			*(void **)&ld_lib.free =
			    dlsym(h, "libdeflate_free_compressor");
			if (ld_lib.alloc != NULL && ld_lib.gzip != NULL &&
			    ld_lib.bound != NULL && ld_lib.free != NULL)
				state = 1;
			else
				dlclose(h);
		}
	}
	return state > 0 ? 0 : -1;
}

/* Job j as a gzip member by libdeflate's compressor c into j->out. */
static void
member_job(void *c, struct gz_job *j)
{
	size_t cap = ld_lib.bound(c, j->nin);
	unsigned char *p;

	if (cap > j->outcap) {
		if ((p = realloc(j->out, cap)) == NULL) {
			j->err = ENOMEM;
			return;
		}
		j->out = p;
		j->outcap = cap;
	}
	if ((j->nout = ld_lib.gzip(c, j->in, j->nin, j->out, j->outcap)) == 0)
		j->err = EIO;
}

/* Deflates job j with the worker i's stream into j->out. */
static void
deflate_job(struct pb_gz *g, int i, struct gz_job *j)
{
	z_stream *z = &g->z[i];
	size_t cap;
	unsigned char *p;
	int r;

	if (g->ld) {
		member_job(g->ldc[i], j);
		return;
	}
	j->crc = crc32(0, j->in, (uInt)j->nin);
	if (deflateReset(z) != Z_OK || (j->ndict > 0 &&
	    deflateSetDictionary(z, j->dict, (uInt)j->ndict) != Z_OK)) {
		j->err = EIO;
		return;
	}
	z->next_in = j->in;
	z->avail_in = (uInt)j->nin;
	j->nout = 0;
	do {
		if (j->nout == j->outcap) {
			cap = j->outcap ? j->outcap * 2 :
			    deflateBound(z, j->nin) + 64;
			if ((p = realloc(j->out, cap)) == NULL) {
				j->err = ENOMEM;
				return;
			}
			j->out = p;
			j->outcap = cap;
		}
		z->next_out = j->out + j->nout;
		z->avail_out = (uInt)(j->outcap - j->nout);
		r = deflate(z, j->finish ? Z_FINISH : Z_SYNC_FLUSH);
		j->nout = j->outcap - z->avail_out;
		if (r == Z_STREAM_ERROR) {
			j->err = EIO;
			return;
		}
	} while (z->avail_out == 0 || (j->finish && r != Z_STREAM_END));
}

/* A deflating thread: jobs handed over, until told to stop. */
static void *
worker(void *arg)
{
	struct gz_worker *w = arg;
	struct pb_gz *g = w->g;
	struct gz_job *j;
	size_t i;

	pthread_mutex_lock(&g->mu);
	for (;;) {
		for (j = NULL, i = 0; i < GZ_JOBS && j == NULL; i++)
			if (g->job[i].state == JOB_TODO)
				j = &g->job[i];
		if (j == NULL) {
			if (g->quit)
				break;
			pthread_cond_wait(&g->todo, &g->mu);
			continue;
		}
		j->state = JOB_BUSY;
		pthread_mutex_unlock(&g->mu);
		deflate_job(g, w->i, j);
		pthread_mutex_lock(&g->mu);
		j->state = JOB_DONE;
		pthread_cond_broadcast(&g->done);
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

/* The oldest batch not yet written: waited for, written, made free. */
static int
write_oldest(struct pb_gz *g)
{
	struct gz_job *j = &g->job[g->written % GZ_JOBS];

	if (g->nthreads > 0) {
		pthread_mutex_lock(&g->mu);
		while (j->state != JOB_DONE)
			pthread_cond_wait(&g->done, &g->mu);
		pthread_mutex_unlock(&g->mu);
	}
	if (j->err != 0 && g->err == 0)
		g->err = j->err;
	if (g->err == 0 && write_all(g, j->out, j->nout) == 0) {
		g->crc = crc32_combine(g->crc, j->crc, (z_off_t)j->nin);
		g->total += j->nin;
	}
	/* The workers read every job's state as they look for one. */
	if (g->nthreads > 0)
		pthread_mutex_lock(&g->mu);
	j->state = JOB_FREE;
	if (g->nthreads > 0)
		pthread_mutex_unlock(&g->mu);
	j->nin = 0;
	g->written++;
	return g->err != 0 ? -1 : 0;
}

/*
 * The batch being filled goes to be deflated (finish: the last one),
 * and the next one is made free to fill.
 */
static int
submit(struct pb_gz *g, int finish)
{
	struct gz_job *j = &g->job[g->seq % GZ_JOBS];
	const struct gz_job *prev = &g->job[(g->seq + GZ_JOBS - 1) % GZ_JOBS];

	/* The one before is in flight or written, its bytes still there. */
	j->ndict = 0;
	if (g->seq > 0 && !g->ld) {
		j->ndict = prev->nin < GZ_DICT ? prev->nin : GZ_DICT;
		memcpy(j->dict, prev->in + prev->nin - j->ndict, j->ndict);
	}
	j->finish = finish;
	j->err = 0;
	if (g->nthreads == 0) {
		deflate_job(g, 0, j);
		j->state = JOB_DONE;
	} else {
		pthread_mutex_lock(&g->mu);
		j->state = JOB_TODO;
		pthread_cond_signal(&g->todo);
		pthread_mutex_unlock(&g->mu);
	}
	g->seq++;
	while (g->written + GZ_JOBS <= g->seq)
		if (write_oldest(g) < 0)
			return -1;
	return 0;
}

static void
gz_free(struct pb_gz *g)
{
	int i;

	for (i = 0; i < GZ_JOBS; i++) {
		free(g->job[i].in);
		free(g->job[i].dict);
		free(g->job[i].out);
	}
	for (i = 0; i < g->nz; i++)
		if (g->ld)
			ld_lib.free(g->ldc[i]);
		else
			deflateEnd(&g->z[i]);
	free(g);
}

/* Stops the threads (their jobs done). */
static void
gz_stop(struct pb_gz *g)
{
	int i;

	if (g->nthreads == 0)
		return;
	pthread_mutex_lock(&g->mu);
	g->quit = 1;
	pthread_cond_broadcast(&g->todo);
	pthread_mutex_unlock(&g->mu);
	for (i = 0; i < g->nthreads; i++)
		pthread_join(g->th[i], NULL);
	pthread_cond_destroy(&g->done);
	pthread_cond_destroy(&g->todo);
	pthread_mutex_destroy(&g->mu);
	g->nthreads = 0;
}

struct pb_gz *
pb_gz_open(int fd)
{
	/* The gzip header: deflate, no name, no time, level 1, Unix. */
	static const unsigned char head[10] = {
		0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 3
	};
	struct pb_gz *g = calloc(1, sizeof(*g));
	int i;

	if (g == NULL)
		return NULL;
	g->fd = fd;
	g->crc = crc32(0, NULL, 0);
	for (i = 0; i < GZ_JOBS; i++)
		if ((g->job[i].in = malloc(GZ_IN)) == NULL ||
		    (g->job[i].dict = malloc(GZ_DICT)) == NULL)
			goto fail;
	/*
	 * Raw deflate (-15): the gzip wrapper is ours. Level 1: a
	 * profile's tables of small varints compress nearly as well, in a
	 * third of the time of the default.
	 */
	if (ld_load() == 0) {
		g->ld = 1;
		for (; g->nz < GZ_WORKERS; g->nz++)
			if ((g->ldc[g->nz] = ld_lib.alloc(1)) == NULL)
				break;
	} else
		for (; g->nz < GZ_WORKERS; g->nz++)
			if (deflateInit2(&g->z[g->nz], 1, Z_DEFLATED, -15, 8,
			    Z_DEFAULT_STRATEGY) != Z_OK)
				break;
	if (g->nz == 0)
		goto fail;
	if (pthread_mutex_init(&g->mu, NULL) == 0) {
		if (pthread_cond_init(&g->todo, NULL) == 0) {
			if (pthread_cond_init(&g->done, NULL) == 0) {
				for (i = 0; i < g->nz; i++) {
					g->w[i].g = g;
					g->w[i].i = i;
					if (pthread_create(&g->th[i], NULL,
					    worker, &g->w[i]) != 0)
						break;
					g->nthreads++;
				}
				if (g->nthreads == 0)
					pthread_cond_destroy(&g->done);
			}
			if (g->nthreads == 0)
				pthread_cond_destroy(&g->todo);
		}
		if (g->nthreads == 0)
			pthread_mutex_destroy(&g->mu);
	}
	/* libdeflate's members have their own. */
	if (!g->ld && write_all(g, head, sizeof(head)) < 0) {
		gz_stop(g);
		goto fail;
	}
	return g;
fail:
	gz_free(g);
	return NULL;
}

/* n bytes at p into the batch (handed over as it fills). */
static int
put(struct pb_gz *g, const unsigned char *p, size_t n)
{
	struct gz_job *j;
	size_t k;

	while (n > 0) {
		j = &g->job[g->seq % GZ_JOBS];
		if (j->nin == GZ_IN) {
			if (submit(g, 0) < 0)
				return -1;
			continue;
		}
		k = GZ_IN - j->nin < n ? GZ_IN - j->nin : n;
		memcpy(j->in + j->nin, p, k);
		j->nin += k;
		p += k;
		n -= k;
	}
	return 0;
}
int
pb_gz_field(struct pb_gz *g, unsigned f, const struct pb *m)
{
	unsigned char h[20];
	size_t n;

	if (m->oom) {
		errno = ENOMEM;
		return -1;
	}
	n = varint(h, (uint64_t)f << 3 | WT_LEN);
	n += varint(h + n, m->n);
	if (put(g, h, n) < 0 || put(g, m->p, m->n) < 0) {
		errno = g->err;
		return -1;
	}
	return 0;
}

int
pb_gz_raw(struct pb_gz *g, const struct pb *m)
{
	if (m->oom) {
		errno = ENOMEM;
		return -1;
	}
	if (put(g, m->p, m->n) < 0) {
		errno = g->err;
		return -1;
	}
	return 0;
}

int
pb_gz_close(struct pb_gz *g)
{
	unsigned char tail[8];
	int i, r, err;

	r = submit(g, 1);
	while (r == 0 && g->written < g->seq)
		r = write_oldest(g);
	gz_stop(g);
	if (r == 0 && !g->ld) {
		for (i = 0; i < 4; i++) {
			tail[i] = (unsigned char)(g->crc >> 8 * i);
			tail[4 + i] = (unsigned char)(g->total >> 8 * i);
		}
		r = write_all(g, tail, sizeof(tail));
	}
	err = g->err;
	gz_free(g);
	if (r < 0)
		errno = err;
	return r;
}
