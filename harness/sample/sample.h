/* SPDX-License-Identifier: MIT */
/* The parts of `mess sample`, one per subcommand (cmd.c's table). */
#ifndef MESS_SAMPLE_H
#define MESS_SAMPLE_H

#include <stdio.h>

/* `mess sample decode FILE`: argv[0] is "decode". */
int mess_sample_decode_main(int argc, char **argv);
void mess_sample_decode_usage(FILE *f);

/* `mess sample [OPTION]...`: the sweep. */
/* usage: the whole command's help, which --help prints (the command
 * table is cmd.c's, above the sweep). */
int mess_sample_sweep_main(int argc, char **argv, void (*usage)(FILE *f));
void mess_sample_sweep_usage(FILE *f);

#endif
