/* SPDX-License-Identifier: MIT */
/*
 * Where a tool's binary stream goes: standard output (never a terminal),
 * or -o FILE. A regular FILE (or none yet) is written to a temporary
 * file beside it and renamed over it only when the tool succeeds (OpenBSD
 * sort's shape); anything else there, a device, FIFO, socket or symlink,
 * is the user's and is opened and written in place, never replaced. Like
 * msg, this is tool support: it prints its own one-line errors.
 */
#ifndef PD_OUTPUT_H
#define PD_OUTPUT_H

#include <stdio.h>

struct pd_output {
	int		 fd;
	const char	*name;		/* for messages */
	const char	*path;		/* -o FILE, or NULL */
	char		*tmp;		/* the temporary file being written */
};

/* Opens path (NULL: stdout). 0, or -1 after printing why. */
int	pd_output_open(struct pd_output *, const char *path);

/*
 * Closes the output; with `keep`, renames the temporary file into place,
 * else removes it. 0, or -1 after printing why.
 */
int	pd_output_close(struct pd_output *, int keep);

/* Removes a temporary file after a failure (safe to call any time). */
void	pd_output_abort(struct pd_output *);

/*
 * Whether path is a file holding a perf.data recording: then it is
 * almost surely an input given where an output was meant (`pdstat
 * --flamegraph perf.data`), and a tool writing a picture or a profile
 * refuses it before it reads anything rather than replace the recording.
 */
int	pd_output_holds_recording(const char *path);

/*
 * A text output (a flame graph, a profile) written in one go through a
 * stdio stream over path, opened as pd_output_open does: put(f, arg)
 * writes it all and returns 0, or -1 (with errno set, or 0 for out of
 * memory). The file is kept only when put and the stream's close both
 * succeed; else one message, and a new file is removed. 0 or -1.
 */
int	pd_output_stdio(const char *path, int (*put)(FILE *, void *),
	    void *arg);

#endif /* PD_OUTPUT_H */
