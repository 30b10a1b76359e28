/* SPDX-License-Identifier: MIT */
/* `mess import` (core/cmd.h). */
#ifndef MESS_IMPORT_CMD_H
#define MESS_IMPORT_CMD_H

#include <stdio.h>

int mess_import_main(int argc, char **argv);
void mess_import_usage(FILE *f);

#endif
