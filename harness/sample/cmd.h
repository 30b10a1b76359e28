/* SPDX-License-Identifier: MIT */
/* `mess sample` (core/cmd.h). */
#ifndef MESS_SAMPLE_CMD_H
#define MESS_SAMPLE_CMD_H

#include <stdio.h>

int mess_sample_main(int argc, char **argv);
void mess_sample_usage(FILE *f);

#endif
