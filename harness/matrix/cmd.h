/* SPDX-License-Identifier: MIT */
/* `mess matrix` (core/cmd.h). */
#ifndef MESS_MATRIX_CMD_H
#define MESS_MATRIX_CMD_H

#include <stdio.h>

int mess_matrix_main(int argc, char **argv);
void mess_matrix_usage(FILE *f);

#endif
