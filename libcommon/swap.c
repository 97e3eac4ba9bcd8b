/* SPDX-License-Identifier: MIT */
#include "libcommon/swap.h"

#include <byteswap.h>

#include "libcommon/perf.h"

int
pd_swap_supported(void)
{
	return 0;
}

void
pd_swap_header(unsigned char *p)
{
	pd_put_u32(p, bswap_32(pd_get_u32(p)));
	pd_put_u16(p + 4, bswap_16(pd_get_u16(p + 4)));
	pd_put_u16(p + 6, bswap_16(pd_get_u16(p + 6)));
}

int
pd_swap_rec(const struct pd_evlist *el, unsigned char *p, const char **why)
{
	*why = "byte order conversion is not supported yet";
	return -1;
}

int
pd_swap_attr(unsigned char *p, size_t len)
{
	return -1;
}

int
pd_swap_feature(unsigned feat, unsigned char *p, size_t len)
{
	return -1;
}
