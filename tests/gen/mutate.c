// SPDX-License-Identifier: MIT
/*
 * mutate: writes N mutated copies of the given streams, for the hardening
 * tests.  Deterministic: the same seed gives the same files.
 *   mutate SEED N OUTDIR INPUT...   writes OUTDIR/m<i> for i < N
 * Each output takes input i % ninputs and applies one to three of: bit
 * flips, a truncation, a change of some record's header.size (the u16 at
 * offset 6 of a pipe-mode record), or a run of 0x00/0xff bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;

static uint32_t
rnd(uint32_t n)
{
	/* splitmix64: small, and the same on every libc. */
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return n ? (uint32_t)(z % n) : 0;
}

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p = NULL;
	size_t cap = 0, n = 0, r;

	if (f == NULL) {
		fprintf(stderr, "mutate: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			if ((p = realloc(p, cap)) == NULL)
				exit(1);
		}
		r = fread(p + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return p;
}

/* Offsets of up to 4096 record headers of a pipe-mode stream. */
static size_t
records(const unsigned char *p, size_t len, size_t *off, size_t max)
{
	size_t o = 16, n = 0;
	uint16_t sz;

	if (len < 16 || memcmp(p, "PERFILE2", 8) != 0)
		return 0;
	while (o + 8 <= len && n < max) {
		off[n++] = o;
		memcpy(&sz, p + o + 6, 2);
		if (sz < 8)
			break;
		o += sz;
	}
	return n;
}

static size_t
mutate(unsigned char *p, size_t len)
{
	static size_t off[4096];
	static const uint16_t sizes[] = { 0, 1, 7, 8, 9, 16, 0xfff8, 0xffff };
	size_t nrec, o, i, k;
	uint16_t sz;
	int m = 1 + rnd(3);

	while (m-- > 0 && len > 0) {
		switch (rnd(5)) {
		case 0:	/* bit flips */
			for (k = 1 + rnd(4); k > 0; k--)
				p[rnd(len)] ^= 1u << rnd(8);
			break;
		case 1:	/* truncation */
			len = rnd(len);
			break;
		case 2:	/* header.size of some record */
		case 3:
			nrec = records(p, len, off, 4096);
			if (nrec == 0) {
				p[rnd(len)] = rnd(256);
				break;
			}
			o = off[rnd(nrec)] + 6;
			memcpy(&sz, p + o, 2);
			switch (rnd(3)) {
			case 0:	sz = sizes[rnd(8)]; break;
			case 1:	sz += (rnd(2) ? 8 : -8) * (1 + rnd(4)); break;
			default: sz = rnd(65536); break;
			}
			memcpy(p + o, &sz, 2);
			break;
		default: /* a run of 0x00 or 0xff, e.g. counts and lengths */
			o = rnd(len);
			k = 1 + rnd(8);
			for (i = 0; i < k && o + i < len; i++)
				p[o + i] = rnd(2) ? 0xff : 0;
			break;
		}
	}
	return len;
}

int
main(int argc, char **argv)
{
	unsigned char **in, *buf;
	size_t *inlen, maxlen = 0, len;
	char path[4096];
	long n, i;
	int nin, j;
	FILE *f;

	if (argc < 5) {
		fprintf(stderr, "usage: mutate SEED N OUTDIR INPUT...\n");
		return 2;
	}
	n = atol(argv[2]);
	nin = argc - 4;
	in = calloc(nin, sizeof(*in));
	inlen = calloc(nin, sizeof(*inlen));
	if (in == NULL || inlen == NULL)
		return 1;
	for (j = 0; j < nin; j++) {
		in[j] = slurp(argv[4 + j], &inlen[j]);
		if (inlen[j] > maxlen)
			maxlen = inlen[j];
	}
	if ((buf = malloc(maxlen + 1)) == NULL)
		return 1;
	for (i = 0; i < n; i++) {
		/* One seed per file: a failing m<i> is reproducible alone. */
		rng = strtoull(argv[1], NULL, 0) * 1000003u + (uint64_t)i;
		j = i % nin;
		memcpy(buf, in[j], inlen[j]);
		len = mutate(buf, inlen[j]);
		snprintf(path, sizeof(path), "%s/m%ld", argv[3], i);
		if ((f = fopen(path, "wb")) == NULL ||
		    fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
			fprintf(stderr, "mutate: %s: %s\n", path,
			    strerror(errno));
			return 1;
		}
	}
	for (j = 0; j < nin; j++)
		free(in[j]);
	free(in);
	free(inlen);
	free(buf);
	return 0;
}
