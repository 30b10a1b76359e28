/* SPDX-License-Identifier: MIT */
/* `mess ladder` (core/cmd.h). */
#ifndef MESS_LADDER_CMD_H
#define MESS_LADDER_CMD_H

#include <stdio.h>

int mess_ladder_main(int argc, char **argv);
void mess_ladder_usage(FILE *f);

#endif
