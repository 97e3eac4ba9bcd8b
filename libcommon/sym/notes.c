/* SPDX-License-Identifier: MIT */
/*
 * The symbolizer's notes: what it could not do (a file missing, a
 * kernel from another host), kept for the tool to print, bounded.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "libcommon/stream/esc.h"
#include "libcommon/sym/symint.h"

void
pd_syms_note(struct pd_syms *sy, const char *fmt, ...)
{
	va_list ap;
	char *s, *e;
	int n;

	if (sy->nnotes == NOTE_MAX) {
		sy->notes_dropped++;
		return;
	}
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* Notes name paths from the stream: printable whatever they hold. */
	if (pd_esc_needed(s, n)) {
		e = malloc(PD_ESC_ROOM(n));
		if (e != NULL)
			pd_esc(e, s, n);
		free(s);
		if ((s = e) == NULL)
			return;
	}
	sy->notes[sy->nnotes++] = s;
}

const char *
pd_syms_next_note(struct pd_syms *sy)
{
	static char more[64];

	if (sy->note_next < sy->nnotes)
		return sy->notes[sy->note_next++];
	/* Counted to the end of the input, then said once. */
	if (sy->notes_dropped > 0 && sy->notes_more) {
		sy->notes_more = 0;
		snprintf(more, sizeof(more), "%u more notes like these",
		    sy->notes_dropped);
		sy->notes_dropped = 0;
		return more;
	}
	return NULL;
}
