/* SPDX-License-Identifier: MIT */
/* `mess counters` (core/cmd.h). */
#ifndef MESS_COUNTERS_CMD_H
#define MESS_COUNTERS_CMD_H

#include <stdio.h>

int mess_counters_main(int argc, char **argv);
void mess_counters_usage(FILE *f);

#endif
