/* SPDX-License-Identifier: MIT */
#ifndef MESS_INTERLEAVE_CMD_H
#define MESS_INTERLEAVE_CMD_H

#include <stdio.h>

int mess_interleave_main(int argc, char **argv);
void mess_interleave_usage(FILE *f);

#endif
