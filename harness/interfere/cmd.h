/* SPDX-License-Identifier: MIT */
/* `mess interfere` (core/cmd.h). */
#ifndef MESS_INTERFERE_CMD_H
#define MESS_INTERFERE_CMD_H

#include <stdio.h>

int mess_interfere_main(int argc, char **argv);
void mess_interfere_usage(FILE *f);

#endif
