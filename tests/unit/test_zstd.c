/* SPDX-License-Identifier: MIT */
/*
 * zenc and zdec together: streams written through the compressing
 * writer (or built by hand with libzstd) are read back through the
 * reader with PD_RD_DECOMPRESS (and as raw bytes through
 * pd_reader_inflate, as pdswap reads them) and must give the same records
 * in the same order; straddling records, a chunk that expands past the
 * decoder's buffer, COMPRESSED2 padding, corrupt frames, a zstd bomb, a
 * truncated record and records that may not be inside are checked on the
 * way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/writer.h"
#include "libcommon/stream/zdec.h"
#include "libcommon/stream/zenc.h"
#include "tests/unit/t.h"

/* The reference sequence of records written, for comparison. */
static unsigned char *ref;
static size_t ref_len, ref_cap;

static void
ref_add(const void *p, size_t n)
{
	if (ref_len + n > ref_cap) {
		ref_cap = (ref_len + n) * 2;
		if ((ref = realloc(ref, ref_cap)) == NULL)
			abort();
	}
	memcpy(ref + ref_len, p, n);
	ref_len += n;
}

/* A record of type and size, its bytes a function of `seed`. */
static size_t
mkrec(unsigned char *p, uint32_t type, size_t size, unsigned seed,
    int random)
{
	static uint32_t x = 2463534242u;
	size_t i;

	pd_put_u32(p, type);
	pd_put_u16(p + 4, 0);
	pd_put_u16(p + 6, size);
	for (i = 8; i < size; i++)
		p[i] = random ? (unsigned char)(x ^= x << 13, x ^= x >> 17,
		    x ^= x << 5) :
		    (unsigned char)(seed * 7 + i / 64);
	if (size >= 16)
		pd_put_u32(p + 8, seed);
	return size;
}

static FILE *
start(struct pd_writer **w)
{
	FILE *f = tmpfile();

	if (f == NULL || (*w = pd_writer_new(fileno(f))) == NULL)
		abort();
	pd_writer_header(*w);
	return f;
}

/*
 * Reads f back decompressed; 1 when its records equal the reference (the
 * COMPRESSED feature left out), else 0. *rc is the reader's last result
 * and errmsg its error.
 */
static int
readback(FILE *f, int *rc, char *errmsg, uint64_t *erroff)
{
	struct pd_err err;
	struct pd_reader *rd;
	struct pd_rec rec;
	size_t at = 0;
	int ok = 1, r;

	lseek(fileno(f), 0, SEEK_SET);
	rd = pd_reader_fdopen(fileno(f), "t", PD_RD_DECOMPRESS, &err);
	if (rd == NULL) {
		fprintf(stderr, "open: %s\n", err.msg);
		return 0;
	}
	while ((r = pd_reader_next(rd, &rec)) > 0) {
		if (rec.type == PD_RECORD_HEADER_FEATURE &&
		    pd_get_u64(rec.data + 8) == PD_FEAT_COMPRESSED)
			continue;
		if (at + rec.size > ref_len ||
		    memcmp(ref + at, rec.data, rec.size) != 0) {
			if (ok)
				fprintf(stderr, "mismatch at ref byte %zu "
				    "(type %u)\n", at, rec.type);
			ok = 0;
		}
		at += rec.size;
	}
	*rc = r;
	if (errmsg != NULL)
		snprintf(errmsg, 192, "%s", pd_reader_err(rd)->msg);
	if (erroff != NULL)
		*erroff = pd_reader_err(rd)->offset;
	if (r == 0 && at != ref_len) {
		fprintf(stderr, "got %zu of %zu bytes\n", at, ref_len);
		ok = 0;
	}
	pd_reader_close(rd);
	return ok;
}

/*
 * The same through pd_reader_inflate(), as pdswap reads: records as
 * stored, the compressed ones' contents as raw bytes, which must join up
 * to the reference (records cut anywhere). 1 when they do, else 0.
 */
