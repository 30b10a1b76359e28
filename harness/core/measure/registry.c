// SPDX-License-Identifier: MIT
#include "core/measure/registry.h"

#include <stddef.h>
#include <string.h>

#define MESS_VARIANT_ROW(n, d) { .name = #n, .table = mess_gen_##n, .desc = d },
const struct mess_variant mess_variants[] = { MESS_VARIANTS(MESS_VARIANT_ROW) };
const unsigned mess_nvariants = sizeof(mess_variants) / sizeof(mess_variants[0]);

const char *mess_variant_unavailable(const struct mess_variant *v)
{
	if (!v->table[0].fn)
		return "not implemented for " MESS_ISA;
	return mess_port_variant_unavailable(v->table[0].width);
}

const struct mess_variant *mess_variant_find(const char *name)
{
	for (unsigned i = 0; i < mess_nvariants; i++)
		if (!strcmp(mess_variants[i].name, name))
			return &mess_variants[i];
	return NULL;
}

const struct mess_variant *mess_variant_default(void)
{
	for (unsigned i = 0; i < mess_nvariants; i++)
		if (!mess_variant_unavailable(&mess_variants[i]))
			return &mess_variants[i];
	return NULL;
}
