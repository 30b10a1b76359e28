/* SPDX-License-Identifier: MIT */
/* `mess nodes` (core/cmd.h). */
#ifndef MESS_NODES_CMD_H
#define MESS_NODES_CMD_H

#include <stdio.h>

int mess_nodes_main(int argc, char **argv);
void mess_nodes_usage(FILE *f);

#endif
