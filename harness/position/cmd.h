/* SPDX-License-Identifier: MIT */
/* `mess position` (core/cmd.h). */
#ifndef MESS_POSITION_CMD_H
#define MESS_POSITION_CMD_H

#include <stdio.h>

int mess_position_main(int argc, char **argv);
void mess_position_usage(FILE *f);

#endif
