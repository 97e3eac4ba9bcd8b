/* SPDX-License-Identifier: MIT */
/*
 * JSON output for the tools' --json forms.
 */
#ifndef PD_JSON_H
#define PD_JSON_H

#include <stdio.h>

/*
 * A string from the stream as a JSON string: well-formed UTF-8 as it
 * is, every other byte (control, DEL, a byte that starts no well-formed
 * sequence) as \u00XX, that byte's value as a code point, as pddump
 * does, so that the output is always valid JSON.
 */
void	pd_json_str(FILE *, const char *s);

#endif /* PD_JSON_H */
