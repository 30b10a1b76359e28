/* SPDX-License-Identifier: MIT */
/* `mess profile` (core/cmd.h). */
#ifndef MESS_PROFILE_CMD_H
#define MESS_PROFILE_CMD_H

#include <stdio.h>

int mess_profile_main(int argc, char **argv);
void mess_profile_usage(FILE *f);
const char *mess_profile_unavailable(void);

#endif
