/* SPDX-License-Identifier: MIT */
/* `mess export` (core/cmd.h). */
#ifndef MESS_EXPORT_CMD_H
#define MESS_EXPORT_CMD_H

#include <stdio.h>

int mess_export_main(int argc, char **argv);
void mess_export_usage(FILE *f);

#endif