static int
readback_raw(FILE *f, int *rc, char *errmsg, uint64_t *erroff)
{
	static unsigned char out[1 << 20];
	struct pd_err err;
	struct pd_reader *rd;
	struct pd_rec rec;
	size_t at = 0, pos;
	int ok = 1, r = 0;

	lseek(fileno(f), 0, SEEK_SET);
	if ((rd = pd_reader_fdopen(fileno(f), "t", PD_RD_STORED, &err)) ==
	    NULL)
		return 0;
	while (r >= 0 && (r = pd_reader_next(rd, &rec)) > 0) {
		if (rec.type == PD_RECORD_HEADER_FEATURE &&
		    pd_get_u64(rec.data + 8) == PD_FEAT_COMPRESSED)
			continue;
		if (rec.type != PD_RECORD_COMPRESSED &&
		    rec.type != PD_RECORD_COMPRESSED2) {
			ok &= at + rec.size <= ref_len &&
			    memcmp(ref + at, rec.data, rec.size) == 0;
			at += rec.size;
			continue;
		}
		/* small and odd room, so that calls end anywhere */
		do {
			pos = 0;
			r = pd_reader_inflate(rd, &rec, out, 70001, &pos);
			ok &= at + pos <= ref_len &&
			    memcmp(ref + at, out, pos) == 0;
			at += pos;
		} while (r > 0);
	}
	*rc = r;
	if (errmsg != NULL)
		snprintf(errmsg, 192, "%s", pd_reader_err(rd)->msg);
	if (erroff != NULL)
		*erroff = pd_reader_err(rd)->offset;
	if (r == 0 && at != ref_len)
		ok = 0;
	pd_reader_close(rd);
	return ok;
}

/* Walks f as stored: checks compressed records, returns how many. */
static int
scan(FILE *f, uint32_t ztype, int *feat_first, int *sizes_ok,
    int *pad_ok)
{
	struct pd_err err;
	struct pd_reader *rd;
	struct pd_rec rec;
	int n = 0, feat = 0;

	*feat_first = 1;
	*sizes_ok = *pad_ok = 1;
	lseek(fileno(f), 0, SEEK_SET);
	if ((rd = pd_reader_fdopen(fileno(f), "t", 0, &err)) == NULL)
		return -1;
	while (pd_reader_next(rd, &rec) > 0) {
		if (rec.type == PD_RECORD_HEADER_FEATURE &&
		    pd_get_u64(rec.data + 8) == PD_FEAT_COMPRESSED) {
			feat++;
			if (rec.size != 36 || pd_get_u32(rec.data + 20) != 1 ||
			    pd_get_u32(rec.data + 32) < PD_ZENC_CHUNK)
				*sizes_ok = 0;
		}
		if (rec.type != PD_RECORD_COMPRESSED &&
		    rec.type != PD_RECORD_COMPRESSED2)
			continue;
		if (rec.type != ztype)
			*sizes_ok = 0;
		if (feat != 1)
			*feat_first = 0;
		if (rec.type == PD_RECORD_COMPRESSED2) {
			uint64_t ds = pd_get_u64(rec.data + 8);
			size_t i;

			if (rec.size % 8 != 0 || ds > rec.size - 16u ||
			    PD_ALIGN8(16 + ds) != rec.size)
				*pad_ok = 0;
			for (i = 16 + ds; i < rec.size; i++)
				if (rec.data[i] != 0)
					*pad_ok = 0;
		}
		n++;
	}
	pd_reader_close(rd);
	return n;
}

/*
 * perf 6.1 fails a compressed record that yields no output on its own
 * and needs mmap_len room for each: every record must decompress to
 * 1..mmap_len bytes with one stream fed record by record.
 */
static int
each_yields(FILE *f)
{
	static unsigned char out[2 * PD_ZENC_CHUNK];
	struct pd_err err;
	struct pd_reader *rd;
	struct pd_rec rec;
	ZSTD_DStream *ds = ZSTD_createDStream();
	int ok = 1;

	lseek(fileno(f), 0, SEEK_SET);
	rd = pd_reader_fdopen(fileno(f), "t", 0, &err);
	while (rd != NULL && pd_reader_next(rd, &rec) > 0) {
		ZSTD_inBuffer in;
		ZSTD_outBuffer o = { out, sizeof(out), 0 };
		size_t r;

		if (rec.type == PD_RECORD_COMPRESSED) {
			in.src = rec.data + 8;
			in.size = rec.size - 8;
		} else if (rec.type == PD_RECORD_COMPRESSED2) {
			in.src = rec.data + 16;
			in.size = pd_get_u64(rec.data + 8);
		} else
			continue;
		in.pos = 0;
		r = ZSTD_decompressStream(ds, &o, &in);
		if (ZSTD_isError(r) || in.pos != in.size || o.pos == 0 ||
		    o.pos == o.size)
			ok = 0;
	}
	pd_reader_close(rd);
	ZSTD_freeDStream(ds);
	return ok;
}

