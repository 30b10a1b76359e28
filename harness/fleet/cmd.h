/* SPDX-License-Identifier: MIT */
/* `mess fleet` (core/cmd.h). */
#ifndef MESS_FLEET_CMD_H
#define MESS_FLEET_CMD_H

#include <stdio.h>

int mess_fleet_main(int argc, char **argv);
void mess_fleet_usage(FILE *f);

#endif
