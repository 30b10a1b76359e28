/* SPDX-License-Identifier: MIT */
/* `mess c2c` (core/cmd.h). */
#ifndef MESS_C2C_CMD_H
#define MESS_C2C_CMD_H

#include <stdio.h>

int mess_c2c_main(int argc, char **argv);
void mess_c2c_usage(FILE *f);

#endif