/* Kernel records and user records through pd_zenc_rec. */
static void
test_records(uint32_t ztype, int random)
{
	static unsigned char buf[PD_REC_MAX + 1];
	struct pd_writer *w;
	struct pd_zenc *z;
	struct pd_rec rec;
	FILE *f = start(&w);
	int i, rc, ff, so, po, n;

	ref_len = 0;
	z = pd_zenc_new(w, 3, ztype);
	T(z != NULL);
	for (i = 0; i < (random ? 300 : 3000); i++) {
		size_t size;
		uint32_t type;

		if (i == 1) {		/* a feature ahead of compression */
			type = PD_RECORD_HEADER_FEATURE;
			size = mkrec(buf, type, 24, 0, 0);
			pd_put_u64(buf + 8, PD_FEAT_HOSTNAME);
		} else if (i % 37 == 0) {
			type = PD_RECORD_FINISHED_ROUND;
			size = mkrec(buf, type, 8, i, 0);
		} else {
			type = PERF_RECORD_SAMPLE;
			size = random ? (i % 5 == 0 ? 65528 : 8 * (i % 900)) :
			    8 * (1 + i % 400);
			if (size < 16)
				size = 16;
			size = mkrec(buf, type, size, i, random);
		}
		rec.data = buf;
		rec.type = type;
		rec.size = size;
		rec.misc = 0;
		rec.payload = 0;
		rec.flags = 0;
		if (pd_zenc_rec(z, &rec) < 0)
			T(0);
		ref_add(buf, size);
	}
	/* A compressed record cannot be compressed again. */
	rec.type = PD_RECORD_COMPRESSED;
	T(pd_zenc_rec(z, &rec) < 0);
	T(pd_zenc_free(z) == 0);
	T(pd_writer_free(w) == 0);
	T(readback(f, &rc, NULL, NULL) == 1);
	T(rc == 0);
	n = scan(f, ztype, &ff, &so, &po);
	T(n > 1);
	T(ff == 1);
	T(so == 1);
	T(po == 1);
	T(each_yields(f));
	fclose(f);
}

/* Raw bytes cut anywhere: records straddle compressed records. */
static void
test_straddle(uint32_t ztype)
{
	static unsigned char buf[4 << 20];
	struct pd_writer *w;
	struct pd_zenc *z;
	FILE *f = start(&w);
	size_t len = 0, at, k;
	int i, rc, ff, so, po;

	ref_len = 0;
	for (i = 0; len < sizeof(buf) - 70000; i++)
		len += mkrec(buf + len, PERF_RECORD_SAMPLE,
		    8 * (2 + (i * 7919) % 2000), i, 0);
	ref_add(buf, len);
	z = pd_zenc_new(w, 1, ztype);
	T(z != NULL);
	/* pushes of odd sizes, some larger than a chunk */
	for (at = 0, i = 0; at < len; at += k, i++) {
		k = i % 3 == 0 ? 1001 : i % 3 == 1 ? 150001 : 77;
		if (k > len - at)
			k = len - at;
		T(pd_zenc_put(z, buf + at, k) == 0);
		T(pd_zenc_flush(z) == 0);
	}
	T(pd_zenc_free(z) == 0);
	T(pd_writer_free(w) == 0);
	T(readback(f, &rc, NULL, NULL) == 1);
	T(rc == 0);
	T(readback_raw(f, &rc, NULL, NULL) == 1);
	T(rc == 0);
	T(scan(f, ztype, &ff, &so, &po) > 10);
	T(ff == 1 && so == 1 && po == 1);
	T(each_yields(f));
	fclose(f);
}

/* One hand-made COMPRESSED record of these bytes, one unended frame. */
static void
put_compressed(struct pd_writer *w, ZSTD_CStream *cs, const void *p,
    size_t n, int end)
{
	static unsigned char out[PD_REC_MAX];
	ZSTD_inBuffer in = { p, n, 0 };
	ZSTD_outBuffer o = { out + 8, sizeof(out) - 8, 0 };
	size_t r;

	r = ZSTD_compressStream2(cs, &o, &in, end ? ZSTD_e_end :
	    ZSTD_e_flush);
	T(r == 0);
	pd_put_u32(out, PD_RECORD_COMPRESSED);
	pd_put_u16(out + 4, 0);
	pd_put_u16(out + 6, 8 + o.pos);
	pd_writer_put(w, out, 8 + o.pos);
}

/*
 * A record that expands to 2 MiB, past the decoder's 512 KiB buffer,
 * then a plain FINISHED_ROUND: the round must come after all of it.
 * Then a second zstd frame, as a writer that ends its frames makes.
 */
