/* SPDX-License-Identifier: MIT */
/*
 * pdstat -p: the input passed on to standard output byte for byte, as
 * the reader takes it in (see pd_reader_tap), never record by record.
 */
#ifndef PDSTAT_TAP_H
#define PDSTAT_TAP_H

#include <stdint.h>
#include <sys/types.h>

struct pd_err;
struct pd_reader;

struct tap {
	int	in, out;
	int	tee;		/* both are pipes: tee(2), no copy */
	int	splice;		/* a file into a pipe: splice(2), no copy */
	uint64_t at;		/* with splice: the file offset read up to */
	int	werr;		/* errno of a failed write, or 0 */
};

/*
 * Opens path ("-": standard input) as pd_reader_open does, remembering
 * its descriptor for the tap; closed by tap_close.
 */
struct pd_reader	*tap_open(struct tap *t, const char *path, int flags,
			    struct pd_err *err);

/*
 * Taps the opened input into out: 1 when the input will be passed on
 * unchanged, 0 when it cannot be (file mode), -1 when writing what was
 * read already failed (errno set).
 */
int	tap_start(struct tap *t, struct pd_reader *rd, int out);

/*
 * Passes on the rest of the input after a fault, so that the output is
 * still the whole input; 0, or -1 when writing failed (errno set).
 */
int	tap_drain(struct tap *t);

void	tap_close(struct tap *t, struct pd_reader *rd);

#endif /* PDSTAT_TAP_H */
