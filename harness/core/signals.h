/* SPDX-License-Identifier: MIT */
/*
 * Ctrl-C and SIGTERM: measuring loops poll mess_interrupted and return
 * -EINTR, so that every command keeps a valid partial result.
 */
#ifndef MESS_SIGNALS_H
#define MESS_SIGNALS_H

#include <signal.h>

extern volatile sig_atomic_t mess_interrupted;

/* SIGINT and SIGTERM set mess_interrupted instead of killing us. */
void mess_signals_install(void);

#endif
