/* SPDX-License-Identifier: MIT */
/*
 * The little of protocol buffers' wire format pdstat --pprof needs
 * (varints, length-delimited fields, packed repeated ones), written into
 * growable buffers, and a gzip stream to a file descriptor (zlib) that
 * the finished messages go to. No protobuf library: profile.proto is
 * small and only ever written here.
 */
#ifndef PDSTAT_PB_H
#define PDSTAT_PB_H

#include <stddef.h>
#include <stdint.h>

/* A message being built. oom: an append failed (the buffer is stale). */
struct pb {
	unsigned char	*p;
	size_t		 n, cap;
	int		 oom;
};

void	pb_reset(struct pb *);		/* empty, storage kept */
void	pb_free(struct pb *);

/* Field `f` as a varint (int64, uint64, bool); 0 is left out (proto3). */
void	pb_uint(struct pb *, unsigned f, uint64_t v);
/* The same, 0 written too (a label's number). */
void	pb_int(struct pb *, unsigned f, uint64_t v);
/* Field `f` as length-delimited bytes (a string, or a message's). */
void	pb_bytes(struct pb *, unsigned f, const void *p, size_t len);
/* Bytes already in the wire format (fields serialized elsewhere). */
void	pb_raw(struct pb *, const void *p, size_t len);
/* Field `f` as a packed repeated varint; nothing when n is 0. */
void	pb_packed(struct pb *, unsigned f, const uint64_t *v, size_t n);
void	pb_packed32(struct pb *, unsigned f, const uint32_t *v, size_t n);

/* A gzip stream to a file descriptor. */
struct pb_gz;

/* NULL when out of memory. fd is not owned. */
struct pb_gz	*pb_gz_open(int fd);

/*
 * Field `f` of the outer message: tag, length and the bytes of `m`.
 * 0, or -1 with errno set (the write failed, or out of memory).
 */
int	pb_gz_field(struct pb_gz *, unsigned f, const struct pb *m);

/* The fields of the outer message that are not messages, as they are. */
int	pb_gz_raw(struct pb_gz *, const struct pb *m);

/* Ends the stream (gzip trailer written) and frees it: 0 or -1, errno. */
int	pb_gz_close(struct pb_gz *);

#endif /* PDSTAT_PB_H */