static void
test_big_expansion(void)
{
	static unsigned char buf[2 << 20];
	unsigned char fr[8];
	struct pd_writer *w;
	ZSTD_CStream *cs = ZSTD_createCStream();
	FILE *f = start(&w);
	size_t len = 0;
	int rc;

	ref_len = 0;
	ZSTD_CCtx_setParameter(cs, ZSTD_c_compressionLevel, 3);
	while (len + 1000 <= sizeof(buf))
		len += mkrec(buf + len, PERF_RECORD_SAMPLE, 1000, 1, 0);
	/* This frame is ended: the next record starts a new one. */
	put_compressed(w, cs, buf, len, 1);
	ref_add(buf, len);
	mkrec(fr, PD_RECORD_FINISHED_ROUND, 8, 0, 0);
	pd_writer_put(w, fr, 8);
	ref_add(fr, 8);
	put_compressed(w, cs, buf, 5000, 0);
	ref_add(buf, 5000);
	pd_writer_free(w);
	T(readback(f, &rc, NULL, NULL) == 1);
	T(rc == 0);
	fclose(f);
	ZSTD_freeCStream(cs);
}

/*
 * A bomb: 40 MiB of valid records in a few KiB. Past the limit (16 MiB
 * without a COMPRESSED feature) it is an error at the record's offset,
 * after what came before; with a feature whose mmap_len allows it, it
 * reads through.
 */
static void
test_bomb(void)
{
	size_t len = 40 << 20, i;
	unsigned char *big = malloc(len), feat[36], fr[8];
	char msg[192];
	struct pd_writer *w;
	ZSTD_CStream *cs;
	FILE *f;
	uint64_t off, bomb_off;
	int rc, pass;

	for (i = 0; i < len; i += 512)
		mkrec(big + i, PERF_RECORD_SAMPLE, 512, 3, 0);
	for (pass = 0; pass < 2; pass++) {
		f = start(&w);
		cs = ZSTD_createCStream();
		ZSTD_CCtx_setParameter(cs, ZSTD_c_compressionLevel, 3);
		ref_len = 0;
		if (pass == 1) {
			pd_put_u32(feat, PD_RECORD_HEADER_FEATURE);
			pd_put_u16(feat + 4, 0);
			pd_put_u16(feat + 6, 36);
			pd_put_u64(feat + 8, PD_FEAT_COMPRESSED);
			memset(feat + 16, 0, 20);
			pd_put_u32(feat + 20, 1);
			pd_put_u32(feat + 32, 64 << 20);
			pd_writer_put(w, feat, 36);
		}
		mkrec(fr, PD_RECORD_FINISHED_ROUND, 8, 0, 0);
		pd_writer_put(w, fr, 8);
		ref_add(fr, 8);
		bomb_off = pd_writer_offset(w);
		put_compressed(w, cs, big, len, 0);
		ref_add(big, len);
		pd_writer_free(w);
		ZSTD_freeCStream(cs);
		T(ftell(f) < 64 * 1024);
		if (pass == 0) {
			/* the records before the limit match */
			readback(f, &rc, msg, &off);
			T(rc == -1);
			T(strstr(msg, "zstd bomb") != NULL);
			T(off == bomb_off);
			/* and for a tool that reads the bytes itself */
			readback_raw(f, &rc, msg, &off);
			T(rc == -1);
			T(strstr(msg, "zstd bomb") != NULL);
			T(off == bomb_off);
		} else {
			T(readback(f, &rc, NULL, NULL) == 1);
			T(rc == 0);
			T(readback_raw(f, &rc, NULL, NULL) == 1);
			T(rc == 0);
		}
		fclose(f);
	}
	free(big);
}

/* Corrupt frames and bad COMPRESSED2 sizes are errors at the offset. */
static void
test_corrupt(void)
{
	static unsigned char buf[100000];
	unsigned char bad[64];
	char msg[192];
	struct pd_writer *w;
	ZSTD_CStream *cs;
	FILE *f;
	size_t len = 0;
	uint64_t off, bad_off;
	int rc, which;

	while (len + 800 <= sizeof(buf))
		len += mkrec(buf + len, PERF_RECORD_SAMPLE, 800, len, 0);
	for (which = 0; which < 3; which++) {
		f = start(&w);
		cs = ZSTD_createCStream();
		ref_len = 0;
		put_compressed(w, cs, buf, len, 0);
		ref_add(buf, len);
		bad_off = pd_writer_offset(w);
		memset(bad, 0xff, sizeof(bad));
		pd_put_u32(bad, which == 2 ? PD_RECORD_COMPRESSED2 :
		    PD_RECORD_COMPRESSED);
		pd_put_u16(bad + 4, 0);
		pd_put_u16(bad + 6, sizeof(bad));
		if (which == 1)		/* a fresh frame with a bad magic */
			memcpy(bad + 8, "\x28\xb5\x2f\xfe", 4);
		pd_writer_put(w, bad, sizeof(bad));
		pd_writer_free(w);
		ZSTD_freeCStream(cs);
		readback(f, &rc, msg, &off);
		T(rc == -1);
		T(off == bad_off);
		T(strstr(msg, which == 2 ? "data_size" : "corrupt zstd") !=
		    NULL);
		fprintf(stderr, "(expected) %s\n", msg);
		readback_raw(f, &rc, msg, &off);
		T(rc == -1);
		T(off == bad_off);
		T(strstr(msg, which == 2 ? "data_size" : "corrupt zstd") !=
		    NULL);
		fclose(f);
	}
}

