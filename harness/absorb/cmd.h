/* SPDX-License-Identifier: MIT */
/* `mess absorb` (core/cmd.h). */
#ifndef MESS_ABSORB_CMD_H
#define MESS_ABSORB_CMD_H

#include <stdio.h>

int mess_absorb_main(int argc, char **argv);
void mess_absorb_usage(FILE *f);
const char *mess_absorb_unavailable(void);

#endif
