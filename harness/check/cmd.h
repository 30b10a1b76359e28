/* SPDX-License-Identifier: MIT */
/* `mess check` (core/cmd.h). */
#ifndef MESS_CHECK_CMD_H
#define MESS_CHECK_CMD_H

#include <stdio.h>

int mess_check_main(int argc, char **argv);
void mess_check_usage(FILE *f);

#endif