/* A record cut at the end of the compressed data is an error. */
static void
test_truncated(void)
{
	unsigned char r[200];
	char msg[192];
	struct pd_writer *w;
	struct pd_zenc *z;
	FILE *f = start(&w);
	int rc;

	ref_len = 0;
	z = pd_zenc_new(w, 1, PD_RECORD_COMPRESSED);
	mkrec(r, PERF_RECORD_SAMPLE, 200, 1, 0);
	pd_zenc_put(z, r, 200);
	ref_add(r, 200);
	pd_zenc_put(z, r, 100);
	pd_zenc_free(z);
	pd_writer_free(w);
	T(readback(f, &rc, msg, NULL) == 1);
	T(rc == -1);
	T(strstr(msg, "middle of a record") != NULL);
	fclose(f);
}

/*
 * What no record inside compressed data may be: shorter than a header,
 * one with out-of-band data, or compressed again.
 */
static void
test_inner(void)
{
	static const uint32_t types[] = { PERF_RECORD_SAMPLE,
	    PD_RECORD_AUXTRACE, PD_RECORD_COMPRESSED2 };
	static const char *const want[] = { "size 4 < 8", "out-of-band",
	    "compressed record inside" };
	unsigned char r[64];
	char msg[192];
	struct pd_writer *w;
	ZSTD_CStream *cs;
	FILE *f;
	int rc, i;

	for (i = 0; i < 3; i++) {
		f = start(&w);
		cs = ZSTD_createCStream();
		ref_len = 0;
		mkrec(r, types[i], 64, 1, 0);
		if (i == 0)
			pd_put_u16(r + 6, 4);
		put_compressed(w, cs, r, 64, 0);
		pd_writer_free(w);
		ZSTD_freeCStream(cs);
		readback(f, &rc, msg, NULL);
		T(rc == -1);
		T(strstr(msg, want[i]) != NULL);
		fclose(f);
	}
}

/* Compressed data cut inside a zstd block: its records are lost. */
static void
test_cut_block(void)
{
	static unsigned char buf[60000], out[PD_REC_MAX];
	char msg[192];
	struct pd_writer *w;
	ZSTD_CStream *cs = ZSTD_createCStream();
	ZSTD_inBuffer in;
	ZSTD_outBuffer o = { out + 8, sizeof(out) - 8, 0 };
	FILE *f = start(&w);
	size_t len = 0;
	int rc;

	ref_len = 0;
	while (len + 600 <= sizeof(buf))
		len += mkrec(buf + len, PERF_RECORD_SAMPLE, 600, len, 0);
	in.src = buf;
	in.size = len;
	in.pos = 0;
	T(ZSTD_compressStream2(cs, &o, &in, ZSTD_e_flush) == 0);
	o.pos /= 2;
	pd_put_u32(out, PD_RECORD_COMPRESSED);
	pd_put_u16(out + 4, 0);
	pd_put_u16(out + 6, 8 + o.pos);
	pd_writer_put(w, out, 8 + o.pos);
	pd_writer_free(w);
	readback(f, &rc, msg, NULL);
	T(rc == -1);
	T(strstr(msg, "inside a zstd block") != NULL);
	fclose(f);
	ZSTD_freeCStream(cs);
}

int
main(void)
{
	T(pd_zenc_new(NULL, 0, PD_RECORD_COMPRESSED) == NULL);
	T(pd_zenc_new(NULL, 23, PD_RECORD_COMPRESSED) == NULL);
	T(pd_zenc_new(NULL, 1, PERF_RECORD_SAMPLE) == NULL);
	test_records(PD_RECORD_COMPRESSED, 0);
	test_records(PD_RECORD_COMPRESSED2, 0);
	test_records(PD_RECORD_COMPRESSED, 1);
	test_records(PD_RECORD_COMPRESSED2, 1);
	test_straddle(PD_RECORD_COMPRESSED);
	test_straddle(PD_RECORD_COMPRESSED2);
	test_big_expansion();
	test_bomb();
	test_corrupt();
	test_truncated();
	test_inner();
	test_cut_block();
	free(ref);
	return T_END();
}
