/* SPDX-License-Identifier: MIT */
/*
 * Folded stacks ("comm;outermost;...;innermost count"), the format
 * flamegraph.pl, inferno and speedscope read, made the way
 * `perf script | stackcollapse-perf.pl --all` makes them: the same frame
 * names, tidied by the same rules, kernel frames suffixed _[k].
 */
#ifndef PD_FOLD_H
#define PD_FOLD_H

#include <stddef.h>
#include <sys/types.h>

/*
 * The process name as a stack's first frame: spaces become '_' (a space
 * ends the stack in the folded format). Writes at most len - 1 bytes and
 * a NUL to buf; returns the length written.
 */
size_t	pd_fold_comm(const char *comm, char *buf, size_t len);

/*
 * The folded names of one frame, as stackcollapse-perf.pl --all names
 * the perf script line "addr name+off (dso)": an unknown name (NULL) is
 * "[dso's file name]" or "[unknown]"; ';' becomes ':'; an argument list
 * "(...)" is cut (not a Go method's "pkg.(*T).f", not "(anonymous
 * namespace)"); quotes go; a Java frame (comm "java") loses the 'L' of
 * "Lpkg/Class;"; kernel dsos ("[...]", "...vmlinux") add "_[k]", JIT maps
 * "_[j]". A name holding "a->b" (perf's inline chains) is two frames,
 * the second suffixed "_[i]". A name starting with '(' is no frame.
 *
 * Writes the frames, outermost first, each NUL-terminated, one after the
 * other, into buf (at most len bytes; names are cut to fit) and returns
 * how many there are (0: the frame is left out), or -1 when buf cannot
 * hold even one byte per frame.
 */
ssize_t	pd_fold_frame(const char *name, const char *dso, int java,
	    char *buf, size_t len);

#endif /* PD_FOLD_H */
