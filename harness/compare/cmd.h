/* SPDX-License-Identifier: MIT */
/* `mess compare` (core/cmd.h). */
#ifndef MESS_COMPARE_CMD_H
#define MESS_COMPARE_CMD_H

#include <stdio.h>

int mess_compare_main(int argc, char **argv);
void mess_compare_usage(FILE *f);

#endif
