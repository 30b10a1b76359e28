/* SPDX-License-Identifier: MIT */
/* `mess curves`, the default command (core/cmd.h). */
#ifndef MESS_CURVES_CMD_H
#define MESS_CURVES_CMD_H

#include <stdio.h>

int mess_curves_main(int argc, char **argv);
void mess_curves_usage(FILE *f);
const char *mess_curves_unavailable(void);

#endif
