/* SPDX-License-Identifier: MIT */
#include "libcommon/cli/json.h"

#include <string.h>

#include "libcommon/stream/utf8.h"

void
pd_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k;

	fputc('"', f);
	for (; n > 0; p += k, n -= k) {
		k = 1;
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f ||
		    (k = pd_utf8_seq(p, n)) == 0) {
			fprintf(f, "\\u%04x", *p);
			k = 1;
		} else
			fwrite(p, 1, k, f);
	}
	fputc('"', f);
}
