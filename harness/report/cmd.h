/* SPDX-License-Identifier: MIT */
/* `mess report` (core/cmd.h). */
#ifndef MESS_REPORT_CMD_H
#define MESS_REPORT_CMD_H

#include <stdio.h>

int mess_report_main(int argc, char **argv);
void mess_report_usage(FILE *f);

#endif
