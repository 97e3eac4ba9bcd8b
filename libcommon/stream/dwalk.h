/* SPDX-License-Identifier: MIT */
/*
 * The decoders' common ground (decode.h is their face): values handed to
 * a visitor, the bounded walker that reads them, perf_event_attr field by
 * field, and the names of bits.
 */
#ifndef PD_DWALK_H
#define PD_DWALK_H

#include <stddef.h>
#include <stdint.h>

/* How a value wants to be shown. */
enum pd_dfmt {
	PD_D_U,		/* unsigned number */
	PD_D_S,		/* signed number (u holds the two's complement) */
	PD_D_X,		/* a number best read in hex (flags, masks) */
	PD_D_ADDR,	/* an address: "0x..." */
	PD_D_STR,	/* text p[0..len) (not NUL-terminated) */
	PD_D_BYTES,	/* bytes p[0..len), shown in hex */
	PD_D_DOUBLE,	/* d */
	PD_D_NAMES,	/* flag names p[0..len) ("IP|TID"), number in u */
	PD_D_ADDRS,	/* len addresses: u64s at p, unaligned */
	PD_D_NONE,	/* not in this record (a field its event does not
			   sample); u: the format it has when present */
	PD_D_NULL,	/* no value: its bytes are not in the record */
	PD_D_LINE	/* text p[0..len) that reads as a line of its own
			   (a tracepoint's print_fmt output) */
};

struct pd_dval {
	const char	*name;
	size_t		 namelen;	/* strlen(name), or 0: not counted */
	enum pd_dfmt	 fmt;
	uint64_t	 u;
	double		 d;
	const void	*p;
	size_t		 len;
};

/* What open() starts (its `list` argument). */
#define PD_DV_OBJECT	0	/* named values */
#define PD_DV_LIST	1	/* unnamed values, or objects */
#define PD_DV_ROWS	2	/* unnamed objects only: rows of a table */

struct pd_tptext;

/*
 * The visitor: val() for each value; open()/close() around a list or an
 * object (name NULL inside a list). ctx is passed back. With tptext
 * set, a tracepoint sample also gets its fields as perf script prints
 * them ("text", PD_D_LINE), made by that renderer.
 */
struct pd_dvisit {
	void	(*val)(void *ctx, const struct pd_dval *v);
	void	(*open)(void *ctx, const char *name, int list);
	void	(*close)(void *ctx, int list);
	void	*ctx;
	struct pd_tptext *tptext;
};

/*
 * The bounded walker behind every decoder here (records, attrs, feature
 * bodies): each read checks p[off, end) and sets `bad` instead of
 * running past it; values go to the visitor.
 */
struct pd_dwalk {
	const unsigned char	*p;
	size_t			 off, end;
	const struct pd_dvisit	*v;
	int			 bad;
	const char		*why;	/* when bad; NULL: ran past the end */
};

/*
 * The bytes left to walk: 0 once a skip (off +=) has passed the end, so
 * that no caller's end - off can wrap.
 */
static inline size_t
pd_dwalk_left(const struct pd_dwalk *w)
{
	return w->off < w->end ? w->end - w->off : 0;
}

void	pd_dwalk_emit(struct pd_dwalk *, const char *name, enum pd_dfmt,
	    uint64_t u, const void *p, size_t len);
/* 1 if n more bytes fit, else 0 (and the walk is bad). */
int	pd_dwalk_room(struct pd_dwalk *, size_t n);
/* A 1/2/4/8-byte number, visited when name is set; 0 past the end. */
uint64_t	pd_dwalk_num(struct pd_dwalk *, const char *name, unsigned size,
		    enum pd_dfmt);
/* The common numbers of a walk, by width and how they print. */
static inline uint64_t pd_dwalk_u16(struct pd_dwalk *w, const char *n)
{ return pd_dwalk_num(w, n, 2, PD_D_U); }
static inline uint64_t pd_dwalk_u32(struct pd_dwalk *w, const char *n)
{ return pd_dwalk_num(w, n, 4, PD_D_U); }
static inline uint64_t pd_dwalk_s32(struct pd_dwalk *w, const char *n)
{ return pd_dwalk_num(w, n, 4, PD_D_S); }
static inline uint64_t pd_dwalk_u64(struct pd_dwalk *w, const char *n)
{ return pd_dwalk_num(w, n, 8, PD_D_U); }
static inline uint64_t pd_dwalk_x64(struct pd_dwalk *w, const char *n)
{ return pd_dwalk_num(w, n, 8, PD_D_X); }
static inline uint64_t pd_dwalk_a64(struct pd_dwalk *w, const char *n)
{ return pd_dwalk_num(w, n, 8, PD_D_ADDR); }
void	pd_dwalk_open(struct pd_dwalk *, const char *name, int list);
void	pd_dwalk_close(struct pd_dwalk *, int list);

/*
 * A perf_event_attr of `len` bytes (native order): every field up to its
 * size, sample_type / read_format / flags / branch_sample_type by name.
 */
int	pd_decode_attr(const void *attr, size_t len, const struct pd_dvisit *v,
	    const char **why);

/*
 * Names of the bits set in `mask` from table[0..n) ("IP|TID|TIME"),
 * unknown bits as "0x..." ; writes at most len-1 bytes. Returns buf.
 */
char	*pd_decode_bits(char *buf, size_t len, uint64_t mask,
	    const char *const *table, size_t n);

/* Bit-name tables, indexed by bit number. */
extern const char *const pd_sample_type_names[];
extern const size_t pd_sample_type_nnames;
extern const char *const pd_read_format_names[];
extern const size_t pd_read_format_nnames;
extern const char *const pd_attr_flag_names[];
extern const size_t pd_attr_flag_nnames;
extern const char *const pd_branch_type_names[];
extern const size_t pd_branch_type_nnames;

#endif /* PD_DWALK_H */
